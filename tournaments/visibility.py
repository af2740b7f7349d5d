"""Who may see what of a tournament: the one rule that the pages (tournaments/views.py,
clock_views.py) and the API (tournaments/api.py, clock_api.py) both ask, one function
per question. Roles (who organises or judges an event) live in tournaments/permissions.py.

The rules, for everyone who is not a judge or organiser of the event (they, and site
staff, see everything of the events they may see):

- tournament: every event out of draft; a draft only to its organisers and judges;
- pairings (a round, its matches, its clocks, the bracket): once the round is published
  and while the organiser makes pairings public; a player always sees their own match
  once its round is published;
- results (the score of a match): while the organiser makes results public; the two
  players always see their own;
- result history (every report and confirmation): only the two players;
- standings: while the organiser makes them public;
- registered sets (the set reveal): once the Swiss rounds start; a player their own;
- swap: the player who made it; everyone else who sees the match once the game it was
  made for has started or the match is over, and never a swap replaced before that;
- audit log, penalties, judges' queue: nobody else.

A hidden event is a 404 everywhere. Inside a visible event, what is closed to the
viewer's role is a 403, except that the API answers 404 for an unpublished round or match
and ``"published": false`` for a list behind a publish switch (docs/api.md).
tests/test_visibility_matrix.py runs every role through pages and API.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, Value

from tournaments.models import Match, PodSeat, Registration, Round, Tournament
from tournaments.permissions import can_judge, judged_q

STARTED = (Tournament.Status.SWISS, Tournament.Status.TOP_CUT, Tournament.Status.FINISHED)


# --- players ----------------------------------------------------------------------------


def is_own_player(player, user) -> bool:
    """The signed-in user is this player (walk-in players without an account are nobody's)."""
    return (
        player is not None
        and player.user_id is not None
        and user is not None
        and user.is_authenticated
        and player.user_id == user.id
    )


def player_or_staff(user, player, tournament, *, staff=can_judge) -> bool:
    """The player themselves, or the event's staff: its judges and organisers by default,
    ``staff=can_manage`` where only organisers act for a player."""
    return is_own_player(player, user) or staff(user, tournament)


def own_registration_id(user, match: Match) -> int | None:
    """The registration of ``user`` in this match, or None when they do not play it.
    Reads the players the caller selected with the match (``player_a__player``)."""
    for registration in (match.player_a, match.player_b):
        if registration is not None and is_own_player(registration.player, user):
            return registration.pk
    return None


# --- tournaments ------------------------------------------------------------------------


def visible_q(user) -> Q:
    """Events the user may see: every event out of draft, and the drafts they run."""
    return ~Q(status=Tournament.Status.DRAFT) | judged_q(user)


def visible_tournaments(user, queryset=None):
    queryset = Tournament.objects.all() if queryset is None else queryset
    return queryset.filter(visible_q(user))


def with_viewer_plays(queryset, user):
    """Each event with ``viewer_plays``: whether ``user`` holds a registration in it,
    read in the event's own query. The event's menu (tournaments/_nav.html) links "My
    match" or "My table" only then: its organisers and judges who do not play do not
    get a link to a page that would refuse them."""
    if user is None or not user.is_authenticated:
        return queryset.annotate(viewer_plays=Value(False))
    mine = Registration.objects.filter(tournament=OuterRef("pk"), player__user=user)
    return queryset.annotate(viewer_plays=Exists(mine))


def can_see_tournament(user, tournament) -> bool:
    return tournament.status != Tournament.Status.DRAFT or can_judge(user, tournament)


def can_see_pairings(user, tournament) -> bool:
    """The event's pairings as a whole (rounds list, bracket, pairings CSV)."""
    return can_see_tournament(user, tournament) and (
        tournament.publish_pairings or can_judge(user, tournament)
    )


def can_see_results(user, tournament) -> bool:
    return tournament.publish_results or can_judge(user, tournament)


def can_see_standings(user, tournament) -> bool:
    return can_see_tournament(user, tournament) and (
        tournament.publish_standings or can_judge(user, tournament)
    )


def can_see_registered_sets(user, tournament) -> bool:
    """Everyone's registered sets (the set reveal)."""
    return can_see_tournament(user, tournament) and (
        tournament.status in STARTED or can_judge(user, tournament)
    )


def can_see_registration(user, registration) -> bool:
    """One registration: with everyone's sets, or the player's own."""
    tournament = registration.tournament
    if not can_see_tournament(user, tournament):
        return False
    return can_see_registered_sets(user, tournament) or is_own_player(registration.player, user)


def can_see_log(user, tournament) -> bool:
    """The audit log, the penalties and the judges' queue."""
    return can_judge(user, tournament)


# --- rounds and matches -----------------------------------------------------------------


def _published(round_) -> bool:
    return round_.status != Round.Status.DRAFT


def can_see_round(user, round_) -> bool:
    """A round's pairings and clocks: draft rounds only to judges."""
    tournament = round_.tournament
    if can_judge(user, tournament):
        return True
    return can_see_pairings(user, tournament) and _published(round_)


def visible_rounds(user, tournament):
    rounds = tournament.rounds.all()
    if not can_judge(user, tournament):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return rounds


def can_see_match(user, match) -> bool:
    """A match: with its round, and by its two players once the round is published."""
    if can_see_round(user, match.round):
        return True
    tournament = match.round.tournament
    return (
        can_see_tournament(user, tournament)
        and _published(match.round)
        and own_registration_id(user, match) is not None
    )


def can_see_pod_table(user, table) -> bool:
    """A pod table (its clock): with its round, and by its players once it is published."""
    if can_see_round(user, table.round):
        return True
    return (
        user.is_authenticated
        and can_see_tournament(user, table.round.tournament)
        and _published(table.round)
        and PodSeat.objects.filter(table=table, registration__player__user=user).exists()
    )


def can_see_match_result(user, match) -> bool:
    """The score and status of a match the user may see."""
    return can_see_results(user, match.round.tournament) or (
        own_registration_id(user, match) is not None
    )


def can_see_submissions(user, match) -> bool:
    """The result history of a match: judges and its two players."""
    if can_judge(user, match.round.tournament):
        return True
    return _published(match.round) and own_registration_id(user, match) is not None


# --- a player's record across events (the player page) ---------------------------------


def judged_ids(user, tournament_ids) -> set[int]:
    """Which of these events the user judges or organises: one query for a whole list."""
    ids = set(tournament_ids)
    if not ids or user is None or not user.is_authenticated:
        return set()
    return set(Tournament.objects.filter(judged_q(user), pk__in=ids).values_list("pk", flat=True))


def can_see_players_match(user, match, *, judged: bool, own: bool = False) -> bool:
    """A match of a player's record and its result: can_see_match and
    can_see_match_result in one, with the viewer's role in the event given (``judged``:
    from judged_ids) so a list asks no query per row. Reads the players the caller
    selected with the match (``player_a__player``, ``player_b__player``). ``own``: the
    caller knows the user played it (a member of a team, not its captain)."""
    if judged:
        return True
    tournament = match.round.tournament
    if tournament.status == Tournament.Status.DRAFT or not _published(match.round):
        return False
    own = own or own_registration_id(user, match) is not None
    return (tournament.publish_pairings or own) and (tournament.publish_results or own)


def can_see_players_table(user, table, *, judged: bool, seated: bool) -> bool:
    """A pod table of a player's record and its placings, as can_see_players_match
    sees a match; ``seated``: the user sat at the table (the caller knows)."""
    if judged:
        return True
    tournament = table.round.tournament
    if tournament.status == Tournament.Status.DRAFT or not _published(table.round):
        return False
    return (tournament.publish_pairings or seated) and (tournament.publish_results or seated)


def can_see_players_event(user, registration, *, judged: bool) -> bool:
    """An event in a player's record (their registration): visible events only."""
    return judged or registration.tournament.status != Tournament.Status.DRAFT


def can_see_final_place(registration, *, judged: bool) -> bool:
    return judged or registration.tournament.publish_standings


# --- swaps ------------------------------------------------------------------------------


def swap_revealed(swap, match) -> bool:
    """A swap is secret until the game it was made for starts (or the match ends)."""
    return (
        match.status == Match.Status.CONFIRMED
        or (match.current_game_started_at is not None and match.current_game >= swap.before_game)
        or match.current_game > swap.before_game
    )


def can_see_swap(user, swap, match) -> bool:
    """``match`` is the swap's match (passed in so a list of swaps reads it once)."""
    if can_judge(user, match.round.tournament):
        return True
    if swap.registration_id is not None and swap.registration_id == own_registration_id(
        user, match
    ):
        return True
    return not swap.superseded and swap_revealed(swap, match) and can_see_match(user, match)
