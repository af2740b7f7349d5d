"""The engines' refusals (games/engines/errors.py): one IllegalAction and ConfigError for
every game, carrying a marked English template and its parameters. str() is the English
(the golden masters hold it to the text of before), text(translate) puts template and
rule through a catalogue, and every raise site in the engines passes a marked template
(so message extraction finds it)."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from games.engines import ENGINES, errors
from games.engines import d36 as D
from games.engines import dice_forge as F
from games.engines import irondie as E

ENGINE_DIR = Path(errors.__file__).resolve().parent


def test_every_engine_raises_the_shared_errors():
    for name, engine in ENGINES.items():
        assert issubclass(engine.IllegalAction, errors.IllegalAction), name
        assert engine.ConfigError is errors.ConfigError, name
    assert D.IllegalAction is F.IllegalAction is errors.IllegalAction


def test_the_english_text_is_the_template_filled_in_with_the_rule():
    exc = errors.IllegalAction("How To Play", "Die %(die)s is no longer on the board.", die=7)
    assert str(exc) == "Die 7 is no longer on the board. (How To Play)"
    assert exc.message == "Die 7 is no longer on the board."
    assert exc.rule == "How To Play" and exc.params == {"die": 7}
    irondie = E.IllegalAction("Phase 3: Damage", "The points must add up to %(total)s.", total=3)
    assert str(irondie) == "The points must add up to 3. [rule: Phase 3: Damage]"
    config = errors.ConfigError("Unknown config keys: %(keys)s.", keys=["a", "b"])
    assert str(config) == "Unknown config keys: ['a', 'b']."
    # A template without parameters is used as it is (a literal % stays).
    assert str(errors.ConfigError("100% wrong.")) == "100% wrong."


def test_text_translates_template_form_and_rule_but_not_the_parameters():
    words = {
        "Die %(die)s is no longer on the board.": "Кубика %(die)s больше нет на доске.",
        "How To Play": "Как играть",
        "%(message)s (%(rule)s)": "%(message)s (%(rule)s)",
        "%(message)s [rule: %(rule)s]": "%(message)s [правило: %(rule)s]",
    }
    exc = errors.IllegalAction("How To Play", "Die %(die)s is no longer on the board.", die=7)
    assert exc.text(lambda t: words.get(t, t)) == "Кубика 7 больше нет на доске. (Как играть)"
    assert exc.templates() == ("%(message)s (%(rule)s)", exc.template, "How To Play")
    irondie = E.IllegalAction("How To Play", "Die %(die)s is no longer on the board.", die=1)
    assert irondie.text(lambda t: words.get(t, t)).endswith("[правило: Как играть]")
    assert str(irondie) == "Die 1 is no longer on the board. [rule: How To Play]"


def test_the_errors_survive_pickling_with_their_parameters():
    for exc in (
        E.IllegalAction("Game", "Player %(player)s has no decision to make now.", player=1),
        errors.ConfigError("Unknown config keys: %(keys)s.", keys=["x"]),
    ):
        back = pickle.loads(pickle.dumps(exc))
        assert type(back) is type(exc) and str(back) == str(exc)
        assert back.params == exc.params and back.template == exc.template


def test_an_engine_refusal_names_its_template_and_parameters():
    s = D.new_game({"seats": 2}, "seed")
    with pytest.raises(D.IllegalAction) as caught:
        D.apply(s, 1 - s.actor, {"kind": "end_turn"})
    assert caught.value.template == "It is seat %(actor)s's go, not seat %(seat)s's."
    assert caught.value.params == {"actor": s.actor, "seat": 1 - s.actor}
    assert (
        str(caught.value) == f"It is seat {s.actor}'s go, not seat {1 - s.actor}'s. (How To Play)"
    )


def _marked(node, marked_names) -> bool:
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop":
        return all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args)
    if isinstance(node, ast.Subscript):  # a table of marked strings
        return _marked(node.value, marked_names)
    if isinstance(node, ast.IfExp):
        return _marked(node.body, marked_names) and _marked(node.orelse, marked_names)
    return isinstance(node, ast.Name) and node.id in marked_names


def _marked_names(tree) -> set[str]:
    """Names bound to a marked string (module constants, a function's ``rule``)."""
    return {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and (
            _marked(node.value, set())
            or isinstance(node.value, ast.Dict)
            and all(_marked(v, set()) for v in node.value.values)
        )
        for target in node.targets
        if isinstance(target, ast.Name)
    }


RAISERS = {"IllegalAction": 1, "ConfigError": 0, "Message": 0}  # the template's position


@pytest.mark.parametrize("path", sorted(ENGINE_DIR.rglob("*.py")), ids=lambda p: p.name)
def test_every_raise_site_passes_a_marked_template(path):
    tree = ast.parse(path.read_text())
    names = _marked_names(tree)
    unmarked = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called not in RAISERS:
            continue
        position = RAISERS[called]
        args = node.args
        if len(args) <= position or not _marked(args[position], names):
            unmarked.append(f"{path.name}:{node.lineno}")
            continue
        if called == "IllegalAction":
            rule = args[0]
            literal = isinstance(rule, ast.Constant) and not any(c.isalpha() for c in rule.value)
            if not (literal or _marked(rule, names) or getattr(rule, "id", "") == "rule"):
                unmarked.append(f"{path.name}:{node.lineno} (rule)")
    assert not unmarked, f"refusals without a marked template: {unmarked}"


def test_a_message_is_its_english_text_and_translates_nested_messages():
    from games.engines.irondie.dice import Die, playing_set_errors

    words = {
        "A playing set needs at least one LIFE die.": "В игровом наборе нужен хотя бы один кубик ЖИЗНИ.",
        "Player %(player)s's set: %(problems)s": "Набор игрока %(player)s: %(problems)s",
    }
    problems = playing_set_errors([Die.from_dict({"type": "crusher", "colour": "red"})] * 9)
    assert problems == ["A playing set needs at least one DEFENSE die.", problems[1]]
    assert problems[1] == "A playing set needs at least one LIFE die."
    assert problems[1].text(lambda t: words.get(t, t)) == words[problems[1]]
    assert pickle.loads(pickle.dumps(problems[0])) == problems[0]
    sets = [[{"type": "crusher", "colour": "red"}] * 9, [{"type": "crusher", "colour": "red"}] * 9]
    with pytest.raises(errors.ConfigError) as caught:
        E.new_game({"sets": sets}, "seed")
    english = (
        "Player 0's set: A playing set needs at least one DEFENSE die. "
        "A playing set needs at least one LIFE die."
    )
    assert str(caught.value) == english
    assert caught.value.text(lambda t: words.get(t, t)) == (
        "Набор игрока 0: A playing set needs at least one DEFENSE die. "
        "В игровом наборе нужен хотя бы один кубик ЖИЗНИ."
    )
    assert "A playing set needs at least one LIFE die." in caught.value.templates()
    with pytest.raises(errors.ConfigError) as bad_die:
        Die.from_dict({"type": "laser", "colour": "red"})
    assert str(bad_die.value).startswith("Unknown die type 'laser'; choose one of: crusher, ")
