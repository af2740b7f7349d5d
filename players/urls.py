from django.urls import path

from players import views

app_name = "players"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("me/", views.profile, name="profile"),
    path("me/dice-sets/", views.dice_sets, name="dice_sets"),
    path("me/dice-sets/new/", views.dice_set_edit, name="dice_set_new"),
    path("dice-sets/<int:pk>/edit/", views.dice_set_edit, name="dice_set_edit"),
    path("dice-sets/<int:pk>/delete/", views.dice_set_delete, name="dice_set_delete"),
    path("dice-sets/<int:pk>/copy/", views.dice_set_copy, name="dice_set_copy"),
    path("dice/preview.svg", views.die_preview, name="die_preview"),
    path("players/", views.player_list, name="player_list"),
]
