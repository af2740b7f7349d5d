"""The IRONDIE rules engine: two-player games exactly as the rulebook (and docs/rules.md) say.

The engine contract (docs/engine.md): ``new_game``, ``to_act``, ``legal_actions``,
``apply``, ``view``, ``is_over``, ``result``, ``default_action``. A state is a
``State``; ``State.to_dict()`` / ``State.from_dict()`` give its JSON form. Actions and
events are plain JSON dicts. Dice are named by id: 0-8 are player 0's set in the order
given in the config, 9-17 player 1's.

Internally a state is a handful of flat lists (zone and value per die id) so that
``apply`` can copy it cheaply: ``apply`` validates against a copy and returns the copy,
leaving the caller's state untouched whether the action is legal or not.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import ConfigError, Sentences, gettext_noop
from ..errors import IllegalAction as _IllegalAction
from ..seeded import stream_block as _seeded_block
from .dice import (
    MAX_RARE_IN_PLAYING_SET,
    Colour,
    Die,
    DieClass,
    DieType,
    Relation,
    affinity,
    playing_set_errors,
)
from .randomness import ACCEPT_BELOW, BLOCK_BYTES, GAME, commitment, stream_block

PLAYERS = (0, 1)
JUDGE = "judge"
SPECTATOR = "spectator"
SYSTEM = "system"
DICE_PER_SET = 9
DICE_COUNT = 2 * DICE_PER_SET
MAX_VALUE = 6

HAND, BATTLE, CLASH, STORAGE, ABYSS = range(5)
ZONE_NAMES = ("hand", "battle", "clash", "storage", "abyss")

ATTACK, DEFENSE, LIFE = range(3)
CLASS_NAMES = ("attack", "defense", "life")
_CLASS_CODE = {DieClass.ATTACK: ATTACK, DieClass.DEFENSE: DEFENSE, DieClass.LIFE: LIFE}

TYPES = tuple(DieType)
(
    CRUSHER,
    ASSAULT,
    SHOOTER,
    ANNULATOR,
    BARRIER,
    POWER_BOOSTER,
    ABSORBER,
    FORTRESS,
    REGENERATOR,
) = range(9)
assert [t.value for t in TYPES] == [
    "crusher",
    "assault",
    "shooter",
    "annulator",
    "barrier",
    "power_booster",
    "absorber",
    "fortress",
    "regenerator",
]

COLOURS = tuple(Colour)
_COLOUR_CODE = {c: i for i, c in enumerate(COLOURS)}
ALLIED, ENEMY, NEUTRAL = range(3)
_RELATION_CODE = {Relation.ALLIED: ALLIED, Relation.ENEMY: ENEMY, Relation.NEUTRAL: NEUTRAL}
AFFINITY = tuple(tuple(_RELATION_CODE[affinity(a, b)] for b in COLOURS) for a in COLOURS)

# Whose dice a clash die may target (docs/rules.md, "Clash targets").
_OPPONENT_ONLY = frozenset({CRUSHER, SHOOTER, ANNULATOR, ABSORBER, FORTRESS})
_OWN_ONLY = frozenset({POWER_BOOSTER, REGENERATOR})
# Assault and Barrier may target either side: they add to their owner's die and
# subtract from the opponent's.
_TARGET_CLASS = {ASSAULT: ATTACK, BARRIER: DEFENSE, ABSORBER: DEFENSE, FORTRESS: ATTACK}
_MULTI_TARGET = frozenset({ABSORBER, FORTRESS})

# Colour bonuses: per colour, the parts (amount, allowed classes, allowed relations to the
# bonus die's colour; None = any colour). Order follows the colour table.
_ANY_CLASS = frozenset({ATTACK, DEFENSE, LIFE})
_ALLIED_ONLY = frozenset({ALLIED})
_BONUS_PARTS: dict[int, tuple[tuple[int, frozenset, frozenset | None], ...]] = {
    _COLOUR_CODE[Colour.ORANGE]: (
        (1, frozenset({ATTACK}), _ALLIED_ONLY),
        (1, frozenset({LIFE}), _ALLIED_ONLY),
    ),
    _COLOUR_CODE[Colour.RED]: ((2, frozenset({ATTACK}), _ALLIED_ONLY),),
    _COLOUR_CODE[Colour.PURPLE]: (
        (1, frozenset({ATTACK}), _ALLIED_ONLY),
        (1, frozenset({DEFENSE}), _ALLIED_ONLY),
    ),
    _COLOUR_CODE[Colour.BLUE]: ((2, frozenset({DEFENSE}), _ALLIED_ONLY),),
    _COLOUR_CODE[Colour.YELLOW]: ((2, frozenset({LIFE}), _ALLIED_ONLY),),
    _COLOUR_CODE[Colour.GREEN]: (
        (1, frozenset({DEFENSE}), _ALLIED_ONLY),
        (1, frozenset({LIFE}), _ALLIED_ONLY),
    ),
    _COLOUR_CODE[Colour.BLACK]: (
        (3, frozenset({ATTACK, DEFENSE}), _ALLIED_ONLY),
        (-1, frozenset({LIFE}), None),
    ),
    _COLOUR_CODE[Colour.WHITE]: (
        (1, _ANY_CLASS, frozenset({ALLIED, NEUTRAL})),
        (1, frozenset({LIFE}), None),
    ),
}
_BLACK = _COLOUR_CODE[Colour.BLACK]

# Phases in which a decision may be pending.
SPLIT, OFFER, DUEL, DAMAGE, END_TURN, BATTLE_BONUS, OVER = (
    "split",
    "offer",
    "duel",
    "damage",
    "end_turn",
    "battle_bonus",
    "over",
)
_SIMULTANEOUS = frozenset((SPLIT, DAMAGE, END_TURN))
# Duel steps: the attacker's first throw is the OFFER phase; then these.
RESPONSE, ATTACKER_SECOND, DEFENDER_SECOND, RESOLVE = 1, 2, 3, 4
_STEP_NAMES = {
    RESPONSE: "defender_first",
    ATTACKER_SECOND: "attacker_second",
    DEFENDER_SECOND: "defender_second",
}


class IllegalAction(_IllegalAction):
    """An action the rules forbid (games/engines/errors.py), with the rulebook section
    written after the message as IRONDIE's rulebook names it."""

    form = gettext_noop("%(message)s [rule: %(rule)s]")


class DieInfo:
    """The fixed facts of one die in a game, precomputed for speed."""

    __slots__ = ("id", "owner", "cls", "type", "colour", "rare", "specialised")

    def __init__(self, die_id: int, owner: int, facts: tuple[int, int, int, bool, bool]):
        self.id = die_id
        self.owner = owner
        self.cls, self.type, self.colour, self.rare, self.specialised = facts


_FACTS: dict[tuple[str, str, bool], tuple[int, int, int, bool, bool]] = {
    (t.value, c.value, rare): (
        _CLASS_CODE[t.die_class],
        TYPES.index(t),
        _COLOUR_CODE[c],
        rare,
        t.specialisation == c,
    )
    for t in DieType
    for c in Colour
    for rare in (False, True)
}


# How a die is thrown in the CLASH: at one target, at every eligible target, or (the
# Regenerator) at one of its owner's dice in storage, on the opening throw only.
_SINGLE, _MULTI, _REGENERATE = range(3)
_THROW_MODES = tuple(
    _REGENERATE if kind == REGENERATOR else _MULTI if kind in _MULTI_TARGET else _SINGLE
    for kind in range(len(TYPES))
)
# Every die of player 0, of player 1, of both.
_OWNED_IDS = (
    frozenset(range(DICE_PER_SET)),
    frozenset(range(DICE_PER_SET, DICE_COUNT)),
    frozenset(range(DICE_COUNT)),
)


class DiceTable:
    """Per game: every die's facts, the ids of each player's LIFE dice, and per die how it
    is thrown and which dice it may target wherever they are (``eligible[die]``, a set;
    the throw options keep those in the right zone). The rules both IRONDIE games share
    read a game's two sides from its table: ``side`` (per die), ``side_life`` (each
    side's LIFE dice) and ``winner_key`` (the game over event's key for the winner); here
    a side is a player."""

    __slots__ = ("dice", "life_ids", "throw_mode", "eligible", "side", "side_life")
    winner_key = "winner"

    def __init__(self, dice: tuple[DieInfo, ...]):
        self.dice = dice
        by_owner_class: tuple[list[list[int]], ...] = ([[], [], []], [[], [], []])
        for d in dice:
            by_owner_class[d.owner][d.cls].append(d.id)
        self.life_ids = (tuple(by_owner_class[0][LIFE]), tuple(by_owner_class[1][LIFE]))
        self.side = tuple(d.owner for d in dice)
        self.side_life = self.life_ids
        pools: dict[tuple[int, int | None], frozenset[int]] = {}
        modes, eligible = [], []
        for d in dice:
            kind, player = d.type, d.owner
            # Whose dice: 0 or 1, or 2 for either player's.
            if kind in _OPPONENT_ONLY:
                owners = 1 - player
            elif kind in _OWN_ONLY:
                owners = player
            else:
                owners = 2
            wanted = _TARGET_CLASS.get(kind)
            key = (owners, wanted)
            pool = pools.get(key)
            if pool is None:
                if wanted is None:
                    pool = _OWNED_IDS[owners]
                elif owners == 2:
                    pool = frozenset(by_owner_class[0][wanted] + by_owner_class[1][wanted])
                else:
                    pool = frozenset(by_owner_class[owners][wanted])
                pools[key] = pool
            modes.append(_THROW_MODES[kind])
            eligible.append(pool)
        self.throw_mode = tuple(modes)
        self.eligible = tuple(eligible)


