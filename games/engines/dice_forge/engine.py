"""The Dice Forge rules for 2 to 4 players: divine blessings, forging faces, heroic feats,
the extra action, 9 or 10 rounds, ties shared.

docs/rules-dice-forge.md quotes the rulebook (../shared/rules/dice-forge-rulebook.txt),
lists the component set (faces, sanctuary pools, feat cards, reserve maxima) with its
source and decides every ambiguity; the comments below name those decisions ("F1" ...).
Pure Python, no Django. A state is never edited once returned: ``apply`` works on a copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from ..errors import ConfigError, IllegalAction, check_config, gettext_noop
from ..seeded import commitment, next_roll

GAME = "dice-forge"
SEATS = (2, 4)
JUDGE = "judge"
SPECTATOR = "spectator"
SYSTEM = "system"
RESOURCES = ("gold", "sun", "moon", "glory")
GOLD, SUN, MOON, GLORY = 0, 1, 2, 3

# F2: the rulebook's setup table.
ROUNDS = {2: 9, 3: 10, 4: 9}
START_GOLD = (3, 2, 1, 0)
BLESSINGS_PER_TURN = {2: 2, 3: 1, 4: 1}
FACES_PER_POOL = {2: 2, 3: 4, 4: 4}
EXTRA_ACTION_SUN = 2

# F3: the Hero Inventory's reserve tracks (gold, sun, moon); glory has no maximum. Each
# Blacksmith's Chest raises them.
RESERVE_MAX = (12, 6, 6)
CHEST_BONUS = (4, 3, 3)


def _parse_face(face: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A face id names its gains: "gold3" (3 gold), "gold2+moon1" (both), "gold1/sun1/moon1"
    (the roller chooses one)."""
    mode = "choice" if "/" in face else "all"
    parts = face.replace("/", "+").split("+")
    gains = []
    for part in parts:
        name = part.rstrip("0123456789")
        gains.append((RESOURCES.index(name), int(part[len(name) :])))
    return mode, tuple(gains)


# F4: the two starting dice (Light and Dark), six faces each, slot 0 to 5.
START_DICE = (
    ("gold1", "gold1", "gold1", "gold1", "gold1", "sun1"),
    ("gold1", "gold1", "gold1", "gold1", "moon1", "glory2"),
)
DIE_NAMES = ("light", "dark")

# F5: the Sanctuary, ten pools: (price in gold, faces for 3-4 players). With 2 players a
# pool holds its first two faces.
POOLS = (
    (2, ("gold3", "gold3", "gold3", "gold3")),
    (2, ("moon1", "moon1", "moon1", "moon1")),
    (3, ("gold4", "gold4", "gold4", "gold4")),
    (3, ("sun1", "sun1", "sun1", "sun1")),
    (4, ("gold1/sun1/moon1", "gold2+moon1", "sun1+glory1", "gold6")),
    (5, ("moon2", "moon2", "moon2", "moon2")),
    (6, ("sun2", "sun2", "sun2", "sun2")),
    (8, ("glory3", "glory3", "glory3", "glory3")),
    (8, ("moon2+glory2", "moon2+glory2", "moon2+glory2", "moon2+glory2")),
    (12, ("glory4", "gold2/sun2/moon2", "gold1+sun1+moon1+glory1", "sun2+glory2")),
)

FACES = {
    face: _parse_face(face)
    for face in dict.fromkeys(
        [*(f for die in START_DICE for f in die), *(f for _price, faces in POOLS for f in faces)]
    )
}
# F14, F15: the two special faces, forged by a heroic feat, never sold in the Sanctuary.
X3 = "x3"  # the Helmet of Invisibility: triples the other die's face
MIRROR = "mirror"  # the Mirror of the Abyss: copies a face another player shows
SHIP = "ship"  # the Celestial Ship (alternate): a Sanctuary face 2 gold cheaper
SPECIAL_FACES = (X3, MIRROR, SHIP)
SHIP_DISCOUNT = 2
# F28: the Tenacious Boar's faces, one per owner ("boar0" is seat 0's boar), forged onto
# another player's die for good: its bearer takes 1 sun or 1 moon shard and its owner
# 1 sun shard, 1 moon shard or 3 glory each time its effects apply.
BOAR = "boar"
BOAR_FACES = {f"{BOAR}{seat}": ("choice", ((SUN, 1), (MOON, 1))) for seat in range(4)}
BOAR_GAIN = "sun1/moon1/glory3"
BOAR_FORGE = "boar:"  # the bearer's pending placement: "boar:<owner>"
# F29: the Guardian's Shield's four faces: (resource, amount) shown; 5 glory instead when
# the other die's face shows the same resource.
SHIELDS = {
    "shield_gold": (GOLD, 3),
    "shield_sun": (SUN, 2),
    "shield_moon": (MOON, 2),
    "shield_glory": (GLORY, 3),
}
SHIELD_GLORY = 5
SHIELD_CARD = "guardians_shield"
BOAR_CARD = "tenacious_boar"
# The choice faces that are no Sanctuary face: the Boar's for its bearer and its owner.
CARD_FACES = {**BOAR_FACES, BOAR_GAIN: _parse_face(BOAR_GAIN)}

# F6: the heroic feats: island (portal), price in shards, glory, and kind: "instant" (an
# effect when taken, pile 1), "reinforcement" (step 2 of its owner's turn, pile 3) or
# "permanent" (the chest, the hammer). F14-F19: the six cards of the first-game set that
# bring more rules (the Satyrs, the Helmet, the Cancer, the Minotaur, the Mirror, the
# Sphinx). Listed island by island, as the Islands board sets them out.
CARDS = {
    "blacksmiths_hammer": {"island": "moon_1", "cost": (0, 0, 1), "glory": 0, "kind": "permanent"},
    "blacksmiths_chest": {"island": "moon_1", "cost": (0, 0, 1), "glory": 2, "kind": "permanent"},
    "silver_hind": {"island": "moon_2", "cost": (0, 0, 2), "glory": 2, "kind": "reinforcement"},
    "satyrs": {"island": "moon_2", "cost": (0, 0, 3), "glory": 6, "kind": "instant"},
    "ferryman": {"island": "moon_3", "cost": (0, 0, 4), "glory": 12, "kind": "instant"},
    "helmet_of_invisibility": {
        "island": "moon_3",
        "cost": (0, 0, 5),
        "glory": 4,
        "kind": "instant",
    },
    "cancer": {"island": "centre", "cost": (0, 0, 6), "glory": 8, "kind": "instant"},
    "elder": {"island": "sun_1", "cost": (0, 1, 0), "glory": 0, "kind": "reinforcement"},
    "wild_spirits": {"island": "sun_1", "cost": (0, 1, 0), "glory": 2, "kind": "instant"},
    "guardians_owl": {"island": "sun_2", "cost": (0, 2, 0), "glory": 4, "kind": "reinforcement"},
    "minotaur": {"island": "sun_2", "cost": (0, 3, 0), "glory": 8, "kind": "instant"},
    "gorgon": {"island": "sun_3", "cost": (0, 4, 0), "glory": 14, "kind": "instant"},
    "mirror_of_the_abyss": {"island": "sun_3", "cost": (0, 5, 0), "glory": 10, "kind": "instant"},
    "sphinx": {"island": "centre", "cost": (0, 6, 0), "glory": 10, "kind": "instant"},
    "hydra": {"island": "centre", "cost": (0, 5, 5), "glory": 26, "kind": "instant"},
}
# The cards whose feat names where their face is forged (die and slot), and the card
# whose feat names the die it rolls (the Sphinx).
FORGING_CARDS = {
    "helmet_of_invisibility": X3,
    "mirror_of_the_abyss": MIRROR,
    "celestial_ship": SHIP,
}
SPHINX_ROLLS = 4  # F19: four minor blessings with the chosen die
CANCER_BLESSINGS = 2  # F16: two divine blessings
CARD_NAMES = tuple(CARDS)  # the first-game set, location by location
ISLANDS = tuple(dict.fromkeys(card["island"] for card in CARDS.values()))
# F11, F20-F22: alternate cards ("II. Using Different Heroic Feat Cards"), each swapped for
# the first-game card of its location (same island, same cost) when the config's
# "variants" names it.
ALTERNATES = {
    "great_bear": {
        "replaces": "silver_hind",
        "island": "moon_2",
        "cost": (0, 0, 2),
        "glory": 2,
        "kind": "permanent",
    },
    "sentinel": {
        "replaces": "cancer",
        "island": "centre",
        "cost": (0, 0, 6),
        "glory": 6,
        "kind": "instant",
    },
    "cyclops": {
        "replaces": "sphinx",
        "island": "centre",
        "cost": (0, 6, 0),
        "glory": 8,
        "kind": "instant",
    },
    "celestial_ship": {
        "replaces": "guardians_owl",
        "island": "sun_2",
        "cost": (0, 2, 0),
        "glory": 4,
        "kind": "instant",
    },
    "cerberus": {
        "replaces": "ferryman",
        "island": "moon_3",
        "cost": (0, 0, 4),
        "glory": 6,
        "kind": "instant",
    },
    "triton": {
        "replaces": "gorgon",
        "island": "sun_3",
        "cost": (0, 4, 0),
        "glory": 8,
        "kind": "instant",
    },
    "typhon": {
        "replaces": "hydra",
        "island": "centre",
        "cost": (0, 5, 5),
        "glory": 16,
        "kind": "instant",
    },
    BOAR_CARD: {
        "replaces": "satyrs",
        "island": "moon_2",
        "cost": (0, 0, 3),
        "glory": 4,
        "kind": "instant",
    },
    SHIELD_CARD: {
        "replaces": "minotaur",
        "island": "sun_2",
        "cost": (0, 3, 0),
        "glory": 6,
        "kind": "instant",
    },
}
CARDS.update(
    {name: {k: v for k, v in info.items() if k != "replaces"} for name, info in ALTERNATES.items()}
)


