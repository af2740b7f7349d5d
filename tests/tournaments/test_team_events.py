"""Team events (docs/events.md "Team events"): registration and its consent, Swiss
pairing of teams, best-of-three team matches, results by judges and captains, team
standings, placings and the top cut, member swaps."""

import datetime
import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from players.models import Rating as PlayerRating
from tests.conftest import random_dice_set
from tournaments import selectors, services
from tournaments.models import Match, Registration, Round, SetSwap, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def team_event(organiser, judge):
    event = services.create_tournament(
        organiser=organiser,
        name="Team Open",
        date=datetime.date(2026, 12, 5),
        top_cut_size=4,
        head_judge=judge,
        team_size=2,
    )
    return services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)


@pytest.fixture
def member(make_player):
    rng = random.Random(7)

    def make(name):
        player = make_player(name)
        dice_set = random_dice_set(player, rng)
        return player, dice_set

    return make


@pytest.fixture
def make_teams(member, organiser):
    def make(event, count, *, size=2, by=None):
        teams = []
        for i in range(count):
            members = [member(f"T{i + 1} M{j + 1}") for j in range(size)]
            teams.append(
                services.register_team(
                    tournament=event,
                    name=f"Team {i + 1}",
                    captain=members[0][0],
                    members=members,
                    by=by or organiser,
                )
            )
        return teams

    return make


def _nothing_changed(event, before):
    assert (Registration.objects.filter(tournament=event).count(), event.teams.count()) == before


# --- the setting -----------------------------------------------------------------------


def test_team_size_is_irondie_only(organiser):
    with pytest.raises(ValidationError) as error:
        services.create_tournament(
            organiser=organiser, name="x", date=datetime.date(2026, 1, 1), game="36d6", team_size=2
        )
    assert "IRONDIE" in str(error.value.message_dict["team_size"])


def test_team_size_fixed_once_anyone_registered(team_event, make_teams, organiser):
    services.update_tournament(tournament=team_event, by=organiser, team_size=3)
    services.update_tournament(tournament=team_event, by=organiser, team_size=2)
    make_teams(team_event, 1)
    with pytest.raises(ValidationError) as error:
        services.update_tournament(tournament=team_event, by=organiser, team_size=3)
    assert "team_size" in error.value.message_dict
    team_event.refresh_from_db()
    assert team_event.team_size == 2


def test_individual_and_team_registration_do_not_mix(team_event, tournament, member, organiser):
    player, dice_set = member("Solo")
    with pytest.raises(ValidationError, match="team event"):
        services.register(tournament=team_event, player=player, dice_set=dice_set, by=organiser)
    other, other_set = member("Mate")
    with pytest.raises(ValidationError, match="not a team event"):
        services.register_team(
            tournament=tournament,
            name="A",
            captain=player,
            members=[(player, dice_set), (other, other_set)],
            by=organiser,
        )
    assert not Registration.objects.exists()


# --- registering a team ----------------------------------------------------------------


def test_organiser_registers_a_team(team_event, member, organiser):
    (alice, a_set), (bob, b_set) = member("Alice"), member("Bob")
    team = services.register_team(
        tournament=team_event,
        name=" The Rollers ",
        captain=bob,
        members=[(alice, a_set), (bob, b_set)],
        by=organiser,
    )
    assert team.name == "The Rollers"
    members = {r.player_id: r for r in team.members.all()}
    assert set(members) == {alice.pk, bob.pk}
    assert team.unit == members[bob.pk]
    assert members[bob.pk].pairing_unit and not members[alice.pk].pairing_unit
    assert all(r.team_accepted for r in members.values())
    assert members[alice.pk].playing_dice == a_set.playing_dice
    assert members[bob.pk].additional_dice == b_set.additional_dice
    a_set.refresh_from_db()
    assert a_set.frozen_at is not None
    assert team_event.audit.filter(action="team.created").exists()


