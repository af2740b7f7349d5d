"""The single-elimination top cut and the end of the event."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.audit import audit
from tournaments.models import (
    Match,
    Registration,
    Round,
    Tournament,
)
from tournaments.pairing.topcut import effective_cut_size, seed_bracket
from tournaments.services.guards import last_round_number, locked_tournament, require_manager

Status = Tournament.Status


@transaction.atomic
def start_top_cut(*, tournament, by) -> Round:
    tournament = locked_tournament(tournament)
    require_manager(by, tournament)
    if tournament.status != Status.SWISS:
        raise ValidationError(_("The top cut follows the Swiss rounds."))
    closed = tournament.rounds.filter(stage=Round.Stage.SWISS, status=Round.Status.CLOSED).count()
    if (
        closed < (tournament.swiss_rounds or 0)
        or tournament.rounds.exclude(status=Round.Status.CLOSED).exists()
    ):
        raise ValidationError(
            _("Play and close all %(swiss_rounds)s Swiss rounds first.")
            % {"swiss_rounds": tournament.swiss_rounds}
        )
    standings = selectors.standings(tournament)
    ranked = standings.ranked_player_ids(include_dropped=False)
    size = (
        effective_cut_size(tournament.top_cut_size, len(ranked))
        if tournament.top_cut_size and len(ranked) >= 2
        else 0
    )
    if size == 0:
        return finish_tournament(tournament=tournament, by=by)
    tournament.top_cut_seeds = ranked[:size]
    tournament.status = Status.TOP_CUT
    tournament.save(update_fields=["top_cut_seeds", "status"])
    audit(
        tournament,
        by,
        "top_cut.started",
        tournament,
        after={"size": size, "seeds": tournament.top_cut_seeds},
    )
    bracket = seed_bracket(tournament.top_cut_seeds, size)
    return _create_top_cut_round(tournament, bracket, by)


def _create_top_cut_round(tournament, bracket, by) -> Round:
    current = bracket.current_round
    number = last_round_number(tournament) + 1
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        stage=Round.Stage.TOP_CUT,
        pairing_seed="bracket",
        status=Round.Status.DRAFT,
    )
    matches = []
    for bracket_match in current.matches:
        matches.append(
            Match(
                round=round_,
                table=bracket_match.position + 1,
                bracket_position=bracket_match.position,
                player_a_id=bracket_match.player_a,
                player_b_id=bracket_match.player_b,
                reasons=[
                    {
                        "code": "bracket",
                        "text": f"{current.name}: seed {bracket_match.seed_a} v seed {bracket_match.seed_b}",
                    }
                ],
            )
        )
    Match.objects.bulk_create(matches)
    audit(
        tournament,
        by,
        "round.paired",
        round_,
        after={"number": number, "stage": "top_cut", "name": current.name},
    )
    return round_


def advance_top_cut(tournament, by):
    bracket = selectors.bracket(tournament)
    if bracket.is_finished:
        finish_tournament(tournament=tournament, by=by)
    else:
        _create_top_cut_round(tournament, bracket, by)


@transaction.atomic
def finish_tournament(*, tournament, by) -> Tournament:
    tournament = locked_tournament(tournament)
    require_manager(by, tournament)
    if tournament.rounds.exclude(status=Round.Status.CLOSED).exists():
        raise ValidationError(_("Close every round before finishing the tournament."))
    tournament.status = Status.FINISHED
    tournament.save(update_fields=["status"])
    keep_final_places(tournament)
    audit(tournament, by, "tournament.finished", tournament)
    return tournament


def keep_final_places(tournament) -> None:
    """Keep each player's final place on their registration (a player's past events read
    it): when the event finishes, and again when a judge corrects a result after that."""
    placings = selectors.placings(tournament) or ()
    places = {placing.player_id: placing.place for placing in placings}
    registrations = list(Registration.objects.filter(tournament=tournament).select_related("team"))
    for registration in registrations:
        # A team's members share the place of the team (its captain's registration).
        unit = registration.team.unit_id if registration.team_id else registration.pk
        registration.final_place = places.get(unit)
    Registration.objects.bulk_update(registrations, ["final_place"], batch_size=2000)
