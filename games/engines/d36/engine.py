"""The 36d6 rules: 36 neutral dice on a 6x6 board (7x7 with zombies), 2 to 8 players.

docs/rules-36d6.md quotes the rulebook (../shared/rules/36d6-rulebook.txt) and decides
every ambiguity; the comments below name those decisions ("R1" ...). Pure Python, no
Django. A state is never edited once returned: ``apply`` works on a copy.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import ConfigError, IllegalAction, check_config, gettext_noop
from ..seeded import commitment, next_roll

GAME = "36d6"
SEATS = (2, 8)
JUDGE = "judge"
SPECTATOR = "spectator"
SYSTEM = "system"
SIZE = 6
SQUARES = SIZE * SIZE
DICE = 36
QUIET_TURNS = 6  # the refinement (R7): six turns without an attack end the game ...
REFINEMENT_DICE = 6  # ... once at most six dice are left on the board
VARIANTS = ("elemental", "stronghold", "team", "zombie")
ZOMBIE = 100  # a zombie piece in the bars (prev_moved, just_moved): ZOMBIE + its square
ZOMBIE_FACE = 2  # R15: a zombie fights as a die showing 2
MAX_ZOMBIES = 2

# Where a die is (``owner``): on the board, in the discard pile, or a seat's pile (>= 0).
BOARD = -1
DISCARD = -2

# Elements (the Elemental variant): codes, names and the opposing pairs.
FIRE, AIR, WATER, EARTH = 0, 1, 2, 3
ELEMENTS = ("fire", "air", "water", "earth")
OPPOSITE = {FIRE: WATER, WATER: FIRE, AIR: EARTH, EARTH: AIR}


def _quadrant_element(square: int) -> int:
    """R11: the Elemental board, nine squares of each element in 3x3 quadrants; the
    opposing elements sit diagonally (fire top left, water bottom right)."""
    row, col = divmod(square, SIZE)
    if row < 3:
        return FIRE if col < 3 else AIR
    return EARTH if col < 3 else WATER


TILE_ELEMENT = tuple(_quadrant_element(sq) for sq in range(SQUARES))
# R10: the Stronghold board's strongholds are the four centre squares.
STRONGHOLDS = frozenset({2 * SIZE + 2, 2 * SIZE + 3, 3 * SIZE + 2, 3 * SIZE + 3})

NEIGHBOURS = tuple(
    tuple(
        r * SIZE + c
        for r, c in (
            (sq // SIZE - 1, sq % SIZE),
            (sq // SIZE, sq % SIZE + 1),
            (sq // SIZE + 1, sq % SIZE),
            (sq // SIZE, sq % SIZE - 1),
        )
        if 0 <= r < SIZE and 0 <= c < SIZE
    )
    for sq in range(SQUARES)
)


NEIGHBOUR_COUNT = tuple(len(n) for n in NEIGHBOURS)
# The square one step up, right, down and left of each square (-1 off the board).
STEPS = tuple(
    tuple(
        r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1
        for r, c in (
            (sq // SIZE - 1, sq % SIZE),
            (sq // SIZE, sq % SIZE + 1),
            (sq // SIZE + 1, sq % SIZE),
            (sq // SIZE, sq % SIZE - 1),
        )
    )
    for sq in range(SQUARES)
)


class Geometry:
    """A board: its size, each square's neighbours (and the step up, right, down, left,
    -1 off the board), the strongholds, and each die's start square."""

    def __init__(self, size: int, start: tuple[int, ...], strongholds: frozenset[int]):
        self.size = size
        self.squares = size * size
        self.start = start
        self.strongholds = strongholds
        self.steps = tuple(
            tuple(
                r * size + c if 0 <= r < size and 0 <= c < size else -1
                for r, c in (
                    (sq // size - 1, sq % size),
                    (sq // size, sq % size + 1),
                    (sq // size + 1, sq % size),
                    (sq // size, sq % size - 1),
                )
            )
            for sq in range(self.squares)
        )
        self.neighbours = tuple(tuple(t for t in steps if t >= 0) for steps in self.steps)


def _zombie_start() -> tuple[int, ...]:
    """R16: the Zombie board's grey squares, the start squares of dice 0-35 in reading
    order: every square but the four corners (the zombies) and the 3x3 centre block."""
    size = 7
    corners = {0, size - 1, size * (size - 1), size * size - 1}
    return tuple(
        sq
        for sq in range(size * size)
        if sq not in corners and not (2 <= sq // size <= 4 and 2 <= sq % size <= 4)
    )


STANDARD = Geometry(SIZE, tuple(range(DICE)), STRONGHOLDS)
ZOMBIE_BOARD = Geometry(7, _zombie_start(), frozenset({3 * 7 + 3}))
ZOMBIE_CORNERS = (0, 6, 42, 48)


def element_modifiers(die_element: int, square_element: int) -> tuple[int, int]:
    """(attack, defence) modifiers of a die of ``die_element`` fighting on a square of
    ``square_element``: +1/+2 on its own element, -1/-2 on the opposing one, else 0."""
    if die_element == square_element:
        return 1, 2
    if OPPOSITE[die_element] == square_element:
        return -1, -2
    return 0, 0


def normalise_config(config: dict) -> dict:
    game_id, seats = check_config(config, {"game_id", "seats", "variants"}, SEATS)
    variants = config.get("variants", [])
    if not isinstance(variants, list | tuple) or not all(isinstance(v, str) for v in variants):
        raise ConfigError(gettext_noop("'variants' must be a list of variant names."))
    bad = sorted(set(variants) - set(VARIANTS))
    if bad:
        raise ConfigError(
            gettext_noop("Unknown variants %(bad)s; the variants are %(known)s."),
            bad=bad,
            known=list(VARIANTS),
        )
    if len(set(variants)) != len(variants):
        raise ConfigError(gettext_noop("A variant is named twice."))
    if "zombie" in variants and ("elemental" in variants or "stronghold" in variants):
        raise ConfigError(
            gettext_noop(
                "The Zombie board has its own stronghold (its centre) and no elements: it"
                " does not combine with 'elemental' or 'stronghold'."
            )
        )
    if "team" in variants and (seats < 4 or seats % 2):
        raise ConfigError(
            gettext_noop("The Team game needs an even number of players, at least 4.")
        )
    return {"game_id": game_id, "seats": seats, "variants": sorted(variants)}


class State:
    """A game in progress. Serialise with ``to_dict()`` (it holds the seed: server and
    judges only) and restore with ``State.from_dict()``; players get ``view()``."""

    __slots__ = (
        "config",
        "game_id",
        "seats",
        "teams",
        "elemental",
        "stronghold",
        "geo",
        "zombies",
        "seed",
        "commitment",
        "pos",
        "face",
        "owner",
        "at",
        "turn",
        "actor",
        "extra",
        "just_moved",
        "prev_moved",
        "attacked",
        "quiet",
        "out",
        "over",
        "end_reason",
        "log",
        "rolls",
        "roll_position",
        "scripted_rolls",
    )

    def _fork(self) -> State:
        c = State.__new__(State)
        c.config = self.config
        c.game_id = self.game_id
        c.seats = self.seats
        c.teams = self.teams
        c.elemental = self.elemental
        c.stronghold = self.stronghold
        c.geo = self.geo
        c.zombies = self.zombies  # replaced, never edited in place
        c.seed = self.seed
        c.commitment = self.commitment
        c.pos = self.pos.copy()
        c.face = self.face  # copied by _move before it changes (only fights change it)
        c.owner = self.owner  # likewise
        c.at = self.at.copy()
        c.turn = self.turn
        c.actor = self.actor
        c.extra = self.extra
        c.just_moved = self.just_moved
        c.prev_moved = self.prev_moved
        c.attacked = self.attacked
        c.quiet = self.quiet
        c.out = self.out  # replaced, never edited in place
        c.over = self.over
        c.end_reason = self.end_reason
        c.log = self.log.copy()
        c.rolls = self.rolls  # likewise
        c.roll_position = self.roll_position
        c.scripted_rolls = self.scripted_rolls
        return c

    def clone(self) -> State:
        c = self._fork()
        c.face = self.face.copy()
        c.owner = self.owner.copy()
        c.rolls = self.rolls.copy()
        c.out = self.out.copy()
        c.scripted_rolls = self.scripted_rolls.copy()
        return c

    @property
    def sudden_death_from(self):
        """The games layer's time-limit marker: a 36d6 game ends at once on the time
        limit, so there is never a pending switch."""
        return None

    def to_dict(self) -> dict:
        return {
            "format": 1,
            "game": GAME,
            "config": self.config,
            "seed": self.seed,
            "commitment": self.commitment,
            "pos": list(self.pos),
            "face": list(self.face),
            "owner": list(self.owner),
            "zombies": None if self.zombies is None else list(self.zombies),
            "turn": self.turn,
            "actor": self.actor,
            "extra": self.extra,
            "just_moved": self.just_moved,
            "prev_moved": self.prev_moved,
            "attacked": self.attacked,
            "quiet": self.quiet,
            "out": list(self.out),
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
        s.pos = list(d["pos"])
        s.face = list(d["face"])
        s.owner = list(d["owner"])
        s.zombies = None if d["zombies"] is None else list(d["zombies"])
        s.at = [-1] * s.geo.squares
        for die, sq in enumerate(s.pos):
            if sq >= 0:
                s.at[sq] = die
        s.turn = d["turn"]
        s.actor = d["actor"]
        s.extra = d["extra"]
        s.just_moved = d["just_moved"]
        s.prev_moved = d["prev_moved"]
        s.attacked = d["attacked"]
        s.quiet = d["quiet"]
        s.out = list(d["out"])
        s.over = d["over"]
        s.end_reason = d["end_reason"]
        s.log = [(actor, action) for actor, action in d["log"]]
        s.rolls = list(d["rolls"])
        s.roll_position = d["roll_position"]
        s.scripted_rolls = list(d["scripted_rolls"])
        return s

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None


def _blank(config: dict, seed: str) -> State:
    config = normalise_config(config)
    s = State.__new__(State)
    s.config = config
    s.game_id = config["game_id"]
    s.seats = config["seats"]
    s.teams = "team" in config["variants"]
    s.elemental = "elemental" in config["variants"]
    zombie = "zombie" in config["variants"]
    s.stronghold = "stronghold" in config["variants"] or zombie
    s.geo = ZOMBIE_BOARD if zombie else STANDARD
    s.zombies = None
    if not isinstance(seed, str) or not seed:
        raise ConfigError(gettext_noop("The seed must be a non-empty string."))
    s.seed = seed
    s.commitment = commitment(seed)
    return s


def new_game(config: dict, seed: str) -> State:
    """R1: one die on each square showing 1; die ``n`` starts on square ``n`` (row-major,
    square 0 is row 0 column 0). Seat 0 plays first, then seat 1, and so on."""
    s = _blank(config, seed)
    geo = s.geo
    s.pos = list(geo.start)
    s.face = [1] * DICE
    s.owner = [BOARD] * DICE
    s.at = [-1] * geo.squares
    for die, sq in enumerate(geo.start):
        s.at[sq] = die
    if geo is ZOMBIE_BOARD:
        s.zombies = [1 if sq in ZOMBIE_CORNERS else 0 for sq in range(geo.squares)]
    s.turn = 1
    s.actor = 0
    s.extra = False
    s.just_moved = -1
    s.prev_moved = -1
    s.attacked = False
    s.quiet = 0
    s.out = [False] * s.seats
    s.over = False
    s.end_reason = None
    s.log = []
    s.rolls = []
    s.roll_position = 0
    s.scripted_rolls = []
    return s


# ---------------------------------------------------------------------------
# Seats, teams, placings


def seat_count(config: dict) -> int:
    return normalise_config(config)["seats"]


def teams(config: dict) -> list[int]:
    """Each seat's team: R13, the Team game alternates seats (team 0, team 1, ...);
    otherwise every seat is its own team."""
    config = normalise_config(config)
    n = config["seats"]
    if "team" in config["variants"]:
        return [seat % 2 for seat in range(n)]
    return list(range(n))


def team_of(state: State, seat: int) -> int:
    return seat % 2 if state.teams else seat


def scores(state: State) -> list[int]:
    """Each seat's pile: the sum of the faces its captured dice showed when captured."""
    totals = [0] * state.seats
    for die in range(DICE):
        owner = state.owner[die]
        if owner >= 0:
            totals[owner] += state.face[die]
    return totals


def team_scores(state: State) -> list[int] | None:
    if not state.teams:
        return None
    totals = [0, 0]
    for seat, score in enumerate(scores(state)):
        totals[seat % 2] += score
    return totals


def placings(state: State) -> list[int] | None:
    """Each seat's placing once the game is over (1 is first; equal totals share a
    placing, the next placing skips: 1, 1, 3). Seats out by forfeit come after every
    seat still in, the latest to go out first. In the Team game a seat has its team's
    placing. ``None`` while the game runs."""
    if not state.over:
        return None
    units = list(range(2)) if state.teams else list(range(state.seats))
    totals = team_scores(state) if state.teams else scores(state)
    out_rank = {}
    for index, (actor, action) in enumerate(state.log):
        if actor == SYSTEM and action.get("kind") == "forfeit":
            out_rank[team_of(state, action["player"])] = index
    keys = {u: (0, -totals[u]) if u not in out_rank else (1, -out_rank[u]) for u in units}
    place = {u: 1 + sum(1 for v in units if keys[v] < keys[u]) for u in units}
    return [place[team_of(state, seat)] for seat in range(state.seats)]


# ---------------------------------------------------------------------------
# Whose decision, and what is legal


def to_act(state: State) -> set[int]:
    return set() if state.over else {state.actor}


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
        "team_scores": team_scores(state),
        "reason": state.end_reason,
        "turns": state.turn,
    }


def _forbidden(state: State) -> tuple[int, int]:
    """R5/R6: the piece the previous player last moved, and during an extra go the piece
    that earned it (a die id, or ZOMBIE + square for the zombies of a square)."""
    return state.prev_moved, (state.just_moved if state.extra else -1)


def _moves(state: State) -> list[tuple[int, int]]:
    """(die, target square) pairs the actor may play now, dice and squares ascending."""
    a, b = _forbidden(state)
    pos = state.pos
    neighbours = state.geo.neighbours
    out = []
    for die in range(DICE):
        sq = pos[die]
        if sq < 0 or die in (a, b):
            continue
        for target in neighbours[sq]:
            out.append((die, target))
    return out


def _zombie_moves(state: State) -> tuple[list[tuple[int, int]], list[int]]:
    """R15: (from, to) zombie steps (never onto a zombie) and the squares where a zombie
    may attack the die it shares its square with, squares ascending."""
    zombies = state.zombies
    if zombies is None:
        return [], []
    a, b = _forbidden(state)
    steps, bites = [], []
    for sq, count in enumerate(zombies):
        if not count or ZOMBIE + sq in (a, b):
            continue
        for target in state.geo.neighbours[sq]:
            if not zombies[target]:
                steps.append((sq, target))
        if state.at[sq] >= 0:
            bites.append(sq)
    return steps, bites


def _square_json(sq: int, size: int = SIZE) -> list[int]:
    return [sq // size, sq % size]


def _move_action(die: int, target: int, size: int = SIZE) -> dict:
    return {"kind": "move", "die": die, "to": [target // size, target % size]}


def legal_actions(state: State, player) -> list[dict]:
    if state.over or player != state.actor:
        return []
    size = state.geo.size
    actions = [_move_action(d, t, size) for d, t in _moves(state)]
    if state.zombies is not None:
        steps, bites = _zombie_moves(state)
        actions += [
            {"kind": "zombie", "from": _square_json(f, size), "to": _square_json(t, size)}
            for f, t in steps
        ]
        actions += [{"kind": "bite", "at": _square_json(sq, size)} for sq in bites]
    if state.extra:
        actions.append({"kind": "end_turn"})
    return actions


def random_action(state: State, player, rng) -> dict | None:
    """A uniformly random legal action (the same distribution as
    ``rng.choice(legal_actions(state, player))``) without building the list: a slot
    (die, direction), or the extra slot for giving up an extra go, is drawn until it is
    a legal one. With zombies on the board it picks from the list."""
    if state.over or player != state.actor:
        return None
    if state.zombies is not None:
        return _random_zombie_action(state, rng)
    a = state.prev_moved
    b = state.just_moved if state.extra else -1
    pos = state.pos
    steps = state.geo.steps
    slots = DICE * 4 + (1 if state.extra else 0)
    draw = rng.random
    while True:
        slot = int(draw() * slots)
        if slot == DICE * 4:
            return {"kind": "end_turn"}
        die = slot >> 2
        sq = pos[die]
        if sq < 0 or die in (a, b):
            continue
        target = steps[sq][slot & 3]
        if target >= 0:
            return {"kind": "move", "die": die, "to": [target // SIZE, target % SIZE]}


def _random_zombie_action(state: State, rng) -> dict:
    """``random_action`` with zombies: slots for dice steps (die, direction), zombie steps
    (square, direction) and bites (square), drawn until a legal one comes up; every legal
    action has exactly one slot, so the draw is uniform."""
    a, b = _forbidden(state)
    pos, zombies, at = state.pos, state.zombies, state.at
    steps = state.geo.steps
    size = state.geo.size
    squares = state.geo.squares
    dice_slots = DICE * 4
    zombie_slots = dice_slots + squares * 4
    bite_slots = zombie_slots + squares
    slots = bite_slots + (1 if state.extra else 0)
    draw = rng.random
    while True:
        slot = int(draw() * slots)
        if slot < dice_slots:
            die = slot >> 2
            sq = pos[die]
            if sq < 0 or die in (a, b):
                continue
            target = steps[sq][slot & 3]
            if target >= 0:
                return {"kind": "move", "die": die, "to": [target // size, target % size]}
        elif slot < zombie_slots:
            sq, direction = divmod(slot - dice_slots, 4)
            if not zombies[sq] or ZOMBIE + sq in (a, b):
                continue
            target = steps[sq][direction]
            if target >= 0 and not zombies[target]:
                return {
                    "kind": "zombie",
                    "from": [sq // size, sq % size],
                    "to": [target // size, target % size],
                }
        elif slot < bite_slots:
            sq = slot - zombie_slots
            if zombies[sq] and ZOMBIE + sq not in (a, b) and at[sq] >= 0:
                return {"kind": "bite", "at": [sq // size, sq % size]}
        else:
            return {"kind": "end_turn"}


def _has_move(state: State) -> bool:
    a, b = _forbidden(state)
    if any(sq >= 0 and die not in (a, b) for die, sq in enumerate(state.pos)):
        return True
    steps, bites = _zombie_moves(state)
    return bool(steps or bites)


def default_action(state: State, player) -> dict | None:
    """When a decision clock runs out: an extra go is given up; otherwise the first die
    (by id) that can step onto an empty square does so (no fight), else the first
    legal action."""
    if state.over or player != state.actor:
        return None
    if state.extra:
        return {"kind": "end_turn"}
    size = state.geo.size
    zombies = state.zombies
    for die, target in _moves(state):
        if state.at[target] < 0 and not (zombies and zombies[target]):
            return _move_action(die, target, size)
    return legal_actions(state, player)[0]


# ---------------------------------------------------------------------------
# Applying actions


def _roll(s: State) -> int:
    if s.scripted_rolls:
        value = s.scripted_rolls[0]
        s.scripted_rolls = s.scripted_rolls[1:]
    else:
        value, s.roll_position = next_roll(GAME, s.seed, s.game_id, s.roll_position)
    s.rolls.append(value)
    return value


def _advance_face(face: int, steps: int) -> int:
    """R3: a winning die goes one face up, and (the [2.1] revision) a 6 turns to 1."""
    for _ in range(steps):
        face = 1 if face == 6 else face + 1
    return face


def outcome(attack_roll: int, defence_roll: int, attack_total: int, defence_total: int) -> str:
    """R2: "win" (the attacker), "lose", "standoff" or "both" (both destroyed)."""
    if attack_roll == 6 and defence_roll == 6:
        return "standoff"
    if attack_roll == 1 and defence_roll == 1:
        return "both"
    if attack_roll == 6 or defence_roll == 1:
        return "win"
    if attack_roll == 1 or defence_roll == 6:
        return "lose"
    if attack_total > defence_total:
        return "win"
    if attack_total < defence_total:
        return "lose"
    return "standoff"


def modifiers(state: State, attacker: int, defender: int, square: int) -> tuple[int, int]:
    """The attacker's and the defender's modifiers for a fight on ``square`` (the
    defender's square): Elemental (R12) and Stronghold (R10) add up. A zombie (-1 for
    ``attacker`` or ``defender``) has no element."""
    att = dfn = 0
    if state.elemental:
        tile = TILE_ELEMENT[square]
        att += element_modifiers(TILE_ELEMENT[attacker], tile)[0]
        dfn += element_modifiers(TILE_ELEMENT[defender], tile)[1]
    if state.stronghold and square in state.geo.strongholds:
        dfn += 1
    return att, dfn


_SHAPES = gettext_noop(
    "An action is {'kind': 'move', 'die': id, 'to': [row, column]}"
    " or {'kind': 'end_turn'} in an extra go."
)
_SHAPES_ZOMBIE = gettext_noop(
    "An action is {'kind': 'move', 'die': id, 'to': [row, column]}"
    ", {'kind': 'zombie', 'from': [row, column], 'to': [row, column]},"
    " {'kind': 'bite', 'at': [row, column]}"
    " or {'kind': 'end_turn'} in an extra go."
)


def _square(value, size: int) -> int:
    if (
        type(value) not in (list, tuple)
        or len(value) != 2
        or type(value[0]) is not int
        or type(value[1]) is not int
        or not 0 <= value[0] < size
        or not 0 <= value[1] < size
    ):
        raise IllegalAction(
            gettext_noop("How To Play"),
            gettext_noop("A square is [row, column], each 0 to %(last)s."),
            last=size - 1,
        )
    return value[0] * size + value[1]


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
    if player != state.actor:
        raise IllegalAction(
            gettext_noop("How To Play"),
            gettext_noop("It is seat %(actor)s's go, not seat %(seat)s's."),
            actor=state.actor,
            seat=player,
        )
    if not isinstance(action, dict):
        raise IllegalAction(
            gettext_noop("Game"), gettext_noop("An action must be an object with a 'kind'.")
        )
    kind = action.get("kind")
    if kind == "end_turn" and len(action) == 1:
        if not state.extra:
            raise IllegalAction(
                gettext_noop("How To Play"), gettext_noop("Only an extra go may be given up.")
            )
        s = state._fork()
        events = [{"type": "extra_go_declined", "seat": player}]
        s.log.append((player, {"kind": "end_turn"}))
        _end_turn(s, events)
        return s, events
    geo = state.geo
    if state.zombies is not None and kind in ("zombie", "bite"):
        return _apply_zombie(state, player, action)
    if kind != "move" or len(action) != 3 or "die" not in action or "to" not in action:
        raise IllegalAction(
            gettext_noop("How To Play"), _SHAPES_ZOMBIE if state.zombies else _SHAPES
        )
    die, to = action["die"], action["to"]
    if type(die) is not int or not 0 <= die < DICE:
        raise IllegalAction(
            gettext_noop("How To Play"), gettext_noop("A die is named by its id, 0 to 35.")
        )
    target = _square(to, geo.size)
    source = state.pos[die]
    if source < 0:
        raise IllegalAction(
            gettext_noop("How To Play"),
            gettext_noop("Die %(die)s is no longer on the board."),
            die=die,
        )
    if target not in geo.neighbours[source]:
        raise IllegalAction(
            gettext_noop("How To Play"),
            gettext_noop("A die moves one square, horizontally or vertically, never diagonally."),
        )
    if die == state.prev_moved:
        raise IllegalAction(
            gettext_noop("How To Play"),
            gettext_noop("You cannot move the same die as the player before you."),
        )
    if state.extra and die == state.just_moved:
        raise IllegalAction(
            "[1.4]", gettext_noop("The extra go after a natural 6 must use a different die.")
        )
    s = state._fork()
    events: list[dict] = []
    s.log.append((player, {"kind": "move", "die": die, "to": [to[0], to[1]]}))
    _move(s, player, die, source, target, events)
    return s, events


def _fight(s: State, attacker_face: int, defender_face: int, mods: tuple[int, int], event: dict):
    """Roll for both sides (attacker first); returns (outcome, attacker's roll)."""
    s.attacked = True
    s.rolls = s.rolls.copy()
    a_roll = _roll(s)
    d_roll = _roll(s)
    a_total = attacker_face + a_roll + mods[0]
    d_total = defender_face + d_roll + mods[1]
    result_ = outcome(a_roll, d_roll, a_total, d_total)
    event.update(
        rolls=[a_roll, d_roll], modifiers=list(mods), totals=[a_total, d_total], outcome=result_
    )
    return result_, a_roll


def _move(s: State, player: int, die: int, source: int, target: int, events: list) -> None:
    defender = s.at[target]
    s.just_moved = die
    size = s.geo.size
    zombies = s.zombies
    if defender < 0 and not (zombies and zombies[target]):
        s.at[source] = -1
        s.at[target] = die
        s.pos[die] = target
        events.append(
            {
                "type": "move",
                "die": die,
                "from": [source // size, source % size],
                "to": [target // size, target % size],
            }
        )
        _end_turn(s, events)
        return
    s.face = s.face.copy()
    s.owner = s.owner.copy()
    event = {
        "type": "attack",
        "die": die,
        "defender": defender if defender >= 0 else "zombie",
        "from": _square_json(source, size),
        "to": _square_json(target, size),
    }
    if defender >= 0:
        mods = modifiers(s, die, defender, target)
        result_, a_roll = _fight(s, s.face[die], s.face[defender], mods, event)
    else:
        # R17: a die attacking a square of zombies fights one zombie.
        mods = (0, 1 if s.stronghold and target in s.geo.strongholds else 0)
        result_, a_roll = _fight(s, s.face[die], ZOMBIE_FACE, mods, event)
    events.append(event)
    if result_ == "win":
        if defender >= 0:
            s.owner[defender] = player
            s.pos[defender] = -1
        s.at[source] = -1
        s.at[target] = die
        s.pos[die] = target
        steps = 2 if s.stronghold and target in s.geo.strongholds else 1
        before = s.face[die]
        s.face[die] = _advance_face(before, steps)
        if defender >= 0:
            events.append(
                {
                    "type": "captured",
                    "die": defender,
                    "face": s.face[defender],
                    "seat": player,
                    "team": team_of(s, player) if s.teams else None,
                }
            )
        events.append({"type": "face", "die": die, "from": before, "to": s.face[die]})
    elif result_ == "lose":
        s.owner[die] = DISCARD
        s.pos[die] = -1
        s.at[source] = -1
        events.append({"type": "discarded", "dice": [die]})
    elif result_ == "both":
        s.owner[die] = DISCARD
        s.pos[die] = -1
        s.at[source] = -1
        if defender >= 0:
            s.owner[defender] = DISCARD
            s.pos[defender] = -1
            s.at[target] = -1
            events.append({"type": "discarded", "dice": [die, defender]})
        else:
            s.zombies = zombies.copy()
            s.zombies[target] -= 1
            events.append({"type": "discarded", "dice": [die]})
            events.append({"type": "zombie_removed", "at": _square_json(target, size)})
    _after_fight(s, player, a_roll, events)


def _after_fight(s: State, player: int, a_roll: int, events: list) -> None:
    if _dice_left(s) <= 1:
        _finish(s, "one_die_left", events)
        return
    if a_roll == 6:
        # R4: a natural 6 on the moved piece's roll gives another go with another piece.
        s.extra = True
        if _has_move(s):
            events.append({"type": "extra_go", "seat": player, "not_piece": s.just_moved})
            return
        events.append({"type": "extra_go_lapsed", "seat": player, "reason": "no_legal_move"})
    _end_turn(s, events)


def _apply_zombie(state: State, player: int, action: dict) -> tuple[State, list[dict]]:
    """R15: moving a zombie (onto an empty square, or attacking a die) or a zombie's
    attack on the die sharing its square."""
    size = state.geo.size
    kind = action["kind"]
    if kind == "zombie":
        if len(action) != 3 or "from" not in action or "to" not in action:
            raise IllegalAction(gettext_noop("Zombie Dice"), _SHAPES_ZOMBIE)
        source = _square(action["from"], size)
        target = _square(action["to"], size)
        if not state.zombies[source]:
            raise IllegalAction(
                gettext_noop("Zombie Dice"), gettext_noop("There is no zombie on that square.")
            )
        if target not in state.geo.neighbours[source]:
            raise IllegalAction(
                gettext_noop("Zombie Dice"),
                gettext_noop(
                    "A zombie moves one square, horizontally or vertically, never diagonally."
                ),
            )
        if state.zombies[target]:
            raise IllegalAction(
                gettext_noop("Zombie Dice"),
                gettext_noop(
                    "You cannot move a zombie into a square which already has a zombie in it."
                ),
            )
    else:
        if len(action) != 2 or "at" not in action:
            raise IllegalAction(gettext_noop("Zombie Dice"), _SHAPES_ZOMBIE)
        source = target = _square(action["at"], size)
        if not state.zombies[source]:
            raise IllegalAction(
                gettext_noop("Zombie Dice"), gettext_noop("There is no zombie on that square.")
            )
        if state.at[source] < 0:
            raise IllegalAction(
                gettext_noop("Zombie Dice"),
                gettext_noop("A zombie bites only a die in its own square."),
            )
    if ZOMBIE + source == state.prev_moved:
        raise IllegalAction(
            gettext_noop("How To Play"),
            gettext_noop("You cannot move the zombies the player before you moved (R16)."),
        )
    if state.extra and ZOMBIE + source == state.just_moved:
        raise IllegalAction(
            "[1.4]", gettext_noop("The extra go after a natural 6 must use a different piece.")
        )
    s = state._fork()
    events: list[dict] = []
    if kind == "zombie":
        logged = {
            "kind": "zombie",
            "from": _square_json(source, size),
            "to": _square_json(target, size),
        }
    else:
        logged = {"kind": "bite", "at": _square_json(source, size)}
    s.log.append((player, logged))
    s.zombies = zombies = state.zombies.copy()
    defender = s.at[target]
    if defender < 0:
        zombies[source] -= 1
        zombies[target] += 1
        s.just_moved = ZOMBIE + target
        events.append({"type": "zombie_moved", "from": logged["from"], "to": logged["to"]})
        _end_turn(s, events)
        return s, events
    s.face = s.face.copy()
    s.owner = s.owner.copy()
    event = {
        "type": "attack",
        "die": "zombie",
        "defender": defender,
        "from": _square_json(source, size),
        "to": _square_json(target, size),
    }
    mods = (0, 1 if target in s.geo.strongholds else 0)
    result_, a_roll = _fight(s, ZOMBIE_FACE, s.face[defender], mods, event)
    events.append(event)
    s.just_moved = ZOMBIE + source
    if result_ == "win":
        # R15: the die is discarded and another zombie is placed in the square.
        s.owner[defender] = DISCARD
        s.pos[defender] = -1
        s.at[target] = -1
        zombies[source] -= 1
        zombies[target] = min(MAX_ZOMBIES, zombies[target] + 2)
        s.just_moved = ZOMBIE + target
        events.append({"type": "discarded", "dice": [defender]})
        events.append(
            {"type": "zombies", "at": logged.get("to", logged.get("at")), "count": zombies[target]}
        )
    elif result_ == "lose":
        zombies[source] -= 1
        s.just_moved = -1  # the zombie that moved is gone
        events.append({"type": "zombie_removed", "at": _square_json(source, size)})
    elif result_ == "both":
        zombies[source] -= 1
        s.owner[defender] = DISCARD
        s.pos[defender] = -1
        s.at[target] = -1
        s.just_moved = -1
        events.append({"type": "discarded", "dice": [defender]})
        events.append({"type": "zombie_removed", "at": _square_json(source, size)})
    _after_fight(s, player, a_roll, events)
    return s, events


def _dice_left(s: State) -> int:
    return DICE - s.pos.count(-1)


def _end_turn(s: State, events: list) -> None:
    """The turn is over: the refinement's count (R7), then the next seat still in."""
    if s.attacked or DICE - s.pos.count(-1) > REFINEMENT_DICE:
        s.quiet = 0
    else:
        s.quiet += 1
    if s.quiet >= QUIET_TURNS:
        _finish(s, "no_attacks", events)
        return
    s.prev_moved = s.just_moved
    _next_seat(s, events)


def _next_seat(s: State, events: list) -> None:
    s.just_moved = -1
    s.extra = False
    s.attacked = False
    s.turn += 1
    seats, out = s.seats, s.out
    seat = (s.actor + 1) % seats
    while out[seat]:  # a seat out by forfeit is skipped (at least two seats are in)
        seat = (seat + 1) % seats
    s.actor = seat
    events.append({"type": "turn", "turn": s.turn, "seat": seat})


def _finish(s: State, reason: str, events: list) -> None:
    s.over = True
    s.end_reason = reason
    s.extra = False
    events.append({"type": "game_over", "reason": reason, "placings": placings(s), "seed": s.seed})


def _apply_system(state: State, action: dict) -> tuple[State, list[dict]]:
    rule = gettext_noop("Tournament Rules")
    if not isinstance(action, dict):
        raise IllegalAction(rule, gettext_noop("A system action must be an object with a 'kind'."))
    if state.over:
        raise IllegalAction(gettext_noop("Game"), gettext_noop("The game is over."))
    kind = action.get("kind")
    s = state._fork()
    events: list[dict] = []
    if kind == "sudden_death" and len(action) == 1:
        # R9: the time limit ends the game at once, scored as it stands.
        s.log.append((SYSTEM, {"kind": "sudden_death"}))
        _finish(s, "time_limit", events)
        return s, events
    if kind == "forfeit" and len(action) == 2 and "player" in action:
        seat = action["player"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < s.seats:
            raise IllegalAction(
                rule, gettext_noop("'player' must be a seat 0 to %(last)s."), last=s.seats - 1
            )
        if s.out[seat]:
            raise IllegalAction(rule, gettext_noop("Seat %(seat)s is already out."), seat=seat)
        s.log.append((SYSTEM, {"kind": "forfeit", "player": seat}))
        # R14: a forfeit puts the seat out (in the Team game, its whole team).
        gone = {x for x in range(s.seats) if team_of(s, x) == team_of(s, seat)}
        s.out = [out or x in gone for x, out in enumerate(s.out)]
        events.append({"type": "forfeit", "seats": sorted(gone)})
        units_in = {team_of(s, x) for x in range(s.seats) if not s.out[x]}
        if len(units_in) < 2:
            _finish(s, "forfeit", events)
        elif s.out[s.actor]:
            s.prev_moved = s.just_moved if s.just_moved >= 0 else s.prev_moved
            _next_seat(s, events)
        return s, events
    raise IllegalAction(
        rule, gettext_noop("System actions are 'sudden_death' and 'forfeit' (with 'player').")
    )


def enable_sudden_death(state: State) -> tuple[State, list[dict]]:
    """The games layer's time limit: the game ends at once, scored as it stands."""
    return apply(state, SYSTEM, {"kind": "sudden_death"})


def replay(config: dict, seed: str, log: Iterable) -> State:
    state = new_game(config, seed)
    for actor, action in log:
        state, _events = apply(state, actor, action)
    return state


# ---------------------------------------------------------------------------
# Views


def view(state: State, viewer) -> dict:
    """Everything in 36d6 is public except the seed, which only a judge sees before the
    game is over."""
    if viewer not in (JUDGE, SPECTATOR) and not (
        isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < state.seats
    ):
        raise ValueError(f"Unknown viewer {viewer!r}.")
    size = state.geo.size
    board = [[None] * size for _ in range(size)]
    dice = []
    for die in range(DICE):
        sq = state.pos[die]
        owner = state.owner[die]
        if sq >= 0:
            board[sq // size][sq % size] = die
        dice.append(
            {
                "id": die,
                "face": state.face[die],
                "element": ELEMENTS[TILE_ELEMENT[die]] if state.elemental else None,
                "zone": "board" if owner == BOARD else "discard" if owner == DISCARD else "pile",
                "square": _square_json(sq, size) if sq >= 0 else None,
                "owner": owner if owner >= 0 else None,
            }
        )
    previous, earned = _forbidden(state) if not state.over else (-1, -1)
    return {
        "game": GAME,
        "viewer": viewer,
        "game_id": state.game_id,
        "config": state.config,
        "commitment": state.commitment,
        "seed": state.seed if state.over or viewer == JUDGE else None,
        "seats": state.seats,
        "teams": teams(state.config),
        "turn": state.turn,
        "phase": "over" if state.over else "extra_go" if state.extra else "move",
        "to_act": sorted(to_act(state)),
        "decision": None
        if state.over
        else {"seat": state.actor, "kind": "extra_go" if state.extra else "move"},
        "size": size,
        "board": board,
        "zombies": None
        if state.zombies is None
        else [state.zombies[r * size : (r + 1) * size] for r in range(size)],
        "tiles": {
            "strongholds": sorted(_square_json(sq, size) for sq in state.geo.strongholds)
            if state.stronghold
            else [],
            "elements": [
                [ELEMENTS[TILE_ELEMENT[r * SIZE + c]] for c in range(SIZE)] for r in range(SIZE)
            ]
            if state.elemental
            else None,
        },
        "dice": dice,
        "forbidden": {
            "previous_player": _piece_json(state, previous),
            "extra_go": _piece_json(state, earned),
        },
        "scores": scores(state),
        "team_scores": team_scores(state),
        "quiet_turns": state.quiet,
        "out": list(state.out),
        "log": [[actor, action] for actor, action in state.log],
        "rolls": list(state.rolls),
        "over": state.over,
        "result": result(state),
    }


def _piece_json(state: State, piece: int) -> dict | None:
    """A barred piece: {"die": id} or {"zombies": [row, column]}; None if none is barred."""
    if piece < 0:
        return None
    if piece >= ZOMBIE:
        square = piece - ZOMBIE
        if not state.zombies[square]:
            return None
        return {"zombies": _square_json(square, state.geo.size)}
    return {"die": piece} if state.pos[piece] >= 0 else None


def alter_hidden(state: State, viewer) -> State:
    """A copy of ``state`` with everything ``viewer`` may not see changed: the seed
    (before the game is over, for anyone but a judge)."""
    other = state.clone()
    if viewer != JUDGE and not state.over:
        other.seed = state.seed + "-other"
    return other


def random_config(rng, seats: int | None = None, game_id: str = "random") -> dict:
    """A random playable config (tests, benches, practice): any seat count and variants."""
    variants = [v for v in ("elemental", "stronghold") if rng.random() < 0.3]
    if seats is None:
        seats = rng.randint(SEATS[0], SEATS[1])
    if seats >= 4 and seats % 2 == 0 and rng.random() < 0.3:
        variants.append("team")
    if not variants and rng.random() < 0.25:
        variants.append("zombie")
    return {"game_id": game_id, "seats": seats, "variants": variants}
