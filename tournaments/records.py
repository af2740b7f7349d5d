"""A player's record across events, as one viewer may see it: the current rating, the
rating history (match by match) and the past events (place and record). Read for the
player page and ``GET /api/players/{id}/rating/`` in five queries whatever the history
(docs/ratings.md); what the viewer may see is asked of tournaments/visibility.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from players.models import Player
from tournaments import visibility
from tournaments.match_rules import format_score
from tournaments.models import Match, RatingChange, Registration
from tournaments.ratings import START, Rating


@dataclass
class Figures:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass
class HistoryEntry:
    match_id: int
    tournament_id: int
    tournament_name: str
    tournament_date: object
    round_number: int
    stage: str
    opponent_id: int
    opponent_name: str
    outcome: str  # "win", "loss", "draw", "" (not rated)
    score: str  # from the player's side: "2-1"
    before: Figures
    after: Figures

    @property
    def change(self) -> float:
        return self.after.ordinal - self.before.ordinal


@dataclass
class EventRecord:
    tournament_id: int
    tournament_name: str
    tournament_date: object
    status: str
    status_display: str
    final_place: int | None
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0

    @property
    def record(self) -> str:
        """Wins-losses-draws, byes counted as wins (as the standings count them)."""
        return f"{self.wins + self.byes}-{self.losses}-{self.draws}"


@dataclass
class PlayerRecord:
    player: Player
    rating: Figures
    rated_matches: int
    history: list[HistoryEntry] = field(default_factory=list)  # newest first
    events: list[EventRecord] = field(default_factory=list)  # latest event first
    hidden_matches: int = 0


def player_record(player: Player, user) -> PlayerRecord:
    """``player`` read with ``select_related("rating")`` (one query, the caller's)."""
    changes = list(
        RatingChange.objects.filter(player=player)
        .select_related(
            "match__round__tournament",
            "match__player_a__player",
            "match__player_a__team",
            "match__player_b__player",
            "match__player_b__team",
            "opponent",
        )
        .order_by("id")
    )
    registrations = list(
        Registration.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament_id")
    )
    mine = {registration.pk for registration in registrations}
    matches = list(
        Match.objects.filter(Q(player_a__in=mine) | Q(player_b__in=mine))
        .filter(status=Match.Status.CONFIRMED)
        .select_related(
            "round__tournament",
            "player_a__player",
            "player_a__team",
            "player_b__player",
            "player_b__team",
        )
    )
    judged = visibility.judged_ids(user, {r.tournament_id for r in registrations})

    history, hidden, shown = [], 0, None
    for change in changes:
        match = change.match
        if not visibility.can_see_players_match(
            user, match, judged=match.round.tournament_id in judged
        ):
            hidden += 1
            continue
        shown = change
        history.append(_entry(change, match))
    history.reverse()
    stored = getattr(player, "rating", None)
    if hidden == 0:
        current = Rating(stored.mu, stored.sigma) if stored else START
        rated = stored.matches if stored else 0
    else:  # the latest figures this viewer may see (docs/ratings.md)
        current = Rating(shown.mu_after, shown.sigma_after) if shown else START
        rated = sum(1 for entry in history if entry.outcome)

    records = {}
    for registration in registrations:
        is_judged = registration.tournament_id in judged
        if not visibility.can_see_players_event(user, registration, judged=is_judged):
            continue
        tournament = registration.tournament
        records[registration.pk] = EventRecord(
            tournament.pk,
            tournament.name,
            tournament.date,
            tournament.status,
            tournament.get_status_display(),
            registration.final_place
            if visibility.can_see_final_place(registration, judged=is_judged)
            else None,
        )
    for match in matches:
        side = "a" if match.player_a_id in mine else "b"
        own = match.player_a_id if side == "a" else match.player_b_id
        record = records.get(own)
        if record is None or not visibility.can_see_players_match(
            user, match, judged=match.round.tournament_id in judged
        ):
            continue
        if match.is_bye:
            record.byes += 1
        elif match.winner_id == own:
            record.wins += 1
        elif match.winner_id is None and not (match.match_loss_a or match.match_loss_b):
            record.draws += 1
        else:
            record.losses += 1
    return PlayerRecord(
        player=player,
        rating=Figures(current.mu, current.sigma),
        rated_matches=rated,
        history=history,
        events=list(records.values()),
        hidden_matches=hidden,
    )


def _entry(change: RatingChange, match: Match) -> HistoryEntry:
    mine_a = match.player_a.player_id == change.player_id
    games = (match.games_a, match.games_b) if mine_a else (match.games_b, match.games_a)
    return HistoryEntry(
        match_id=match.pk,
        tournament_id=match.round.tournament_id,
        tournament_name=match.round.tournament.name,
        tournament_date=match.round.tournament.date,
        round_number=match.round.number,
        stage=match.round.stage,
        opponent_id=change.opponent_id,
        opponent_name=change.opponent.display_name,
        outcome=change.outcome,
        score=format_score(*games, match.games_drawn),
        before=Figures(change.mu_before, change.sigma_before),
        after=Figures(change.mu_after, change.sigma_after),
    )
