"""Helpers shared by the tests of events in pods (no tests here)."""

import datetime

from tournaments import services
from tournaments.models import Tournament

DAY = datetime.date(2026, 12, 5)


def make_event(organiser, judge, game="36d6", **options):
    options = {"pods": True, "top_cut_size": 0, **options}
    event = services.create_tournament(
        organiser=organiser, name="Pods", date=DAY, game=game, head_judge=judge, **options
    )
    return services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)


def by_id(ids, places):
    """Registration id -> place, over as many as both give (fewer places leave players out)."""
    return dict(zip(ids, places, strict=False))


def published(event, organiser, judge, seed="s1"):
    round_ = services.pair_next_round(tournament=event, by=organiser, seed=seed)
    services.publish_round(round_=round_, by=organiser)
    return services.start_round(round_=round_, by=judge)


def place_all(round_, judge):
    """Every table placed in seat order (seat 1 first)."""
    for table in round_.pod_tables.prefetch_related("seats"):
        if table.size > 1:
            services.record_placings(
                table=table,
                placings={s.registration_id: s.seat for s in table.seats.all()},
                by=judge,
            )


def pod_table_of_players(organiser, judge, players):
    """A started round of a new pod event (36d6) seating ``players`` (with users): its
    first table, for route walks that need a real pod table."""
    event = make_event(organiser, judge)
    for player in players:
        services.register(tournament=event, player=player, by=player.user)
    return published(event, organiser, judge).pod_tables.order_by("number").first()