_TABLE_CACHE: dict[tuple, DiceTable] = {}
_ALL_IDS = tuple(range(DICE_COUNT))
_TYPE_NAMES = frozenset(t.value for t in DieType)
_COLOUR_NAMES = frozenset(c.value for c in Colour)
_CLASS_OF_TYPE = {t.value: t.die_class for t in DieType}
_DIE_KEYS = frozenset({"type", "colour", "rare"})


# The DieInfo of every possible die at every id, shared by all games.
_DIE_INFOS: tuple[dict[tuple[str, str, bool], DieInfo], ...] = tuple(
    {key: DieInfo(i, i // DICE_PER_SET, facts) for key, facts in _FACTS.items()}
    for i in range(DICE_COUNT)
)


def _dice_table(config: dict) -> DiceTable:
    keys = []
    for dice in config["sets"]:
        for d in dice:
            keys.append((d["type"], d["colour"], d["rare"]))
    key = tuple(keys)
    table = _TABLE_CACHE.get(key)
    if table is None:
        infos = []
        for i, k in enumerate(keys):
            infos.append(_DIE_INFOS[i][k])
        table = DiceTable(tuple(infos))
        if len(_TABLE_CACHE) > 4096:
            _TABLE_CACHE.clear()
        _TABLE_CACHE[key] = table
    return table


def _quick_set(dice) -> list[dict] | None:
    """The canonical form of a set of plain die dicts, or None if anything needs the
    full check (which then produces the error messages)."""
    if not isinstance(dice, list | tuple) or len(dice) != DICE_PER_SET:
        return None
    out, classes, rare_count = [], set(), 0
    for d in dice:
        if not isinstance(d, dict) or not d.keys() <= _DIE_KEYS:
            return None
        kind, colour, rare = d.get("type"), d.get("colour"), d.get("rare", False)
        if kind not in _TYPE_NAMES or colour not in _COLOUR_NAMES or not isinstance(rare, bool):
            return None
        classes.add(_CLASS_OF_TYPE[kind])
        rare_count += rare
        out.append({"type": kind, "colour": colour, "rare": rare})
    if len(classes) != 3 or rare_count > MAX_RARE_IN_PLAYING_SET:
        return None
    return out


def normalise_config(config: dict) -> dict:
    """Validate a config and return its canonical JSON form (raises ConfigError)."""
    sets = _config_sets(config)
    if not isinstance(sets, list | tuple) or len(sets) != 2:
        raise ConfigError(gettext_noop("'sets' must hold the two players' playing sets."))
    return _canonical_config(config, sets)


def _config_sets(config) -> object:
    """Any IRONDIE config is an object with only the known keys; its "sets" (each game
    checks how many)."""
    if not isinstance(config, dict):
        raise ConfigError(gettext_noop("The config must be an object."))
    unknown = set(config) - {"game_id", "sets", "sudden_death_turn"}
    if unknown:
        raise ConfigError(
            gettext_noop("Unknown config keys: %(keys)s."), keys=", ".join(sorted(unknown))
        )
    return config.get("sets")


def _canonical_config(config: dict, sets) -> dict:
    """The canonical form of any IRONDIE config whose keys and set count are checked:
    each set checked with the rulebook's playing set rules, a string game id and the
    optional sudden death turn."""
    canonical_sets = []
    for player, dice in enumerate(sets):
        quick = _quick_set(dice)
        if quick is not None:
            canonical_sets.append(quick)
            continue
        if not isinstance(dice, list | tuple):
            raise ConfigError(
                gettext_noop("Player %(player)s's set must be a list of dice."), player=player
            )
        try:
            parsed = [d if isinstance(d, Die) else Die.from_dict(d) for d in dice]
        except ValueError as exc:
            raise ConfigError(
                gettext_noop("Player %(player)s's set: %(problems)s"),
                player=player,
                problems=exc,
            ) from None
        errors = playing_set_errors(parsed)
        if errors:
            raise ConfigError(
                gettext_noop("Player %(player)s's set: %(problems)s"),
                player=player,
                problems=Sentences(errors),
            )
        canonical_sets.append([d.to_dict() for d in parsed])
    game_id = config.get("game_id", "")
    if not isinstance(game_id, str):
        raise ConfigError(gettext_noop("'game_id' must be a string."))
    sudden_death_turn = config.get("sudden_death_turn")
    if sudden_death_turn is not None and (
        not isinstance(sudden_death_turn, int)
        or isinstance(sudden_death_turn, bool)
        or sudden_death_turn < 1
    ):
        raise ConfigError(
            gettext_noop("'sudden_death_turn' must be null or a turn number (1 or more).")
        )
    return {"game_id": game_id, "sets": canonical_sets, "sudden_death_turn": sudden_death_turn}


# The fields of every IRONDIE game state, in the order of ``State.__slots__`` (the team
# game's state adds its own after them); ``_STATE_LISTS``: those that are lists. The
# action log and the rolls are trails (see ``_log_add``): the ``log`` and ``rolls``
# properties give them as lists.
_STATE_FIELDS = (
    "config",
    "table",
    "info",
    "cache",
    "game_id",
    "seed",
    "commitment",
    "zone",
    "value",
    "turn",
    "phase",
    "first_battle_done",
    "sudden_death_from",
    "advantage",
    "choices",
    "bonus_queue",
    "attack_right",
    "preferred",
    "actor",
    "attacker",
    "step",
    "defender_passed",
    "duel_throws",
    "damage",
    "winner",
    "end_reason",
    "log_trail",
    "log_length",
    "secret_log",
    "roll_trail",
    "roll_length",
    "roll_position",
    "scripted_rolls",
)
_STATE_LISTS = (
    "choices",
    "bonus_queue",
    "attack_right",
    "duel_throws",
    "damage",
    "secret_log",
    "scripted_rolls",
)


def _fork_state(s):
    """The copy ``apply`` works on, for any IRONDIE state (the team game's copies its
    own fields after this). ``zone`` and ``value`` are copied; the log and roll trails
    are shared (``_log_add`` never changes a state's part of them); the other lists are
    shared with ``s``, and the engine never edits them in place (it assigns a new
    list), so ``s`` stays as it was."""
    cls = s.__class__
    c = cls.__new__(cls)
    c.config = s.config
    c.table = s.table
    c.info = s.info
    c.cache = s.cache
    c.game_id = s.game_id
    c.seed = s.seed
    c.commitment = s.commitment
    c.zone = s.zone.copy()
    c.value = s.value.copy()
    c.turn = s.turn
    c.phase = s.phase
    c.first_battle_done = s.first_battle_done
    c.sudden_death_from = s.sudden_death_from
    c.advantage = s.advantage
    c.choices = s.choices
    c.bonus_queue = s.bonus_queue
    c.attack_right = s.attack_right
    c.preferred = s.preferred
    c.actor = s.actor
    c.attacker = s.attacker
    c.step = s.step
    c.defender_passed = s.defender_passed
    c.duel_throws = s.duel_throws
    c.damage = s.damage
    c.winner = s.winner
    c.end_reason = s.end_reason
    c.log_trail = s.log_trail
    c.log_length = s.log_length
    c.secret_log = s.secret_log
    c.roll_trail = s.roll_trail
    c.roll_length = s.roll_length
    c.roll_position = s.roll_position
    c.scripted_rolls = s.scripted_rolls
    return c


def _fields_to_dict(s, fmt, extra: tuple = ()) -> dict:
    """The JSON form of any IRONDIE state; ``extra`` (key, value) pairs follow "damage"."""
    data = {
        "format": fmt,
        "config": s.config,
        "seed": s.seed,
        "commitment": s.commitment,
        "zone": list(s.zone),
        "value": list(s.value),
        "turn": s.turn,
        "phase": s.phase,
        "first_battle_done": s.first_battle_done,
        "sudden_death_from": s.sudden_death_from,
        "advantage": s.advantage,
        "choices": [_choice_to_json(c) for c in s.choices],
        "bonus_queue": [list(b) for b in s.bonus_queue],
        "attack_right": list(s.attack_right),
        "preferred": s.preferred,
        "actor": s.actor,
        "attacker": s.attacker,
        "step": s.step,
        "defender_passed": s.defender_passed,
        "duel_throws": [[d, list(t), z] for d, t, z in s.duel_throws],
        "damage": list(s.damage),
    }
    data.update(extra)
    data["winner"] = s.winner
    data["end_reason"] = s.end_reason
    data["log"] = [[actor, action] for actor, action in s.log_trail[: s.log_length]]
    data["secret_log"] = list(s.secret_log)
    data["rolls"] = s.roll_trail[: s.roll_length]
    data["roll_position"] = s.roll_position
    data["scripted_rolls"] = list(s.scripted_rolls)
    return data


def _fields_from_dict(s, data: dict, config: dict, table) -> None:
    """Fill every field of ``s`` from ``to_dict`` output (``config`` already checked)."""
    s.config = config
    s.table = table
    s.info = table.dice
    s.cache = None
    s.game_id = config["game_id"]
    s.seed = data["seed"]
    s.commitment = data["commitment"]
    s.zone = list(data["zone"])
    s.value = list(data["value"])
    s.turn = data["turn"]
    s.phase = data["phase"]
    s.first_battle_done = data["first_battle_done"]
    s.sudden_death_from = data["sudden_death_from"]
    s.advantage = data["advantage"]
    s.choices = [_choice_from_json(c) for c in data["choices"]]
    s.bonus_queue = [tuple(b) for b in data["bonus_queue"]]
    s.attack_right = list(data["attack_right"])
    s.preferred = data["preferred"]
    s.actor = data["actor"]
    s.attacker = data["attacker"]
    s.step = data["step"]
    s.defender_passed = data["defender_passed"]
    s.duel_throws = [(d, tuple(t), z) for d, t, z in data["duel_throws"]]
    s.damage = list(data["damage"])
    s.winner = data["winner"]
    s.end_reason = data["end_reason"]
    s.log = [(actor, action) for actor, action in data["log"]]
    s.secret_log = list(data["secret_log"])
    s.rolls = data["rolls"]
    s.roll_position = data["roll_position"]
    s.scripted_rolls = list(data["scripted_rolls"])


def _fields_at_start(s, config: dict, seed: str, table, seats: int) -> None:
    """Every field of a new game of ``seats`` sets, before turn 1 starts."""
    s.config = config
    s.table = table
    s.info = table.dice
    s.cache = None
    s.game_id = config["game_id"]
    s.seed = seed
    s.commitment = commitment(seed)
    s.zone = [HAND] * (seats * DICE_PER_SET)
    s.value = [0] * (seats * DICE_PER_SET)
    s.turn = 0
    s.phase = SPLIT
    s.first_battle_done = False
    s.sudden_death_from = config["sudden_death_turn"]
    s.advantage = None
    s.choices = [None] * seats
    s.bonus_queue = []
    s.attack_right = [False, False]
    s.preferred = None
    s.actor = None
    s.attacker = None
    s.step = 0
    s.defender_passed = False
    s.duel_throws = []
    s.damage = [0, 0]
    s.winner = None
    s.end_reason = None
    s.log_trail = []
    s.log_length = 0
    s.secret_log = []
    s.roll_trail = []
    s.roll_length = 0
    s.roll_position = 0
    s.scripted_rolls = []


def _log_add(s, entry: tuple) -> None:
    """Add (actor, action) to the action log of ``s``.

    The log and the rolls are trails: a list shared by a state and the states made from
    it, with the length that is each state's part. Adding to a whole game's log is then
    linear, where copying the log at every action was quadratic. A state adds in place
    only when its part is the whole list; otherwise (another state made from the same
    one has added already) it takes a copy of its part first, so no state's part ever
    changes."""
    trail, length = s.log_trail, s.log_length
    if len(trail) != length:
        trail = s.log_trail = trail[:length]
    trail.append(entry)
    s.log_length = length + 1


def _rolls_add(s, values: list) -> None:
    """Add ``values`` to the rolls of ``s`` (a trail, as in ``_log_add``)."""
    trail, length = s.roll_trail, s.roll_length
    if len(trail) != length:
        trail = s.roll_trail = trail[:length]
    trail += values
    s.roll_length = length + len(values)


def _get_log(s) -> list:
    return s.log_trail[: s.log_length]


def _set_log(s, log) -> None:
    s.log_trail = list(log)
    s.log_length = len(s.log_trail)


def _get_rolls(s) -> list:
    return s.roll_trail[: s.roll_length]


def _set_rolls(s, rolls) -> None:
    s.roll_trail = list(rolls)
    s.roll_length = len(s.roll_trail)


# The action log, [(actor, action), ...], and every roll so far, as new lists (changing
# them changes nothing; assigning a list replaces the state's own).
LOG = property(_get_log, _set_log)
ROLLS = property(_get_rolls, _set_rolls)


class State:
    """A game in progress. Treat as immutable: ``apply`` returns a new state.

    Serialise with ``to_dict()`` (JSON-ready; contains the seed, so it is for the server
    and judges only) and restore with ``State.from_dict()``. Players and spectators get
    ``view()`` instead.
    """

    __slots__ = _STATE_FIELDS

    log = LOG
    rolls = ROLLS

    def clone(self) -> State:
        """A full copy: every list is the copy's own (tests and scenarios edit it)."""
        c = self._fork()
        for name in _STATE_LISTS:
            setattr(c, name, getattr(self, name).copy())
        return c

    _fork = _fork_state  # the copy ``apply`` works on

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def to_dict(self) -> dict:
        return _fields_to_dict(self, 1)

    @classmethod
    def from_dict(cls, data: dict) -> State:
        other = OTHER_FORMATS.get(data.get("format"))
        if other is not None:
            return other.from_dict(data)
        if data.get("format") != 1:
            raise ValueError("Unknown IRONDIE state format.")
        s = cls.__new__(cls)
        config = normalise_config(data["config"])
        _fields_from_dict(s, data, config, _dice_table(config))
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<IRONDIE State game={self.game_id!r} turn={self.turn} phase={self.phase}>"


# State formats of other IRONDIE games that ``State.from_dict`` hands on: the team game
# (games/engines/irondie/team.py) registers its own.
OTHER_FORMATS: dict[str, type] = {}


def _choice_to_json(choice):
    if choice is None:
        return None
    return [list(x) if isinstance(x, tuple) else x for x in choice]


def _choice_from_json(choice):
    if choice is None:
        return None
    return tuple(tuple(x) if isinstance(x, list) else x for x in choice)


# ---------------------------------------------------------------------------
# Creating a game


def new_game(config: dict, seed: str) -> State:
    """Start a game: the set reveal is done (both sets are in the config and public);
    turn 1 begins with the secret battle split."""
    if not isinstance(seed, str) or not seed:
        raise ConfigError(gettext_noop("The seed must be a non-empty string."))
    config = normalise_config(config)
    s = State.__new__(State)
    _fields_at_start(s, config, seed, _dice_table(config), len(PLAYERS))
    events: list[dict] = []
    _start_turn(s, events)
    _advance(s, events)
    return s


# ---------------------------------------------------------------------------
# Queries


def to_act(state: State) -> set[int]:
    """The players who must decide now (both during simultaneous choices)."""
    phase = state.phase
    if phase == OVER:
        return set()
    if state.bonus_queue:
        return {state.bonus_queue[0][0]}
    if phase in _SIMULTANEOUS:
        first, second = state.choices
        if first is None:
            return {0, 1} if second is None else {0}
        return {1} if second is None else set()
    return {state.actor}


def is_over(state: State) -> bool:
    return state.phase == OVER


def result(state: State) -> dict | None:
    """None while the game runs; then {"winner": 0, 1 or None, "reason": ..., "turns": n}."""
    if state.phase != OVER:
        return None
    return {"winner": state.winner, "reason": state.end_reason, "turns": state.turn}


def sudden_death_active(state: State) -> bool:
    return state.sudden_death_from is not None and state.turn >= state.sudden_death_from


def _decision(state: State, player) -> str | None:
    if state.phase == OVER or player not in PLAYERS:
        return None
    if state.bonus_queue:
        return "bonus" if state.bonus_queue[0][0] == player else None
    phase = state.phase
    if phase in _SIMULTANEOUS:
        return phase if state.choices[player] is None else None
    if state.actor == player:
        return phase
    return None


def _dice_of(state: State, player: int, zone: int) -> list[int]:
    base = player * DICE_PER_SET
    z = state.zone
    dice = []
    for d in range(base, base + DICE_PER_SET):
        if z[d] == zone:
            dice.append(d)
    return dice


def _life_in_zone(state: State, player: int) -> list[int]:
    z = state.zone
    dice = []
    for d in state.table.life_ids[player]:
        if z[d] == BATTLE:
            dice.append(d)
    return dice


def _wins(state: State, die: int, target: int) -> bool:
    """The ">" comparison with the specialisation tie rule."""
    v, t = state.value[die], state.value[target]
    if v != t:
        return v > t
    info = state.info[die]
    return info.specialised and AFFINITY[info.colour][state.info[target].colour] != ENEMY


# ---------------------------------------------------------------------------
# Legal actions


def _throw_options(state: State, player: int, first: bool) -> list[tuple[int, tuple[int, ...]]]:
    """Cached per zone layout: states sharing a cache have identical zones, and every
    zone change replaces the state's cache instead of editing it. Slot 2 * player +
    first (slot 4: the bonus options)."""
    cache = state.cache
    if cache is None:
        cache = state.cache = [None, None, None, None, None]
    key = 2 * player + 1 if first else 2 * player
    options = cache[key]
    if options is None:
        options = cache[key] = _compute_throw_options(state, player, first)
    return options


# (die, (target,)): the single-target throw options, shared by every game.
_PAIRS = tuple(tuple((d, (t,)) for t in range(DICE_COUNT)) for d in range(DICE_COUNT))


def _compute_throw_options(state: State, player: int, first: bool) -> list:
    """Every (die, targets) a player may throw now; ``first`` is the attacker's opening
    throw (targets in the battle zone, or the storage for a Regenerator); every later
    throw of a duel targets dice in the clash zone (rule "Order of conducting a duel" 2a, 3a).
    """
    zone = state.zone
    base = player * DICE_PER_SET
    table = state.table
    modes, eligible = table.throw_mode, table.eligible
    where = BATTLE if first else CLASH
    in_zone = None
    options: list = []
    for die in range(base, base + DICE_PER_SET):
        if zone[die] != HAND:
            continue
        mode = modes[die]
        pairs = _PAIRS[die]
        if mode == _REGENERATE:
            if first:
                for t in range(base, base + DICE_PER_SET):
                    if zone[t] == STORAGE:
                        options.append(pairs[t])
            continue
        if in_zone is None:
            in_zone = []
            for t in _ALL_IDS:
                if zone[t] == where:
                    in_zone.append(t)
        ok = eligible[die]
        if mode == _SINGLE:
            for t in in_zone:
                if t in ok:
                    options.append(pairs[t])
        else:
            pool = []
            for t in in_zone:
                if t in ok:
                    pool.append(t)
            if pool:
                options.append((die, tuple(pool)))
    return options


def _bonus_options(state: State, owner: int, die: int) -> list[tuple]:
    """``_compute_bonus_options``, cached per zone layout like the throw options (they
    depend on zones, not values): slot 4 of the cache maps (owner, die) to them."""
    cache = state.cache
    if cache is None:
        cache = state.cache = [None, None, None, None, None]
    by_die = cache[4]
    if by_die is None:
        by_die = cache[4] = {}
    key = (owner, die)
    options = by_die.get(key)
    if options is None:
        options = by_die[key] = _compute_bonus_options(state, owner, die)
    return options


def _compute_bonus_options(state: State, owner: int, die: int) -> list[tuple]:
    """The target choices for a colour bonus: one target per part, each part on a
    different die, as many parts applied as the allowed targets permit."""
    info, zone = state.info, state.zone
    colour = info[die].colour
    parts = _BONUS_PARTS[colour]
    base = owner * DICE_PER_SET
    in_play = []
    for d in range(base, base + DICE_PER_SET):
        if d != die and (zone[d] == BATTLE or zone[d] == CLASH):
            in_play.append(info[d])
    row = AFFINITY[colour]
    candidates = []
    for _amount, classes, relations in parts:
        allowed = []
        for d in in_play:
            if d.cls in classes and (relations is None or row[d.colour] in relations):
                allowed.append(d.id)
        candidates.append(allowed)
    if len(parts) == 1:
        # A loop, not a comprehension (a call of its own in Python 3.11).
        single = []
        for t in candidates[0]:
            single.append((t,))
        return single
    first, second = candidates
    if colour == _BLACK:
        # The -1 is the price of the +3: without an allowed +3 target nothing happens.
        if not first:
            return []
        pairs = []
        if not second:
            for t in first:
                pairs.append((t, None))
            return pairs
        for a in first:
            for b in second:
                pairs.append((a, b))
        return pairs
    both = []
    for a in first:
        for b in second:
            if a != b:
                both.append((a, b))
    if both:
        return both
    return [(a, None) for a in first] + [(None, b) for b in second]


def _damage_options(state: State, player: int) -> list[tuple[tuple[int, int], ...]]:
    """Every way to spread the damage: amounts per LIFE die, none above the die's value,
    summing to the damage (or to all the life there is)."""
    dice = _life_in_zone(state, player)
    values = [state.value[d] for d in dice]
    total = min(state.damage[player], sum(values))
    out: list[tuple[tuple[int, int], ...]] = []
    remaining_cap = [0] * (len(dice) + 1)
    for i in range(len(dice) - 1, -1, -1):
        remaining_cap[i] = remaining_cap[i + 1] + values[i]

    def walk(i: int, left: int, acc: list):
        if i == len(dice):
            if left == 0:
                out.append(tuple(acc))
            return
        low = max(0, left - remaining_cap[i + 1])
        for amount in range(low, min(values[i], left) + 1):
            if amount:
                acc.append((dice[i], amount))
            walk(i + 1, left - amount, acc)
            if amount:
                acc.pop()

    walk(0, total, [])
    return out


def _return_options(state: State, player: int) -> list[int | None]:
    """End of turn: keep everything, or return one LIFE die (never the last one)."""
    if sudden_death_active(state):
        return [None]
    life = _life_in_zone(state, player)
    if len(life) < 2:
        return [None]
    return [None, *life]


def _split_count(state: State, player: int) -> int:
    base = player * DICE_PER_SET
    return state.zone[base : base + DICE_PER_SET].count(HAND)


def legal_actions(state: State, player) -> list[dict]:
    """Every legal action of ``player`` now ([] when they have nothing to decide)."""
    decision = _decision(state, player)
    if decision is None:
        return []
    if decision == "bonus":
        _owner, die = state.bonus_queue[0]
        return [{"kind": "bonus", "targets": list(t)} for t in _bonus_options(state, player, die)]
    if decision == SPLIT:
        hand = _dice_of(state, player, HAND)
        n = len(hand)
        return [
            {"kind": "split", "throw": [hand[i] for i in range(n) if mask >> i & 1]}
            for mask in range(1 << n)
        ]
    if decision == OFFER:
        actions = [
            {"kind": "throw", "die": d, "targets": list(t)}
            for d, t in _throw_options(state, player, True)
        ]
        actions.append({"kind": "decline"})
        return actions
    if decision == DUEL:
        actions = [
            {"kind": "throw", "die": d, "targets": list(t)}
            for d, t in _throw_options(state, player, False)
        ]
        actions.append({"kind": "pass"})
        return actions
    if decision == DAMAGE:
        return [
            {"kind": "damage", "amounts": [list(p) for p in option]}
            for option in _damage_options(state, player)
        ]
    if decision == END_TURN:
        return [{"kind": "return", "die": d} for d in _return_options(state, player)]
    raise AssertionError(decision)


def default_action(state: State, player) -> dict | None:
    """The action taken for a player whose decision clock runs out (docs/engine.md).

    Battle split: throw every die in hand. Colour bonus: the first option in
    ``legal_actions`` order. Attack offer: decline. Duel throw: pass. Damage: drain the
    highest dice first but leave every die at 1 while any other can still absorb
    damage (fewest dice lost). End of turn: return nothing.
    """
    decision = _decision(state, player)
    if decision is None:
        return None
    if decision == SPLIT:
        return {"kind": "split", "throw": _dice_of(state, player, HAND)}
    if decision == OFFER:
        return {"kind": "decline"}
    if decision == DUEL:
        return {"kind": "pass"}
    if decision == END_TURN:
        return {"kind": "return", "die": None}
    if decision == DAMAGE:
        return {"kind": "damage", "amounts": [list(p) for p in _fewest_losses(state, player)]}
    _owner, die = state.bonus_queue[0]
    return {"kind": "bonus", "targets": list(_bonus_options(state, player, die)[0])}


def _fewest_losses(state: State, player: int) -> tuple[tuple[int, int], ...]:
    dice = _life_in_zone(state, player)
    left = min(state.damage[player], sum(state.value[d] for d in dice))
    return _spread_fewest_losses(state.value, dice, left)


def _spread_fewest_losses(value: list[int], dice, left: int) -> tuple[tuple[int, int], ...]:
    """``left`` points over ``dice`` losing the fewest LIFE dice: the highest dice
    brought down to 1 first, then the smallest drained; (die, points) by id."""
    dice = sorted(dice, key=lambda d: (-value[d], d))
    amounts = dict.fromkeys(dice, 0)
    for d in dice:
        take = min(left, value[d] - 1)
        amounts[d] += take
        left -= take
    for d in reversed(dice):
        if left == 0:
            break
        take = min(left, value[d] - amounts[d])
        amounts[d] += take
        left -= take
    return tuple((d, a) for d, a in sorted(amounts.items()) if a)


# ---------------------------------------------------------------------------
# Applying actions

# The rulebook passages each decision's refusals name, marked once at import (not a
# call of ``gettext_noop`` per action).
_RULE_SPLIT = gettext_noop("Phase 1: Battle, A")
_RULE_BONUS = gettext_noop("Color Bonuses")
_RULE_OFFER = gettext_noop("Phase 2: Clash, Alternation of duels")
_RULE_DUEL = gettext_noop("Phase 2: Clash, Order of conducting a duel")
_RULE_DAMAGE = gettext_noop("Phase 3: Damage")
_RULE_RETURN = gettext_noop("Phase 4: End of Turn, 1")


def apply(
    state: State, player, action: dict, events: bool = True
) -> tuple[State, list[dict] | None]:
    """Apply one action; returns (new state, events). Raises IllegalAction and leaves
    ``state`` unchanged when the action is not legal. ``player`` is 0, 1 or "system".
    ``events=False``: the events are not built, and None stands in their place (the
    same new state)."""
    if player not in PLAYERS:
        if player == SYSTEM:
            s, built = _apply_system(state, action)
            return s, built if events else None
        raise IllegalAction(
            gettext_noop("Game"), gettext_noop("The actor must be player 0, player 1 or 'system'.")
        )
    if state.phase == OVER:
        raise IllegalAction(gettext_noop("End of the Game"), gettext_noop("The game is over."))
    if not isinstance(action, dict):
        raise IllegalAction(
            gettext_noop("Game"), gettext_noop("An action must be an object with a 'kind'.")
        )
    # _decision(state, player), inlined.
    phase = state.phase
    if state.bonus_queue:
        decision = "bonus" if state.bonus_queue[0][0] == player else None
    elif phase in _SIMULTANEOUS:
        decision = phase if state.choices[player] is None else None
    else:
        decision = phase if state.actor == player else None
    if decision is None:
        raise IllegalAction(
            gettext_noop("Game"),
            gettext_noop("Player %(player)s has no decision to make now."),
            player=player,
        )
    s = state._fork()
    events = [] if events else None
    logged = _ACTS[decision](s, player, action, events)
    _log_add(s, (player, logged))
    if decision in _SIMULTANEOUS:
        s.secret_log = [*s.secret_log, s.log_length - 1]
        if s.choices[0] is not None and s.choices[1] is not None:
            s.secret_log = []
            _resolve_simultaneous(s, events)
    _advance(s, events)
    return s, events


def _expect(action: dict, kind: str, keys: tuple[str, ...], rule: str) -> None:
    """The action has exactly the keys "kind" and ``keys``, and that kind."""
    if action.get("kind") != kind or len(action) != len(keys) + 1:
        raise IllegalAction(
            rule,
            gettext_noop("Expected an action of kind '%(kind)s' with keys %(keys)s."),
            kind=kind,
            keys=list(keys),
        )
    for key in keys:
        if key not in action:
            raise IllegalAction(
                rule,
                gettext_noop("Expected an action of kind '%(kind)s' with keys %(keys)s."),
                kind=kind,
                keys=list(keys),
            )


def _die_id(value, rule: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < DICE_COUNT:
        raise IllegalAction(rule, gettext_noop("A die must be named by its id, 0 to 17."))
    return value


def _act_split(s: State, player: int, action: dict, events: list) -> dict:
    rule = _RULE_SPLIT
    _expect(action, "split", ("throw",), rule)
    throw = action["throw"]
    if not isinstance(throw, list):
        raise IllegalAction(rule, gettext_noop("'throw' must be a list of die ids."))
    ids = []
    for d in throw:
        if type(d) is not int or not 0 <= d < DICE_COUNT:
            d = _die_id(d, rule)
        ids.append(d)
    if ids != sorted(set(ids)):
        raise IllegalAction(
            rule, gettext_noop("List the dice to throw once each, in ascending order.")
        )
    zone, base = s.zone, player * DICE_PER_SET
    for d in ids:
        if not base <= d < base + DICE_PER_SET or zone[d] != HAND:
            raise IllegalAction(rule, gettext_noop("Die %(die)s is not in your hand."), die=d)
    choices = s.choices[:]
    choices[player] = tuple(ids)
    s.choices = choices
    if events is not None:
        events.append({"type": "split_committed", "player": player})
    return {"kind": "split", "throw": ids}


def _act_bonus(s: State, player: int, action: dict, events: list) -> dict:
    rule = _RULE_BONUS
    _expect(action, "bonus", ("targets",), rule)
    targets = action["targets"]
    if not isinstance(targets, list):
        raise IllegalAction(
            rule, gettext_noop("'targets' must list one die id (or null) per bonus part.")
        )
    _owner, die = s.bonus_queue[0]
    chosen = tuple(targets)
    if chosen not in _bonus_options(s, player, die):
        raise IllegalAction(
            rule,
            gettext_noop(
                "Those are not allowed targets for this bonus (own dice in play, class and "
                "colour per the colour table, not the die that rolled it, each part on a "
                "different die)."
            ),
        )
    s.bonus_queue = s.bonus_queue[1:]
    _apply_bonus(s, player, die, chosen, events)
    return {"kind": "bonus", "targets": list(chosen)}


def _parse_throw(s: State, player: int, action: dict, first: bool, rule: str) -> tuple:
    _expect(action, "throw", ("die", "targets"), rule)
    die = action["die"]
    if type(die) is not int or not 0 <= die < DICE_COUNT:
        die = _die_id(die, rule)
    targets = action["targets"]
    if not isinstance(targets, list):
        raise IllegalAction(rule, gettext_noop("'targets' must be a list of die ids."))
    option = (die, tuple(targets))
    cache = s.cache
    options = None if cache is None else cache[2 * player + 1 if first else 2 * player]
    if options is None:
        options = _throw_options(s, player, first)
    if option not in options:
        if s.info[die].owner != player or s.zone[die] != HAND:
            raise IllegalAction(rule, gettext_noop("Die %(die)s is not in your reserve."), die=die)
        raise _cannot_target(die, targets)
    return option


def _cannot_target(die: int, targets: list) -> IllegalAction:
    """The refusal of a throw from the reserve at targets its die may not have now."""
    return IllegalAction(
        gettext_noop("Key Characteristics (Table 1)"),
        gettext_noop(
            "Die %(die)s cannot target %(targets)s now (see the Target column; later "
            "throws of a duel target only dice in the clash zone)."
        ),
        die=die,
        targets=targets,
    )


def _throw(s: State, player: int, die: int, targets: tuple, target_zone: int, events) -> None:
    s.cache = None
    s.zone[die] = CLASH
    rolled = _roll(s)
    s.value[die] = rolled
    s.duel_throws = [*s.duel_throws, (die, targets, target_zone)]
    if events is not None:
        events.append(
            {
                "type": "throw",
                "player": player,
                "die": die,
                "targets": list(targets),
                "value": rolled,
            }
        )
    if rolled == 1 or (rolled == 2 and s.info[die].rare):
        s.bonus_queue = [*s.bonus_queue, (player, die)]


def _pass(s: State, player: int, events: list, forced: bool) -> None:
    if s.step == RESPONSE:
        s.defender_passed = True
    if events is not None:
        events.append(
            {"type": "pass", "player": player, "step": _STEP_NAMES[s.step], "forced": forced}
        )
    s.step += 1


def _act_offer(s: State, player: int, action: dict, events: list) -> dict:
    rule = _RULE_OFFER
    if action.get("kind") == "decline":
        _expect(action, "decline", (), rule)
        rights = s.attack_right[:]
        rights[player] = False
        s.attack_right = rights
        s.preferred = 1 - player
        if events is not None:
            events.append({"type": "attack_declined", "player": player})
        return {"kind": "decline"}
    die, targets = _parse_throw(s, player, action, True, rule)
    return _open_duel(s, player, player, die, targets, events)


def _open_duel(s, player: int, side: int, die: int, targets: tuple, events, throw=_throw) -> dict:
    """``player`` (deciding for ``side``) opens a duel with the attacker's throw: at the
    battle zone, or the storage for a Regenerator. The team game passes its ``throw``."""
    s.phase = DUEL
    s.attacker = side
    s.step = RESPONSE
    s.defender_passed = False
    s.duel_throws = []
    if events is not None:
        events.append({"type": "duel_started", "attacker": side})
    throw(s, player, die, targets, STORAGE if s.info[die].type == REGENERATOR else BATTLE, events)
    return {"kind": "throw", "die": die, "targets": list(targets)}


def _act_duel(
    s: State,
    player: int,
    action: dict,
    events: list,
    parse_throw=_parse_throw,
    throw=_throw,
    pass_throw=_pass,
) -> dict:
    """A later throw of a duel, or a pass (the team game passes its own parse, throw
    and pass)."""
    rule = _RULE_DUEL
    if action.get("kind") == "pass":
        if len(action) != 1:
            _expect(action, "pass", (), rule)
        pass_throw(s, player, events, forced=False)
        return {"kind": "pass"}
    die, targets = parse_throw(s, player, action, False, rule)
    throw(s, player, die, targets, CLASH, events)
    s.step += 1
    return {"kind": "throw", "die": die, "targets": list(targets)}


def _act_damage(s: State, player: int, action: dict, events: list) -> dict:
    rule = _RULE_DAMAGE
    _expect(action, "damage", ("amounts",), rule)
    amounts = action["amounts"]
    if not isinstance(amounts, list) or not all(
        isinstance(p, list) and len(p) == 2 for p in amounts
    ):
        raise IllegalAction(
            rule, gettext_noop("'amounts' must be a list of [die id, points] pairs.")
        )
    pairs = tuple((_die_id(d, rule), a) for d, a in amounts)
    life = set(_life_in_zone(s, player))
    total = min(s.damage[player], sum(s.value[d] for d in life))
    ids = [d for d, _ in pairs]
    if ids != sorted(set(ids)):
        raise IllegalAction(
            rule, gettext_noop("List each LIFE die once, in ascending order of id.")
        )
    for d, a in pairs:
        if d not in life:
            raise IllegalAction(
                rule,
                gettext_noop("Die %(die)s is not one of your LIFE dice in the life zone."),
                die=d,
            )
        if not isinstance(a, int) or isinstance(a, bool) or not 1 <= a <= s.value[d]:
            raise IllegalAction(
                rule,
                gettext_noop(
                    "Die %(die)s can take from 1 point up to its value; listed dice take >= 1."
                ),
                die=d,
            )
    if sum(a for _, a in pairs) != total:
        raise IllegalAction(
            rule,
            gettext_noop("The points must add up to the damage received, %(total)s."),
            total=total,
        )
    choices = s.choices[:]
    choices[player] = pairs
    s.choices = choices
    if events is not None:
        events.append({"type": "damage_committed", "player": player})
    return {"kind": "damage", "amounts": [list(p) for p in pairs]}


def _act_return(s: State, player: int, action: dict, events: list) -> dict:
    rule = _RULE_RETURN
    _expect(action, "return", ("die",), rule)
    die = action["die"]
    if die is not None:
        die = _die_id(die, rule)
    if die not in _return_options(s, player):
        raise IllegalAction(
            rule,
            gettext_noop(
                "You may return one LIFE die from your life zone, but not your last one, and "
                "none under sudden death."
            ),
        )
    choices = s.choices[:]
    choices[player] = (die,)
    s.choices = choices
    if events is not None:
        events.append({"type": "return_committed", "player": player})
    return {"kind": "return", "die": die}


# The handler of each decision (``_decision`` returns only these).
_ACTS = {
    "bonus": _act_bonus,
    SPLIT: _act_split,
    OFFER: _act_offer,
    DUEL: _act_duel,
    DAMAGE: _act_damage,
    END_TURN: _act_return,
}


def _apply_system(state: State, action: dict) -> tuple[State, list[dict]]:
    return _system_action(state, action, _forfeit_winner)


def _forfeit_winner(s: State, loser, rule: str) -> int:
    """The winner when ``loser`` forfeits (IllegalAction if it names no player)."""
    if loser not in PLAYERS or isinstance(loser, bool):
        raise IllegalAction(rule, gettext_noop("'player' must be 0 or 1."))
    return 1 - loser


def _system_action(state, action: dict, forfeit_winner) -> tuple:
    """A "system" action of any IRONDIE game (sudden death, forfeit, match time over);
    ``forfeit_winner(state, loser, rule)`` is the game's winning side of a forfeit."""
    rule = gettext_noop("Tournament Rules")
    if not isinstance(action, dict):
        raise IllegalAction(rule, gettext_noop("A system action must be an object with a 'kind'."))
    if state.phase == OVER:
        raise IllegalAction(gettext_noop("End of the Game"), gettext_noop("The game is over."))
    kind = action.get("kind")
    s = state.clone()
    events: list[dict] = []
    if kind == "sudden_death":
        _expect(action, "sudden_death", (), rule)
        if s.sudden_death_from is not None and s.sudden_death_from <= s.turn + 1:
            raise IllegalAction(rule, gettext_noop("Sudden death is already switched on."))
        s.sudden_death_from = s.turn + 1
        if events is not None:
            events.append({"type": "sudden_death_called", "from_turn": s.turn + 1})
        logged = {"kind": "sudden_death"}
    elif kind == "forfeit":
        _expect(action, "forfeit", ("player",), rule)
        loser = action["player"]
        winner = forfeit_winner(s, loser, rule)
        logged = {"kind": "forfeit", "player": loser}
        _finish(s, winner, "forfeit", events)
    elif kind == "match_time_over":
        _expect(action, "match_time_over", (), rule)
        logged = {"kind": "match_time_over"}
        _finish(s, None, "match_time_over", events)
    else:
        raise IllegalAction(
            rule,
            gettext_noop("System actions are 'sudden_death', 'forfeit' and 'match_time_over'."),
        )
    _log_add(s, (SYSTEM, logged))
    return s, events


def enable_sudden_death(state: State) -> tuple[State, list[dict]]:
    """The clock layer's switch for the tournament 20-minute rule: the turn in progress
    finishes normally, every later turn is played under sudden death."""
    return apply(state, SYSTEM, {"kind": "sudden_death"})


# ---------------------------------------------------------------------------
# The game flow


def _roll(s: State) -> int:
    """The next roll: ``randomness.next_roll`` inlined."""
    if s.scripted_rolls:
        value = s.scripted_rolls[0]
        s.scripted_rolls = s.scripted_rolls[1:]
    else:
        position = s.roll_position
        while True:
            block, offset = divmod(position, BLOCK_BYTES)
            # randomness.stream_block(s.seed, s.game_id, block), inlined.
            byte = _seeded_block(GAME, s.seed, s.game_id, block)[offset]
            position += 1
            if byte < ACCEPT_BELOW:
                break
        s.roll_position = position
        value = byte % 6 + 1
    # _rolls_add(s, [value]), inlined.
    trail, length = s.roll_trail, s.roll_length
    if len(trail) != length:
        trail = s.roll_trail = trail[:length]
    trail.append(value)
    s.roll_length = length + 1
    return value


def _roll_many(s: State, count: int) -> list[int]:
    """The next ``count`` rolls: ``count`` calls of ``_roll`` in one."""
    if not count:
        return []
    if s.scripted_rolls:
        return [_roll(s) for _ in range(count)]
    seed, game_id = s.seed, s.game_id
    index, offset = divmod(s.roll_position, BLOCK_BYTES)
    block = stream_block(seed, game_id, index)
    out = []
    while len(out) < count:
        if offset == BLOCK_BYTES:
            index += 1
            offset = 0
            block = stream_block(seed, game_id, index)
        byte = block[offset]
        offset += 1
        if byte < ACCEPT_BELOW:
            out.append(byte % 6 + 1)
    s.roll_position = index * BLOCK_BYTES + offset
    _rolls_add(s, out)
    return out


def _roll_off(s: State, purpose: str, events: list) -> int:
    """Each player throws a die, re-rolling ties; the higher throw wins."""
    while True:
        a, b = _roll(s), _roll(s)
        if events is not None:
            events.append({"type": "roll_off", "purpose": purpose, "rolls": [a, b]})
        if a != b:
            return 0 if a > b else 1


def _set_value(s: State, die: int, new_value: int, events: list) -> None:
    """Golden rule 1: never above 6; ATTACK/DEFENSE dice and clash-zone dice never below 1;
    a LIFE die in the life zone at 0 or below goes to the abyss."""
    if new_value > MAX_VALUE:
        new_value = MAX_VALUE
    if new_value < 1:
        if s.zone[die] == BATTLE and s.info[die].cls == LIFE:
            s.cache = None
            s.zone[die] = ABYSS
            s.value[die] = 0
            if events is not None:
                events.append({"type": "to_abyss", "die": die, "cause": "life_exhausted"})
            return
        new_value = 1
    s.value[die] = new_value
    if events is not None:
        events.append({"type": "value", "die": die, "value": new_value})


def _move(s: State, die: int, zone: int, events: list, cause: str) -> None:
    s.cache = None
    s.zone[die] = zone
    if zone != BATTLE and zone != CLASH:
        s.value[die] = 0
    if events is not None:
        events.append({"type": "move", "die": die, "to": ZONE_NAMES[zone], "cause": cause})


def _apply_bonus(s: State, owner: int, die: int, targets: tuple, events: list) -> None:
    parts = _BONUS_PARTS[s.info[die].colour]
    if events is not None:
        events.append({"type": "bonus", "player": owner, "die": die, "targets": list(targets)})
    for (amount, _classes, _relations), target in zip(parts, targets, strict=True):
        if target is not None:
            _set_value(s, target, s.value[target] + amount, events)
            if _check_end(s, events):
                return


def _start_turn(s: State, events: list) -> None:
    s.turn += 1
    s.phase = SPLIT
    s.advantage = None
    if events is not None:
        events.append(
            {"type": "turn_started", "turn": s.turn, "sudden_death": sudden_death_active(s)}
        )
    if sudden_death_active(s):
        for player in PLAYERS:
            for d in _life_in_zone(s, player):
                _set_value(s, d, s.value[d] - 1, events)
        if _check_end(s, events):
            return
    zone = s.zone
    s.choices = [
        None if zone[:DICE_PER_SET].count(HAND) else (),
        None if zone[DICE_PER_SET:].count(HAND) else (),
    ]
    if s.choices[0] is not None and s.choices[1] is not None:
        _resolve_simultaneous(s, events)


def _resolve_simultaneous(s: State, events: list) -> None:
    if s.phase == SPLIT:
        _battle_throw(s, events)
    elif s.phase == DAMAGE:
        _resolve_damage(s, events)
    elif s.phase == END_TURN:
        _resolve_end_turn(s, events)


def _battle_throw(s: State, events: list) -> None:
    s.cache = None
    zone, value = s.zone, s.value
    first, second = s.choices
    dice = first + second
    rolled = _roll_many(s, len(dice))
    for d, v in zip(dice, rolled, strict=True):
        zone[d] = BATTLE
        value[d] = v
    s.choices = [None, None]
    if events is not None:
        events.append(
            {"type": "battle_throw", "dice": [[d, v] for d, v in zip(dice, rolled, strict=True)]}
        )
    reserve = [zone[:DICE_PER_SET].count(HAND), zone[DICE_PER_SET:].count(HAND)]
    life = [0, 0]
    for p in PLAYERS:
        for d in s.table.life_ids[p]:
            if zone[d] == BATTLE:
                life[p] += value[d]
    s.advantage, basis = _advantage(s, reserve, life, events)
    if events is not None:
        events.append({"type": "advantage", "player": s.advantage, "basis": basis})
    s.phase = BATTLE_BONUS
    # Colour bonuses in ADVANTAGE order, each player's dice by id (a split lists them
    # in ascending order).
    split = len(first)
    info = s.info
    queue = []
    for player in (s.advantage, 1 - s.advantage):
        start, stop = (0, split) if player == 0 else (split, len(dice))
        for i in range(start, stop):
            v = rolled[i]
            if v == 1 or (v == 2 and info[dice[i]].rare):
                queue.append((player, dice[i]))
    if queue:
        s.bonus_queue = [*s.bonus_queue, *queue]


def _advantage(s, reserve: list[int], life: list[int], events: list) -> tuple[int, str]:
    """The ADVANTAGE side and why: more dice left in reserve, else more life points in
    the life zone, else a roll-off. ``reserve`` and ``life`` per side."""
    if reserve[0] != reserve[1]:
        return (0 if reserve[0] > reserve[1] else 1), "reserve"
    if life[0] != life[1]:
        return (0 if life[0] > life[1] else 1), "life_points"
    return _roll_off(s, "advantage", events), "roll_off"


def _damage_dealt(attack: list[int], defense: list[int]) -> list[int]:
    """The damage each side receives: the other side's attack above its own defense."""
    a0, a1 = attack[1] - defense[0], attack[0] - defense[1]
    return [a0 if a0 > 0 else 0, a1 if a1 > 0 else 0]


def _start_damage(s: State, events: list) -> None:
    s.phase = DAMAGE
    s.actor = None
    attack = [0, 0]
    defense = [0, 0]
    zone, value, infos = s.zone, s.value, s.info
    for d in range(DICE_COUNT):
        if zone[d] == BATTLE:
            info = infos[d]
            if info.cls == ATTACK:
                attack[info.owner] += value[d]
            elif info.cls == DEFENSE:
                defense[info.owner] += value[d]
    s.damage = damage = _damage_dealt(attack, defense)
    if events is not None:
        events.append({"type": "damage", "attack": attack, "defense": defense, "damage": damage[:]})
    choices = [None, None]
    for p in PLAYERS:
        points = damage[p]
        if points == 0:
            choices[p] = ()
            continue
        life = _life_in_zone(s, p)
        total = 0
        for d in life:
            total += value[d]
        if len(life) == 1 or points >= total:
            taken = []
            for d in life:
                a = value[d] if value[d] < points else points
                if a:
                    taken.append((d, a))
            choices[p] = tuple(taken)
    s.choices = choices
    if choices[0] is not None and choices[1] is not None:
        _resolve_damage(s, events)


def _resolve_damage(s: State, events: list) -> None:
    for player in PLAYERS:
        amounts = s.choices[player]
        if amounts and events is not None:
            events.append(
                {
                    "type": "damage_taken",
                    "player": player,
                    "amounts": [list(p) for p in amounts],
                }
            )
        for d, a in amounts:
            _set_value(s, d, s.value[d] - a, events)
    _clear_battle_zones(s, events)
    s.choices = [None, None]
    s.damage = [0, 0]
    if _check_end(s, events):
        return
    _start_end_turn(s, events)


def _clear_battle_zones(s, events: list) -> None:
    """End of the damage phase: every ATTACK and DEFENSE die in a battle zone goes to
    storage."""
    zone, value, info = s.zone, s.value, s.info
    d = -1
    for _ in range(zone.count(BATTLE)):
        d = zone.index(BATTLE, d + 1)
        if info[d].cls != LIFE:
            s.cache = None
            zone[d] = STORAGE
            value[d] = 0
            if events is not None:
                events.append(
                    {"type": "move", "die": d, "to": "storage", "cause": "damage_phase_over"}
                )


def random_throw(hand: list[int], rng) -> list[int]:
    """A random bot's split: each die of the hand thrown or kept on one random bit."""
    bits = rng.getrandbits(len(hand)) if hand else 0
    throw = []
    for d in hand:
        if bits & 1:
            throw.append(d)
        bits >>= 1
    return throw


def _storage_to_hand(s, events: list) -> None:
    """End of turn: every die in storage goes back to its owner's hand."""
    _move_every_die(s, STORAGE, HAND, "hand", "storage_to_hand", events)


def _move_every_die(s, source: int, target: int, to: str, cause: str, events: list) -> None:
    """Every die in zone ``source`` goes to ``target`` with its value cleared, in die order."""
    zone, value = s.zone, s.value
    count = zone.count(source)
    if count:
        s.cache = None
    d = -1
    if events is None:
        for _ in range(count):
            d = zone.index(source, d + 1)
            zone[d] = target
            value[d] = 0
        return
    for _ in range(count):
        d = zone.index(source, d + 1)
        zone[d] = target
        value[d] = 0
        events.append({"type": "move", "die": d, "to": to, "cause": cause})


def _start_end_turn(s: State, events: list) -> None:
    s.phase = END_TURN
    s.choices = [None if len(_return_options(s, p)) > 1 else (None,) for p in PLAYERS]
    if s.choices[0] is not None and s.choices[1] is not None:
        _resolve_end_turn(s, events)


def _resolve_end_turn(s: State, events: list) -> None:
    for player in PLAYERS:
        (die,) = s.choices[player]
        if die is not None:
            _move(s, die, HAND, events, "returned_at_end_of_turn")
    _storage_to_hand(s, events)
    s.choices = [None, None]
    _start_turn(s, events)


def _check_end(s: State, events: list) -> bool:
    """End of the Game: after the first BATTLE phase, a side (a player; a team: all its
    players' life zones) without LIFE dice in the life zone loses at once; both at once:
    a roll-off."""
    if s.phase == OVER:
        return True
    if not s.first_battle_done:
        return False
    zone = s.zone
    life0, life1 = s.table.side_life
    alive0 = alive1 = False
    for d in life0:
        if zone[d] == BATTLE:
            alive0 = True
            break
    for d in life1:
        if zone[d] == BATTLE:
            alive1 = True
            break
    if alive0 and alive1:
        return False
    if alive0 or alive1:
        _finish(s, 0 if alive0 else 1, "no_life_dice", events)
    else:
        _finish(s, _roll_off(s, "end_of_game", events), "roll_off", events)
    return True


def _finish(s: State, winner: int | None, reason: str, events: list) -> None:
    s.phase = OVER
    s.winner = winner
    s.end_reason = reason
    s.actor = None
    s.bonus_queue = []
    s.choices = [None] * len(s.choices)
    s.secret_log = []
    if events is not None:
        events.append(
            {"type": "game_over", s.table.winner_key: winner, "reason": reason, "seed": s.seed}
        )


def _resolve_duel(s: State, events: list) -> None:
    """LIFO: the last throw resolves first; a throw whose die left the clash zone, or
    whose targets all left their zone, has no effect. Assault and Barrier add to their
    own side's dice and subtract from the other side's."""
    info, zone, side = s.info, s.zone, s.table.side
    for die, targets, target_zone in reversed(s.duel_throws):
        if zone[die] != CLASH:
            if events is not None:
                events.append({"type": "effect_skipped", "die": die, "why": "die_left_play"})
            continue
        live = []
        for t in targets:
            if zone[t] == target_zone:
                live.append(t)
        if not live:
            if events is not None:
                events.append({"type": "effect_skipped", "die": die, "why": "target_left_play"})
            continue
        kind = info[die].type
        value = s.value[die]
        if kind in _MULTI_TARGET:
            for t in live:
                won = value >= s.value[t]
                if events is not None:
                    events.append({"type": "compare", "die": die, "target": t, "won": won})
                if won:
                    _set_value(s, t, s.value[t] - 2, events)
            if _check_end(s, events):
                return
            continue
        target = live[0]
        if kind == REGENERATOR:
            if events is not None:
                events.append({"type": "compare", "die": die, "target": target, "won": True})
            s.cache = None
            zone[target] = BATTLE
            s.value[target] = value
            if events is not None:
                events.append(
                    {"type": "move", "die": target, "to": "battle", "cause": "regenerated"}
                )
            if events is not None:
                events.append({"type": "value", "die": target, "value": value})
            continue
        won = _wins(s, die, target)
        if events is not None:
            events.append({"type": "compare", "die": die, "target": target, "won": won})
        if kind == CRUSHER:
            if won:
                _move(s, target, ABYSS, events, "crushed")
            else:
                _move(s, die, ABYSS, events, "crusher_lost")
        elif kind in (ASSAULT, BARRIER):
            amount = value if won else 1
            sign = 1 if side[target] == side[die] else -1
            _set_value(s, target, s.value[target] + sign * amount, events)
        elif kind == SHOOTER:
            _set_value(s, target, s.value[target] - (2 if won else 1), events)
        elif kind == ANNULATOR:
            if won:
                _move(s, target, STORAGE, events, "annulled")
        elif kind == POWER_BOOSTER:
            _set_value(s, target, s.value[target] + (3 if won else 1), events)
        if _check_end(s, events):
            return
    _move_every_die(s, CLASH, STORAGE, "storage", "duel_over", events)
    s.duel_throws = []
    if events is not None:
        events.append({"type": "duel_over"})


def _advance(
    s: State,
    events: list,
    throw_options=_throw_options,
    start_damage=_start_damage,
    pass_throw=_pass,
) -> None:
    """Run every automatic step until a player must decide or the game is over. A
    decision with a single possible outcome is taken automatically. The team game
    passes its own throw options of a side, start of the damage phase and pass; a
    side's decisions are made by the seat with the side's number (a player; a team's
    captain, ``team.captain``)."""
    while s.phase != OVER:
        if s.bonus_queue:
            owner, die = s.bonus_queue[0]
            options = _bonus_options(s, owner, die)
            if len(options) > 1:
                return
            s.bonus_queue = s.bonus_queue[1:]
            if options:
                _apply_bonus(s, owner, die, options[0], events)
            else:
                if events is not None:
                    events.append({"type": "bonus_lapsed", "player": owner, "die": die})
            continue
        phase = s.phase
        if phase == BATTLE_BONUS:
            s.first_battle_done = True
            if events is not None:
                events.append({"type": "battle_phase_over"})
            if _check_end(s, events):
                return
            if not sudden_death_active(s) and HAND in s.zone:
                s.phase = OFFER
                s.attack_right = [True, True]
                s.preferred = s.advantage
                if events is not None:
                    events.append({"type": "clash_started"})
            else:
                if events is not None:
                    events.append({"type": "clash_skipped"})
                start_damage(s, events)
            continue
        if phase == OFFER:
            for candidate in (s.preferred, 1 - s.preferred):
                if not s.attack_right[candidate]:
                    continue
                # throw_options(s, candidate, True), with the usual cache hit inlined
                # (both games keep a side's options in slot 2 * side + first).
                cache = s.cache
                options = None if cache is None else cache[2 * candidate + 1]
                if options is None:
                    options = throw_options(s, candidate, True)
                if options:
                    s.actor = candidate
                    return
            if events is not None:
                events.append({"type": "clash_over"})
            s.attack_right = [False, False]
            start_damage(s, events)
            continue
        if phase == DUEL:
            step = s.step
            if step == RESOLVE:
                _resolve_duel(s, events)
                if s.phase == OVER:
                    return
                s.phase = OFFER
                s.preferred = 1 - s.attacker
                s.step = 0
                s.actor = None
                continue
            actor = s.attacker if step == ATTACKER_SECOND else 1 - s.attacker
            cache = s.cache
            options = None if cache is None else cache[2 * actor]
            if options is None:
                options = throw_options(s, actor, False)
            if options:
                s.actor = actor
                return
            pass_throw(s, actor, events, forced=True)
            continue
        return  # a simultaneous phase waiting for choices


# ---------------------------------------------------------------------------
# Views


def _die_view(s: State, d: int) -> dict:
    info = s.info[d]
    z = s.zone[d]
    return {
        "id": d,
        "owner": info.owner,
        "type": TYPES[info.type].value,
        "colour": COLOURS[info.colour].value,
        "rare": info.rare,
        "class": CLASS_NAMES[info.cls],
        "zone": ZONE_NAMES[z],
        "value": s.value[d] if z in (BATTLE, CLASH) else None,
    }


def _duel_view(s) -> dict | None:
    """The duel in progress as every viewer sees it (None outside a duel)."""
    if s.phase != DUEL:
        return None
    return {
        "attacker": s.attacker,
        "step": _STEP_NAMES.get(s.step),
        "defender_passed_first": s.defender_passed,
        "throws": [{"die": d, "targets": list(t)} for d, t, _z in s.duel_throws],
    }


def view(state: State, viewer) -> dict:
    """What ``viewer`` (0, 1, "judge" or "spectator") may see. The only output of a game
    meant for anyone but the server: a player never sees the opponent's pending secret
    choice, and nobody but a judge sees the seed before the game is over."""
    if viewer not in (0, 1, JUDGE, SPECTATOR):
        raise ValueError("viewer must be 0, 1, 'judge' or 'spectator'.")
    s = state
    judge = viewer == JUDGE
    over = s.phase == OVER
    decision = None
    if s.phase != OVER:
        if s.bonus_queue:
            owner, die = s.bonus_queue[0]
            decision = {"kind": "bonus", "player": owner, "die": die}
        elif s.phase in _SIMULTANEOUS:
            decision = {"kind": s.phase, "players": sorted(to_act(s))}
        else:
            decision = {
                "kind": "attack" if s.phase == OFFER else _STEP_NAMES[s.step],
                "player": s.actor,
            }
    pending = {}
    if s.phase in _SIMULTANEOUS and s.phase != OVER:
        for p in PLAYERS:
            if s.choices[p] is not None and (judge or viewer == p):
                pending[str(p)] = _choice_to_json(s.choices[p])
    secret = set(s.secret_log)
    log = [
        [actor, action]
        for i, (actor, action) in enumerate(s.log_trail[: s.log_length])
        if i not in secret or judge or actor == viewer
    ]
    duel = _duel_view(s)
    return {
        "game": "irondie",
        "viewer": viewer,
        "game_id": s.game_id,
        "config": s.config,
        "commitment": s.commitment,
        "seed": s.seed if (over or judge) else None,
        "turn": s.turn,
        "phase": s.phase,
        "decision": decision,
        "to_act": sorted(to_act(s)),
        "sudden_death": {"active": sudden_death_active(s), "from_turn": s.sudden_death_from},
        "advantage": s.advantage,
        "attack_rights": list(s.attack_right) if s.phase in (OFFER, DUEL) else [False, False],
        "duel": duel,
        "damage": list(s.damage) if s.phase == DAMAGE else [0, 0],
        "committed": [s.choices[p] is not None for p in PLAYERS]
        if s.phase in _SIMULTANEOUS
        else [False, False],
        "pending": pending,
        "dice": [_die_view(s, d) for d in range(DICE_COUNT)],
        "log": log,
        "rolls": s.rolls,
        "over": over,
        "result": result(s),
    }


def replay(config: dict, seed: str, log: Iterable) -> State:
    """Rebuild a game from its config, seed and action log (raises IllegalAction if an
    entry was not legal)."""
    state = new_game(config, seed)
    for actor, action in log:
        state, _events = apply(state, actor, action)
    return state


def random_action(state: State, player, rng) -> dict | None:
    """A uniformly random legal action of ``player`` (``rng``: a ``random.Random``).

    Same distribution as ``rng.choice(legal_actions(state, player))`` but draws a battle
    split die by die instead of listing all 2**n splits. Every other decision draws
    exactly what ``rng.choice(legal_actions(state, player))`` would, without building
    the action list (a damage distribution is picked by its rank among all of them).
    """
    decision = _decision(state, player)
    if decision is None:
        return None
    if decision == SPLIT:
        zone = state.zone
        base = player * DICE_PER_SET
        hand = []
        for d in range(base, base + DICE_PER_SET):
            if zone[d] == HAND:
                hand.append(d)
        return {"kind": "split", "throw": random_throw(hand, rng)}
    if decision in (OFFER, DUEL):
        first = decision == OFFER
        # _throw_options, with the usual cache hit inlined.
        cache = state.cache
        options = None if cache is None else cache[2 * player + 1 if first else 2 * player]
        if options is None:
            options = _throw_options(state, player, first)
        pick = rng.randrange(len(options) + 1)
        if pick == len(options):
            return {"kind": "decline" if decision == OFFER else "pass"}
        die, targets = options[pick]
        return {"kind": "throw", "die": die, "targets": list(targets)}
    if decision == "bonus":
        options = _bonus_options(state, player, state.bonus_queue[0][1])
        return {"kind": "bonus", "targets": list(rng.choice(options))}
    if decision == END_TURN:
        return {"kind": "return", "die": rng.choice(_return_options(state, player))}
    return _random_damage(state, player, rng)


def _random_damage(state: State, player: int, rng) -> dict:
    """``rng.choice`` over the damage distributions in ``_damage_options`` order, by
    counting them instead of listing them."""
    dice = _life_in_zone(state, player)
    values = [state.value[d] for d in dice]
    n = len(dice)
    total = min(state.damage[player], sum(values))
    # ways[i][left]: the distributions of exactly ``left`` points over dice i, i+1, ...
    ways = [[0] * (total + 1) for _ in range(n + 1)]
    ways[n][0] = 1
    for i in range(n - 1, -1, -1):
        row, after, cap = ways[i], ways[i + 1], values[i]
        for left in range(total + 1):
            # sum(after[left - a] for a in ...), as a loop (no generator per entry).
            count = 0
            for a in range(min(cap, left) + 1):
                count += after[left - a]
            row[left] = count
    index = rng.choice(range(ways[0][total]))
    amounts = []
    left = total
    for i in range(n):
        after = ways[i + 1]
        amount = 0
        for amount in range(min(values[i], left) + 1):
            count = after[left - amount]
            if index < count:
                break
            index -= count
        if amount:
            amounts.append([dice[i], amount])
        left -= amount
    return {"kind": "damage", "amounts": amounts}
