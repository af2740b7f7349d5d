"""Event day of an event in pods: "my match" as the player's table (report, confirm,
dispute), the judges' queue and clocks over the tables (at time first), the table slips,
and each page in a constant number of queries."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config.confirm import CONFIRM_FIELD, CONFIRM_VALUE
from players import services as player_services
from tests.tournaments.pod_helpers import make_event, published
from tournaments import services
from tournaments.models import AuditEntry, Penalty, PodReport, PodSeat, Round

pytestmark = pytest.mark.django_db


def url(name, event, *args):
    return reverse(f"tournaments:{name}", args=[event.pk, *args])


@pytest.fixture
def pod_round(organiser, judge, make_player):
    """A running round of 7 players: a table of 4 and a table of 3."""

    def make(count=7, name="Pods"):
        event = make_event(organiser, judge, swiss_rounds=3)
        event.name = name
        event.save(update_fields=["name"])
        for i in range(1, count + 1):
            player = make_player(f"{name} {i:02d}")
            services.register(tournament=event, player=player, by=player.user)
        return event, published(event, organiser, judge)

    return make


def _seats(table):
    return list(table.seats.select_related("registration__player__user").order_by("seat"))


def _reported_table_of_four(pod_round):
    """A round's table of 4 whose first player reported placings in seat order: the event,
    the table's users by seat and the report."""
    event, round_ = pod_round()
    table = round_.pod_tables.get(size=4)
    seats = _seats(table)
    users = [s.registration.player.user for s in seats]
    report = services.report_placings(
        table=table, by=users[0], placings={s.registration_id: s.seat for s in seats}
    )
    return event, users, report


def _count(client, address) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(address).status_code == 200, address
    return len(queries)


def test_my_match_shows_the_table_seat_and_tablemates(client, pod_round):
    event, round_ = pod_round()
    table = round_.pod_tables.get(size=4)
    seats = _seats(table)
    client.force_login(seats[1].registration.player.user)
    page = client.get(url("my_match", event)).content.decode()
    assert f"Table {table.number}" in page and "seat 2" in page
    for seat in seats:
        assert seat.registration.player.display_name in page
    assert 'id="pod-report-form"' in page and "Round time left" in page
    # Another table's players are not this player's tablemates.
    other = round_.pod_tables.exclude(pk=table.pk).get()
    assert _seats(other)[0].registration.player.display_name not in page


def test_report_then_confirm_through_the_page_places_the_table(client, pod_round):
    event, round_ = pod_round()
    table = round_.pod_tables.get(size=3)
    seats = _seats(table)
    address = url("my_match", event)
    client.force_login(seats[0].registration.player.user)
    data = {"action": "report", "note": ""}
    data |= {f"place_{s.registration_id}": str(s.seat) for s in seats}
    answer = client.post(address, data, follow=True)
    assert "your tablemates confirm them" in answer.content.decode()
    report = PodReport.objects.get(table=table)
    assert "Your report is waiting" in client.get(address).content.decode()
    for seat in seats[1:]:
        client.force_login(seat.registration.player.user)
        page = client.get(address).content.decode()
        assert 'id="confirm-form"' in page and 'id="pod-report-form"' not in page
        client.post(address, {"action": "confirm", "report": report.pk})
    assert [s.placing for s in table.seats.order_by("seat")] == [1, 2, 3]
    page = client.get(address).content.decode()
    assert "Placed" in page and 'id="pod-report-form"' not in page


def test_a_bad_report_is_a_form_error_and_changes_nothing(client, pod_round):
    event, round_ = pod_round()
    table = round_.pod_tables.get(size=4)
    seats = _seats(table)
    client.force_login(seats[0].registration.player.user)
    before = AuditEntry.objects.count()
    data = {"action": "report", "note": ""}
    data |= {f"place_{s.registration_id}": "2" for s in seats}
    page = client.post(url("my_match", event), data).content.decode()
    assert "Place 2 does not follow" in page
    assert 'role="alert"' in page
    data[f"place_{seats[0].registration_id}"] = "9"
    page = client.post(url("my_match", event), data).content.decode()
    assert "Select a valid choice" in page
    answer = client.post(url("my_match", event), {"action": "confirm", "report": "x"}, follow=True)
    assert "not understood" in answer.content.decode()
    assert not PodReport.objects.exists() and AuditEntry.objects.count() == before