@pytest.mark.parametrize(
    "case, field, words",
    [
        ("too_few", "members", "has 2 players; this one has 1"),
        ("too_many", "members", "has 2 players; this one has 3"),
        ("twice", "members", "named twice"),
        ("captain_outside", "captain", "captain must be one"),
        ("other_set", "members", "is not"),
        ("no_set", "members", "needs a dice set"),
        ("empty_name", "name", "Give the team a name"),
    ],
)
def test_bad_team_is_refused_and_changes_nothing(team_event, member, organiser, case, field, words):
    (a, a_set), (b, b_set), (c, c_set) = member("A"), member("B"), member("C")
    name, captain, members = "Team", a, [(a, a_set), (b, b_set)]
    if case == "too_few":
        members = [(a, a_set)]
    elif case == "too_many":
        members = [(a, a_set), (b, b_set), (c, c_set)]
    elif case == "twice":
        members = [(a, a_set), (a, a_set)]
    elif case == "captain_outside":
        captain = c
    elif case == "other_set":
        members = [(a, a_set), (b, c_set)]
    elif case == "no_set":
        members = [(a, a_set), (b, None)]
    elif case == "empty_name":
        name = "  "
    with pytest.raises(ValidationError) as error:
        services.register_team(
            tournament=team_event, name=name, captain=captain, members=members, by=organiser
        )
    assert words in " ".join(error.value.message_dict[field])
    _nothing_changed(team_event, (0, 0))


def test_duplicate_name_and_player_in_two_teams(team_event, member, make_teams, organiser):
    make_teams(team_event, 1)
    taken = Registration.objects.get(player__display_name="T1 M2").player
    c, c_set = member("C")
    with pytest.raises(ValidationError) as error:
        services.register_team(
            tournament=team_event,
            name="TEAM 1",
            captain=c,
            members=[(c, c_set), (taken, taken.dice_sets.get())],
            by=organiser,
        )
    messages = error.value.message_dict
    assert "already registered in this event" in messages["name"][0]
    assert "T1 M2 is already in team “Team 1” of this event." in messages["members"]
    _nothing_changed(team_event, (2, 1))


def test_invalid_set_is_refused_by_the_set_rules(team_event, member, organiser):
    (a, a_set), (b, b_set) = member("A"), member("B")
    # A set made invalid behind the service's back (one die short): the set rules catch it.
    type(b_set).objects.filter(pk=b_set.pk).update(playing_dice=b_set.playing_dice[:8])
    b_set.refresh_from_db()
    with pytest.raises(ValidationError) as error:
        services.register_team(
            tournament=team_event,
            name="X",
            captain=a,
            members=[(a, a_set), (b, b_set)],
            by=organiser,
        )
    assert "The set of B is not valid" in error.value.message_dict["members"][0]
    _nothing_changed(team_event, (0, 0))
    a_set.refresh_from_db()
    assert a_set.frozen_at is None  # all or nothing


# --- consent ---------------------------------------------------------------------------


def test_captain_registers_teammates_accept(team_event, member, make_user):
    (cap, cap_set), (mate, mate_set) = member("Cap"), member("Mate")
    stranger = make_user("stranger")
    with pytest.raises(PermissionDenied):
        services.register_team(
            tournament=team_event,
            name="X",
            captain=cap,
            members=[(cap, cap_set), (mate, mate_set)],
            by=stranger,
        )
    with pytest.raises(PermissionDenied):  # a member who is not the captain
        services.register_team(
            tournament=team_event,
            name="X",
            captain=cap,
            members=[(cap, cap_set), (mate, mate_set)],
            by=mate.user,
        )
    team = services.register_team(
        tournament=team_event,
        name="X",
        captain=cap,
        members=[(cap, cap_set), (mate, mate_set)],
        by=cap.user,
    )
    pending = team.members.get(player=mate)
    assert not pending.team_accepted and team.unit.team_accepted
    with pytest.raises(PermissionDenied):
        services.accept_team(registration=pending, by=cap.user)
    services.accept_team(registration=pending, by=mate.user)
    pending.refresh_from_db()
    assert pending.team_accepted
    with pytest.raises(ValidationError, match="already accepted"):
        services.accept_team(registration=pending, by=mate.user)


