from django.urls import path

from tournaments import clock_api, clock_views

app_name = "clocks"

api_urlpatterns = [
    path("rounds/<int:pk>/clock/", clock_api.round_clock, name="api-round-clock"),
    path("rounds/<int:pk>/clock/pause/", clock_api.round_clock_pause, name="api-round-clock-pause"),
    path(
        "rounds/<int:pk>/clock/resume/", clock_api.round_clock_resume, name="api-round-clock-resume"
    ),
    path("matches/<int:pk>/clock/", clock_api.match_clock, name="api-match-clock"),
    path(
        "matches/<int:pk>/clock/extend/",
        clock_api.match_clock_extend,
        name="api-match-clock-extend",
    ),
    path(
        "matches/<int:pk>/clock/pause/", clock_api.match_clock_pause, name="api-match-clock-pause"
    ),
    path(
        "matches/<int:pk>/clock/resume/",
        clock_api.match_clock_resume,
        name="api-match-clock-resume",
    ),
]

urlpatterns = [
    path("rounds/<int:pk>/clock/", clock_views.big_screen, name="big_screen"),
    path("rounds/<int:pk>/clocks/", clock_views.judges_clocks, name="judges"),
    path("matches/<int:pk>/clock/", clock_views.match_clock_action, name="match_action"),
    path(
        "rounds/<int:pk>/clock/<str:action>/", clock_views.round_clock_action, name="round_action"
    ),
]
