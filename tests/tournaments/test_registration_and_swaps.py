"""Registration, check-in, late entry, drops, hand-edited pairings and additional-set swaps."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from players import services as player_services
from tournaments import selectors, services, visibility
from tournaments.models import AuditEntry, Match, SetSwap, Tournament

pytestmark = pytest.mark.django_db


def test_registration_freezes_a_snapshot_of_the_set(
    tournament, make_player, valid_playing, valid_additional
):
    player = make_player("Alice")
    dice_set = player_services.create_dice_set(
        player=player, name="Main", playing_dice=valid_playing, additional_dice=valid_additional
    )
    registration = services.register(
        tournament=tournament, player=player, dice_set=dice_set, by=player.user
    )
    dice_set.refresh_from_db()
    assert dice_set.is_frozen
    assert (
        registration.playing_dice == valid_playing
        and registration.additional_dice == valid_additional
    )
    with pytest.raises(ValidationError, match="already registered"):
        services.register(tournament=tournament, player=player, dice_set=dice_set, by=player.user)


def test_players_register_only_themselves(tournament, make_player, valid_playing):
    alice, bob = make_player("Alice"), make_player("Bob")
    dice_set = player_services.create_dice_set(
        player=alice, name="Main", playing_dice=valid_playing
    )
    with pytest.raises(PermissionDenied):
        services.register(tournament=tournament, player=alice, dice_set=dice_set, by=bob.user)
    assert not tournament.registrations.exists()


def test_check_in_drops_no_shows_when_swiss_starts(tournament, register_players, organiser):
    registrations = register_players(tournament, 6)
    services.change_status(tournament=tournament, to=Tournament.Status.CHECK_IN, by=organiser)
    for registration in registrations[:5]:
        services.check_in(registration=registration, by=registration.player.user)
    round_ = services.pair_next_round(tournament=tournament, by=organiser)
    paired = {m.player_a_id for m in round_.matches.all()} | {
        m.player_b_id for m in round_.matches.all()
    }
    assert registrations[5].pk not in paired
    registrations[5].refresh_from_db()
    assert registrations[5].dropped
    assert AuditEntry.objects.filter(
        action="registration.dropped", reason="did not check in"
    ).exists()


@pytest.mark.parametrize(
    "policy,points", [(Tournament.LateEntry.LOSSES, 0), (Tournament.LateEntry.NOTHING, 0)]
)
def test_late_entry_is_paired_from_the_next_round(
    tournament, register_players, make_player, organiser, judge, valid_playing, policy, points
):
    tournament.late_entry = policy
    tournament.save()
    register_players(tournament, 4)
    round_one = services.pair_next_round(tournament=tournament, by=organiser)
    services.publish_round(round_=round_one, by=organiser)
    late = make_player("Latecomer")
    dice_set = player_services.create_dice_set(player=late, name="Main", playing_dice=valid_playing)
    with pytest.raises(ValidationError, match="late entry"):
        services.register(tournament=tournament, player=late, dice_set=dice_set, by=late.user)
    registration = services.register(
        tournament=tournament, player=late, dice_set=dice_set, by=organiser
    )
    assert registration.late_entry_round == 2
    for match in round_one.matches.all():
        services.report_result(match=match, by=judge, games=["a", "a"])
    services.close_round(round_=round_one, by=organiser)
    row = selectors.standings(tournament).row(registration.pk)
    expected_rounds = 1 if policy == Tournament.LateEntry.LOSSES else 0
    assert row.match_points == points and row.rounds_played == expected_rounds
    round_two = services.pair_next_round(tournament=tournament, by=organiser)
    paired = {m.player_a_id for m in round_two.matches.all()} | {
        m.player_b_id for m in round_two.matches.all()
    }
    assert registration.pk in paired


def test_drop_and_reinstate(tournament, register_players, organiser):
    registrations = register_players(tournament, 4)
    services.drop(registration=registrations[0], by=registrations[0].player.user)
    with pytest.raises(ValidationError, match="already dropped"):
        services.drop(registration=registrations[0], by=organiser)
    with pytest.raises(PermissionDenied):
        services.reinstate(registration=registrations[0], by=registrations[0].player.user)
    services.reinstate(registration=registrations[0], by=organiser, reason="came back")
    round_ = services.pair_next_round(tournament=tournament, by=organiser)
    assert round_.matches.count() == 2


def test_organiser_swaps_players_in_a_draft_with_a_reason(tournament, register_players, organiser):
    registrations = register_players(tournament, 5)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="x")
    table_one = round_.matches.get(table=1)
    bye = round_.matches.get(player_b__isnull=True)
    with pytest.raises(ValidationError, match="Say why"):
        services.swap_players_in_draft(
            round_=round_, first=table_one.player_a, second=bye.player_a, by=organiser, reason=""
        )
    moved_in, moved_out = bye.player_a, table_one.player_a
    services.swap_players_in_draft(
        round_=round_, first=moved_out, second=moved_in, by=organiser, reason="family pairing"
    )
    table_one.refresh_from_db()
    bye.refresh_from_db()
    assert (
        table_one.player_a_id == moved_in.pk
        and bye.player_a_id == moved_out.pk
        and bye.player_b_id is None
    )
    assert table_one.reasons[-1]["text"] == "changed by hand: family pairing"
    assert AuditEntry.objects.get(action="pairing.edited").reason == "family pairing"
    services.publish_round(round_=round_, by=organiser)
    with pytest.raises(ValidationError, match="only while the round is a draft"):
        services.swap_players_in_draft(
            round_=round_, first=moved_out, second=moved_in, by=organiser, reason="again"
        )
    assert len(registrations) == 5


def test_round_one_is_reproducible_from_its_seed(tournament, register_players, organiser):
    register_players(tournament, 8)
    first = services.pair_next_round(tournament=tournament, by=organiser, seed="abc")
    pairs = list(first.matches.order_by("table").values_list("player_a", "player_b"))
    again = services.repair_round(round_=first, by=organiser, seed="abc")
    assert list(again.matches.order_by("table").values_list("player_a", "player_b")) == pairs


@pytest.fixture
def match_in_play(tournament, register_players, organiser):
    register_players(tournament, 2)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="s")
    services.publish_round(round_=round_, by=organiser)
    return round_.matches.get()


def _sees(user, swap) -> bool:
    """What the pages and the API show ``user`` of this swap, read fresh."""
    swap = SetSwap.objects.select_related(
        "match__round__tournament", "match__player_a__player", "match__player_b__player"
    ).get(pk=swap.pk)
    return visibility.can_see_swap(user, swap, swap.match)


def test_swap_is_secret_until_the_next_game_starts(match_in_play, judge):
    match = match_in_play
    player_a = match.player_a
    user_a, user_b = player_a.player.user, match.player_b.player.user
    services.start_game(match=match, number=1, by=user_a)
    services.start_game(match=match, number=1, by=user_b)
    playing, additional = selectors.current_sets(player_a)
    out_pos, in_pos = _valid_swap_positions(playing, additional)
    swap = services.record_swap(
        registration=player_a, match=match, swap_out=[out_pos], swap_in=[in_pos], by=user_a
    )
    assert swap.before_game == 2
    assert swap.playing_after[out_pos] == additional[in_pos]
    assert not _sees(user_b, swap)
    assert _sees(user_a, swap)
    assert _sees(judge, swap)
    services.start_game(match=match, number=2, by=user_b)  # A has not said so yet
    assert not _sees(user_b, swap)
    services.start_game(match=match, number=2, by=user_a)
    assert _sees(user_b, swap)
    services.report_result(match=match, by=judge, games=["a", "b", "a"])
    sets = list(match.games.order_by("number").values_list("playing_set_a", flat=True))
    assert sets[0] == player_a.playing_dice and sets[1] == swap.playing_after == sets[2]


def test_swap_that_breaks_the_set_is_refused(match_in_play):
    match = match_in_play
    registration = match.player_a
    registration.playing_dice = [
        dict(d, rare=(i < 3)) for i, d in enumerate(registration.playing_dice)
    ]
    registration.additional_dice = [dict(registration.playing_dice[3], rare=True)]
    registration.save()
    with pytest.raises(ValidationError, match="at most 3 rare dice"):
        services.record_swap(
            registration=registration,
            match=match,
            swap_out=[3],
            swap_in=[0],
            by=registration.player.user,
        )
    assert not SetSwap.objects.exists()


def test_opponent_cannot_record_my_swap(match_in_play):
    match = match_in_play
    with pytest.raises(PermissionDenied):
        services.record_swap(
            registration=match.player_a,
            match=match,
            swap_out=[0],
            swap_in=[0],
            by=match.player_b.player.user,
        )


def test_second_swap_for_the_same_game_replaces_the_first(match_in_play):
    match = match_in_play
    registration = match.player_a
    user = registration.player.user
    playing, additional = selectors.current_sets(registration)
    out_pos, in_pos = _valid_swap_positions(playing, additional)
    services.record_swap(
        registration=registration, match=match, swap_out=[out_pos], swap_in=[in_pos], by=user
    )
    services.record_swap(
        registration=registration, match=match, swap_out=[out_pos], swap_in=[in_pos], by=user
    )
    live = SetSwap.objects.filter(superseded=False)
    assert live.count() == 1 and live.get().before_game == 1
    # Replacing is computed from the set before the first swap, so the result is the same.
    assert selectors.current_sets(registration)[0][out_pos] == additional[in_pos]
    assert Match.objects.get(pk=match.pk).status == Match.Status.PENDING


def _valid_swap_positions(playing, additional):
    from games.engines.irondie.dice import Die, playing_set_errors

    for out_pos in range(len(playing)):
        for in_pos in range(len(additional)):
            trial = list(playing)
            trial[out_pos] = additional[in_pos]
            if not playing_set_errors([Die.from_dict(d) for d in trial]):
                return out_pos, in_pos
    raise AssertionError("fixture sets allow no valid swap")


def test_swaps_before_games_four_and_five(match_in_play, judge):
    """Drawn games lengthen a match to five games: a swap works before each of them."""
    match = match_in_play
    reg_a, reg_b = match.player_a, match.player_b
    user_a, user_b = reg_a.player.user, reg_b.player.user
    for number in (1, 2, 3):
        services.start_game(match=match, number=number, by=judge)
    out_a, in_a = _valid_swap_positions(*selectors.current_sets(reg_a))
    swap_a = services.record_swap(
        registration=reg_a, match=match, swap_out=[out_a], swap_in=[in_a], by=user_a
    )
    assert swap_a.before_game == 4
    assert not _sees(user_b, swap_a)
    services.start_game(match=match, number=4, by=judge)
    assert _sees(user_b, swap_a)
    out_b, in_b = _valid_swap_positions(*selectors.current_sets(reg_b))
    swap_b = services.record_swap(
        registration=reg_b, match=match, swap_out=[out_b], swap_in=[in_b], by=user_b
    )
    assert swap_b.before_game == 5
    services.start_game(match=match, number=5, by=judge)
    # Game 5 is the last a match can have: nothing left to swap for.
    with pytest.raises(ValidationError, match="no further game in this match"):
        services.record_swap(
            registration=reg_a, match=match, swap_out=[out_a], swap_in=[in_a], by=user_a
        )
    assert SetSwap.objects.filter(match=match).count() == 2
    services.report_result(match=match, by=judge, games=["a", "b", "draw", "draw", "a"])
    games = list(match.games.order_by("number"))
    assert [g.playing_set_a == reg_a.playing_dice for g in games] == [True] * 3 + [False] * 2
    assert games[3].playing_set_a == games[4].playing_set_a == swap_a.playing_after
    assert [g.playing_set_b == reg_b.playing_dice for g in games] == [True] * 4 + [False]
    assert games[4].playing_set_b == swap_b.playing_after