def test_a_dispute_on_the_page_reaches_the_judges_queue_first(client, pod_round, judge):
    event, users, report = _reported_table_of_four(pod_round)
    table = report.table
    client.force_login(users[3])
    client.post(url("my_match", event), {"action": "dispute", "report": report.pk, "note": "no"})
    report.refresh_from_db()
    assert report.status == PodReport.Status.DISPUTED
    client.force_login(judge)
    page = client.get(url("results", event)).content.decode()
    assert page.index('data-state="disputed"') < page.index('data-state="waiting"')
    assert "disputed by" in page and "“no”" in page
    client.post(url("pod_report_accept", event, table.round.number, report.pk))
    assert [s.placing for s in table.seats.order_by("seat")] == [1, 2, 3, 4]
    page = client.get(url("results", event)).content.decode()
    assert f'data-table="{table.number}" data-state="placed"' in page
    log = client.get(url("audit", event)).content.decode()
    where = f"table {table.number} in round 1"
    for said in ("Reported the placings of", "Disputed the placings of", "Entered the placings of"):
        assert f"{said} {where}" in log


def test_at_time_tables_without_placings_come_first_on_the_queue_and_clocks(
    client, pod_round, judge, organiser
):
    event, round_ = pod_round()
    full, short = round_.pod_tables.get(size=4), round_.pod_tables.get(size=3)
    services.record_placings(
        table=full, placings={s.registration_id: s.seat for s in _seats(full)}, by=judge
    )
    client.force_login(judge)
    clocks = client.get(url("clocks", event, 1)).content.decode()
    assert "TIME" not in clocks and 'data-state="waiting"' in clocks
    Round.objects.filter(pk=round_.pk).update(
        ends_at=round_.ends_at - datetime.timedelta(minutes=round_.tournament.match_minutes + 1)
    )
    clocks = client.get(url("clocks", event, 1)).content.decode()
    assert f'data-table="{short.number}" data-state="at_time"' in clocks and "TIME" in clocks
    assert f'data-table="{full.number}" data-state="placed"' in clocks
    queue = client.get(url("results", event)).content.decode()
    assert queue.index('data-state="at_time"') < queue.index('data-state="placed"')
    # The organiser still cannot close the round: a table has no placings.
    client.force_login(organiser)
    answer = client.post(
        url("round_action", event, 1, "close"), {CONFIRM_FIELD: CONFIRM_VALUE}, follow=True
    )
    assert "still has tables without placings" in answer.content.decode()
    assert Round.objects.get(pk=round_.pk).status != Round.Status.CLOSED


def test_slips_print_a_slip_a_table_without_byes(client, pod_round, judge):
    event, round_ = pod_round(count=9)
    client.force_login(judge)
    page = client.get(url("slips", event, 1)).content.decode()
    assert page.count('class="slip"') == 3  # 9 players: three tables of 3
    for seat in PodSeat.objects.filter(round=round_).select_related("registration__player"):
        assert seat.registration.player.display_name in page
    assert "Places 1 to 3" in page


def test_slips_are_for_judges(client, pod_round):
    event, round_ = pod_round()
    client.force_login(_seats(round_.pod_tables.first())[0].registration.player.user)
    assert client.get(url("slips", event, 1)).status_code == 403


def test_only_judges_accept_a_report(client, pod_round):
    event, round_ = pod_round()
    table = round_.pod_tables.get(size=3)
    seats = _seats(table)
    report = services.report_placings(
        table=table,
        by=seats[0].registration.player.user,
        placings={s.registration_id: s.seat for s in seats},
    )
    client.force_login(seats[1].registration.player.user)
    assert client.post(url("pod_report_accept", event, 1, report.pk)).status_code == 403
    assert PodSeat.objects.filter(table=table, placing__isnull=False).count() == 0


