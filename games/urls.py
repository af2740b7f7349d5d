from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.games_home, name="home"),
    path("practice/", views.practice, name="practice"),
    path("<int:pk>/", views.play, name="play"),
    path("<int:pk>/board/", views.board, name="board"),
]
