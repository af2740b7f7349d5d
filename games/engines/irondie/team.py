"""The IRONDIE team game ("Playing with More Players"): two teams of equal size, 2 v 2
or 3 v 3, each player with their own set and board.

Every ruling of this module is in docs/rules.md, "Team game". In short: a team is the
"player" of the two-player rules wherever the rulebook speaks of the two sides (the
ADVANTAGE, the duels, the damage, the end of the game); each player keeps their own
board, splits and throws their own dice in the BATTLE phase, receives their own colour
bonuses and chooses their own end-of-turn return. A team's clash throws and its damage
distribution are decided by its captain (its first seat), who may throw any team
member's reserve dice. Seats alternate between the teams: seat ``s`` is on team
``s % 2``; seat 0 captains team 0 and seat 1 team 1.

Every rule the two games share is one copy in ``engine`` and called from here: values,
limits, comparisons, the config check, the state's fields and JSON form, the ADVANTAGE,
damage arithmetic, colour bonuses, the duel's effects, the end of the game and the
automatic flow (the tables name each game's two sides: ``side``, ``side_life``). Dice are
named by id: seat ``s`` owns ids ``9 * s`` to ``9 * s + 8`` in its set's order.
"""

from __future__ import annotations

import types
from collections.abc import Iterable

from ..errors import gettext_noop
from . import engine as E

HAND, BATTLE, CLASH, STORAGE, ABYSS = E.HAND, E.BATTLE, E.CLASH, E.STORAGE, E.ABYSS
ATTACK, DEFENSE, LIFE = E.ATTACK, E.DEFENSE, E.LIFE
SPLIT, OFFER, DUEL, DAMAGE, END_TURN, BATTLE_BONUS, OVER = (
    E.SPLIT,
    E.OFFER,
    E.DUEL,
    E.DAMAGE,
    E.END_TURN,
    E.BATTLE_BONUS,
    E.OVER,
)
RESPONSE, ATTACKER_SECOND, DEFENDER_SECOND, RESOLVE = (
    E.RESPONSE,
    E.ATTACKER_SECOND,
    E.DEFENDER_SECOND,
    E.RESOLVE,
)
JUDGE, SPECTATOR, SYSTEM = E.JUDGE, E.SPECTATOR, E.SYSTEM
IllegalAction, ConfigError = E.IllegalAction, E.ConfigError
DICE_PER_SET = E.DICE_PER_SET
TEAMS = (0, 1)
# Team sizes: 2 v 2 and 3 v 3 (docs/rules.md, "Team game": "How many players").
TEAM_SIZES = (2, 3)
TEAM_SEAT_COUNTS = tuple(2 * size for size in TEAM_SIZES)
FORMAT = "team-1"

_SIMULTANEOUS = E._SIMULTANEOUS
_SINGLE, _MULTI, _REGENERATE = E._SINGLE, E._MULTI, E._REGENERATE


def team_of(seat: int) -> int:
    return seat % 2


def captain(team: int) -> int:
    """The seat that decides a team's clash throws and damage distribution."""
    return team


def is_team_config(config) -> bool:
    """A config with more than two sets is a team game (two sets: the two-player game)."""
    if not isinstance(config, dict):
        return False
    sets = config.get("sets")
    return isinstance(sets, list | tuple) and len(sets) > 2


def normalise_config(config: dict) -> dict:
    """Validate a team game config and return its canonical JSON form (ConfigError)."""
    sets = E._config_sets(config)
    if not isinstance(sets, list | tuple) or len(sets) not in TEAM_SEAT_COUNTS:
        raise ConfigError(
            gettext_noop(
                "A team game needs two teams of equal size: 'sets' must hold 4 or 6 playing sets."
            )
        )
    return E._canonical_config(config, sets)


class TeamTable:
    """Per game: every die's facts (``engine.DieInfo``, owner = seat), its team, the ids
    of each seat's and each team's dice, and per die whose dice it may target."""

    __slots__ = (
        "dice",
        "team",
        "seats",
        "seat_ids",
        "team_ids",
        "life_ids",
        "team_life",
        "modes",
        "eligible_order",
        "eligible",
        "pool_of",
        "targeted_by",
        "side",
        "side_life",
    )
    winner_key = "winning_team"

    def __init__(self, infos: tuple[E.DieInfo, ...]):
        self.seats = n = len(infos) // DICE_PER_SET
        self.dice = infos
        self.team = _TEAM_OF_DIE[n]
        self.seat_ids = seat_ids = _SEAT_IDS[n]
        self.team_ids = team_ids = _TEAM_IDS[n]
        by_class: tuple[list[int], ...] = ([], [], [], [], [], [])
        for d in infos:
            by_class[2 * d.cls + (d.owner & 1)].append(d.id)
        self.life_ids = tuple(
            tuple(d for d in seat_ids[s] if infos[d].cls == LIFE) for s in range(n)
        )
        self.team_life = (tuple(by_class[2 * LIFE]), tuple(by_class[2 * LIFE + 1]))
        self.side = self.team
        self.side_life = self.team_life
        # Each die's targets in id order, and as a set; dice with the same pool share
        # them and its number (``pool_of``).
        ordered, pool_of = [], []
        pools: dict[tuple, tuple] = {}
        numbers: dict[tuple, int] = {}
        everyone = tuple(range(len(infos)))
        for d in infos:
            kind, team = d.type, d.owner & 1
            if kind in E._OPPONENT_ONLY:
                key = (0, 1 - team)
            elif kind == E.REGENERATOR:
                key = (1, d.owner)
            elif kind in E._OWN_ONLY:
                key = (0, team)
            else:
                key = (2, 0)
            wanted = E._TARGET_CLASS.get(kind)
            pool = pools.get((key, wanted))
            if pool is None:
                kind_of, who = key
                if kind_of == 0:
                    pool = team_ids[who] if wanted is None else tuple(by_class[2 * wanted + who])
                elif kind_of == 1:
                    pool = seat_ids[who]
                    if wanted is not None:
                        pool = tuple(t for t in pool if infos[t].cls == wanted)
                elif wanted is None:
                    pool = everyone
                else:
                    pool = tuple(sorted(by_class[2 * wanted] + by_class[2 * wanted + 1]))
                pools[(key, wanted)] = pool
                numbers[(key, wanted)] = len(numbers)
            ordered.append(pool)
            pool_of.append(numbers[(key, wanted)])
        self.modes = tuple(E._THROW_MODES[d.type] for d in infos)
        self.eligible_order = tuple(ordered)
        as_set = {number: frozenset(pools[k]) for k, number in numbers.items()}
        self.pool_of = tuple(pool_of)
        self.eligible = tuple(as_set[number] for number in pool_of)
        # Per team and target: the team's dice that may throw at it in the clash zone
        # (every die but a Regenerator), the dice of a team sharing a pool added
        # together (in no set order: ``_add_clash_target`` sorts what it builds).
        throwers: dict[tuple[int, int], list[int]] = {}
        modes = self.modes
        for d in infos:
            if modes[d.id] != _REGENERATE:
                group = throwers.get((d.owner & 1, pool_of[d.id]))
                if group is None:
                    throwers[(d.owner & 1, pool_of[d.id])] = [d.id]
                else:
                    group.append(d.id)
        targeted_by: tuple[list[list[int]], ...] = tuple([[] for _ in infos] for _team in TEAMS)
        for (team, _number), group in throwers.items():
            by_target = targeted_by[team]
            for t in ordered[group[0]]:
                by_target[t] += group
        self.targeted_by = targeted_by


