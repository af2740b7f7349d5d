"""Demo people for the zero-setup run: an organiser, a judge and players with valid sets."""

import random

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from games.engines.irondie.dice import Colour, Die, DieClass, DieType, playing_set_errors
from players import services
from players.models import DiceSet, Player
from players.roles import JUDGE_GROUP, ORGANISER_GROUP

DEMO_PASSWORD = "irondie-demo"
DEMO_PLAYER_NAMES = [
    "Alessia Conti",
    "Boris Volkov",
    "Chiara Ricci",
    "Dmitri Orlov",
    "Elena Marchetti",
    "Fyodor Sokolov",
    "Giulia Ferrari",
    "Ivan Petrov",
    "Lorenzo Bianchi",
    "Marina Kuznetsova",
    "Nicola Romano",
    "Olga Smirnova",
    "Paolo Greco",
    "Svetlana Popova",
    "Tommaso Gallo",
    "Yulia Morozova",
]


def random_valid_set(rng: random.Random, size: int = 9, max_rare: int = 3) -> list[Die]:
    """A random playing set that passes the rules: every class present, few rares."""
    types_by_class = {c: [t for t in DieType if t.die_class is c] for c in DieClass}
    while True:
        dice = [
            Die(rng.choice(types_by_class[c]), rng.choice(list(Colour)), rng.random() < 0.15)
            for c in DieClass
        ]
        dice += [
            Die(rng.choice(list(DieType)), rng.choice(list(Colour)), rng.random() < 0.15)
            for _ in range(size - 3)
        ]
        rng.shuffle(dice)
        if not playing_set_errors(dice) and sum(d.rare for d in dice) <= max_rare:
            return dice


def _user(username: str, *, staff=False, superuser=False, groups=(), full_name=""):
    """A demo account; ``full_name`` is the public name of staff without a player profile
    (pages show it in place of the private login name)."""
    User = get_user_model()
    first, _, last = full_name.partition(" ")
    user, created = User.objects.get_or_create(
        username=username,
        defaults={"email": f"{username}@example.org", "first_name": first, "last_name": last},
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.is_staff, user.is_superuser = staff, superuser
        user.save()
    for name in groups:
        user.groups.add(Group.objects.get(name=name))
    return user


@transaction.atomic
def load_demo_people(*, players: int = 16, seed: int = 2010) -> dict:
    """Idempotent: running it twice changes nothing the second time."""
    rng = random.Random(seed)
    organiser = _user("organiser", staff=True, groups=[ORGANISER_GROUP], full_name="Marta Ferraro")
    judge = _user("judge", groups=[JUDGE_GROUP], full_name="Anton Belov")
    _user("admin", staff=True, superuser=True)
    created = []
    for index, name in enumerate(DEMO_PLAYER_NAMES[:players], start=1):
        user = _user(f"player{index}")
        player = Player.objects.filter(user=user).first() or services.create_player(
            display_name=name,
            user=user,
            country=rng.choice(["IT", "RU", "DE", "FR", "GB"]),
            club=rng.choice(["Dadi di Ferro", "Kub Club", ""]),
            player_number=f"{1000000000 + index}",
            created_by=organiser,
        )
        if not DiceSet.objects.filter(player=player).exists():
            playing = random_valid_set(rng)
            additional = [
                Die(rng.choice(list(DieType)), rng.choice(list(Colour)), rng.random() < 0.3)
                for _ in range(3)
            ]
            services.create_dice_set(
                player=player,
                name="Main set",
                playing_dice=[d.to_dict() for d in playing],
                additional_dice=[d.to_dict() for d in additional],
            )
        created.append(player)
    return {"organiser": organiser, "judge": judge, "players": created}
