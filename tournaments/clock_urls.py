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
    path("pod-tables/<int:pk>/clock/", clock_api.pod_table_clock, name="api-pod-table-clock"),
    path(
        "pod-tables/<int:pk>/clock/extend/",
        clock_api.pod_table_clock_extend,
        name="api-pod-table-clock-extend",
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

# The first addresses of the clock pages, by the round's id: on to the new ones
# (tournaments/urls.py, /tournaments/{t}/rounds/{n}/clock/). Unnamed: nothing links here.
urlpatterns = [
    path("rounds/<int:round_id>/clock/", clock_views.old_round_address, {"page": "clock"}),
    path("rounds/<int:round_id>/clocks/", clock_views.old_round_address, {"page": "clocks"}),
    path("matches/<int:match_id>/clock/", clock_views.old_match_address),
    path(
        "rounds/<int:round_id>/clock/<slug:action>/",
        clock_views.old_round_address,
        {"page": "clock_action"},
    ),
]
