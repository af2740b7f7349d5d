"""Live pages (tournaments/live.py): a poll with X-Live answers 304 while nothing changed,
in one query; any change the pages show moves the tag; the tag is the
viewer's own and names nothing; without X-Live the pages answer as before."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import clocks, live, services
from tournaments.models import AuditEntry, Match

pytestmark = pytest.mark.django_db

LIVE = {"HTTP_X_LIVE": "1"}


def _pages(round_, *, judge=False, player=False):
    t, n = round_.tournament_id, round_.number
    pages = [
        f"/tournaments/{t}/rounds/{n}/",
        f"/tournaments/{t}/rounds/{n}/clock/",
        f"/tournaments/{t}/standings/",
        f"/tournaments/{t}/bracket/",
    ]
    if judge:
        pages += [f"/tournaments/{t}/rounds/{n}/clocks/", f"/tournaments/{t}/results/"]
    if player:
        pages.append(f"/tournaments/{t}/my-match/")
    return pages


def _poll(client, url, tag=None):
    headers = dict(LIVE)
    if tag:
        headers["HTTP_IF_NONE_MATCH"] = tag
    return client.get(url, **headers)


def test_every_live_page_answers_304_until_something_changes(client, make_running_round, judge):
    round_ = make_running_round(4)
    client.force_login(judge)
    tags = {}
    for url in _pages(round_, judge=True):
        first = _poll(client, url)
        assert first.status_code == 200 and first["ETag"], url
        assert first["Cache-Control"] == "no-cache, private"
        tags[url] = first["ETag"]
        again = _poll(client, url, first["ETag"])
        assert again.status_code == 304 and again["ETag"] == first["ETag"] and not again.content
    clocks.pause_round(round_=round_, by=judge, reason="fire drill")
    for url, tag in tags.items():
        answer = _poll(client, url, tag)
        assert answer.status_code == 200 and answer["ETag"] != tag, url


def test_my_match_moves_with_the_opponents_report_and_the_judges_decision(
    client, make_running_round, judge
):
    round_ = make_running_round(4)
    match = round_.matches.order_by("table").first()
    me, opponent = match.player_a.player.user, match.player_b.player.user
    client.force_login(me)
    url = f"/tournaments/{round_.tournament_id}/my-match/"
    # The first answer names the page's scope (its match); from then on, 304s.
    tag = _poll(client, url, _poll(client, url)["ETag"])["ETag"]
    assert _poll(client, url, tag).status_code == 304
    services.report_result(match=match, by=opponent, games=["b", "b"])
    answer = _poll(client, url, tag)
    assert answer.status_code == 200 and 'id="pending-report"' in answer.content.decode()
    tag = answer["ETag"]
    assert tag.startswith(f'"m{match.pk}.')
    # Another match's report does not touch this page; the round clock does.
    other = round_.matches.filter(player_b__isnull=False).exclude(pk=match.pk).get()
    services.report_result(match=other, by=other.player_a.player.user, games=["a", "a"])
    assert _poll(client, url, tag).status_code == 304
    clocks.pause_round(round_=round_, by=judge, reason="")
    answer = _poll(client, url, tag)
    assert answer.status_code == 200 and "paused" in answer.content.decode()
    tag = answer["ETag"]
    match.refresh_from_db()
    services.report_result(match=match, by=judge, games=["a", "a"], expected_version=match.version)
    answer = _poll(client, url, tag)
    assert answer.status_code == 200 and 'id="pending-report"' not in answer.content.decode()
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED


def test_publishing_pairings_moves_the_tag_of_a_waiting_player(
    client, tournament, register_players, organiser
):
    registrations = register_players(tournament, 4)
    client.force_login(registrations[0].player.user)
    url = f"/tournaments/{tournament.pk}/my-match/"
    first = _poll(client, url)
    assert "You have no match yet" in first.content.decode()
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="c")
    # A draft moves the marker (something changed) but the page shows nothing new.
    draft = _poll(client, url, first["ETag"])
    assert draft.status_code == 200 and "You have no match yet" in draft.content.decode()
    assert _poll(client, url, draft["ETag"]).status_code == 304
    services.publish_round(round_=round_, by=organiser)
    published = _poll(client, url, draft["ETag"])
    assert published.status_code == 200 and 'id="opponent"' in published.content.decode()
    # The page now follows its match: the first tag of the new scope matches no poll,
    # the next one does.
    again = _poll(client, url, published["ETag"])
    assert again.status_code == 200 and again["ETag"].startswith('"m')
    assert _poll(client, url, again["ETag"]).status_code == 304


@pytest.mark.parametrize("players", [4, 16])
def test_a_304_takes_one_query(client, make_running_round, judge, players):
    round_ = make_running_round(players)
    for _ in range(3):  # more history: the marker is still one query
        clocks.pause_round(round_=round_, by=judge, reason="x")
        clocks.resume_round(round_=round_, by=judge)
    client.force_login(judge)
    for url in _pages(round_, judge=True):
        tag = _poll(client, url)["ETag"]
        with CaptureQueriesContext(connection) as queries:
            assert _poll(client, url, tag).status_code == 304
        # The marker alone: neither the session nor the user is read.
        assert len(queries) == 1, (url, [q["sql"] for q in queries])
        assert "tournaments_auditentry" in queries[0]["sql"]


def test_the_tag_is_the_viewers_own_and_names_nothing(client, make_running_round, judge):
    round_ = make_running_round(4)
    url = _pages(round_)[0]
    public_tag = _poll(client, url)["ETag"]
    marker = live.change_marker(round_.tournament_id, live.ALL)
    assert marker == AuditEntry.objects.filter(tournament=round_.tournament).count()
    # A keyed digest, not the marker: the scope, a dot, 24 hex digits and nothing else.
    assert re.fullmatch(r'"a\.[0-9a-f]{24}"', public_tag), public_tag
    assert public_tag != f'"a.{marker}"'
    # A tag that names a scope it was not made for is a full answer, never a 304.
    assert _poll(client, url, public_tag.replace('"a.', '"e.')).status_code == 200
    client.force_login(judge)
    judge_answer = _poll(client, url, public_tag)
    assert judge_answer.status_code == 200 and judge_answer["ETag"] != public_tag
    # Another page of the same event has its own tag.
    assert _poll(client, _pages(round_)[1], judge_answer["ETag"]).status_code == 200


def test_a_live_poll_of_a_hidden_page_is_refused_like_the_page(
    client, tournament, register_players, organiser
):
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="c")
    url = f"/tournaments/{tournament.pk}/rounds/{round_.number}/"
    assert client.get(url).status_code == 403
    answer = _poll(client, url, '"anything"')
    assert answer.status_code == 403 and not answer.has_header("ETag")
    client.force_login(organiser)
    assert _poll(client, url).status_code == 200


def test_pages_without_the_live_header_answer_as_before(client, make_running_round):
    round_ = make_running_round(4)
    for url in _pages(round_):
        response = client.get(url, HTTP_IF_NONE_MATCH="*")
        assert response.status_code == 200 and not response.has_header("ETag")
        assert "data-live" in response.content.decode()


def test_anonymous_viewers_share_one_render_per_change(
    client, make_running_round, judge, django_assert_max_num_queries
):
    round_ = make_running_round(4)
    url = _pages(round_)[0]
    first = _poll(client, url)
    with django_assert_max_num_queries(1):  # the marker; the page comes from the cache
        second = _poll(client, url)
    assert second.status_code == 200 and second.content == first.content
    assert second["ETag"] == first["ETag"]
    clocks.pause_round(round_=round_, by=judge, reason="")
    third = _poll(client, url, first["ETag"])
    assert third.status_code == 200 and third["ETag"] != first["ETag"]
    assert "Round clock paused" in third.content.decode()


def test_a_paused_round_reads_minutes_and_seconds_and_a_closed_one_says_so(
    client, make_running_round, judge, organiser
):
    round_ = make_running_round(4)
    clocks.pause_round(round_=round_, by=judge, reason="")
    page = client.get(_pages(round_)[1]).content.decode()
    assert "Paused" in page and ":" in page.split('id="round-clock">')[1].split("<")[0]
    assert "s</div>" not in page
    clocks.resume_round(round_=round_, by=judge)
    for match in round_.matches.filter(player_b__isnull=False):
        services.report_result(match=match, by=judge, games=["a", "a"])
    round_.refresh_from_db()
    services.close_round(round_=round_, by=organiser)
    assert "Round over" in client.get(_pages(round_)[1]).content.decode()