def test_pages_run_the_same_number_of_queries_for_7_and_22_players(
    client, pod_round, judge, organiser
):
    counts = {}
    for size in (7, 22):
        event, round_ = pod_round(count=size, name=f"Pods{size}")
        tables = list(round_.pod_tables.order_by("number"))
        for table in tables[:2]:
            seats = _seats(table)
            report = services.report_placings(
                table=table,
                by=seats[0].registration.player.user,
                placings={s.registration_id: s.seat for s in seats},
            )
        services.dispute_placings(
            report=report, by=seats[1].registration.player.user, note="I came first"
        )
        player = _seats(tables[0])[1].registration.player.user
        for role, user, name, args in (
            ("player", player, "my_match", ()),
            ("judge", judge, "results", ()),
            ("judge", judge, "clocks", (1,)),
            ("judge", judge, "slips", (1,)),
        ):
            client.force_login(user)
            counts.setdefault((role, name), []).append(_count(client, url(name, event, *args)))
    for key, (small, big) in counts.items():
        assert small == big, f"{key}: {small} queries for 7 players, {big} for 22"
        assert big <= 14, f"{key}: {big} queries"


def test_my_table_follows_a_tablemates_report_live(client, pod_round):
    event, round_ = pod_round()
    table = round_.pod_tables.get(size=3)
    seats = _seats(table)
    client.force_login(seats[1].registration.player.user)
    address = url("my_match", event)
    # The first answer names the page's scope; the poll after it gets the tag that holds.
    first = client.get(address, headers={"X-Live": "1"})
    tag = client.get(address, headers={"X-Live": "1", "If-None-Match": first["ETag"]})["ETag"]
    assert client.get(address, headers={"X-Live": "1", "If-None-Match": tag}).status_code == 304
    services.report_placings(
        table=table,
        by=seats[0].registration.player.user,
        placings={s.registration_id: s.seat for s in seats},
    )
    again = client.get(address, headers={"X-Live": "1", "If-None-Match": tag})
    assert again.status_code == 200 and 'id="confirm-form"' in again.content.decode()


def test_publish_and_start_questions_speak_of_tables_not_matches(
    client, organiser, judge, make_player
):
    event = make_event(organiser, judge, game="dice-forge", swiss_rounds=3, pods_online=True)
    for i in range(1, 8):
        player = make_player(f"Asked {i:02d}")
        services.register(tournament=event, player=player, by=player.user)
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="s1")
    client.force_login(organiser)
    question = client.post(url("round_action", event, round_.number, "publish")).content.decode()
    assert "Publish the pairings of round 1?" in question
    assert "bye" not in question and "2-0" not in question
    services.publish_round(round_=round_, by=organiser)
    question = client.post(url("round_action", event, round_.number, "start")).content.decode()
    assert "45 minutes for every table" in question
    assert "Open an online game for every table of two or more." in question
    assert "match" not in question
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED


def test_publish_question_gives_the_bye_of_a_best_of_one_event(client, organiser, make_player):
    event = services.create_tournament(
        organiser=organiser, name="Bo1", date=datetime.date(2026, 12, 5), game="36d6"
    )
    services.change_status(tournament=event, to="registration", by=organiser)
    for i in range(1, 4):
        player = make_player(f"Bo1 {i:02d}")
        services.register(tournament=event, player=player, by=player.user)
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="s1")
    client.force_login(organiser)
    question = client.post(url("round_action", event, round_.number, "publish")).content.decode()
    assert "Record the bye, if there is one, as a 1-0 win." in question


def test_the_round_page_links_the_tables_paper_and_clocks(client, pod_round, organiser):
    event, round_ = pod_round()
    client.force_login(organiser)
    page = client.get(url("round_manage", event, round_.number)).content.decode()
    for name in ("print_pairings", "slips", "clocks", "clock", "pairings_csv"):
        address = url(name, event, round_.number)
        assert f'href="{address}"' in page, name
        assert client.get(address).status_code == 200, name
    assert "Table slips" in page


@pytest.mark.parametrize("note", ["", " \t "])
def test_a_dispute_on_the_page_without_saying_what_is_wrong_shows_a_form_error(
    client, pod_round, note
):
    event, users, report = _reported_table_of_four(pod_round)
    before = AuditEntry.objects.count()
    client.force_login(users[3])
    page = client.post(
        url("my_match", event), {"action": "dispute", "report": report.pk, "note": note}
    )
    assert page.status_code == 200
    body = page.content.decode()
    assert 'id="dispute-form"' in body and "Say what is wrong" in body
    assert 'aria-invalid="true"' in body
    report.refresh_from_db()
    assert report.status == PodReport.Status.PENDING and report.disputed_by_id is None
    assert AuditEntry.objects.count() == before


