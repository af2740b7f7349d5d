"""A demo tournament in the middle of its Swiss rounds, for the zero-setup run."""

import datetime
import random

from django.db import transaction

from tournaments import services
from tournaments.models import Round, Tournament

DEMO_TOURNAMENT = "IRONDIE Winter Open (demo)"


@transaction.atomic
def load_demo_tournament(*, organiser, judge, players, seed: int = 45) -> Tournament:
    """16 players, 4 Swiss rounds and a top 4: rounds 1-2 closed, round 3 under way."""
    existing = Tournament.objects.filter(name=DEMO_TOURNAMENT).first()
    if existing:
        return existing
    rng = random.Random(seed)
    tournament = services.create_tournament(
        organiser=organiser,
        name=DEMO_TOURNAMENT,
        date=datetime.date.today(),
        venue="Circolo dei Dadi, Milano",
        swiss_rounds=4,
        top_cut_size=4,
        head_judge=judge,
    )
    services.change_status(tournament=tournament, to=Tournament.Status.REGISTRATION, by=organiser)
    for player in players:
        services.register(
            tournament=tournament, player=player, dice_set=player.dice_sets.first(), by=organiser
        )
    outcomes = [
        ["a", "a"],
        ["b", "b"],
        ["a", "b", "a"],
        ["b", "a", "b"],
        ["a", "b"],
        ["a", "draw", "a"],
    ]
    for number in (1, 2, 3):
        round_ = services.pair_next_round(
            tournament=tournament, by=organiser, seed=f"demo-{number}", background=False
        )
        services.publish_round(round_=round_, by=organiser)
        services.start_round(round_=round_, by=judge)
        matches = list(
            round_.matches.filter(player_b__isnull=False).select_related(
                "player_a__player", "player_b__player"
            )
        )
        for index, match in enumerate(matches):
            games = rng.choice(outcomes)
            if number < 3:
                services.report_result(match=match, by=judge, games=games)
            elif (
                index % 3 == 0
            ):  # round 3: one reported and waiting, one disputed, the rest playing
                services.report_result(match=match, by=match.player_a.player.user, games=games)
            elif index % 3 == 1 and index < 3:
                services.report_result(match=match, by=match.player_a.player.user, games=["a", "a"])
                match.refresh_from_db()
                services.report_result(
                    match=match,
                    by=match.player_b.player.user,
                    games=["b", "b"],
                    expected_version=match.version,  # the opponent's report it disputes
                )
        if number < 3:
            services.close_round(round_=Round.objects.get(pk=round_.pk), by=organiser)
    return tournament