def test_unaccepted_team_is_not_paired_unless_approved(team_event, member, make_teams, organiser):
    make_teams(team_event, 2)
    (cap, cap_set), (mate, mate_set) = member("Cap"), member("Mate")
    waiting = services.register_team(
        tournament=team_event,
        name="Waiting",
        captain=cap,
        members=[(cap, cap_set), (mate, mate_set)],
        by=cap.user,
    )
    (cap2, set2), (mate2, mate_set2) = member("Cap2"), member("Mate2")
    approved = services.register_team(
        tournament=team_event,
        name="Approved",
        captain=cap2,
        members=[(cap2, set2), (mate2, mate_set2)],
        by=cap2.user,
    )
    with pytest.raises(PermissionDenied):
        services.approve_team(team=approved, by=cap2.user)
    services.approve_team(team=approved, by=organiser)
    round_ = services.pair_next_round(tournament=team_event, by=organiser, seed="s")
    paired = {m.player_a_id for m in round_.matches.all()} | {
        m.player_b_id for m in round_.matches.all()
    }
    assert approved.unit_id in paired
    assert waiting.unit_id not in paired
    waiting.unit.refresh_from_db()
    assert waiting.unit.dropped and waiting.unit.dropped_after_round == 0


def test_declining_withdraws_the_team(team_event, member, organiser):
    (cap, cap_set), (mate, mate_set) = member("Cap"), member("Mate")
    team = services.register_team(
        tournament=team_event,
        name="X",
        captain=cap,
        members=[(cap, cap_set), (mate, mate_set)],
        by=cap.user,
    )
    services.withdraw_team(team=team, by=mate.user, reason="declined")
    _nothing_changed(team_event, (0, 0))
    assert team_event.audit.filter(action="team.withdrawn").exists()


# --- pairing, results, standings ---------------------------------------------------------


def _play_round(event, organiser, judge, rng):
    round_ = services.pair_next_round(tournament=event, by=organiser, seed=f"r{rng.random()}")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    for match in round_.matches.filter(player_b__isnull=False):
        services.report_result(
            match=match, by=judge, games=rng.choice([["a", "a"], ["b", "a", "b"], ["a", "b", "a"]])
        )
    return services.close_round(round_=round_, by=organiser)


def test_swiss_of_teams_pairs_units_only(team_event, make_teams, organiser, judge):
    teams = make_teams(team_event, 5)
    units = {t.unit_id for t in teams}
    rng = random.Random(3)
    met: set[frozenset] = set()
    byes = []
    for _number in range(3):
        round_ = _play_round(team_event, organiser, judge, rng)
        for match in round_.matches.all():
            assert match.player_a_id in units
            if match.is_bye:
                byes.append(match.player_a_id)
                assert match.games_a == 2 and match.status == Match.Status.CONFIRMED
            else:
                assert match.player_b_id in units
                pair = frozenset((match.player_a_id, match.player_b_id))
                assert pair not in met  # the pairer's no-rematch guarantee, over teams
                met.add(pair)
    assert len(byes) == len(set(byes)) == 3  # one bye a round, never twice to a team
    table = selectors.standings(team_event)
    assert {row.player_id for row in table.rows} == units
    assert {row.name for row in table.rows} == {t.name for t in teams}
    # Match points over teams: 3 a win (a bye is a win), the total is 3 per match.
    assert sum(row.match_points for row in table.rows) == 3 * 3 * 3


def test_best_of_three_team_match_first_to_two(team_event, make_teams, organiser, judge):
    make_teams(team_event, 2)
    round_ = services.pair_next_round(tournament=team_event, by=organiser, seed="x")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    match = round_.matches.get()
    with pytest.raises(ValidationError):
        services.report_result(match=match, by=judge, games=["a", "a", "b"])  # over at 2-0
    with pytest.raises(ValidationError):
        services.report_result(match=match, by=judge, games=["a", "b", "a", "b"])
    services.report_result(match=match, by=judge, games=["b", "a", "a"])
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.winner_id) == (2, 1, match.player_a_id)