# Per seat count: each die's team, each seat's and each team's ids (the same in every
# game of that size).
_TEAM_OF_DIE = {
    n: tuple(team_of(i // DICE_PER_SET) for i in range(n * DICE_PER_SET)) for n in TEAM_SEAT_COUNTS
}
_SEAT_IDS = {
    n: tuple(tuple(range(s * DICE_PER_SET, (s + 1) * DICE_PER_SET)) for s in range(n))
    for n in TEAM_SEAT_COUNTS
}
_TEAM_IDS = {
    n: tuple(
        tuple(i for i in range(n * DICE_PER_SET) if team_of(i // DICE_PER_SET) == t) for t in TEAMS
    )
    for n in TEAM_SEAT_COUNTS
}
# A single-target throw option, (die, (target,)), made once for every pair of ids.
_PAIRS = tuple(
    tuple((d, (t,)) for t in range(max(TEAM_SEAT_COUNTS) * DICE_PER_SET))
    for d in range(max(TEAM_SEAT_COUNTS) * DICE_PER_SET)
)
# The DieInfo of a die (id, its seat, its facts), shared by all games.
_DIE_INFOS: dict[tuple, E.DieInfo] = {}
_TABLES: dict[tuple, TeamTable] = {}


def _table(config: dict) -> TeamTable:
    """The table of a canonical config, cached by its dice (online games rebuild their
    state from JSON at every action)."""
    keys = []
    for dice in config["sets"]:
        for d in dice:
            keys.append((d["type"], d["colour"], d["rare"]))
    key = tuple(keys)
    table = _TABLES.get(key)
    if table is None:
        infos = []
        for die_id, facts_key in enumerate(keys):
            info = _DIE_INFOS.get((die_id, facts_key))
            if info is None:
                info = _DIE_INFOS[(die_id, facts_key)] = E.DieInfo(
                    die_id, die_id // DICE_PER_SET, E._FACTS[facts_key]
                )
            infos.append(info)
        if len(_TABLES) > 1024:
            _TABLES.clear()
        table = _TABLES[key] = TeamTable(tuple(infos))
    return table


class TeamState:
    """A team game in progress; treat as immutable (``apply`` returns a new one).
    ``to_dict()`` is for the server and judges only (it holds the seed)."""

    __slots__ = (*E._STATE_FIELDS, "assigned")

    _LISTS = (*E._STATE_LISTS, "assigned")

    log = E.LOG
    rolls = E.ROLLS

    @property
    def seats(self) -> int:
        return self.table.seats

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def _fork(self) -> TeamState:
        """The copy ``apply`` works on (``engine._fork_state``, and the same for
        ``assigned``, which the engine also never edits in place)."""
        c = E._fork_state(self)
        c.assigned = self.assigned
        return c

    def clone(self) -> TeamState:
        c = self._fork()
        for name in TeamState._LISTS:
            setattr(c, name, getattr(self, name).copy())
        return c

    def to_dict(self) -> dict:
        return E._fields_to_dict(
            self, FORMAT, (("assigned", [[list(p) for p in part] for part in self.assigned]),)
        )

    @classmethod
    def from_dict(cls, data: dict) -> TeamState:
        if data.get("format") != FORMAT:
            raise ValueError("Unknown IRONDIE team state format.")
        s = cls.__new__(cls)
        config = normalise_config(data["config"])
        E._fields_from_dict(s, data, config, _table(config))
        s.assigned = [tuple(tuple(p) for p in part) for part in data["assigned"]]
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TeamState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<IRONDIE TeamState game={self.game_id!r} seats={self.seats} turn={self.turn} phase={self.phase}>"


E.OTHER_FORMATS[FORMAT] = TeamState


# ---------------------------------------------------------------------------
# Creating a game


def new_game(config: dict, seed: str) -> TeamState:
    if not isinstance(seed, str) or not seed:
        raise ConfigError(gettext_noop("The seed must be a non-empty string."))
    config = normalise_config(config)
    s = TeamState.__new__(TeamState)
    table = _table(config)
    E._fields_at_start(s, config, seed, table, table.seats)
    s.assigned = [(), ()]
    events: list[dict] = []
    _start_turn(s, events)
    _advance(s, events)
    return s


# ---------------------------------------------------------------------------
# Queries


def to_act(state: TeamState) -> set[int]:
    """The seats deciding now; the contract's ``to_act`` (a two-player state goes to
    ``engine.to_act``: one call for either game, no dispatcher in between)."""
    if type(state) is not TeamState:
        return E.to_act(state)
    if state.phase == OVER:
        return set()
    if state.bonus_queue:
        return {state.bonus_queue[0][0]}
    if state.phase in _SIMULTANEOUS:
        seats = set()
        for seat, choice in enumerate(state.choices):
            if choice is None:
                seats.add(seat)
        return seats
    return {state.actor}


def is_over(state: TeamState) -> bool:
    return state.phase == OVER


def placings(state: TeamState) -> list[int] | None:
    """The winning team's seats 1, the other team's 2; everyone 1 without a winner."""
    if state.phase != OVER:
        return None
    if state.winner is None:
        return [1] * state.seats
    return [1 if team_of(seat) == state.winner else 2 for seat in range(state.seats)]


def result(state: TeamState) -> dict | None:
    """None while running; then the winning team, its seats, every seat's placing."""
    if state.phase != OVER:
        return None
    places = placings(state)
    return {
        "winning_team": state.winner,
        "winners": [seat for seat, place in enumerate(places) if place == 1]
        if state.winner is not None
        else [],
        "placings": places,
        "teams": [team_of(seat) for seat in range(state.seats)],
        "reason": state.end_reason,
        "turns": state.turn,
    }


def sudden_death_active(state: TeamState) -> bool:
    return state.sudden_death_from is not None and state.turn >= state.sudden_death_from


def _decision(state: TeamState, seat) -> str | None:
    if state.phase == OVER or type(seat) is not int or not 0 <= seat < state.table.seats:
        return None
    if state.bonus_queue:
        return "bonus" if state.bonus_queue[0][0] == seat else None
    phase = state.phase
    if phase in _SIMULTANEOUS:
        return phase if state.choices[seat] is None else None
    return phase if state.actor == seat else None


def _dice_of(state: TeamState, seat: int, zone: int) -> list[int]:
    z = state.zone
    return [d for d in state.table.seat_ids[seat] if z[d] == zone]


# These helpers and the damage steps use loops, not comprehensions: a comprehension is
# a call of its own in Python 3.11, more than the loop over a few dice costs.


def _life_in_zone(state: TeamState, seat: int) -> list[int]:
    z = state.zone
    life = []
    for d in state.table.life_ids[seat]:
        if z[d] == BATTLE:
            life.append(d)
    return life


def _team_life(state: TeamState, team: int) -> list[int]:
    z = state.zone
    life = []
    for d in state.table.team_life[team]:
        if z[d] == BATTLE:
            life.append(d)
    return life


# ---------------------------------------------------------------------------
# Legal actions


def _throw_options(state: TeamState, team: int, first: bool) -> list:
    """Cached per zone layout (slot 2 * team + first), like the two-player engine."""
    cache = state.cache
    if cache is None:
        cache = state.cache = [None, None, None, None, None]
    key = 2 * team + (1 if first else 0)
    options = cache[key]
    if options is None:
        options = cache[key] = _compute_throw_options(state, team, first)
    return options


def _compute_throw_options(state: TeamState, team: int, first: bool) -> list:
    """Every (die, targets) the team may throw now, from any member's reserve, in id
    order of the dice and of their targets. The targets in the battle zone are found
    once per pool of dice sharing their eligible targets; the clash zone holds only the
    few dice thrown in this duel, so later throws look for targets among those."""
    zone = state.zone
    table = state.table
    modes = table.modes
    options: list = []
    if first:
        eligible, pool_of = table.eligible_order, table.pool_of
        in_battle: dict[int, list[int]] = {}
        for die in table.team_ids[team]:
            if zone[die] != HAND:
                continue
            mode = modes[die]
            if mode == _REGENERATE:
                pairs = _PAIRS[die]
                for t in table.seat_ids[die // DICE_PER_SET]:
                    if zone[t] == STORAGE:
                        options.append(pairs[t])
                continue
            pool = in_battle.get(pool_of[die])
            if pool is None:
                pool = in_battle[pool_of[die]] = []
                for t in eligible[die]:
                    if zone[t] == BATTLE:
                        pool.append(t)
            if not pool:
                continue
            if mode == _SINGLE:
                pairs = _PAIRS[die]
                for t in pool:
                    options.append(pairs[t])
            else:
                options.append((die, tuple(pool)))
        return options
    in_clash = []
    t = -1
    for _ in range(zone.count(CLASH)):
        t = zone.index(CLASH, t + 1)
        in_clash.append(t)
    if not in_clash:
        return options
    eligible = table.eligible
    for die in table.team_ids[team]:
        if zone[die] != HAND:
            continue
        mode = modes[die]
        if mode == _REGENERATE:
            continue
        ok = eligible[die]
        if mode == _SINGLE:
            pairs = _PAIRS[die]
            for t in in_clash:
                if t in ok:
                    options.append(pairs[t])
        else:
            pool = [t for t in in_clash if t in ok]
            if pool:
                options.append((die, tuple(pool)))
    return options


# The colour bonus options: the two-player rules over the owner's own dice, cached
# per zone layout in the same slot.
_bonus_options = E._bonus_options


def _team_damage_total(state: TeamState, team: int) -> tuple[list[int], list[int], int]:
    dice = _team_life(state, team)
    value = state.value
    values = []
    for d in dice:
        values.append(value[d])
    return dice, values, min(state.damage[team], sum(values))


def _damage_steps(state: TeamState, team: int) -> list[tuple[int, int]]:
    """The captain's next step in sharing out the team's damage: (die, points) with the
    die after the last one given points (ascending ids: one spelling per distribution),
    at least 1 and at most its value, leaving no more than the later dice can take."""
    dice, values, total = _team_damage_total(state, team)
    assigned = state.assigned[team]
    left = total
    last = -1
    for d, a in assigned:
        left -= a
        last = d
    rest = []
    for d, v in zip(dice, values, strict=True):
        if d > last:
            rest.append((d, v))
    capacity = [0] * (len(rest) + 1)
    for i in range(len(rest) - 1, -1, -1):
        capacity[i] = capacity[i + 1] + rest[i][1]
    steps = []
    for i, (d, v) in enumerate(rest):
        for points in range(max(1, left - capacity[i + 1]), min(v, left) + 1):
            steps.append((d, points))
    return steps


def _return_options(state: TeamState, seat: int) -> list[int | None]:
    """One LIFE die or none; a player's last LIFE die only while a teammate has two or
    more in their life zone (the team can never be emptied by returns made at once)."""
    # sudden_death_active(state), inlined.
    sudden_from = state.sudden_death_from
    if sudden_from is not None and state.turn >= sudden_from:
        return [None]
    life = _life_in_zone(state, seat)
    if not life:
        return [None]
    if len(life) >= 2:
        return [None, *life]
    team = seat % 2  # team_of(seat), inlined
    for mate in range(team, state.table.seats, 2):
        if mate != seat and len(_life_in_zone(state, mate)) >= 2:
            return [None, *life]
    return [None]


def legal_actions(state: TeamState, seat) -> list[dict]:
    decision = _decision(state, seat)
    if decision is None:
        return []
    if decision == "bonus":
        die = state.bonus_queue[0][1]
        return [{"kind": "bonus", "targets": list(t)} for t in _bonus_options(state, seat, die)]
    if decision == SPLIT:
        hand = _dice_of(state, seat, HAND)
        n = len(hand)
        return [
            {"kind": "split", "throw": [hand[i] for i in range(n) if mask >> i & 1]}
            for mask in range(1 << n)
        ]
    if decision in (OFFER, DUEL):
        actions = [
            {"kind": "throw", "die": d, "targets": list(t)}
            for d, t in _throw_options(state, team_of(seat), decision == OFFER)
        ]
        actions.append({"kind": "decline" if decision == OFFER else "pass"})
        return actions
    if decision == DAMAGE:
        return [
            {"kind": "damage", "die": d, "points": points}
            for d, points in _damage_steps(state, team_of(seat))
        ]
    return [{"kind": "return", "die": d} for d in _return_options(state, seat)]


def default_action(state: TeamState, seat) -> dict | None:
    """As in the two-player game (docs/engine.md): throw everything, the first bonus
    option, decline, pass, lose as few LIFE dice as possible, return nothing."""
    decision = _decision(state, seat)
    if decision is None:
        return None
    if decision == SPLIT:
        return {"kind": "split", "throw": _dice_of(state, seat, HAND)}
    if decision == OFFER:
        return {"kind": "decline"}
    if decision == DUEL:
        return {"kind": "pass"}
    if decision == END_TURN:
        return {"kind": "return", "die": None}
    if decision == DAMAGE:
        d, points = _fewest_losses(state, team_of(seat))[0]
        return {"kind": "damage", "die": d, "points": points}
    die = state.bonus_queue[0][1]
    return {"kind": "bonus", "targets": list(_bonus_options(state, seat, die)[0])}


def _fewest_losses(state: TeamState, team: int) -> tuple[tuple[int, int], ...]:
    """The rest of the distribution that loses the fewest LIFE dice: the highest dice
    brought down to 1 first, then the smallest drained."""
    dice, _values, left = _team_damage_total(state, team)
    last = -1
    for d, a in state.assigned[team]:
        left -= a
        last = d
    return E._spread_fewest_losses(state.value, [d for d in dice if d > last], left)


def _below(rng, n: int) -> int:
    """``rng.randrange(n)`` of a ``random.Random``: the same draw, in one call."""
    if n <= 0:
        raise IndexError("Cannot choose from an empty sequence")
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def random_action(state: TeamState, seat, rng) -> dict | None:
    """A uniformly random legal action (``rng``: a ``random.Random``); a split is drawn
    die by die. The draws are ``rng.randrange`` and ``rng.choice``'s, inlined. The
    contract's ``random_action``: a two-player state goes to ``engine.random_action``."""
    if type(state) is not TeamState:
        return E.random_action(state, seat, rng)
    # _decision(state, seat), inlined.
    if state.phase == OVER or type(seat) is not int or not 0 <= seat < state.table.seats:
        return None
    if state.bonus_queue:
        if state.bonus_queue[0][0] != seat:
            return None
        options = _bonus_options(state, seat, state.bonus_queue[0][1])
        return {"kind": "bonus", "targets": list(options[_below(rng, len(options))])}
    decision = state.phase
    if decision in _SIMULTANEOUS:
        if state.choices[seat] is not None:
            return None
    elif state.actor != seat:
        return None
    if decision in (OFFER, DUEL):
        team = seat % 2
        first = decision == OFFER
        # _throw_options, with the usual cache hit inlined.
        cache = state.cache
        options = None if cache is None else cache[2 * team + 1 if first else 2 * team]
        if options is None:
            options = _throw_options(state, team, first)
        count = len(options) + 1
        # pick = rng.randrange(count), inlined.
        getrandbits = rng.getrandbits
        k = count.bit_length()
        pick = getrandbits(k)
        while pick >= count:
            pick = getrandbits(k)
        if pick == count - 1:
            return {"kind": "decline" if first else "pass"}
        die, targets = options[pick]
        return {"kind": "throw", "die": die, "targets": list(targets)}
    if decision == SPLIT:
        zone = state.zone
        hand = []
        for d in state.table.seat_ids[seat]:
            if zone[d] == HAND:
                hand.append(d)
        return {"kind": "split", "throw": E.random_throw(hand, rng)}
    if decision == END_TURN:
        options = _return_options(state, seat)
        return {"kind": "return", "die": options[_below(rng, len(options))]}
    steps = _damage_steps(state, seat % 2)
    d, points = steps[_below(rng, len(steps))]
    return {"kind": "damage", "die": d, "points": points}


# ---------------------------------------------------------------------------
# Applying actions


def apply(
    state: TeamState, seat, action: dict, events: bool = True
) -> tuple[TeamState, list[dict] | None]:
    """Apply one action of ``seat`` (0 to seats - 1) or "system"; IllegalAction leaves
    ``state`` unchanged. ``events=False``: the events are not built, and None stands in
    their place (the same new state). The contract's ``apply``: a two-player state goes
    to ``engine.apply`` (one call for either game, no dispatcher in between)."""
    if type(state) is not TeamState:
        return E.apply(state, seat, action, events)
    if seat == SYSTEM:
        s, built = _apply_system(state, action)
        return s, built if events else None
    if type(seat) is not int or not 0 <= seat < state.table.seats:
        raise IllegalAction(
            gettext_noop("Game"),
            gettext_noop("The actor must be a seat 0 to %(last)s or 'system'."),
            last=state.table.seats - 1,
        )
    if state.phase == OVER:
        raise IllegalAction(gettext_noop("End of the Game"), gettext_noop("The game is over."))
    if not isinstance(action, dict):
        raise IllegalAction(
            gettext_noop("Game"), gettext_noop("An action must be an object with a 'kind'.")
        )
    # _decision(state, seat), inlined.
    if state.bonus_queue:
        decision = "bonus" if state.bonus_queue[0][0] == seat else None
    else:
        decision = state.phase
        if decision in _SIMULTANEOUS:
            if state.choices[seat] is not None:
                decision = None
        elif state.actor != seat:
            decision = None
    if decision is None:
        raise IllegalAction(
            gettext_noop("Game"),
            gettext_noop("Player %(player)s has no decision to make now."),
            player=seat,
        )
    # state._fork(), inlined.
    s = _fork_state(state)
    s.assigned = state.assigned
    events = [] if events else None
    logged = _ACTS[decision](s, seat, action, events)
    # _log_add(s, (seat, logged)), inlined.
    trail, length = s.log_trail, s.log_length
    if len(trail) != length:
        trail = s.log_trail = trail[:length]
    trail.append((seat, logged))
    s.log_length = length + 1
    if decision in _SIMULTANEOUS:
        s.secret_log = [*s.secret_log, s.log_length - 1]
        if None not in s.choices:
            s.secret_log = []
            _resolve_simultaneous(s, events)
    # _advance(s, events), inlined.
    _shared_advance(s, events, _throw_options, _start_damage, _pass)
    return s, events


_expect = E._expect
_log_add = E._log_add
_fork_state = E._fork_state
_shared_advance = E._advance


def _die_id(state: TeamState, value, rule: str) -> int:
    count = len(state.zone)
    if type(value) is not int or not 0 <= value < count:
        raise IllegalAction(
            rule, gettext_noop("A die must be named by its id, 0 to %(last)s."), last=count - 1
        )
    return value


def _set_choice(s: TeamState, seat: int, choice: tuple) -> None:
    choices = s.choices[:]
    choices[seat] = choice
    s.choices = choices


def _act_split(s: TeamState, seat: int, action: dict, events: list) -> dict:
    rule = E._RULE_SPLIT
    if action.get("kind") != "split" or len(action) != 2 or "throw" not in action:
        _expect(action, "split", ("throw",), rule)
    throw = action["throw"]
    if not isinstance(throw, list):
        raise IllegalAction(rule, gettext_noop("'throw' must be a list of die ids."))
    count = len(s.zone)
    ids = []
    for d in throw:
        if type(d) is not int or not 0 <= d < count:
            d = _die_id(s, d, rule)
        ids.append(d)
    if ids != sorted(set(ids)):
        raise IllegalAction(
            rule, gettext_noop("List the dice to throw once each, in ascending order.")
        )
    for d in ids:
        if s.info[d].owner != seat or s.zone[d] != HAND:
            raise IllegalAction(rule, gettext_noop("Die %(die)s is not in your hand."), die=d)
    # _set_choice(s, seat, tuple(ids)), inlined.
    choices = s.choices[:]
    choices[seat] = tuple(ids)
    s.choices = choices
    if events is not None:
        events.append({"type": "split_committed", "player": seat})
    return {"kind": "split", "throw": ids}


def _parse_throw(s: TeamState, seat: int, action: dict, first: bool, rule: str) -> tuple:
    if (
        action.get("kind") != "throw"
        or len(action) != 3
        or "die" not in action
        or "targets" not in action
    ):
        _expect(action, "throw", ("die", "targets"), rule)
    die = action["die"]
    if type(die) is not int or not 0 <= die < len(s.zone):
        die = _die_id(s, die, rule)
    targets = action["targets"]
    if not isinstance(targets, list):
        raise IllegalAction(rule, gettext_noop("'targets' must be a list of die ids."))
    option = (die, tuple(targets))
    team = seat % 2
    # _throw_options(s, team, first), with the usual cache hit inlined.
    cache = s.cache
    options = None if cache is None else cache[2 * team + 1 if first else 2 * team]
    if options is None:
        options = _throw_options(s, team, first)
    if option not in options:
        if s.table.team[die] != team or s.zone[die] != HAND:
            raise IllegalAction(
                rule, gettext_noop("Die %(die)s is not in your team's reserve."), die=die
            )
        raise E._cannot_target(die, targets)
    return option


def _act_offer(s: TeamState, seat: int, action: dict, events: list) -> dict:
    rule = E._RULE_OFFER
    team = seat % 2  # team_of(seat), inlined
    if action.get("kind") == "decline":
        if len(action) != 1:
            _expect(action, "decline", (), rule)
        rights = s.attack_right[:]
        rights[team] = False
        s.attack_right = rights
        s.preferred = 1 - team
        if events is not None:
            events.append({"type": "attack_declined", "player": seat, "team": team})
        return {"kind": "decline"}
    die, targets = _parse_throw(s, seat, action, True, rule)
    return E._open_duel(s, seat, team, die, targets, events, _throw)


def _act_damage(s: TeamState, seat: int, action: dict, events: list) -> dict:
    """One step of the captain's distribution (docs/rules.md, "Team game": damage);
    steps with a single possible outcome follow at once; the choice is complete when
    every point is given."""
    rule = E._RULE_DAMAGE
    _expect(action, "damage", ("die", "points"), rule)
    die, points = _die_id(s, action["die"], rule), action["points"]
    team = seat % 2  # team_of(seat), inlined
    steps = _damage_steps(s, team)
    if (die, points) not in steps:
        if die not in _team_life(s, team):
            raise IllegalAction(
                rule,
                gettext_noop("Die %(die)s is not one of your team's LIFE dice in a life zone."),
                die=die,
            )
        raise IllegalAction(
            rule,
            gettext_noop(
                "Give each LIFE die, in ascending order of id, from 1 point up to its value, "
                "leaving no more than the later dice can take."
            ),
        )
    assigned = [*s.assigned]
    assigned[team] = (*assigned[team], (die, points))
    s.assigned = assigned
    while True:
        steps = _damage_steps(s, team)
        if len(steps) != 1:
            break
        assigned = [*s.assigned]
        assigned[team] = (*assigned[team], steps[0])
        s.assigned = assigned
    if not steps:
        _set_choice(s, seat, s.assigned[team])  # once a turn: not inlined
        if events is not None:
            events.append({"type": "damage_committed", "player": seat, "team": team})
    return {"kind": "damage", "die": die, "points": points}


def _act_return(s: TeamState, seat: int, action: dict, events: list) -> dict:
    rule = E._RULE_RETURN
    if action.get("kind") != "return" or len(action) != 2 or "die" not in action:
        _expect(action, "return", ("die",), rule)
    die = action["die"]
    if die is not None:
        die = _die_id(s, die, rule)
    if die not in _return_options(s, seat):
        raise IllegalAction(
            rule,
            gettext_noop(
                "You may return one LIFE die from your life zone; your last one only while a "
                "teammate has two or more; none under sudden death."
            ),
        )
    # _set_choice(s, seat, (die,)), inlined.
    choices = s.choices[:]
    choices[seat] = (die,)
    s.choices = choices
    if events is not None:
        events.append({"type": "return_committed", "player": seat})
    return {"kind": "return", "die": die}


_ACTS = {
    "bonus": E._act_bonus,
    SPLIT: _act_split,
    OFFER: _act_offer,
    # DUEL: _act_duel, made below from the shared rules once _throw and _pass exist.
    DAMAGE: _act_damage,
    END_TURN: _act_return,
}


def _apply_system(state: TeamState, action: dict) -> tuple[TeamState, list[dict]]:
    return E._system_action(state, action, _forfeit_winner)


def _forfeit_winner(s: TeamState, loser, rule: str) -> int:
    """The other team wins when a seat forfeits (IllegalAction if ``loser`` is no seat)."""
    if type(loser) is not int or not 0 <= loser < s.table.seats:
        raise IllegalAction(
            rule,
            gettext_noop("'player' must be a seat, 0 to %(last)s."),
            last=s.table.seats - 1,
        )
    return 1 - team_of(loser)


def enable_sudden_death(state: TeamState) -> tuple[TeamState, list[dict]]:
    return apply(state, SYSTEM, {"kind": "sudden_death"})


# ---------------------------------------------------------------------------
# The game flow

# Shared with the two-player game, over the table's sides (``TeamTable.side``,
# ``side_life``): a colour bonus, the end of the game, the duel's resolution.
_apply_bonus, _check_end, _finish, _resolve_duel = (
    E._apply_bonus,
    E._check_end,
    E._finish,
    E._resolve_duel,
)


def _throw(s: TeamState, seat: int, die: int, targets: tuple, target_zone: int, events) -> None:
    """The captain ``seat`` throws ``die`` (theirs or a teammate's); a colour bonus
    rolled on it belongs to the die's owner."""
    # Each team's later-throw options (cache slots 0 and 2) follow the throw, while
    # the team may still throw in this duel; everything else in the cache is dropped.
    cache = s.cache
    step = s.step
    if target_zone != CLASH:
        before = [[], []]  # the duel's opening throw: the clash zone was empty
    elif cache is None or step == DEFENDER_SECOND:
        before = None  # the duel's last throw
    else:
        before = [cache[0], cache[2]]
        if step == ATTACKER_SECOND:
            before[s.attacker] = None
    if before is None:
        s.cache = None
    else:
        first, second = before
        s.cache = [
            None if first is None else _add_clash_target(s, 0, first, die),
            None,
            None if second is None else _add_clash_target(s, 1, second, die),
            None,
            None,
        ]
    s.zone[die] = CLASH
    rolled = E._roll(s)
    s.value[die] = rolled
    s.duel_throws = [*s.duel_throws, (die, targets, target_zone)]
    owner = s.info[die].owner
    if events is not None:
        events.append(
            {
                "type": "throw",
                "player": owner,
                "team": team_of(owner),
                "die": die,
                "targets": list(targets),
                "value": rolled,
            }
        )
    if rolled == 1 or (rolled == 2 and s.info[die].rare):
        s.bonus_queue = [*s.bonus_queue, (owner, die)]


def _add_clash_target(s: TeamState, team: int, options: list, die: int) -> list:
    """``team``'s later-throw options (``_compute_throw_options`` with ``first`` false)
    once ``die``, still in the hand, is thrown into the clash zone, from ``options``,
    those before: ``die`` no longer throws, and every die of the team in the hand that
    may target it gains it as a target. Same list, same order, as computing it anew."""
    zone = s.zone
    gaining = []
    for d in s.table.targeted_by[team][die]:
        if zone[d] == HAND and d != die:
            gaining.append(d)
    if not gaining and s.table.team[die] != team:
        return options
    changed = []
    for option in options:
        if option[0] != die:
            changed.append(option)
    if not gaining:
        return changed
    modes = s.table.modes
    for d in gaining:
        if modes[d] == _SINGLE:
            changed.append(_PAIRS[d][die])
            continue
        for i, option in enumerate(changed):
            if option[0] == d:
                changed[i] = (d, tuple(sorted((*option[1], die))))
                break
        else:
            changed.append((d, (die,)))
    changed.sort()
    return changed


def _pass(s: TeamState, seat: int, events: list, forced: bool) -> None:
    if s.step == RESPONSE:
        s.defender_passed = True
    if events is not None:
        events.append(
            {
                "type": "pass",
                "player": seat,
                "team": team_of(seat),
                "step": E._STEP_NAMES[s.step],
                "forced": forced,
            }
        )
    s.step += 1


# A later throw of a duel, or a pass: the shared ``engine._act_duel`` with the team's
# parse, throw and pass as its defaults (the same code object, so no call in between).
_act_duel = types.FunctionType(
    E._act_duel.__code__, E._act_duel.__globals__, "_act_duel", (_parse_throw, _throw, _pass)
)
_ACTS[DUEL] = _act_duel


def _start_turn(s: TeamState, events: list) -> None:
    s.turn += 1
    s.phase = SPLIT
    s.advantage = None
    sudden = sudden_death_active(s)
    if events is not None:
        events.append({"type": "turn_started", "turn": s.turn, "sudden_death": sudden})
    if sudden:
        for seat in range(s.table.seats):
            for d in _life_in_zone(s, seat):
                E._set_value(s, d, s.value[d] - 1, events)
        if _check_end(s, events):
            return
    zone = s.zone
    # A seat with no die in hand has nothing to split.
    choices = []
    for start in range(0, len(zone), DICE_PER_SET):
        choices.append(None if HAND in zone[start : start + DICE_PER_SET] else ())
    s.choices = choices
    if None not in choices:
        _resolve_simultaneous(s, events)


def _resolve_simultaneous(s: TeamState, events: list) -> None:
    if s.phase == SPLIT:
        _battle_throw(s, events)
    elif s.phase == DAMAGE:
        _resolve_damage(s, events)
    elif s.phase == END_TURN:
        _resolve_end_turn(s, events)


def _battle_throw(s: TeamState, events: list) -> None:
    s.cache = None
    zone, value, info, table = s.zone, s.value, s.info, s.table
    choices = s.choices
    dice: list[int] = []
    for choice in choices:
        dice += choice
    rolled = E._roll_many(s, len(dice))
    for d, v in zip(dice, rolled, strict=True):
        zone[d] = BATTLE
        value[d] = v
    seats = table.seats
    s.choices = [None] * seats
    if events is not None:
        events.append(
            {"type": "battle_throw", "dice": [[d, v] for d, v in zip(dice, rolled, strict=True)]}
        )
    reserve = [0, 0]
    for start in range(0, len(zone), DICE_PER_SET):
        reserve[(start // DICE_PER_SET) % 2] += zone[start : start + DICE_PER_SET].count(HAND)
    life = [0, 0]
    for team in TEAMS:
        for d in table.team_life[team]:
            if zone[d] == BATTLE:
                life[team] += value[d]
    s.advantage, basis = E._advantage(s, reserve, life, events)
    if events is not None:
        events.append({"type": "advantage", "team": s.advantage, "basis": basis})
    s.phase = BATTLE_BONUS
    # Colour bonuses: the ADVANTAGE team first, each team's seats in order, each
    # player's dice by id (a split lists them in ascending order).
    starts = []
    position = 0
    for choice in choices:
        starts.append(position)
        position += len(choice)
    queue = []
    for team in (s.advantage, 1 - s.advantage):
        for seat in range(team, seats, 2):
            start = starts[seat]
            for i in range(start, start + len(choices[seat])):
                v = rolled[i]
                if v == 1 or (v == 2 and info[dice[i]].rare):
                    queue.append((seat, dice[i]))
    if queue:
        s.bonus_queue = [*s.bonus_queue, *queue]


def _start_damage(s: TeamState, events: list) -> None:
    s.phase = DAMAGE
    s.actor = None
    attack, defense = [0, 0], [0, 0]
    zone, value, info = s.zone, s.value, s.info
    d = -1
    for _ in range(zone.count(BATTLE)):
        d = zone.index(BATTLE, d + 1)
        cls = info[d].cls
        if cls == ATTACK:
            attack[(d // DICE_PER_SET) % 2] += value[d]
        elif cls == DEFENSE:
            defense[(d // DICE_PER_SET) % 2] += value[d]
    damage = E._damage_dealt(attack, defense)
    s.damage = damage
    if events is not None:
        events.append({"type": "damage", "attack": attack, "defense": defense, "damage": damage[:]})
    choices: list = [()] * s.table.seats
    s.assigned = [(), ()]
    for team in TEAMS:
        points = damage[team]
        if points == 0:
            continue
        life = _team_life(s, team)
        total = 0
        for d in life:
            total += value[d]
        if len(life) == 1 or points >= total:
            choices[team] = tuple((d, min(value[d], points)) for d in life)
        else:
            choices[captain(team)] = None
    s.choices = choices
    if None not in choices:
        _resolve_damage(s, events)


def _resolve_damage(s: TeamState, events: list) -> None:
    for team in TEAMS:
        amounts = s.choices[captain(team)]
        if amounts and events is not None:
            events.append(
                {"type": "damage_taken", "team": team, "amounts": [list(p) for p in amounts]}
            )
        for d, a in amounts:
            E._set_value(s, d, s.value[d] - a, events)
    E._clear_battle_zones(s, events)
    seats = s.table.seats
    s.choices = [None] * seats
    s.damage = [0, 0]
    s.assigned = [(), ()]
    if _check_end(s, events):
        return
    s.phase = END_TURN
    # len(_return_options(s, seat)) > 1 for every seat, from one count of each seat's
    # LIFE dice in its life zone.
    if sudden_death_active(s):
        choices = [(None,)] * seats
    else:
        zone, life_ids = s.zone, s.table.life_ids
        alive = []
        for seat in range(seats):
            count = 0
            for d in life_ids[seat]:
                if zone[d] == BATTLE:
                    count += 1
            alive.append(count)
        choices = []
        for seat in range(seats):
            count = alive[seat]
            may_return = count >= 2
            if count == 1:
                # The last LIFE die may go back only while a teammate keeps two or more.
                for mate in range(seat % 2, seats, 2):
                    if mate != seat and alive[mate] >= 2:
                        may_return = True
                        break
            choices.append(None if may_return else (None,))
    s.choices = choices
    if None not in choices:
        _resolve_end_turn(s, events)


def _resolve_end_turn(s: TeamState, events: list) -> None:
    for seat in range(s.table.seats):
        (die,) = s.choices[seat]
        if die is not None:
            E._move(s, die, HAND, events, "returned_at_end_of_turn")
    E._storage_to_hand(s, events)
    s.choices = [None] * s.table.seats
    _start_turn(s, events)


def _advance(s: TeamState, events: list) -> None:
    """Run every automatic step until a seat must decide or the game is over (the
    two-player flow; a team's decisions fall to its captain)."""
    E._advance(s, events, _throw_options, _start_damage, _pass)


# ---------------------------------------------------------------------------
# Views


def _die_view(s: TeamState, d: int) -> dict:
    info = s.info[d]
    z = s.zone[d]
    return {
        "id": d,
        "owner": info.owner,
        "team": team_of(info.owner),
        "type": E.TYPES[info.type].value,
        "colour": E.COLOURS[info.colour].value,
        "rare": info.rare,
        "class": E.CLASS_NAMES[info.cls],
        "zone": E.ZONE_NAMES[z],
        "value": s.value[d] if z in (BATTLE, CLASH) else None,
    }


def _sees_choice_of(viewer, seat: int) -> bool:
    """Pending secret choices: a judge sees all; a player their own and their
    teammates' (they sit together and may show each other); a spectator none."""
    if viewer == JUDGE:
        return True
    return type(viewer) is int and team_of(viewer) == team_of(seat)


def view(state: TeamState, viewer) -> dict:
    """What ``viewer`` (a seat, "judge" or "spectator") may see."""
    s = state
    seats = s.table.seats
    if not (viewer in (JUDGE, SPECTATOR) or (type(viewer) is int and 0 <= viewer < seats)):
        raise ValueError(f"viewer must be a seat 0 to {seats - 1}, 'judge' or 'spectator'.")
    judge = viewer == JUDGE
    over = s.phase == OVER
    decision = None
    if not over:
        if s.bonus_queue:
            owner, die = s.bonus_queue[0]
            decision = {"kind": "bonus", "player": owner, "team": team_of(owner), "die": die}
        elif s.phase in _SIMULTANEOUS:
            decision = {"kind": s.phase, "players": sorted(to_act(s))}
        else:
            decision = {
                "kind": "attack" if s.phase == OFFER else E._STEP_NAMES[s.step],
                "player": s.actor,
                "team": team_of(s.actor),
            }
    simultaneous = s.phase in _SIMULTANEOUS and not over
    pending = {}
    if simultaneous:
        for seat in range(seats):
            if not _sees_choice_of(viewer, seat):
                continue
            if s.choices[seat] is not None:
                pending[str(seat)] = E._choice_to_json(s.choices[seat])
            elif s.phase == DAMAGE and seat < 2 and s.assigned[team_of(seat)]:
                # A captain's distribution so far.
                pending[str(seat)] = E._choice_to_json(s.assigned[team_of(seat)])
    secret = set(s.secret_log)
    log = [
        [actor, action]
        for i, (actor, action) in enumerate(s.log_trail[: s.log_length])
        if i not in secret or _sees_choice_of(viewer, actor)
    ]
    duel = E._duel_view(s)
    return {
        "game": "irondie",
        "viewer": viewer,
        "game_id": s.game_id,
        "config": s.config,
        "commitment": s.commitment,
        "seed": s.seed if (over or judge) else None,
        "seats": seats,
        "teams": [team_of(seat) for seat in range(seats)],
        "captains": [captain(t) for t in TEAMS],
        "turn": s.turn,
        "phase": s.phase,
        "decision": decision,
        "to_act": sorted(to_act(s)),
        "sudden_death": {"active": sudden_death_active(s), "from_turn": s.sudden_death_from},
        "advantage": s.advantage,
        "attack_rights": list(s.attack_right) if s.phase in (OFFER, DUEL) else [False, False],
        "duel": duel,
        "damage": list(s.damage) if s.phase == DAMAGE else [0, 0],
        "committed": [c is not None for c in s.choices] if simultaneous else [False] * seats,
        "pending": pending,
        "dice": [_die_view(s, d) for d in range(len(s.zone))],
        "log": log,
        "rolls": s.rolls,
        "over": over,
        "result": result(s),
    }


def replay(config: dict, seed: str, log: Iterable) -> TeamState:
    state = new_game(config, seed)
    for actor, action in log:
        state, _events = apply(state, actor, action)
    return state


def alter_hidden(state: TeamState, viewer) -> TeamState:
    """A copy with everything ``viewer`` may not see changed: the seed and the pending
    secret choices of every seat whose choices the viewer does not see."""
    other = state.clone()
    if viewer == JUDGE or state.phase == OVER:
        return other
    other.seed = state.seed + "-other"
    if state.phase in _SIMULTANEOUS:
        hidden = {
            seat
            for seat in range(state.table.seats)
            if state.choices[seat] is not None and not _sees_choice_of(viewer, seat)
        }
        for seat in hidden:
            other.choices[seat] = ("altered",)
        if state.phase == DAMAGE:
            assigned = [*other.assigned]
            for team in TEAMS:
                if not _sees_choice_of(viewer, captain(team)) and assigned[team]:
                    assigned[team] = ((-1, 0),)
                    hidden.add(captain(team))
            other.assigned = assigned
        other.log = [
            (actor, {"kind": "altered"} if i in state.secret_log and actor in hidden else action)
            for i, (actor, action) in enumerate(other.log)
        ]
    return other
