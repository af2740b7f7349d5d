"""config/deadlines.py: the one deadline mechanism every clock uses, below both apps."""

import ast
from pathlib import Path

from config import deadlines
from config.celery import app as celery_app
from games import clocks as game_clocks
from games import enforcement as game_enforcement
from games import tasks as game_tasks  # noqa: F401 (registers the tasks)
from tournaments import clocks as match_clocks
from tournaments import tasks as match_tasks  # noqa: F401 (registers the tasks)

ROOT = Path(__file__).resolve().parent.parent
EVERY_DEADLINE = (
    match_clocks.MATCH_DEADLINE,
    match_clocks.GAME_DEADLINE,
    game_clocks.DECISION_DEADLINE,
    game_clocks.GAME_LIMIT,
)


def test_the_mechanism_imports_no_app():
    tree = ast.parse((ROOT / "config" / "deadlines.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    apps = {"players", "games", "tournaments"}
    assert not {name for name in imported if name.split(".")[0] in apps}


def test_every_clock_is_a_deadline_whose_task_exists():
    """Tasks are queued by name: each names a registered task that takes (pk, version, eta)."""
    for deadline in EVERY_DEADLINE:
        assert isinstance(deadline, deadlines.Deadline)
        task = celery_app.tasks[deadline.task]
        assert task.acks_late
        field_names = {f.name for f in deadline.model._meta.get_fields()}
        assert set(deadline.fields) <= field_names, deadline
    assert len({(d.model, d.field) for d in EVERY_DEADLINE}) == len(EVERY_DEADLINE)
    assert len({(d.model, d.task_eta_field) for d in EVERY_DEADLINE}) == len(EVERY_DEADLINE)


def test_the_worker_sweeps_every_app_in_order():
    """The apps register their sweeps when Django loads them; config/worker.py runs them."""
    assert list(deadlines._sweeps.items()) == [
        ("matches", match_clocks.sweep),
        ("games", game_enforcement.sweep),
    ]
