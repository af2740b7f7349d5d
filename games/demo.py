"""A bot-against-bot game in progress for the demo data (manage.py load_demo)."""

import random

from django.db import transaction

from games import services
from games.models import GameSession
from players.demo import random_valid_set


@transaction.atomic
def load_demo_game(*, judge, seed: int = 6) -> GameSession:
    """A demo game between the two bots, a few turns in; with a worker running (make
    run) the bots go on moving every couple of seconds, for watching on the play page."""
    existing = GameSession.objects.filter(kind=GameSession.Kind.DEMO, created_by=judge).first()
    if existing is not None:
        return existing
    rng = random.Random(seed)
    sets = [[d.to_dict() for d in random_valid_set(rng)] for _ in range(2)]
    session = services.create_demo_game(
        by=judge, sets=sets, bots=("heuristic", "heuristic"), bot_delay=2.0
    )
    # A few moves in, so the board is not empty, but never to the end: the demo shows a
    # game in progress that the worker then plays on.
    for _ in range(4):
        session.refresh_from_db()
        if (
            session.status != GameSession.Status.ACTIVE
            or services.play_bots(session.pk, session.version) != "moved"
        ):
            break
    return GameSession.objects.get(pk=session.pk)