def test_a_pod_player_reaches_their_table_from_the_nav_as_my_table(client, pod_round):
    event, round_ = pod_round()
    table = round_.pod_tables.get(size=4)
    seats = _seats(table)
    client.force_login(seats[2].registration.player.user)
    mine = url("my_table", event)
    assert mine == f"/tournaments/{event.pk}/my-table/"
    link = f'<a href="{mine}">My table</a>'
    for address in (
        url("home", event),
        url("standings", event),
        url("pairings", event, round_.number),
    ):
        page = client.get(address).content.decode()
        nav = page.split('class="tnav', 1)[1].split("</nav>", 1)[0]
        assert link in nav, address
        # A pod event has tables, not matches: no "My match" anywhere on its pages.
        assert "My match" not in page and "/my-match/" not in page, address
    home = client.get(url("home", event)).content.decode()
    assert home.count(f'href="{mine}"') >= 3  # the nav, the player's links, the card
    pairings = client.get(url("pairings", event, round_.number)).content.decode()
    card = pairings.split('id="my-table"', 1)[1].split("</p>", 1)[0]
    assert f'href="{mine}"' in card
    page = client.get(mine).content.decode()
    assert "<h1>My table</h1>" in page and "<title>My table" in page
    assert f"Table {table.number}" in page and "seat 3" in page
    # The page's forms come back to it.
    answer = client.post(mine, {"action": "confirm", "report": "x"})
    assert answer.status_code == 302 and answer["Location"] == mine
    # The page follows the table live as "My match" did, and the old address still works.
    assert client.get(mine, headers={"X-Live": "1"}).has_header("ETag")
    assert client.get(url("my_match", event)).status_code == 200


def test_a_paired_event_keeps_my_match_and_my_table_leads_to_it(
    client, tournament, register_players, organiser, judge
):
    registrations = register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="nav")
    services.publish_round(round_=round_, by=organiser)
    client.force_login(registrations[0].player.user)
    page = client.get(url("home", tournament)).content.decode()
    nav = page.split('class="tnav', 1)[1].split("</nav>", 1)[0]
    assert f'<a href="{url("my_match", tournament)}">My match</a>' in nav
    assert "My table" not in page
    answer = client.get(url("my_table", tournament))
    assert answer.status_code == 302 and answer["Location"] == url("my_match", tournament)


def _nav(page: str) -> str:
    return page.split('class="tnav', 1)[1].split("</nav>", 1)[0]


def test_my_table_is_in_the_menu_only_of_a_registered_player(
    client, pod_round, organiser, judge, make_player
):
    event, round_ = pod_round()
    mine = url("my_table", event)
    public = (url("home", event), url("standings", event), url("pairings", event, 1))
    staff = (
        url("console", event),
        url("results", event),
        url("round_manage", event, 1),
        url("clocks", event, 1),
        url("audit", event),
    )
    # The organiser and the judge run the event without playing: no "My table" (nor
    # "My match") on any page of it, the public ones or their own.
    for user in (organiser, judge):
        client.force_login(user)
        for address in public + staff:
            page = client.get(address).content.decode()
            assert 'class="tnav' in page, address
            nav = _nav(page)
            assert mine not in nav and "My table" not in nav, (user, address)
            assert "My match" not in nav, (user, address)
    # Neither does a signed-in visitor, nor anyone signed out.
    client.force_login(make_player("Visitor").user)
    for address in public:
        assert mine not in _nav(client.get(address).content.decode()), address
    client.logout()
    for address in public:
        assert mine not in _nav(client.get(address).content.decode()), address
    # A registered player has it on every page of the event, including after dropping
    # (their past tables are still theirs to read).
    seat = round_.pod_tables.get(size=3).seats.select_related("registration__player").first()
    client.force_login(seat.registration.player.user)
    for address in public:
        assert f'<a href="{mine}">My table</a>' in _nav(client.get(address).content.decode())


