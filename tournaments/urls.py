from django.urls import path

from tournaments import clock_views, team_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("<int:pk>/", views.tournament_home, name="home"),
    path("<int:pk>/edit/", views.tournament_edit, name="edit"),
    path("<int:pk>/console/", views.console, name="console"),
    path("<int:pk>/do/<slug:action>/", views.tournament_action, name="action"),
    path(
        "<int:pk>/co-organisers/<slug:action>/",
        views.co_organiser_action,
        name="co_organiser_action",
    ),
    path("<int:pk>/register/", views.register, name="register"),
    path("<int:pk>/walk-in/", views.walk_in, name="walk_in"),
    path(
        "<int:pk>/registrations/<int:registration_id>/<slug:action>/",
        views.registration_action,
        name="registration_action",
    ),
    path("<int:pk>/pairing/<int:job_id>/", views.pairing_job, name="pairing_job"),
    path("<int:pk>/rounds/<int:number>/", views.pairings, name="pairings"),
    path("<int:pk>/rounds/<int:number>/manage/", views.round_manage, name="round_manage"),
    path("<int:pk>/rounds/<int:number>/placings/", views.round_placings, name="round_placings"),
    path("<int:pk>/rounds/<int:number>/do/<slug:action>/", views.round_action, name="round_action"),
    path(
        "<int:pk>/rounds/<int:number>/pod-reports/<int:report_id>/accept/",
        views.pod_report_accept,
        name="pod_report_accept",
    ),
    path("<int:pk>/rounds/<int:number>/print/", views.print_pairings, name="print_pairings"),
    path("<int:pk>/rounds/<int:number>/slips/", views.match_slips, name="slips"),
    path("<int:pk>/rounds/<int:number>/pairings.csv", views.pairings_csv, name="pairings_csv"),
    path("<int:pk>/rounds/<int:number>/clock/", clock_views.big_screen, name="clock"),
    path("<int:pk>/rounds/<int:number>/clocks/", clock_views.judges_clocks, name="clocks"),
    path(
        "<int:pk>/rounds/<int:number>/clock/<slug:action>/",
        clock_views.round_clock_action,
        name="clock_action",
    ),
    path(
        "<int:pk>/rounds/<int:number>/tables/<int:table>/clock/",
        clock_views.pod_table_clock_action,
        name="pod_table_clock",
    ),
    path(
        "<int:pk>/matches/<int:match_id>/clock/",
        clock_views.match_clock_action,
        name="match_clock",
    ),
    path("<int:pk>/standings/", views.standings, name="standings"),
    path("<int:pk>/standings/<int:registration>/", views.standings_row, name="standings_row"),
    path("<int:pk>/standings.csv", views.standings_csv, name="standings_csv"),
    path("<int:pk>/placings.csv", views.placings_csv, name="placings_csv"),
    path("<int:pk>/sets/", views.dice_sets, name="sets"),
    path("<int:pk>/bracket/", views.bracket, name="bracket"),
    path("<int:pk>/results/", views.results_queue, name="results"),
    path("<int:pk>/matches/<int:match_id>/", views.match_detail, name="match"),
    path("<int:pk>/penalties/", views.penalties, name="penalties"),
    path("<int:pk>/audit/", views.audit_log, name="audit"),
    path("<int:pk>/my-match/", views.my_match, name="my_match"),
    path("<int:pk>/my-table/", views.my_table, name="my_table"),
    path("<int:pk>/teams/", team_views.team_list, name="teams"),
    path("<int:pk>/teams/<int:team_id>/", team_views.team_detail, name="team"),
    path(
        "<int:pk>/teams/<int:team_id>/do/<slug:action>/",
        team_views.team_action,
        name="team_action",
    ),
]