def test_captains_report_and_confirm(team_event, make_teams, organiser, judge):
    teams = make_teams(team_event, 2)
    round_ = services.pair_next_round(tournament=team_event, by=organiser, seed="x")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    match = round_.matches.select_related("player_a__player", "player_b__player").get()
    by_unit = {t.unit_id: t for t in teams}
    team_a, team_b = by_unit[match.player_a_id], by_unit[match.player_b_id]
    mate_a = team_a.members.exclude(pk=team_a.unit_id).get().player
    with pytest.raises(PermissionDenied):  # a member, not the captain
        services.report_result(match=match, by=mate_a.user, games=["a", "a"])
    submission = services.report_result(
        match=match, by=team_a.unit.player.user, games=["a", "b", "b"]
    )
    assert submission.status == "pending"
    mate_b = team_b.members.exclude(pk=team_b.unit_id).get().player
    with pytest.raises(PermissionDenied):
        services.confirm_result(submission=submission, by=mate_b.user)
    services.confirm_result(submission=submission, by=team_b.unit.player.user)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == team_b.unit_id
    # A team match rates every member of both teams (docs/ratings.md "Teams").
    members = Registration.objects.filter(team__in=[team_a, team_b]).values_list("player_id")
    assert set(match.rating_changes.values_list("player_id")) == set(members)
    assert PlayerRating.objects.filter(game="irondie").count() == 4


def test_each_member_swaps_their_own_set(team_event, make_teams, organiser, judge):
    teams = make_teams(team_event, 2)
    round_ = services.pair_next_round(tournament=team_event, by=organiser, seed="x")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    match = round_.matches.get()
    mate = teams[0].members.exclude(pk=teams[0].unit_id).get()
    other = teams[1].members.exclude(pk=teams[1].unit_id).get()
    swap = services.record_swap(
        registration=mate, match=match, swap_out=[0], swap_in=[0], by=mate.player.user
    )
    assert swap.registration_id == mate.pk and swap.before_game == 1
    with pytest.raises(PermissionDenied):
        services.record_swap(
            registration=mate, match=match, swap_out=[1], swap_in=[1], by=other.player.user
        )
    assert SetSwap.objects.count() == 1


def test_top_cut_and_placings_of_teams(team_event, make_teams, organiser, judge):
    teams = make_teams(team_event, 6)
    rng = random.Random(5)
    services.update_tournament(tournament=team_event, by=organiser, swiss_rounds=3)
    for _ in range(3):
        _play_round(team_event, organiser, judge, rng)
    top = services.start_top_cut(tournament=team_event, by=organiser)
    assert top.stage == Round.Stage.TOP_CUT and top.matches.count() == 2
    team_event.refresh_from_db()
    bracket = str(selectors.bracket_view(team_event, show_winners=True))
    assert "'name': 'Team " in bracket and " M1" not in bracket  # teams, not captains
    units = {t.unit_id for t in teams}
    while team_event.status != Tournament.Status.FINISHED:
        round_ = team_event.rounds.order_by("-number").first()
        if round_.status == Round.Status.DRAFT:
            services.publish_round(round_=round_, by=organiser)
            services.start_round(round_=round_, by=judge)
        for match in round_.matches.all():
            assert {match.player_a_id, match.player_b_id} <= units
            services.report_result(match=match, by=judge, games=["a", "a"])
        services.close_round(round_=round_, by=organiser)
        team_event.refresh_from_db()
    placings = selectors.placings(team_event)
    assert [p.player_id for p in placings if p.place == 1] == [
        Match.objects.get(round__tournament=team_event, round__number=5).winner_id
    ]
    # Every member keeps the team's place.
    for team in Team.objects.filter(tournament=team_event):
        places = set(team.members.values_list("final_place", flat=True))
        assert len(places) == 1 and None not in places