def test_an_organiser_who_plays_in_the_event_has_my_table_in_the_menu(
    client, organiser, judge, make_player
):
    event = make_event(organiser, judge, swiss_rounds=3)
    me = player_services.create_player(display_name="Olga Organiser", user=organiser)
    services.register(tournament=event, player=me, by=organiser)
    for i in range(1, 4):
        player = make_player(f"Pods {i:02d}")
        services.register(tournament=event, player=player, by=player.user)
    published(event, organiser, judge)
    client.force_login(organiser)
    mine = url("my_table", event)
    for address in (url("home", event), url("console", event), url("clocks", event, 1)):
        assert f'<a href="{mine}">My table</a>' in _nav(client.get(address).content.decode())
    page = client.get(mine).content.decode()
    assert "Olga Organiser</strong> (you)" in page


def test_my_table_refuses_whoever_does_not_play_in_words(
    client, pod_round, organiser, judge, make_player
):
    event, _round = pod_round()
    for user in (organiser, judge, make_player("Visitor").user):
        client.force_login(user)
        for name in ("my_table", "my_match"):
            answer = client.get(url(name, event), follow=True)
            assert answer.status_code == 200
            assert answer.redirect_chain[-1][0] == url("home", event), (user, name)
            page = answer.content.decode()
            assert "You are not registered in this tournament." in page, (user, name)
            # Nothing of anyone's table is shown in its place.
            assert 'id="tablemates"' not in page and 'id="pod-report-form"' not in page
    client.logout()
    answer = client.get(url("my_table", event))
    assert answer.status_code == 302 and reverse("login") in answer["Location"]


def test_my_match_is_in_the_menu_of_a_paired_event_only_for_its_players(
    client, tournament, register_players, organiser, judge
):
    registrations = register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="nav")
    services.publish_round(round_=round_, by=organiser)
    mine = url("my_match", tournament)
    for user in (organiser, judge):
        client.force_login(user)
        for address in (url("home", tournament), url("pairings", tournament, 1)):
            assert mine not in _nav(client.get(address).content.decode()), (user, address)
    client.force_login(registrations[0].player.user)
    assert f'<a href="{mine}">My match</a>' in _nav(
        client.get(url("home", tournament)).content.decode()
    )


def test_the_event_pages_of_pods_speak_of_tables_and_round_time(client, pod_round, organiser):
    event, round_ = pod_round()
    tables = list(round_.pod_tables.order_by("number"))
    assert len(tables) == 2
    client.force_login(organiser)
    home = client.get(url("home", event)).content.decode()
    # The event's time is the round's (a pod table's game ends with the round).
    assert f"{event.match_minutes} minutes a round" in home and "a game" not in home
    rounds = home.split("<h2>Rounds</h2>", 1)[1]
    assert "<th>Tables</th>" in rounds and "<th>Matches</th>" not in rounds
    assert (
        '<td data-label="Round">1</td><td>Swiss</td><td>In progress</td>'
        '<td data-label="Tables">2</td>'
    ) in rounds
    links = home.split('id="links-judge"', 1)[1].split("</p>", 1)[0]
    assert "Table slips" in links and "Match slips" not in links
    slips = client.get(url("slips", event, 1)).content.decode()
    assert "<title>Table slips" in slips and "Match slips" not in slips
    console = client.get(url("console", event)).content.decode()
    head = console.split("<h2>Rounds</h2>", 1)[1]
    assert "<th>Open tables</th>" in head and "Open matches" not in head
    assert "<td>2 / 2</td>" in head
    services.record_placings(
        table=tables[0],
        placings={s.registration_id: s.seat for s in tables[0].seats.all()},
        by=organiser,
    )
    console = client.get(url("console", event)).content.decode()
    assert "<td>1 / 2</td>" in console.split("<h2>Rounds</h2>", 1)[1]


def test_an_event_of_pairs_keeps_its_match_words(client, tournament, register_players, organiser):
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="w")
    services.publish_round(round_=round_, by=organiser)
    client.force_login(organiser)
    home = client.get(url("home", tournament)).content.decode()
    assert f"{tournament.match_minutes} minutes a match" in home
    assert "<th>Matches</th>" in home and "Match slips" in home
    console = client.get(url("console", tournament)).content.decode()
    assert "<th>Open matches</th>" in console and "<td>2 / 2</td>" in console
    assert "<th>Set</th>" in console
    rule = console.split('id="late-entry-rule">', 1)[1].split("</p>", 1)[0]
    assert rule == "Late entry: Missed rounds count as match losses."