def _face_info(face: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A resource face's (mode, gains): a Sanctuary or starting face, or a Boar's."""
    return FACES.get(face) or CARD_FACES[face]


GREAT_BEAR_GLORY = 3  # F20: per Great Bear owned, each time its owner ousts or is ousted
TRITON_GAINS = {"gold": 6, "sun": 2, "moon": 2}  # F21: a Triton token, spent once
# F24, F25: the Sentinel's and the Cyclops' blessings offer to turn what they give into
# glory: (the resources, glory per unit).
CONVERTING = {"sentinel": ((SUN, MOON), 2), "cyclops": ((GOLD,), 1)}
CONVERT = "convert:"  # a pending conversion: "convert:<card>:<resource>:<amount>"
TOKEN_CARDS = ("cerberus", "triton")  # F21, F23: cards that bring a single-use token
REINFORCEMENTS = tuple(name for name in CARD_NAMES if CARDS[name]["kind"] == "reinforcement")
ELDER_PRICE, ELDER_GLORY = 3, 4  # F7: the Elder turns 3 gold into 4 glory
WILD_SPIRITS_GAIN = ((GOLD, 3), (MOON, 3))
# F12: the Blacksmith's Hammer track: 15 gold on it gives 10 glory, 30 another 15 and the
# hammer is done (the next one owned, if any, starts).
HAMMER_STEPS = ((15, 10), (30, 15))
HAMMER_END = 30
HAMMER = "hammer:"  # a pending split of gold between the reserve and the hammer
# Other pending decisions, one string each (public, in the view's "pending"):
# "gold1/sun1/moon1" a choice face; "3*gold1/sun1/moon1" the same tripled (F14) and
# "-gold1/sun1/moon1" or "-3*..." a loss to the Minotaur (F17); "mirror:F:a|b|c" a Mirror
# to copy one of the faces a, b, c with the factor F (F15); "satyrs:a|b|c|d" two of the
# faces a, b, c, d to take (F18).
MIRRORING = "mirror:"
SATYRS = "satyrs:"

PHASES = ("reinforce", "action", "forge", "extra", "over")


def normalise_config(config: dict) -> dict:
    game_id, seats = check_config(config, {"game_id", "seats", "variants"}, SEATS)
    variants = config.get("variants", [])
    if (
        not isinstance(variants, list | tuple)
        or any(not isinstance(v, str) or v not in ALTERNATES for v in variants)
        or len(set(variants)) != len(variants)
    ):
        raise ConfigError(
            gettext_noop(
                "Dice Forge's variants are alternate cards, each at most once: %(cards)s."
            ),
            cards=", ".join(ALTERNATES),
        )
    return {
        "game_id": game_id,
        "seats": seats,
        "variants": [v for v in ALTERNATES if v in variants],
    }


class State:
    """A game in progress. Serialise with ``to_dict()`` (it holds the seed: server and
    judges only) and restore with ``State.from_dict()``; players get ``view()``."""

    __slots__ = (
        "deck",
        "convert",
        "config",
        "game_id",
        "seats",
        "seed",
        "commitment",
        "round",
        "rounds",
        "turn",
        "active",
        "phase",
        "dice",
        "up",
        "res",
        "chests",
        "hammers",
        "hammer",
        "cards",
        "used",
        "pools",
        "stacks",
        "pawns",
        "pending",
        "bought",
        "extra_taken",
        "over",
        "end_reason",
        "log",
        "rolls",
        "roll_position",
        "scripted_rolls",
    )

    def clone(self) -> State:
        c = State.__new__(State)
        c.deck = self.deck
        c.convert = None  # set only while an action resolves
        c.config = self.config
        c.game_id = self.game_id
        c.seats = self.seats
        c.seed = self.seed
        c.commitment = self.commitment
        c.round = self.round
        c.rounds = self.rounds
        c.turn = self.turn
        c.active = self.active
        c.phase = self.phase
        c.dice = self.dice  # replaced (per seat) by _forge, never edited in place
        c.up = [u.copy() for u in self.up]
        c.res = [r.copy() for r in self.res]
        c.chests = self.chests.copy()
        c.hammers = self.hammers.copy()
        c.hammer = self.hammer.copy()
        c.cards = self.cards  # replaced (per seat) by _feat, never edited in place
        c.used = self.used  # replaced (per seat) by _reinforce and _start_turn
        c.pools = self.pools  # replaced by _forge, never edited in place
        c.stacks = self.stacks.copy()
        c.pawns = self.pawns.copy()
        c.pending = self.pending.copy()  # its [seat, code] entries are never edited
        c.bought = self.bought.copy()
        c.extra_taken = self.extra_taken
        c.over = self.over
        c.end_reason = self.end_reason
        c.log = self.log.copy()
        c.rolls = self.rolls  # copied by _own_rolls before a roll, never edited in place
        c.roll_position = self.roll_position
        c.scripted_rolls = self.scripted_rolls  # replaced by _roll, never edited
        return c

    @property
    def sudden_death_from(self):
        """The games layer's time-limit marker: the game ends at once on the time limit."""
        return None

    def to_dict(self) -> dict:
        return {
            "format": 1,
            "game": GAME,
            "config": self.config,
            "seed": self.seed,
            "commitment": self.commitment,
            "round": self.round,
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "dice": [[list(die) for die in dice] for dice in self.dice],
            "up": [list(u) for u in self.up],
            "res": [list(r) for r in self.res],
            "chests": list(self.chests),
            "hammers": list(self.hammers),
            "hammer": list(self.hammer),
            "cards": [list(c) for c in self.cards],
            "used": [list(u) for u in self.used],
            "pools": [list(p) for p in self.pools],
            "stacks": list(self.stacks),
            "pawns": list(self.pawns),
            "pending": [list(p) for p in self.pending],
            "bought": list(self.bought),
            "extra_taken": self.extra_taken,
            "over": self.over,
            "end_reason": self.end_reason,
            "log": [[actor, action] for actor, action in self.log],
            "rolls": list(self.rolls),
            "roll_position": self.roll_position,
            "scripted_rolls": list(self.scripted_rolls),
        }

    @classmethod
    def from_dict(cls, d: dict) -> State:
        s = _blank(d["config"], d["seed"])
        s.commitment = d["commitment"]
        for name in (
            "round",
            "turn",
            "active",
            "phase",
            "extra_taken",
            "over",
            "end_reason",
            "roll_position",
        ):
            setattr(s, name, d[name])
        s.dice = [[list(die) for die in dice] for dice in d["dice"]]
        for name in ("up", "res", "cards", "used", "pools", "pending"):
            setattr(s, name, [list(x) for x in d[name]])
        for name in (
            "chests",
            "hammers",
            "hammer",
            "stacks",
            "pawns",
            "bought",
            "rolls",
            "scripted_rolls",
        ):
            setattr(s, name, list(d[name]))
        s.log = [(actor, action) for actor, action in d["log"]]
        return s

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None


def _blank(config: dict, seed: str) -> State:
    config = normalise_config(config)
    if not isinstance(seed, str) or not seed:
        raise ConfigError(gettext_noop("The seed must be a non-empty string."))
    s = State.__new__(State)
    s.config = config
    s.deck = _deck(tuple(config["variants"]))
    s.convert = None
    s.game_id = config["game_id"]
    s.seats = config["seats"]
    s.rounds = ROUNDS[s.seats]
    s.seed = seed
    s.commitment = commitment(seed)
    return s


def new_game(config: dict, seed: str) -> State:
    """F1: seat 0 is the first player; gold 3/2/1/0 by turn order; every pawn on its
    starting portal (``None``); each card stack holds one card per player; then the first
    turn's divine blessings."""
    s = _blank(config, seed)
    n = s.seats
    s.round = 1
    s.turn = 1
    s.active = 0
    s.phase = "reinforce"
    s.dice = [[list(die) for die in START_DICE] for _ in range(n)]
    s.up = [[0, 0] for _ in range(n)]
    s.res = [[START_GOLD[seat], 0, 0, 0] for seat in range(n)]
    s.chests = [0] * n
    s.hammers = [0] * n
    s.hammer = [0] * n
    s.cards = [[] for _ in range(n)]
    s.used = [[] for _ in range(n)]
    s.pools = [list(faces[: FACES_PER_POOL[n]]) for _price, faces in POOLS]
    s.stacks = [n] * len(s.deck.names)
    s.pawns = [None] * n
    s.pending = []
    s.bought = []
    s.extra_taken = False
    s.over = False
    s.end_reason = None
    s.log = []
    s.rolls = []
    s.roll_position = 0
    s.scripted_rolls = []
    events: list[dict] = []
    _start_turn(s, events)
    return s


# ---------------------------------------------------------------------------
# Seats, placings


def seat_count(config: dict) -> int:
    return normalise_config(config)["seats"]


def teams(config: dict) -> list[int]:
    return list(range(normalise_config(config)["seats"]))


def scores(state: State) -> list[int]:
    return [r[GLORY] for r in state.res]


def placings(state: State) -> list[int] | None:
    """Once over: most glory first; equal glory shares a placing (1, 1, 3): the rulebook's
    "all the tied players share the victory". A seat that forfeited (F27) comes last."""
    if not state.over:
        return None
    out = forfeited(state)
    keys = [(seat in out, -glory) for seat, glory in enumerate(scores(state))]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def forfeited(state: State) -> set[int]:
    """The seats that forfeited (F27: the system's ``forfeit`` in the log)."""
    return {
        action["player"]
        for actor, action in state.log
        if actor == SYSTEM and action.get("kind") == "forfeit"
    }


def to_act(state: State) -> set[int]:
    if state.over:
        return set()
    if state.pending:
        return {seat for seat, _face in state.pending}
    return {state.active}


def is_over(state: State) -> bool:
    return state.over


def result(state: State) -> dict | None:
    if not state.over:
        return None
    places = placings(state)
    winners = [seat for seat in range(state.seats) if places[seat] == 1]
    return {
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "placings": places,
        "scores": scores(state),
        "reason": state.end_reason,
        "rounds": state.round if state.end_reason == "time_limit" else state.rounds,
        "turns": state.turn,
    }


# ---------------------------------------------------------------------------
# Reserves


def reserve_max(state: State, seat: int) -> tuple[int, int, int]:
    chests = state.chests[seat]
    if not chests:
        return RESERVE_MAX
    return tuple(RESERVE_MAX[r] + chests * CHEST_BONUS[r] for r in range(3))


def _gain(s: State, seat: int, resource: int, amount: int) -> int:
    """F3: over a track's maximum the extra is lost. Returns what was kept."""
    res = s.res[seat]
    before = res[resource]
    if resource == GLORY:
        res[resource] = before + amount
        return amount
    top = RESERVE_MAX[resource] + s.chests[seat] * CHEST_BONUS[resource]
    res[resource] = min(before + amount, top)
    return res[resource] - before


# ---------------------------------------------------------------------------
# Rolls and blessings


def _own_rolls(s: State) -> None:
    """States share their roll list until one rolls: every rolling path calls this once."""
    s.rolls = s.rolls.copy()


def _roll(s: State) -> int:
    if s.scripted_rolls:
        value = s.scripted_rolls[0]
        s.scripted_rolls = s.scripted_rolls[1:]
    else:
        value, s.roll_position = next_roll(GAME, s.seed, s.game_id, s.roll_position)
    s.rolls.append(value)
    return value


def _receive(s: State, seat: int, resource: int, amount: int, events: list) -> None:
    """A gain of a resource: gold for the owner of an unfinished hammer waits for its
    owner's split (F12); everything else goes to the reserve at once."""
    if s.convert and seat == s.active and amount and resource in CONVERTING[s.convert][0]:
        # F24, F25: the card's owner decides how much of it becomes glory.
        s.pending.append([seat, f"{CONVERT}{s.convert}:{resource}:{amount}"])
        return
    if resource == GOLD and s.hammers[seat] and amount:
        s.pending.append([seat, f"{HAMMER}{amount}"])
        return
    kept = _gain(s, seat, resource, amount)
    events.append({"type": "gain", "seat": seat, "resource": RESOURCES[resource], "amount": kept})


def _lose(s: State, seat: int, resource: int, amount: int, events: list) -> None:
    """F17: a loss to the Minotaur takes from the reserve (never below 0; gold on a hammer
    track stays there)."""
    res = s.res[seat]
    lost = min(res[resource], amount)
    res[resource] -= lost
    events.append({"type": "loss", "seat": seat, "resource": RESOURCES[resource], "amount": lost})


def _resolve_face(
    s: State, seat: int, face: str, events: list, factor: int = 1, other: str | None = None
) -> None:
    """A face takes effect ``factor`` times (3 with the x3 face, F14); a negative factor
    is a loss (the Minotaur, F17). A choice face or a Mirror waits for its owner's
    decision. The x3 face alone (a minor blessing) does nothing. ``other`` is the face
    beside it in a divine blessing (a Guardian's Shield compares with it, F29)."""
    if face in SPECIAL_FACES:
        if face == SHIP and factor > 0:
            # F26: one Sanctuary face, 2 gold cheaper, forged at once (or not).
            s.pending.append([seat, SHIP])
        elif face == MIRROR:
            options = _mirror_options(s, seat)
            if options:
                code = f"{MIRRORING}{factor}:{'|'.join(options)}"
                s.pending.append([seat, _flagged(s, seat, code)])
            else:
                events.append({"type": "mirror", "seat": seat, "face": None})
        return
    if face in SHIELDS:
        # F29: 5 glory when the other die's face shows the shield's resource.
        resource, amount = SHIELDS[face]
        matched = other is not None and resource in _shown(other)
        if matched:
            resource, amount = GLORY, SHIELD_GLORY
        events.append({"type": "shield", "seat": seat, "face": face, "matched": matched})
        if factor > 0:
            _receive(s, seat, resource, amount * factor, events)
        else:
            _lose(s, seat, resource, -amount * factor, events)
        return
    if face in BOAR_FACES:
        # F28: the Boar's owner gains too, once, even from a loss to the Minotaur.
        owner = int(face[len(BOAR) :])
        if owner < s.seats and owner not in forfeited(s):
            events.append({"type": "boar", "seat": owner, "bearer": seat})
            s.pending.append([owner, BOAR_GAIN])
    mode, gains = _face_info(face)
    if mode == "choice":
        code = face if factor == 1 else f"{factor}*{face}"
        s.pending.append([seat, _flagged(s, seat, code)])
        return
    for resource, amount in gains:
        if factor > 0:
            _receive(s, seat, resource, amount * factor, events)
        else:
            _lose(s, seat, resource, -amount * factor, events)


def _shown(face: str) -> set[int]:
    """The resources a face shows (F29): those of a resource face (either kind), a
    shield's own; none for the x3, Mirror and Ship faces."""
    if face in SHIELDS:
        return {SHIELDS[face][0]}
    if face in SPECIAL_FACES:
        return set()
    return {resource for resource, _amount in _face_info(face)[1]}


def _flagged(s: State, seat: int, code: str) -> str:
    """A choice made later for a Sentinel's or a Cyclops' blessing still converts: its
    code carries the card ("sentinel@gold1/sun1/moon1")."""
    if s.convert and seat == s.active:
        return f"{s.convert}@{code}"
    return code


def _resolve_pair(s: State, seat: int, first: str, second: str, events: list, sign=1) -> None:
    """Both faces of a divine blessing (or the two the Satyrs take): an x3 face triples
    the other one (two x3 faces do nothing), F14."""
    if first == X3 or second == X3:
        if first != second:
            _resolve_face(s, seat, second if first == X3 else first, events, 3 * sign, X3)
        return
    _resolve_face(s, seat, first, events, sign, second)
    _resolve_face(s, seat, second, events, sign, first)


def _mirror_options(s: State, seat: int) -> list[str]:
    """F15: the faces the other players show, in turn order from the next seat, each once;
    a Mirror copies no special face (x3, Mirror, Ship)."""
    out = []
    for other in _others_in(s, seat):
        for die in (0, 1):
            face = s.dice[other][die][s.up[other][die]]
            if face not in SPECIAL_FACES and face not in out:
                out.append(face)
    return out


def _others_in(s: State, seat: int) -> list[int]:
    """The other seats in turn order from the next one, without those that conceded (F27:
    their dice are out of the game, for the Minotaur, the Satyrs and the Mirror too)."""
    out = forfeited(s)
    return [(seat + k) % s.seats for k in range(1, s.seats) if (seat + k) % s.seats not in out]


def _roll_die(s: State, seat: int, die: int, events: list) -> str:
    slot = _roll(s) - 1
    s.up[seat][die] = slot
    face = s.dice[seat][die][slot]
    events.append({"type": "roll", "seat": seat, "die": die, "slot": slot, "face": face})
    return face


def _minor_blessing(s: State, seat: int, die: int, events: list) -> None:
    """Roll one die: its face comes up and takes effect."""
    _resolve_face(s, seat, _roll_die(s, seat, die, events), events)


def _divine_blessing(s: State, seat: int, events: list, sign: int = 1) -> None:
    """Both dice rolled (the Light die first), then both faces take effect (lost instead
    with ``sign`` -1, the Minotaur)."""
    first = _roll_die(s, seat, 0, events)
    second = _roll_die(s, seat, 1, events)
    if first in FACES and second in FACES and sign == 1:  # two plain faces
        _resolve_face(s, seat, first, events)
        _resolve_face(s, seat, second, events)
    else:
        _resolve_pair(s, seat, first, second, events, sign)


def _start_turn(s: State, events: list) -> None:
    """Step 1: every player gets a divine blessing, in turn order from the active player
    (twice with two players, F2)."""
    _own_rolls(s)
    events.append({"type": "turn", "turn": s.turn, "round": s.round, "seat": s.active})
    out = forfeited(s)
    for _ in range(BLESSINGS_PER_TURN[s.seats]):
        for k in range(s.seats):
            if (s.active + k) % s.seats not in out:  # F27: a seat that conceded is out
                _divine_blessing(s, (s.active + k) % s.seats, events)
    if s.used[s.active]:
        s.used = s.used.copy()
        s.used[s.active] = []
    s.bought = []
    s.extra_taken = False
    s.phase = "reinforce"
    _settle(s, events)


def _reinforcements_left(s: State) -> list[str]:
    seat = s.active
    if not s.cards[seat]:
        return []
    left = []
    for name in REINFORCEMENTS:
        if s.cards[seat].count(name) > s.used[seat].count(name):
            left.append(name)
    return left


def _settle(s: State, events: list) -> None:
    """Move on past steps with nothing to decide (no pending choice)."""
    while not s.over and not s.pending:
        if (
            s.phase == "reinforce"
            and not _reinforcements_left(s)
            and not (s.cards[s.active] and tokens(s, s.active, "cerberus"))  # F23: step 2
        ):
            s.phase = "action"
            continue
        if s.phase == "extra" and (s.extra_taken or s.res[s.active][SUN] < EXTRA_ACTION_SUN):
            # F8: one extra action a turn, for 2 sun shards.
            _end_turn(s, events)
            continue
        return


def _end_turn(s: State, events: list) -> None:
    """The next seat's turn (a seat that conceded is passed over, F27); the round ends
    when play comes back round to seat 0."""
    out = forfeited(s)
    seat = s.active
    while True:
        seat = (seat + 1) % s.seats
        if seat == 0:
            if s.round >= s.rounds:
                s.active = 0
                _finish(s, "rounds", events)
                return
            s.round += 1
        if seat not in out:
            break
    s.active = seat
    s.turn += 1
    _start_turn(s, events)


def _finish(s: State, reason: str, events: list) -> None:
    s.over = True
    s.end_reason = reason
    s.phase = "over"
    s.pending = []
    events.append({"type": "game_over", "reason": reason, "placings": placings(s), "seed": s.seed})


# ---------------------------------------------------------------------------
# Legal actions


# Every place a face can be forged: (die, slot).
_ALL_PLACES = tuple((die, slot) for die in (0, 1) for slot in range(6))


def _fixed(s: State, seat: int, die: int, slot: int) -> bool:
    """F28: a Boar's face stays on its bearer's die for the rest of the game."""
    return s.dice[seat][die][slot] in BOAR_FACES


def _free_places(s: State, seat: int) -> tuple[tuple[int, int], ...]:
    """The places a face may be forged over (all but a Boar's face, F28)."""
    if not s.deck.limited:
        return _ALL_PLACES
    return tuple(place for place in _ALL_PLACES if not _fixed(s, seat, *place))


def _forge_actions(s: State) -> list[dict]:
    seat = s.active
    gold = s.res[seat][GOLD]
    places = _free_places(s, seat)
    out = []
    for p, (price, _faces) in enumerate(POOLS):
        if price > gold or p in s.bought:
            continue
        for face in _pool_faces(s.pools[p]):
            for die, slot in places:
                out.append({"kind": "forge", "pool": p, "face": face, "die": die, "slot": slot})
    return out


def _feat_options(name: str) -> tuple[dict, ...]:
    """A feat's actions: the card alone, or with where its face is forged (die 0-1, slot
    0-5: the Helmet, the Mirror), or with the die it rolls (the Sphinx)."""
    if name in FORGING_CARDS:
        return tuple(
            {"kind": "feat", "card": name, "die": die, "slot": slot}
            for die in (0, 1)
            for slot in range(6)
        )
    if name == SHIELD_CARD:  # F29: the shield face of the player's choice, and where
        return tuple(
            {"kind": "feat", "card": name, "face": face, "die": die, "slot": slot}
            for face in SHIELDS
            for die in (0, 1)
            for slot in range(6)
        )
    if name == BOAR_CARD:  # F28: the other player who bears the Boar's face
        return tuple({"kind": "feat", "card": name, "bearer": seat} for seat in range(SEATS[1]))
    if name in ("sphinx", "cyclops"):
        return tuple({"kind": "feat", "card": name, "die": die} for die in (0, 1))
    return ({"kind": "feat", "card": name},)


class Deck(NamedTuple):
    """A game's cards, location by location (the first-game set with the config's
    alternates swapped in): names, (index, feat options, gold, sun, moon) per card, index
    by name, each card's public facts for the view, and whether the options of a card
    (the Boar's bearers, the Shield's faces) or the places a face may go depend on the
    game (F28, F29)."""

    names: tuple[str, ...]
    costs: tuple[tuple, ...]
    index: dict[str, int]
    view: tuple[dict, ...]
    limited: bool


@lru_cache(maxsize=64)
def _deck(variants: tuple[str, ...]) -> Deck:
    swaps = {ALTERNATES[name]["replaces"]: name for name in variants}
    names = tuple(swaps.get(name, name) for name in CARD_NAMES)
    view = tuple(
        {
            "card": name,
            "island": CARDS[name]["island"],
            "glory": CARDS[name]["glory"],
            "kind": CARDS[name]["kind"],
            "cost": dict(zip(("gold", "sun", "moon"), CARDS[name]["cost"], strict=True)),
        }
        for name in names
    )
    return Deck(
        names,
        tuple((c, _feat_options(name), *CARDS[name]["cost"]) for c, name in enumerate(names)),
        {name: c for c, name in enumerate(names)},
        view,
        BOAR_CARD in names or SHIELD_CARD in names,
    )


def _affordable(s: State) -> list[tuple[dict, ...]]:
    """The feat options (``_feat_options``) of every card the active player can pay for
    and whose stack is not empty, in card order."""
    gold, sun, moon, _glory = s.res[s.active]
    stacks = s.stacks
    out = [
        options
        for c, options, g, su, mo in s.deck.costs
        if stacks[c] and g <= gold and su <= sun and mo <= moon
    ]
    if s.deck.limited:
        out = [limited for limited in map(lambda o: _limited(s, o), out) if limited]
    return out


def _limited(s: State, options: tuple[dict, ...]) -> tuple[dict, ...]:
    """A card's feat options in this game: a Boar's bearer is another seat still in (F28),
    a Shield's face one not taken yet (F29), and no face goes over a Boar's face."""
    card = options[0]["card"]
    if card == BOAR_CARD:
        out = forfeited(s) | {s.active}
        return tuple(o for o in options if o["bearer"] < s.seats and o["bearer"] not in out)
    if "slot" not in options[0]:
        return options
    free = _free_places(s, s.active)
    left = _shields_left(s) if card == SHIELD_CARD else ()
    return tuple(
        o
        for o in options
        if (o["die"], o["slot"]) in free and ("face" not in o or o["face"] in left)
    )


def _shields_left(s: State) -> list[str]:
    """F29: the shield faces not yet forged (one of each kind in the game)."""
    taken = {
        action["face"]
        for _who, action in s.log
        if action.get("kind") == "feat" and action.get("card") == SHIELD_CARD
    }
    return [face for face in SHIELDS if face not in taken]


def _feat_actions(s: State) -> list[dict]:
    return [dict(option) for options in _affordable(s) for option in options]


def _feat_allowed(s: State, action: dict) -> bool:
    card = action.get("card")
    c = s.deck.index.get(card) if type(card) is str else None
    if c is None or not s.stacks[c]:
        return False
    res = s.res[s.active]
    _c, options, g, su, mo = s.deck.costs[c]
    if s.deck.limited:
        options = _limited(s, options)
    return g <= res[GOLD] and su <= res[SUN] and mo <= res[MOON] and action in options


def _token_actions(s: State) -> list[dict]:
    """F21: spending a Triton token, the active player's choice in steps 2 to 4."""
    if not tokens(s, s.active):
        return []
    return [{"kind": "triton", "resource": r} for r in TRITON_GAINS]


def _reinforce_actions(s: State) -> list[dict]:
    out = [{"kind": "cerberus"}] if tokens(s, s.active, "cerberus") else []
    for name in _reinforcements_left(s):
        if name == "silver_hind":
            out += [{"kind": "reinforce", "card": name, "die": die} for die in (0, 1)]
        elif name == "elder":
            if s.res[s.active][GOLD] >= ELDER_PRICE:
                out.append({"kind": "reinforce", "card": name})
        elif name == "guardians_owl":
            out += [
                {"kind": "reinforce", "card": name, "resource": r} for r in ("gold", "sun", "moon")
            ]
    out += _token_actions(s)
    out.append({"kind": "done"})
    return out


def legal_actions(state: State, player) -> list[dict]:
    if state.over or player not in to_act(state):
        return []
    if state.pending:
        for seat, code in state.pending:
            if seat == player:
                return _pending_actions(state, seat, code)
    phase = state.phase
    if phase == "reinforce":
        return _reinforce_actions(state)
    if phase == "action":
        return [
            *_forge_actions(state),
            *_feat_actions(state),
            *_token_actions(state),
            {"kind": "pass"},
        ]
    if phase == "forge":
        return [*_forge_actions(state), {"kind": "end_forge"}]
    if phase == "extra":
        return [{"kind": "extra"}, {"kind": "end_turn"}, *_token_actions(state)]
    return []


def _pending_actions(state: State, seat: int, code: str) -> list[dict]:
    """The choices of one pending decision (see the codes by ``HAMMER``)."""
    if code == SHIP:
        gold = state.res[seat][GOLD]
        places = _free_places(state, seat)
        out = [
            {"kind": "ship", "pool": p, "face": face, "die": die, "slot": slot}
            for p, (price, _faces) in enumerate(POOLS)
            if max(price - SHIP_DISCOUNT, 0) <= gold
            for face in _pool_faces(state.pools[p])
            for die, slot in places
        ]
        return [*out, {"kind": "ship"}]
    if code.startswith(BOAR_FORGE):  # F28: where the bearer forges the Boar's face
        return [
            {"kind": "boar", "die": die, "slot": slot} for die, slot in _free_places(state, seat)
        ]
    if "@" in code:
        code = code.split("@", 1)[1]
    if code.startswith(CONVERT):
        amount = int(code.rsplit(":", 1)[1])
        return [{"kind": "convert", "count": k} for k in range(amount + 1)]
    if code.startswith(HAMMER):
        room = HAMMER_END - state.hammer[seat]
        most = min(int(code[len(HAMMER) :]), room)
        return [{"kind": "hammer", "gold": k} for k in range(most + 1)]
    if code.startswith(MIRRORING):
        faces = code.split(":", 2)[2].split("|")
        return [{"kind": "mirror", "face": face} for face in faces]
    if code.startswith(SATYRS):
        count = len(code[len(SATYRS) :].split("|"))
        return [
            {"kind": "satyrs", "take": [i, j]} for i in range(count) for j in range(i + 1, count)
        ]
    face = _scaled(code)[1]
    return [{"kind": "choose", "resource": RESOURCES[r]} for r, _amount in _face_info(face)[1]]


def _scaled(code: str) -> tuple[int, str]:
    """A pending choice face's code: (factor, face); "-3*gold1/sun1/moon1" is (-3, ...)."""
    if "*" in code:
        factor, face = code.split("*", 1)
        return int(factor), face
    if code[0] == "-":
        return -1, code[1:]
    return 1, code


def _pool_faces(pool: list[str]) -> list[str]:
    """A pool's distinct faces in order (most pools hold one kind of face)."""
    if not pool or pool[0] == pool[-1]:
        return pool[:1]
    return list(dict.fromkeys(pool))


def legal_actions_besides_forging(state: State, player) -> list[dict]:
    """``legal_actions`` without the forge options (bots read those from the view)."""
    if state.phase in _FORGING and not state.pending and not state.over:
        if player != state.active:
            return []
        if state.phase == "forge":
            return [{"kind": "end_forge"}]
        return [*_feat_actions(state), *_token_actions(state), {"kind": "pass"}]
    return legal_actions(state, player)


def random_action(state: State, player, rng) -> dict | None:
    """A uniformly random legal action; the forge options are counted, not listed."""
    phase = state.phase
    if state.over or state.pending or player != state.active or phase not in _FORGING:
        legal = legal_actions(state, player)
        return rng.choice(legal) if legal else None
    gold = state.res[player][GOLD]
    bought = state.bought
    pools = state.pools
    options = []
    for p, price in _PRICES:
        if price > gold:
            break
        if p not in bought:
            options += [(p, face) for face in _pool_faces(pools[p])]
    # The rest, after the forges: the feats' options in card order, then the pass (in
    # the action phase), or the end of forging.
    affordable = _affordable(state) if phase == "action" else []
    if phase == "action" and state.cards[player] and "triton" in state.cards[player]:
        affordable = [*affordable, tuple(_token_actions(state))]
    places = _free_places(state, player)
    forges = len(options) * len(places)
    index = rng.randrange(forges + sum(map(len, affordable)) + 1)
    if index >= forges:
        index -= forges
        for feat_options in affordable:
            if index < len(feat_options):
                return dict(feat_options[index])
            index -= len(feat_options)
        return {"kind": "pass"} if phase == "action" else {"kind": "end_forge"}
    (p, face), (die, slot) = options[index // len(places)], places[index % len(places)]
    return {"kind": "forge", "pool": p, "face": face, "die": die, "slot": slot}


_FORGING = ("action", "forge")
# Pools by price (cheapest first, as listed): the loop stops at the first one too dear.
_PRICES = tuple(sorted(((p, price) for p, (price, _faces) in enumerate(POOLS)), key=lambda x: x[1]))


def default_action(state: State, player) -> dict | None:
    """When a decision clock runs out: the first resource of a choice face; otherwise the
    passive choice (no reinforcement, no action, no more forging, no extra action)."""
    legal = legal_actions(state, player)
    if not legal:
        return None
    if state.pending:
        return legal[0]
    passive = {"reinforce": "done", "action": "pass", "forge": "end_forge", "extra": "end_turn"}
    return {"kind": passive[state.phase]}


# ---------------------------------------------------------------------------
# Applying actions

_SHAPES = {
    "choose": {"kind", "resource"},
    "hammer": {"kind", "gold"},
    "forge": {"kind", "pool", "face", "die", "slot"},
    "feat": {"kind", "card"},
    "mirror": {"kind", "face"},
    "satyrs": {"kind", "take"},
    "triton": {"kind", "resource"},
    "cerberus": {"kind"},
    "convert": {"kind", "count"},
    "ship": {"kind", "pool", "face", "die", "slot"},
    "boar": {"kind", "die", "slot"},
    "pass": {"kind"},
    "end_forge": {"kind"},
    "done": {"kind"},
    "extra": {"kind"},
    "end_turn": {"kind"},
}


def apply(
    state: State, player, action: dict, events: bool = True
) -> tuple[State, list[dict] | None]:
    """Apply one action; returns (new state, events). Raises IllegalAction and leaves
    ``state`` unchanged when the action is not legal. ``events=False``: None in place of
    the events (this engine builds them anyway; the contract lets it skip them)."""
    s, built = _apply(state, player, action)
    return s, built if events else None


def _apply(state: State, player, action: dict) -> tuple[State, list[dict]]:
    if player == SYSTEM:
        return _apply_system(state, action)
    if type(player) is not int or not 0 <= player < state.seats:
        raise IllegalAction(
            gettext_noop("Game"),
            gettext_noop("The actor must be a seat 0 to %(last)s or 'system'."),
            last=state.seats - 1,
        )
    if state.over:
        raise IllegalAction(gettext_noop("Game"), gettext_noop("The game is over."))
    pending = state.pending
    if not (any(seat == player for seat, _code in pending) if pending else player == state.active):
        raise IllegalAction(
            gettext_noop("The Game's Play"),
            gettext_noop("Seat %(seat)s has nothing to decide now."),
            seat=player,
        )
    if not isinstance(action, dict):
        raise IllegalAction(
            gettext_noop("Game"), gettext_noop("An action must be an object with a 'kind'.")
        )
    _check(state, player, action)
    s = state.clone()
    events: list[dict] = []
    action = dict(action)
    s.log.append((player, action))
    kind = action["kind"]
    # The common kinds first; the cards' own decisions after.
    if kind == "choose":
        _choose(s, player, action["resource"], events)
    elif kind == "forge":
        _forge(s, action, events)
    elif kind == "hammer":
        _hammer(s, player, action["gold"], events)
    elif kind in ("pass", "end_forge"):
        s.phase = "extra"
    elif kind == "end_turn":
        _end_turn(s, events)
    elif kind == "feat":
        _feat(s, action, events)
        s.phase = "extra"
    elif kind == "extra":
        # Step 4: 2 sun shards for one more action (forge or feat).
        s.res[player][SUN] -= EXTRA_ACTION_SUN
        s.extra_taken = True
        s.bought = []
        s.phase = "action"
        events.append({"type": "extra_action", "seat": player})
    elif kind == "done":
        s.phase = "action"
    elif kind == "reinforce":
        _reinforce(s, action, events)
    elif kind == "mirror":
        _mirror(s, player, action["face"], events)
    elif kind == "satyrs":
        _satyrs(s, player, action["take"], events)
    elif kind == "ship":
        _take_pending(s, player)
        if "pool" in action:
            _ship_forge(s, player, action, events)
        else:
            events.append({"type": "ship", "seat": player, "face": None})
    elif kind == "convert":
        _convert(s, player, action["count"], events)
    elif kind == "boar":
        owner = int(_take_pending(s, player)[len(BOAR_FORGE) :])
        _forge_special(
            s, player, BOAR_CARD, action["die"], action["slot"], events, f"{BOAR}{owner}"
        )
    elif kind == "cerberus":
        # F23: the faces the player's dice show (the turn's blessings) take effect again.
        up = s.up[player]
        faces = [s.dice[player][die][up[die]] for die in (0, 1)]
        events.append({"type": "cerberus", "seat": player, "faces": faces})
        _resolve_pair(s, player, faces[0], faces[1], events)
    elif kind == "triton":
        events.append({"type": "triton", "seat": player, "resource": action["resource"]})
        _receive(
            s, player, RESOURCES.index(action["resource"]), TRITON_GAINS[action["resource"]], events
        )
    s.convert = None
    _settle(s, events)
    return s, events


def _check(state: State, player: int, action: dict) -> None:
    """Raise IllegalAction unless ``action`` is one ``legal_actions`` offers (checked
    without listing them: the forge offers hundreds)."""
    kind = action.get("kind")
    if kind not in _SHAPES and kind != "reinforce":
        raise IllegalAction(
            gettext_noop("Game"), gettext_noop("Unknown action kind %(kind)s."), kind=repr(kind)
        )
    for value in action.values():
        if type(value) is bool:
            raise IllegalAction(
                gettext_noop("Game"),
                gettext_noop("Action fields are numbers or names, not true/false."),
            )
        if type(value) is float:
            raise IllegalAction(
                gettext_noop("Game"), gettext_noop("Action numbers are whole numbers.")
            )
    if kind == "satyrs" and not (
        type(action.get("take")) is list and all(type(i) is int for i in action["take"])
    ):
        raise IllegalAction(
            gettext_noop("Heroic Feats"),
            gettext_noop("The Satyrs take two faces by their numbers."),
        )
    if kind == "forge" and state.phase in ("action", "forge") and not state.pending:
        if set(action) != _SHAPES["forge"]:
            raise IllegalAction(
                gettext_noop("Temple"),
                gettext_noop("A forge action names its pool, face, die and slot."),
            )
        p, face, die, slot = action["pool"], action["face"], action["die"], action["slot"]
        if type(p) is not int or not 0 <= p < len(POOLS):
            raise IllegalAction(
                gettext_noop("Temple"),
                gettext_noop("A pool is a number 0 to %(last)s."),
                last=len(POOLS) - 1,
            )
        if p in state.bought:
            raise IllegalAction(
                gettext_noop("Temple"), gettext_noop("One face per pool in a single forge action.")
            )
        if POOLS[p][0] > state.res[player][GOLD]:
            raise IllegalAction(
                gettext_noop("Temple"),
                gettext_noop("That pool's faces cost %(gold)s gold."),
                gold=POOLS[p][0],
            )
        if type(face) is not str or face not in state.pools[p]:
            raise IllegalAction(
                gettext_noop("Temple"), gettext_noop("That face is not in that pool (any more).")
            )
        if type(die) is not int or die not in (0, 1) or type(slot) is not int or not 0 <= slot < 6:
            raise IllegalAction(
                gettext_noop("Temple"), gettext_noop("A face is forged on die 0 or 1, slot 0 to 5.")
            )
        if state.deck.limited and _fixed(state, player, die, slot):
            raise IllegalAction(
                gettext_noop("Heroic Feats"),
                gettext_noop("The Tenacious Boar's face stays on its die for the whole game."),
            )
        return
    if state.phase in ("action", "forge") and not state.pending:
        if state.phase == "forge":
            allowed = action == {"kind": "end_forge"}
        elif kind == "feat":
            allowed = _feat_allowed(state, action)
        elif kind == "triton":
            allowed = action in _token_actions(state)
        else:
            allowed = action == {"kind": "pass"}
        if not allowed:
            raise IllegalAction(
                gettext_noop("The Game's Play"),
                gettext_noop("%(action)s is not legal now."),
                action=repr(action),
            )
        return
    if action not in legal_actions(state, player):
        raise IllegalAction(
            gettext_noop("The Game's Play"),
            gettext_noop("%(action)s is not legal now."),
            action=repr(action),
        )


def _take_pending(s: State, seat: int) -> str:
    """Remove and return the seat's first pending decision (the one its actions answer);
    a card's flag ("sentinel@...") makes the gains it leads to convert (F24, F25)."""
    index = next(i for i, (who, _code) in enumerate(s.pending) if who == seat)
    code = s.pending[index][1]
    del s.pending[index]
    if "@" in code:
        s.convert, code = code.split("@", 1)
    return code


def _convert(s: State, seat: int, count: int, events: list) -> None:
    """F24, F25: ``count`` units of the gain become glory, the rest is received."""
    _prefix, card, resource, amount = _take_pending(s, seat).split(":")
    resource, amount = int(resource), int(amount)
    glory = count * CONVERTING[card][1]
    if glory:
        _gain(s, seat, GLORY, glory)
    events.append(
        {
            "type": "convert",
            "seat": seat,
            "card": card,
            "resource": RESOURCES[resource],
            "count": count,
            "glory": glory,
        }
    )
    if amount - count:
        _receive(s, seat, resource, amount - count, events)


def _choose(s: State, seat: int, resource: str, events: list) -> None:
    factor, face = _scaled(_take_pending(s, seat))
    r = RESOURCES.index(resource)
    amount = next(a for res, a in _face_info(face)[1] if res == r)
    if factor > 0:
        _receive(s, seat, r, amount * factor, events)
    else:
        _lose(s, seat, r, -amount * factor, events)


def _mirror(s: State, seat: int, face: str, events: list) -> None:
    """F15: the Mirror copies the chosen face (with the factor it was rolled with)."""
    factor = int(_take_pending(s, seat).split(":", 2)[1])
    events.append({"type": "mirror", "seat": seat, "face": face})
    _resolve_face(s, seat, face, events, factor)


def _satyrs(s: State, seat: int, take: list[int], events: list) -> None:
    """F18: the two faces taken from the other players' rolls take effect for the active
    player as a divine blessing's two faces would."""
    faces = _take_pending(s, seat)[len(SATYRS) :].split("|")
    first, second = faces[take[0]], faces[take[1]]
    events.append({"type": "satyrs", "seat": seat, "faces": [first, second]})
    _resolve_pair(s, seat, first, second, events)


def _hammer(s: State, seat: int, on_track: int, events: list) -> None:
    """F12: ``on_track`` gold of the pending gain goes on the hammer, the rest to the
    reserve."""
    index = next(i for i, (who, _face) in enumerate(s.pending) if who == seat)
    amount = int(s.pending[index][1][len(HAMMER) :])
    del s.pending[index]
    before = s.hammer[seat]
    after = before + on_track
    glory = sum(g for step, g in HAMMER_STEPS if before < step <= after)
    if glory:
        _gain(s, seat, GLORY, glory)
    if after >= HAMMER_END:
        s.hammers[seat] -= 1
        after = 0
    s.hammer[seat] = after
    events.append({"type": "hammer", "seat": seat, "gold": on_track, "glory": glory})
    waiting = amount - on_track
    if not s.hammers[seat]:
        # The last hammer is done: gold still waiting for a split goes to the reserve.
        for who, face in s.pending:
            if who == seat and face.startswith(HAMMER):
                waiting += int(face[len(HAMMER) :])
        s.pending = [p for p in s.pending if p[0] != seat or not p[1].startswith(HAMMER)]
    if waiting:
        kept = _gain(s, seat, GOLD, waiting)
        events.append({"type": "gain", "seat": seat, "resource": "gold", "amount": kept})


def _reinforce(s: State, action: dict, events: list) -> None:
    seat, card = s.active, action["card"]
    s.used = s.used.copy()
    s.used[seat] = [*s.used[seat], card]
    events.append({"type": "reinforce", "seat": seat, "card": card})
    if card == "silver_hind":
        _own_rolls(s)
        _minor_blessing(s, seat, action["die"], events)
    elif card == "elder":
        s.res[seat][GOLD] -= ELDER_PRICE
        _gain(s, seat, GLORY, ELDER_GLORY)
    elif card == "guardians_owl":
        _receive(s, seat, RESOURCES.index(action["resource"]), 1, events)


def _forge(s: State, action: dict, events: list) -> None:
    """Step 3A: one face from each pool at most per action, paid in gold, forged in place
    of the face of the player's choice; the new face shows."""
    seat, p, face, die, slot = (
        s.active,
        action["pool"],
        action["face"],
        action["die"],
        action["slot"],
    )
    s.res[seat][GOLD] -= POOLS[p][0]
    pools = [pool.copy() for pool in s.pools]
    pools[p].remove(face)
    s.pools = pools
    s.bought.append(p)
    dice = [[faces.copy() for faces in seat_dice] for seat_dice in s.dice]
    removed = dice[seat][die][slot]
    dice[seat][die][slot] = face
    s.dice = dice
    s.up[seat][die] = slot
    s.phase = "forge"
    events.append(
        {
            "type": "forge",
            "seat": seat,
            "pool": p,
            "face": face,
            "die": die,
            "slot": slot,
            "removed": removed,
        }
    )


def _feat(s: State, action: dict, events: list) -> None:
    """Step 3B: pay, move to the card's island's portal (ousting whoever is there: back to
    the start, with a divine blessing at once), take the card, then its effect."""
    seat = s.active
    card = action["card"]
    info = CARDS[card]
    for r in range(3):
        s.res[seat][r] -= info["cost"][r]
    s.stacks[s.deck.index[card]] -= 1
    island = info["island"]
    events.append({"type": "feat", "seat": seat, "card": card, "island": island})
    if s.pawns[seat] != island:
        for other in range(s.seats):
            if other != seat and s.pawns[other] == island:
                s.pawns[other] = None
                events.append({"type": "ousted", "seat": other, "island": island})
                if other not in forfeited(s):  # F27: no blessing for a seat that is out
                    _own_rolls(s)
                    _divine_blessing(s, other, events)
                for bear in (seat, other):
                    _great_bear(s, bear, events)
        s.pawns[seat] = island
    # F20: taken after the move, so a Great Bear counts from the next ousting on.
    s.cards = s.cards.copy()
    s.cards[seat] = [*s.cards[seat], card]
    _gain(s, seat, GLORY, info["glory"])
    if card == "blacksmiths_chest":
        s.chests[seat] += 1
    elif card == "blacksmiths_hammer":
        s.hammers[seat] += 1
    elif card == "wild_spirits":
        for resource, amount in WILD_SPIRITS_GAIN:
            _receive(s, seat, resource, amount, events)
    elif card in FORGING_CARDS:
        _forge_special(s, seat, card, action["die"], action["slot"], events)
    elif card == SHIELD_CARD:
        _forge_special(s, seat, card, action["die"], action["slot"], events, action["face"])
    elif card == BOAR_CARD:
        # F28: the bearer chooses where the face goes (a decision of the "choose" step).
        s.pending.append([action["bearer"], f"{BOAR_FORGE}{seat}"])
    elif card == "typhon":
        glory = _removed_faces(s, seat)
        _gain(s, seat, GLORY, glory)
        events.append({"type": "typhon", "seat": seat, "glory": glory})
    elif card == "cancer":
        _own_rolls(s)
        for _ in range(CANCER_BLESSINGS):
            _divine_blessing(s, seat, events)
    elif card == "sphinx":
        _own_rolls(s)
        for _ in range(SPHINX_ROLLS):
            _minor_blessing(s, seat, action["die"], events)
    elif card == "sentinel":
        _own_rolls(s)
        s.convert = card
        for _ in range(CANCER_BLESSINGS):
            _divine_blessing(s, seat, events)
        s.convert = None
    elif card == "cyclops":
        _own_rolls(s)
        s.convert = card
        for _ in range(SPHINX_ROLLS):
            _minor_blessing(s, seat, action["die"], events)
        s.convert = None
    elif card == "minotaur":
        _own_rolls(s)
        for other in _others_in(s, seat):
            _divine_blessing(s, other, events, sign=-1)
    elif card == "satyrs":
        _own_rolls(s)
        faces = []
        for other in _others_in(s, seat):
            faces += [_roll_die(s, other, 0, events), _roll_die(s, other, 1, events)]
        if len(faces) == 2:
            events.append({"type": "satyrs", "seat": seat, "faces": faces})
            _resolve_pair(s, seat, faces[0], faces[1], events)
        else:
            s.pending.append([seat, SATYRS + "|".join(faces)])


def _great_bear(s: State, seat: int, events: list) -> None:
    """F20: each Great Bear its owner holds gives 3 glory when they oust or are ousted."""
    bears = s.cards[seat].count("great_bear") if s.cards[seat] else 0
    if bears:
        glory = GREAT_BEAR_GLORY * bears
        _gain(s, seat, GLORY, glory)
        events.append({"type": "great_bear", "seat": seat, "glory": glory})


def _removed_faces(s: State, seat: int) -> int:
    """The faces in a player's inventory: one removed by each forge, each Celestial Ship
    forge and each card that forges its face (the log holds them all)."""
    return sum(
        1
        for who, action in s.log
        if who == seat
        and (
            action["kind"] == "forge"
            or (action["kind"] == "ship" and "pool" in action)
            or action["kind"] == "boar"
            or (
                action["kind"] == "feat"
                and (action["card"] in FORGING_CARDS or action["card"] == SHIELD_CARD)
            )
        )
    )


def tokens(state: State, seat: int, card: str = "triton") -> int:
    """F21, F23: the tokens of a card (Triton, Cerberus) a player holds: one per card,
    each spent once (an action named after the card)."""
    cards = state.cards[seat]
    if not cards or card not in cards:
        return 0
    spent = sum(1 for who, action in state.log if who == seat and action["kind"] == card)
    return cards.count(card) - spent


def _ship_forge(s: State, seat: int, action: dict, events: list) -> None:
    """F26: the Celestial Ship's forge: a Sanctuary face for its price less 2 gold, forged
    at once over the face of the player's choice (which then shows)."""
    p, face, die, slot = action["pool"], action["face"], action["die"], action["slot"]
    s.res[seat][GOLD] -= max(POOLS[p][0] - SHIP_DISCOUNT, 0)
    pools = [pool.copy() for pool in s.pools]
    pools[p].remove(face)
    s.pools = pools
    dice = [[faces.copy() for faces in seat_dice] for seat_dice in s.dice]
    removed = dice[seat][die][slot]
    dice[seat][die][slot] = face
    s.dice = dice
    s.up[seat][die] = slot
    events.append(
        {
            "type": "forge",
            "seat": seat,
            "pool": p,
            "face": face,
            "die": die,
            "slot": slot,
            "removed": removed,
            "card": "celestial_ship",
        }
    )


def _forge_special(
    s: State, seat: int, card: str, die: int, slot: int, events: list, face: str | None = None
) -> None:
    """F14, F15, F28, F29: the card's face is forged at once over the face of the
    player's choice (the removed face goes to the inventory) and shows face up."""
    face = face or FORGING_CARDS[card]
    dice = [[faces.copy() for faces in seat_dice] for seat_dice in s.dice]
    removed = dice[seat][die][slot]
    dice[seat][die][slot] = face
    s.dice = dice
    s.up[seat][die] = slot
    events.append(
        {
            "type": "forge",
            "seat": seat,
            "card": card,
            "face": face,
            "die": die,
            "slot": slot,
            "removed": removed,
        }
    )


def _apply_system(state: State, action: dict) -> tuple[State, list[dict]]:
    rule = gettext_noop("Tournament Rules")
    if not isinstance(action, dict):
        raise IllegalAction(rule, gettext_noop("A system action must be an object with a 'kind'."))
    if state.over:
        raise IllegalAction(gettext_noop("Game"), gettext_noop("The game is over."))
    if action.get("kind") == "forfeit" and set(action) == {"kind", "player"}:
        seat = action["player"]
        if type(seat) is not int or not 0 <= seat < state.seats:
            raise IllegalAction(
                rule, gettext_noop("'player' must be a seat 0 to %(last)s."), last=state.seats - 1
            )
        if seat in forfeited(state):
            raise IllegalAction(rule, gettext_noop("Seat %(seat)s is already out."), seat=seat)
        s = state.clone()
        events: list[dict] = [{"type": "forfeit", "seats": [seat]}]
        s.log.append((SYSTEM, {"kind": "forfeit", "player": seat}))
        # F27: the seat is out (placed last); its choices waiting are dropped; the game
        # ends when one seat is left in, else play goes on without it.
        s.pending = [p for p in s.pending if p[0] != seat]
        if s.seats - len(forfeited(s)) <= 1:
            _finish(s, "forfeit", events)
        elif s.active == seat:
            _end_turn(s, events)
        _settle(s, events)
        return s, events
    if action != {"kind": "sudden_death"}:
        raise IllegalAction(
            rule,
            gettext_noop(
                "System actions are {'kind': 'sudden_death'} and 'forfeit' (with 'player')."
            ),
        )
    s = state.clone()
    events = []
    s.log.append((SYSTEM, {"kind": "sudden_death"}))
    # F10: the time limit ends the game at once, glory counted as it stands.
    _finish(s, "time_limit", events)
    return s, events


def enable_sudden_death(state: State) -> tuple[State, list[dict]]:
    return apply(state, SYSTEM, {"kind": "sudden_death"})


def replay(config: dict, seed: str, log: Iterable) -> State:
    state = new_game(config, seed)
    for actor, action in log:
        state, _events = apply(state, actor, action)
    return state


# ---------------------------------------------------------------------------
# Views


def view(state: State, viewer) -> dict:
    """Everything in Dice Forge is public except the seed, which only a judge sees before
    the game is over."""
    if viewer not in (JUDGE, SPECTATOR) and not (
        isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < state.seats
    ):
        raise ValueError(f"Unknown viewer {viewer!r}.")
    acting = sorted(to_act(state))
    if state.over:
        decision = None
    elif state.pending:
        decision = {"seats": acting, "kind": "choose"}
    else:
        decision = {"seats": acting, "kind": state.phase}
    players = []
    for seat in range(state.seats):
        res = state.res[seat]
        players.append(
            {
                "seat": seat,
                "dice": [
                    {
                        "name": DIE_NAMES[d],
                        "faces": list(state.dice[seat][d]),
                        "up": state.up[seat][d],
                    }
                    for d in (0, 1)
                ],
                "gold": res[GOLD],
                "sun": res[SUN],
                "moon": res[MOON],
                "glory": res[GLORY],
                "maximum": list(reserve_max(state, seat)),
                "cards": list(state.cards[seat]),
                "hammers": state.hammers[seat],
                "hammer": state.hammer[seat],
                "pawn": state.pawns[seat],
            }
        )
        held = [card for card in TOKEN_CARDS if card in state.deck.index]
        if held:
            players[-1]["tokens"] = {card: tokens(state, seat, card) for card in held}
    return {
        "game": GAME,
        "viewer": viewer,
        "game_id": state.game_id,
        "config": state.config,
        "commitment": state.commitment,
        "seed": state.seed if state.over or viewer == JUDGE else None,
        "seats": state.seats,
        "teams": list(range(state.seats)),
        "turn": state.turn,
        "round": state.round,
        "rounds": state.rounds,
        "active": state.active,
        "phase": "over" if state.over else "choose" if state.pending else state.phase,
        "to_act": acting,
        "decision": decision,
        "pending": [list(p) for p in state.pending],
        "extra_taken": state.extra_taken,
        "bought": list(state.bought),
        "reinforcements_left": [] if state.over else _reinforcements_left(state),
        "players": players,
        "sanctuary": [
            {"pool": p, "price": POOLS[p][0], "faces": list(state.pools[p])}
            for p in range(len(POOLS))
        ],
        "feats": [
            {**info, "cost": dict(info["cost"]), "left": left}
            for info, left in zip(state.deck.view, state.stacks, strict=True)
        ],
        "scores": scores(state),
        "log": [[actor, action] for actor, action in state.log],
        "rolls": list(state.rolls),
        "over": state.over,
        "result": result(state),
    }


def alter_hidden(state: State, viewer) -> State:
    """A copy with everything ``viewer`` may not see changed: the seed (before the game is
    over, for anyone but a judge)."""
    other = state.clone()
    if viewer != JUDGE and not state.over:
        other.seed = state.seed + "-other"
    return other


def random_config(rng, seats: int | None = None, game_id: str = "random") -> dict:
    """A random playable config: any seat count; a quarter of games swap in alternate
    cards (each then with an even chance)."""
    if seats is None:
        seats = rng.randint(SEATS[0], SEATS[1])
    variants = []
    if rng.random() < 0.25:
        variants = [name for name in ALTERNATES if rng.random() < 0.5]
    return {"game_id": game_id, "seats": seats, "variants": variants}
