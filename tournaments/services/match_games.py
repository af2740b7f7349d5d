"""Games within a match (starting each one, games after time) and additional-set swaps."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.dbtime import db_now
from config.errors import in_words
from games.engines.irondie.dice import Die, playing_set_errors
from games.models import GameSession
from games.services import OPEN as OPEN_SESSION
from tournaments import clocks, selectors
from tournaments.audit import audit
from tournaments.games import rules_for
from tournaments.match_rules import (
    MAX_GAMES,
    match_is_over,
    max_games,
    online_game_outcome,
)
from tournaments.models import (
    Match,
    MatchGame,
    Registration,
    Round,
    SetSwap,
)
from tournaments.permissions import (
    can_judge,
)
from tournaments.services.guards import (
    locked_match,
    locked_registration,
    own_registration,
)
from tournaments.services.results import penalty_game_wins
from tournaments.services.teams import unit_id_of
from tournaments.visibility import player_or_staff


def _online_game_open(match: Match) -> bool:
    """An online game of this match is waiting, in play or paused: it starts its games
    itself (both players ``ready`` in games/), so nobody starts them from here."""
    return match.online_games.filter(session__status__in=OPEN_SESSION).exists()


def match_games(match_id: int) -> list[str]:
    """Outcomes of the match's finished online games, in order ("a", "b", "draw"); a game
    ended unfinished by the match limit has no winner and does not count (docs/rules.md)."""
    return [outcome for _number, outcome in numbered_match_games(match_id)]


def numbered_match_games(match_id: int) -> list[tuple[int, str]]:
    """The counted games as (game number, outcome): an unfinished game keeps its number,
    so the game after it is recorded under its own (the decider after time is game 4)."""
    games = []
    for number, result in (
        MatchGame.objects.filter(match_id=match_id, session__status=GameSession.Status.FINISHED)
        .order_by("number")
        .values_list("number", "session__result")
    ):
        outcome = online_game_outcome(result)
        if outcome is not None:
            games.append((number, outcome))
    return games


def _check_game_may_start(
    match: Match,
    number: int,
    *,
    judge: bool,
    system: bool = False,
    games_so_far: list[str] | None = None,
) -> None:
    if match.is_bye or match.status == Match.Status.CONFIRMED:
        raise ValidationError(_("This match is over."))
    if not judge and match.status != Match.Status.PENDING:
        raise ValidationError(
            _(
                "A result has been reported for this match, so no further game starts; "
                "ask a judge if the match goes on."
            )
        )
    if match.round.status not in (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS):
        raise ValidationError(_("The round has not started."))
    expected = match.next_game
    if number != expected:
        if number == match.current_game and match.current_game_started_at is not None:
            raise ValidationError(_("Game %(number)s has already started.") % {"number": number})
        raise ValidationError(
            _("The next game of this match is game %(expected)s.") % {"expected": expected}
        )
    most = max_games(match.round.tournament.games_to_win)
    if number > most:
        raise ValidationError(_("A match has at most %(most)s games.") % {"most": most})
    if match.time_called_at is not None:
        _check_further_game_after_time(match, number, games_so_far=games_so_far, system=system)


def _check_further_game_after_time(
    match: Match, number: int, *, games_so_far: list[str] | None, system: bool
) -> None:
    """After time only a match that still needs a game gets one (match_is_over: the
    top-cut decider while the games are level). The games are those played so far, not
    the confirmed result: online the server saw them; on paper the caller says them."""
    draws_allowed = match.round.stage == Round.Stage.SWISS
    games_to_win = match.round.tournament.games_to_win
    penalties = penalty_game_wins(match)
    if system:
        games_so_far = match_games(match.pk)
    elif games_so_far is None:
        if match_is_over(
            penalties, time_called=True, draws_allowed=draws_allowed, games_to_win=games_to_win
        ):
            raise ValidationError(_NO_GAME_AFTER_TIME)
        raise ValidationError(
            {
                "games_so_far": [
                    _(
                        "Time has been called: a further game starts only while the games are "
                        "level in the top cut. Give the games played so far in order "
                        '(each "a", "b" or "draw"; an unfinished game is left out).'
                    )
                ]
            }
        )
    else:
        games_so_far = list(games_so_far)
        if any(outcome not in ("a", "b", "draw") for outcome in games_so_far):
            raise ValidationError(
                {"games_so_far": [_('Each game is won by "a" or "b", or is a "draw".')]}
            )
        if len(games_so_far) >= number:
            raise ValidationError(
                {
                    "games_so_far": [
                        _("Game %(number)s is next: at most %(value1)s games have been played.")
                        % {"number": number, "value1": number - 1}
                    ]
                }
            )
    if match_is_over(
        [*penalties, *games_so_far],
        time_called=True,
        draws_allowed=draws_allowed,
        games_to_win=games_to_win,
    ):
        raise ValidationError(_NO_GAME_AFTER_TIME)


_NO_GAME_AFTER_TIME = (
    "Time has been called: no new game starts; the match is decided on the games won "
    "(docs/rules.md, match time)."
)


@transaction.atomic
def start_game(
    *,
    match: Match,
    number: int,
    by,
    system: bool = False,
    games_so_far: list[str] | None = None,
) -> Match:
    """Game ``number`` (always the match's next game) starts: its clock runs and the
    swaps made for it are revealed.

    A game starts when both players say so, or when a judge does: a player's call
    records their readiness (again and again changes nothing) and the second readiness
    starts the game. ``system=True`` (with ``by=None``) is the online-play service
    starting the game it hosts; while a match is played online its games start only that
    way. The answer is the match; ``match.ready_sides()`` tells who has said so while the
    game still waits.

    After time is called a game starts only if the match still needs one
    (``match_is_over`` on the games played so far: the top-cut decider while level). On
    paper the caller gives those games as ``games_so_far`` (outcomes in order, an
    unfinished game left out); online the server uses the games it hosted.
    """
    match = locked_match(match)
    tournament = match.round.tournament
    judge = system or can_judge(by, tournament)
    side = None
    if not judge:
        side = match.side_of(own_registration(match, by).pk)
    _check_game_may_start(match, number, judge=judge, system=system, games_so_far=games_so_far)
    if not system and _online_game_open(match):
        raise ValidationError(
            _(
                "This match is played online: its games start when both players are ready "
                "in the online game."
            )
        )
    if side is not None:
        if getattr(match, f"ready_{side}_for_game") != number:
            setattr(match, f"ready_{side}_for_game", number)
            match.save(update_fields=[f"ready_{side}_for_game"])
            audit(tournament, by, "game.ready", match, after={"game": number, "side": side})
        if match.ready_sides() != ["a", "b"]:
            return match
    match.current_game = number
    match.current_game_started_at = db_now()
    match.ready_a_for_game = match.ready_b_for_game = None
    match.version += 1
    match.save(
        update_fields=[
            "current_game",
            "current_game_started_at",
            "ready_a_for_game",
            "ready_b_for_game",
            "version",
        ]
    )
    clocks.start_game_clock(match, match.current_game_started_at)
    audit(tournament, by, "game.started", match, after={"game": number})
    return match


@transaction.atomic
def record_swap(
    *, registration: Registration, match: Match, swap_out: list[int], swap_in: list[int], by
) -> SetSwap:
    """Swap dice between the playing set and the additional set before the next game.

    ``swap_out``: positions (0-8) in the current playing set; ``swap_in``: positions
    (0-2) in the current additional set; the two lists have the same length. The
    result must still be a valid playing set (9 dice, every class, at most 3 rare).
    A second swap for the same game replaces the first (it is still secret).
    """
    match = locked_match(match)
    registration = locked_registration(registration)
    if match.side_of(unit_id_of(registration)) is None:  # a team member: the team's match
        raise ValidationError(_("This player is not in that match."))
    if not player_or_staff(by, registration.player, match.round.tournament):
        raise PermissionDenied(_("Players record their own swaps."))
    rules = rules_for(match.round.tournament.game)
    if not rules.needs_dice_set:
        raise ValidationError(
            _("%(game)s events have no dice sets: there is nothing to swap.")
            % {"game": rules.label}
        )
    if match.is_bye or match.status == Match.Status.CONFIRMED:
        raise ValidationError(
            _("This match is over; swap before the next game of your next match.")
        )
    before_game = match.next_game
    # Up to MAX_GAMES, not 3: drawn or unfinished games lengthen a match, and a top-cut
    # match level at time gets one more game.
    if before_game > MAX_GAMES:
        raise ValidationError(
            _(
                "There is no further game in this match to swap for (a match has at most %(MAX_GAMES)s games)."
            )
            % {"MAX_GAMES": MAX_GAMES}
        )
    if len(swap_out) != len(swap_in) or not swap_out:
        raise ValidationError(_("Swap as many dice out as in (at least one)."))
    if len(set(swap_out)) != len(swap_out) or len(set(swap_in)) != len(swap_in):
        raise ValidationError(_("Each die can be swapped once."))
    live = SetSwap.objects.filter(
        registration=registration, match=match, before_game=before_game, superseded=False
    ).first()
    playing, additional = selectors.current_sets(registration, exclude=live)
    if any(not 0 <= i < len(playing) for i in swap_out):
        raise ValidationError(
            _("Playing-set positions run from 0 to %(value1)s.") % {"value1": len(playing) - 1}
        )
    if any(not 0 <= i < len(additional) for i in swap_in):
        raise ValidationError(
            f"Additional-set positions run from 0 to {len(additional) - 1}."
            if additional
            else "The additional set is empty."
        )
    out_dice = [playing[i] for i in swap_out]
    in_dice = [additional[i] for i in swap_in]
    new_playing = list(playing)
    new_additional = list(additional)
    for pos_out, pos_in in zip(swap_out, swap_in, strict=True):
        new_playing[pos_out], new_additional[pos_in] = additional[pos_in], playing[pos_out]
    errors = playing_set_errors([Die.from_dict(d) for d in new_playing])
    if errors:
        raise ValidationError({"swap": [in_words(error) for error in errors]})
    if live is not None:
        live.superseded = True
        live.save(update_fields=["superseded"])
    swap = SetSwap.objects.create(
        registration=registration,
        match=match,
        before_game=before_game,
        swapped_out=out_dice,
        swapped_in=in_dice,
        playing_after=new_playing,
        additional_after=new_additional,
        recorded_by=by,
    )
    # The audit log is read by judges only; it never reaches the opponent.
    audit(
        match.round.tournament,
        by,
        "swap.recorded",
        swap,
        after={"before_game": before_game, "out": out_dice, "in": in_dice},
    )
    return swap