def test_the_console_of_pods_tells_the_late_entry_rule_pods_apply_and_no_sets(
    client, pod_round, organiser
):
    event, _round = pod_round()
    # An event put in pods before the rule was kept stores the rule of pairs (missed rounds
    # as losses); pod standings count a missed round as not played, and the console says
    # what applies.
    type(event).objects.filter(pk=event.pk).update(late_entry=event.LateEntry.LOSSES)
    client.force_login(organiser)
    console = client.get(url("console", event)).content.decode()
    rule = console.split('id="late-entry-rule">', 1)[1].split("</p>", 1)[0]
    assert rule == "Late entry: Missed rounds count as nothing (not played)."
    players = console.split('id="registrations"', 1)[1].split("</table>", 1)[0]
    assert "<th>Set</th>" not in players and "<td>—</td>" not in players
    # The walk-in page, where a late entry is made, says the same.
    walk_in = client.get(url("walk_in", event)).content.decode()
    rule = walk_in.split('id="late-entry-rule">', 1)[1].split("</p>", 1)[0]
    assert rule == "Late entry: Missed rounds count as nothing (not played)."
    assert "match losses" not in walk_in + console


def test_the_penalty_form_of_pods_offers_no_match_and_no_match_penalty(client, pod_round, judge):
    """An event in pods has tables, no matches: the form offers neither a match to name nor
    a game or match loss (which would be refused only after the judge confirmed); one
    posted all the same is refused on the form, and a disqualification only drops."""
    event, round_ = pod_round()
    seat = round_.pod_tables.get(size=4).seats.select_related("registration__player").first()
    registration = seat.registration
    client.force_login(judge)
    page = client.get(url("penalties", event)).content.decode()
    form = page.split('id="penalty-form"', 1)[1].split("</form>", 1)[0]
    assert 'name="match"' not in form
    assert 'value="warning"' in form and 'value="disqualification"' in form
    assert 'value="game_loss"' not in form and 'value="match_loss"' not in form
    assert "<th>Match</th>" not in page
    for kind in ("game_loss", "match_loss"):
        data = {"registration": registration.pk, "kind": kind, "reason": "slow play"}
        refused = client.post(url("penalties", event), {**data, "confirmed": "yes"})
        assert refused.status_code == 200
        body = refused.content.decode()
        assert f"Select a valid choice. {kind} is not one of the available choices." in body
        assert (
            'id="confirm-step"' not in client.post(url("penalties", event), data).content.decode()
        )
    assert not Penalty.objects.exists()
    data = {"registration": registration.pk, "kind": "disqualification", "reason": "cheating"}
    asked = client.post(url("penalties", event), data).content.decode()
    assert "they are dropped from the event and can never be reinstated" in asked
    assert "lose the match" not in asked
    client.post(url("penalties", event), {**data, "confirmed": "yes"})
    registration.refresh_from_db()
    assert registration.disqualified and registration.dropped
    assert Penalty.objects.get().match is None


def test_a_standings_row_address_of_pods_leads_to_the_pod_standings(client, pod_round, judge):
    """Pairs' standings rows have a page of match and game arithmetic; pod standings have
    none, and its address (shared or typed) leads to the pod table, never to a record of
    matches the player never had."""
    event, round_ = pod_round()
    services.record_placings(
        table=round_.pod_tables.get(size=4),
        placings={s.registration_id: s.seat for s in round_.pod_tables.get(size=4).seats.all()},
        by=judge,
    )
    player_id = round_.pod_tables.get(size=4).seats.get(seat=1).registration.player_id
    row = client.get(url("standings_row", event, player_id))
    assert row.status_code == 302 and row["Location"] == url("standings", event)
    row = client.get(url("standings_row", event, player_id) + "?round=1")
    assert row.status_code == 302 and row["Location"] == url("standings", event) + "?round=1"
    assert client.get(url("standings_row", event, player_id) + "?round=x").status_code == 400
    standings = client.get(row["Location"]).content.decode()
    assert "OMW" not in standings and "0-0-0" not in standings