def test_mtr_tiebreakers_are_computed_over_teams(team_event, make_teams, organiser, judge):
    """MW% and OMW% of each team, recomputed by hand from the teams' matches (3 points a
    win, 1 a draw; MW% floored at 1/3; OMW% the mean of the opponents' floored MW%)."""
    from fractions import Fraction

    make_teams(team_event, 6)
    rng = random.Random(11)
    for _ in range(3):
        round_ = services.pair_next_round(
            tournament=team_event, by=organiser, seed=str(rng.random())
        )
        services.publish_round(round_=round_, by=organiser)
        services.start_round(round_=round_, by=judge)
        for match in round_.matches.filter(player_b__isnull=False):
            games = rng.choice([["a", "a"], ["b", "b"], ["a", "draw", "b", "draw", "draw"]])
            services.report_result(match=match, by=judge, games=games)
        services.close_round(round_=round_, by=organiser)
    points: dict[int, int] = {}
    played: dict[int, int] = {}
    opponents: dict[int, list[int]] = {}
    for match in Match.objects.filter(round__tournament=team_event, player_b__isnull=False):
        for me, other in (
            (match.player_a_id, match.player_b_id),
            (match.player_b_id, match.player_a_id),
        ):
            played[me] = played.get(me, 0) + 1
            opponents.setdefault(me, []).append(other)
            if match.winner_id == me:
                points[me] = points.get(me, 0) + 3
            elif match.winner_id is None:
                points[me] = points.get(me, 0) + 1
    byes = Match.objects.filter(round__tournament=team_event, player_b__isnull=True)
    assert not byes.exists()  # six teams: no bye

    def match_win(unit):
        return max(Fraction(points.get(unit, 0), 3 * played[unit]), Fraction(1, 3))

    table = selectors.standings(team_event)
    for row in table.rows:
        assert row.match_points == points.get(row.player_id, 0)
        assert row.match_win == match_win(row.player_id)
        expected = sum(match_win(o) for o in opponents[row.player_id]) / len(
            opponents[row.player_id]
        )
        assert row.opponents_match_win == expected


def test_late_team_entry_and_a_dropped_team(team_event, make_teams, member, organiser, judge):
    teams = make_teams(team_event, 4)
    round_ = _play_round(team_event, organiser, judge, random.Random(1))
    (a, a_set), (b, b_set) = member("Late A"), member("Late B")
    with pytest.raises(ValidationError, match="Registration is closed"):
        services.register_team(
            tournament=team_event,
            name="Late",
            captain=a,
            members=[(a, a_set), (b, b_set)],
            by=a.user,
        )
    late = services.register_team(
        tournament=team_event,
        name="Late",
        captain=a,
        members=[(a, a_set), (b, b_set)],
        by=organiser,
    )
    assert late.unit.late_entry_round == round_.number + 1
    services.drop(registration=teams[0].unit, by=teams[0].unit.player.user)
    second = services.pair_next_round(tournament=team_event, by=organiser, seed="late")
    paired = {m.player_a_id for m in second.matches.all()} | {
        m.player_b_id for m in second.matches.all() if m.player_b_id
    }
    assert late.unit_id in paired and teams[0].unit_id not in paired
    assert len(paired) == 4  # three teams left and the late one
    # The late team's missed round counts as a loss (the event's late-entry rule).
    row = selectors.standings(team_event).row(late.unit_id)
    assert row.match_points == 0 and row.rounds_played == 1


def test_a_member_does_not_check_in_or_drop_alone(team_event, make_teams, organiser):
    team = make_teams(team_event, 1)[0]
    mate = team.members.exclude(pk=team.unit_id).select_related("player").get()
    for call in (services.check_in, services.drop):
        with pytest.raises(ValidationError, match="checks in and drops through its captain"):
            call(registration=mate, by=organiser)
    mate.refresh_from_db()
    assert not mate.checked_in and not mate.dropped
    services.check_in(registration=team.unit, by=team.unit.player.user)
    team.unit.refresh_from_db()
    assert team.unit.checked_in


def test_an_event_with_teams_can_be_deleted_before_it_is_paired(team_event, make_teams):
    make_teams(team_event, 2)
    team_event.delete()
    assert not Team.objects.exists() and not Registration.objects.exists()
