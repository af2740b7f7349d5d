"""A player's record across events, as one viewer may see it: the current rating in
each game, the rating history (match by match, team match and pod table) and the past
events (place and record). Read for the player page and ``GET /api/players/{id}/rating/``
in six queries whatever the history (docs/ratings.md); what the viewer may see is asked
of tournaments/visibility.py.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q

from players.models import Player
from players.models import Rating as PlayerRating
from tournaments import visibility
from tournaments.games import game_choices, rules_for
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
    """One rated occasion of the player's history: a match (two players or two teams)
    or a pod table."""

    match_id: int | None
    table_id: int | None
    game: str
    tournament_id: int
    tournament_name: str
    tournament_date: object
    round_number: int
    stage: str
    kind: str  # "match", "team" (a team match) or "table" (a pod table)
    opponent_id: int | None  # a two-player match's opponent
    opponent_name: str  # the opponent, or the other team; "" at a table
    team_name: str  # the player's team in a team match, else ""
    place: int | None  # the player's (or team's) place; None: not rated
    field_size: int  # sides rated together: 2 for a match, the seats of a table
    outcome: str  # "win", "loss", "draw", "placed", "" (not rated)
    score: str  # games from the player's side: "2-1"; "" at a table
    before: Figures
    after: Figures

    @property
    def change(self) -> float:
        return self.after.ordinal - self.before.ordinal

    @property
    def game_label(self) -> str:
        return rules_for(self.game).label


@dataclass
class GameRating:
    """The player's rating in one game, as the viewer may see it."""

    game: str
    rating: Figures
    rated_matches: int
    hidden_matches: int = 0
    history: list[HistoryEntry] = field(default_factory=list)  # newest first

    @property
    def label(self) -> str:
        return rules_for(self.game).label


@dataclass
class EventRecord:
    tournament_id: int
    tournament_name: str
    tournament_date: object
    status: str
    status_display: str
    final_place: int | None
    game: str = ""
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0

    @property
    def record(self) -> str:
        """Wins-losses-draws, byes counted as wins (as the standings count them)."""
        return f"{self.wins + self.byes}-{self.losses}-{self.draws}"

    @property
    def game_label(self) -> str:
        return rules_for(self.game).label


@dataclass
class PlayerRecord:
    player: Player
    ratings: list[GameRating] = field(default_factory=list)  # the hosted games' order
    history: list[HistoryEntry] = field(default_factory=list)  # newest first
    events: list[EventRecord] = field(default_factory=list)  # latest event first
    hidden_matches: int = 0


def player_record(player: Player, user) -> PlayerRecord:
    """Six queries whatever the history and the number of games (the caller's for
    ``player`` not counted)."""
    stored = {row.game: row for row in PlayerRating.objects.filter(player=player)}
    changes = list(
        RatingChange.objects.filter(player=player)
        .select_related(
            "match__round__tournament",
            "match__player_a__player",
            "match__player_a__team",
            "match__player_b__player",
            "match__player_b__team",
            "pod_table__round__tournament",
            "opponent",
        )
        .order_by("id")
    )
    registrations = list(
        Registration.objects.filter(player=player)
        .select_related("tournament", "team")
        .order_by("-tournament__date", "-tournament_id")
    )
    # A member of a team plays through the team's unit (its captain's registration).
    unit_of = {r.pk: (r.team.unit_id if r.team_id else r.pk) for r in registrations}
    mine = {unit: pk for pk, unit in unit_of.items()}
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
    own = visibility.is_own_player(player, user)

    history, hidden, shown = [], defaultdict(int), {}
    for change in changes:
        if change.match_id:
            match = change.match
            visible = visibility.can_see_players_match(
                user, match, judged=match.round.tournament_id in judged, own=own
            )
        else:
            table = change.pod_table
            visible = visibility.can_see_players_table(
                user, table, judged=table.round.tournament_id in judged, seated=own
            )
        if not visible:
            hidden[change.game] += 1
            continue
        shown[change.game] = change
        history.append(_entry(change))
    history.reverse()

    ratings = []
    for game, _label in game_choices():
        row = stored.get(game)
        if row is None and game not in shown and not hidden[game]:
            continue  # never rated in this game
        if not hidden[game]:
            current = Rating(row.mu, row.sigma) if row else START
            rated = row.matches if row else 0
        else:  # the latest figures this viewer may see (docs/ratings.md)
            last = shown.get(game)
            current = Rating(last.mu_after, last.sigma_after) if last else START
            rated = sum(1 for e in history if e.game == game and e.place is not None)
        ratings.append(
            GameRating(
                game,
                Figures(current.mu, current.sigma),
                rated,
                hidden[game],
                [entry for entry in history if entry.game == game],
            )
        )

    records = {}
    for registration in registrations:
        is_judged = registration.tournament_id in judged
        if not visibility.can_see_players_event(user, registration, judged=is_judged):
            continue
        tournament = registration.tournament
        records[unit_of[registration.pk]] = EventRecord(
            tournament.pk,
            tournament.name,
            tournament.date,
            tournament.status,
            tournament.get_status_display(),
            registration.final_place
            if visibility.can_see_final_place(registration, judged=is_judged)
            else None,
            tournament.game,
        )
    for match in matches:
        own_unit = match.player_a_id if match.player_a_id in mine else match.player_b_id
        record = records.get(own_unit)
        if record is None or not visibility.can_see_players_match(
            user, match, judged=match.round.tournament_id in judged, own=own
        ):
            continue
        if match.is_bye:
            record.byes += 1
        elif match.winner_id == own_unit:
            record.wins += 1
        elif match.winner_id is None and not (match.match_loss_a or match.match_loss_b):
            record.draws += 1
        else:
            record.losses += 1
    return PlayerRecord(
        player=player,
        ratings=ratings,
        history=history,
        events=list(records.values()),
        hidden_matches=sum(hidden.values()),
    )


def _entry(change: RatingChange) -> HistoryEntry:
    before = Figures(change.mu_before, change.sigma_before)
    after = Figures(change.mu_after, change.sigma_after)
    if change.match_id is None:
        table = change.pod_table
        return HistoryEntry(
            match_id=None,
            table_id=table.pk,
            game=change.game,
            tournament_id=table.round.tournament_id,
            tournament_name=table.round.tournament.name,
            tournament_date=table.round.tournament.date,
            round_number=table.round.number,
            stage=table.round.stage,
            kind="table",
            opponent_id=None,
            opponent_name="",
            team_name="",
            place=change.place,
            field_size=table.size,
            outcome=change.outcome,
            score="",
            before=before,
            after=after,
        )
    match = change.match
    mine_a = change.side == 0
    games = (match.games_a, match.games_b) if mine_a else (match.games_b, match.games_a)
    own, other = (match.player_a, match.player_b) if mine_a else (match.player_b, match.player_a)
    team = own.team_id is not None
    return HistoryEntry(
        match_id=match.pk,
        table_id=None,
        game=change.game,
        tournament_id=match.round.tournament_id,
        tournament_name=match.round.tournament.name,
        tournament_date=match.round.tournament.date,
        round_number=match.round.number,
        stage=match.round.stage,
        kind="team" if team else "match",
        opponent_id=change.opponent_id,
        opponent_name=other.team.name if team else change.opponent.display_name,
        team_name=own.team.name if team else "",
        place=change.place,
        field_size=2,
        outcome=change.outcome,
        score=format_score(*games, match.games_drawn),
        before=before,
        after=after,
    )
