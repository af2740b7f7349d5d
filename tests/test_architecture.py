"""The direction of imports (docs/architecture.md), checked on the source with ``ast``.

From the bottom: the pure cores (the rules engine, pairing, standings, match rules),
then config's base modules (the database clock, errors, parameters), players, games
(online sessions, which know nothing of tournaments) and tournaments (which hosts
sessions through games/hosts.py); config's wiring (URLs, the worker) sits on top. Every
import counts, at module level and inside functions; an import inside a function is
refused unless it is listed below with the reason it cannot be at the top. Games reaches
a rules engine only through ``games.engines.engine_for(session.engine)``, never by
importing one (players and tournaments use the IRONDIE dice catalogue to check sets).
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("config", "players", "games", "tournaments")
PURE_CORES = (
    "games.engines",
    "tournaments.pairing",
    "tournaments.standings",
    "tournaments.tiebreakers",
    "tournaments.match_rules",
    "tournaments.games",
    "tournaments.placings",
    "tournaments.pod_standings",
    "tournaments.phases",
    "tournaments.ratings",
)
# Frameworks a pure core must not import (they stay plain Python, testable alone).
FRAMEWORKS = ("django", "rest_framework", "drf_spectacular", "celery")

# (file, imported module): why the import has to be inside a function.
LOCAL_IMPORTS_ALLOWED = {
    ("tournaments/apps.py", "games.hosts"): "ready(): registers the host once apps load",
    ("tournaments/apps.py", "games.models"): "ready(): models load only once apps are ready",
    ("tournaments/apps.py", "tournaments.online"): (
        "ready(): registers the host and the clock listener; imports models"
    ),
    ("tournaments/apps.py", "tournaments.clocks"): "ready(): registers its sweep; imports models",
    ("tournaments/apps.py", "tournaments.pod_online"): (
        "ready(): registers the pod tables' host and listeners; imports models"
    ),
    ("tournaments/apps.py", "tournaments.services.rounds"): (
        "ready(): registers the round-start listener; imports models"
    ),
    ("tournaments/apps.py", "tournaments.services.registration"): (
        "ready(): registers the drop listener; imports models"
    ),
    ("games/apps.py", "games.enforcement"): "ready(): registers its sweep; imports models",
    ("players/apps.py", "players.language"): "ready(): connects the log-in signal; imports models",
    # config/__init__.py loads Celery, and with it config/worker.py, before the apps are
    # ready: what imports models is imported when the worker runs.
    ("config/worker.py", "config.liveness"): "its functions import models (see above)",
    ("config/liveness.py", "config.models"): (
        "imported at the top of config/beat.py, which Celery beat loads before the apps"
    ),
}


@dataclasses.dataclass(frozen=True)
class Import:
    path: str  # the importing file, relative to the repository
    module: str  # the imported module, absolute
    line: int
    local: bool  # inside a function


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _resolve(node: ast.ImportFrom, path: Path) -> str:
    if not node.level:
        return node.module or ""
    package = _module_name(path).split(".")
    if not _is_package(path):
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _targets(module: str, names: list[str]) -> list[str]:
    """``from games import hosts`` imports the module games.hosts; ``from games.hosts
    import register`` imports games.hosts."""
    found = []
    for name in names:
        candidate = f"{module}.{name}"
        as_path = ROOT.joinpath(*candidate.split("."))
        if as_path.with_suffix(".py").exists() or (as_path / "__init__.py").exists():
            found.append(candidate)
        else:
            found.append(module)
    return found or [module]


def imports_of(path: Path, tree: ast.AST | None = None) -> list[Import]:
    tree = tree or ast.parse(path.read_text(), filename=str(path))
    relative = path.relative_to(ROOT).as_posix()
    found = []

    def visit(node, local):
        for child in ast.iter_child_nodes(node):
            inner = local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(Import(relative, alias.name, child.lineno, local))
            elif isinstance(child, ast.ImportFrom):
                module = _resolve(child, path)
                for target in _targets(module, [a.name for a in child.names]):
                    found.append(Import(relative, target, child.lineno, local))
            visit(child, inner)

    visit(tree, False)
    return found


def project_files() -> list[Path]:
    files = []
    for app in APPS:
        files.extend(sorted((ROOT / app).rglob("*.py")))
    return files


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def is_pure_core(module: str) -> bool:
    return any(_within(module, core) for core in PURE_CORES)


def app_of(module: str) -> str | None:
    top = module.split(".")[0]
    return top if top in APPS else None


def config_wiring(imports: list[Import]) -> set[str]:
    """Config modules that import an app, directly or through another config module:
    the top of the stack (URLs, the worker). The rest of config is below the apps."""
    by_module: dict[str, set[str]] = {}
    for imp in imports:
        source = _module_name(ROOT / imp.path)
        if app_of(source) == "config":
            by_module.setdefault(source, set()).add(imp.module)
    wiring = {
        source
        for source, targets in by_module.items()
        if any(app_of(t) not in (None, "config") for t in targets)
    }
    changed = True
    while changed:
        changed = False
        for source, targets in by_module.items():
            if source not in wiring and any(t in wiring for t in targets):
                wiring.add(source)
                changed = True
    return wiring


def layer_of(module: str, wiring: set[str]) -> str | None:
    """The unit a module belongs to for the direction and the circles between apps."""
    if is_pure_core(module):
        return "core"
    app = app_of(module)
    if app == "config":
        return "wiring" if module in wiring else "config"
    return app


def violations(imports: list[Import]) -> list[str]:
    """Every import that goes the wrong way, and every circle between the layers."""
    wiring = config_wiring(imports)
    problems = []
    edges: dict[str, set[str]] = {}
    for imp in imports:
        source = _module_name(ROOT / imp.path)
        where = f"{imp.path}:{imp.line} imports {imp.module}"
        source_layer = layer_of(source, wiring)
        target_layer = layer_of(imp.module, wiring)
        if source_layer == "core":
            if imp.module.split(".")[0] in FRAMEWORKS:
                problems.append(f"{where}: a pure core imports no framework")
            elif target_layer not in (None, "core"):
                problems.append(f"{where}: a pure core imports only other pure cores")
        elif source_layer == "games" and target_layer in ("tournaments", "wiring"):
            problems.append(f"{where}: games knows nothing of tournaments (games/hosts.py)")
        elif (
            source_layer == "games"
            and _within(imp.module, "games.engines")
            and (imp.module != "games.engines")
        ):
            problems.append(f"{where}: games reaches an engine only through engine_for")
        elif source_layer == "players" and target_layer in ("games", "tournaments", "wiring"):
            problems.append(f"{where}: players is below games and tournaments")
        elif source_layer in ("config", "tournaments") and target_layer == "wiring":
            problems.append(f"{where}: only config's wiring imports the wiring")
        if imp.local and (imp.path, imp.module) not in LOCAL_IMPORTS_ALLOWED:
            problems.append(f"{where} inside a function: import it at the top")
        if source_layer and target_layer and source_layer != target_layer:
            edges.setdefault(source_layer, set()).add(target_layer)
    problems.extend(f"import circle between apps: {' -> '.join(c)}" for c in circles(edges))
    return problems


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The cycles of a small directed graph, each once (from its smallest node)."""
    found = []

    def walk(start, node, path):
        for nxt in sorted(edges.get(node, ())):
            if nxt == start:
                found.append([*path, start])
            elif nxt not in path and nxt > start:
                walk(start, nxt, [*path, nxt])

    for start in sorted(edges):
        walk(start, start, [start])
    return found


def all_imports() -> list[Import]:
    return [imp for path in project_files() for imp in imports_of(path)]


def test_imports_go_one_way():
    assert violations(all_imports()) == []


def test_every_allowed_local_import_exists():
    """An allowance for a function-local import that is gone is removed too."""
    local = {(imp.path, imp.module) for imp in all_imports() if imp.local}
    assert set(LOCAL_IMPORTS_ALLOWED) - local == set()


# (file, attribute): the one private attribute a module keeps on model instances, and why.
PRIVATE_ATTRIBUTES_ALLOWED = {
    ("games/services/state.py", "_engine_state"): (
        "the parsed state memoised on the row read, also before it is committed; "
        "set and read only by that module"
    ),
}


def private_attributes(path: Path, source: str | None = None) -> set[tuple[str, str]]:
    """Private attributes a module sets on, or reads from, another object (``x._name = ...``
    or ``getattr(x, "_name")``): state passed around behind the callers' backs."""
    relative = path.relative_to(ROOT).as_posix()
    found = set()
    for node in ast.walk(ast.parse(source if source is not None else path.read_text())):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr.startswith("_")
                    and not target.attr.startswith("__")
                    and not (
                        isinstance(target.value, ast.Name) and target.value.id in ("self", "cls")
                    )
                ):
                    found.add((relative, target.attr))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and str(node.args[1].value).startswith("_")
        ):
            found.add((relative, node.args[1].value))
    return found


def test_no_state_passes_through_private_attributes():
    """Games' services pass what one step tells the next as arguments or return values, not as
    ``session._fresh`` set in one function and read in another."""
    games = sorted((ROOT / "games").rglob("*.py"))
    found = set().union(*(private_attributes(p) for p in games))
    assert found == set(PRIVATE_ATTRIBUTES_ALLOWED)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("def f(session):\n    session._fresh = {0}\n", {"_fresh"}),
        ("def f(session):\n    return getattr(session, '_conceded_by', '')\n", {"_conceded_by"}),
        ("class A:\n    def f(self):\n        self._cache = {}\n", set()),
        ("def f(session):\n    session.ready = [0]\n", set()),
    ],
)
def test_a_private_attribute_is_found(source, found):
    path = ROOT / "games" / "services" / "play.py"
    assert {name for _, name in private_attributes(path, source)} == found


def test_hosts_are_registered_by_tournaments():
    """Games calls the hook; tournaments hosts tournament sessions through it."""
    from games import hosts
    from games.models import GameSession
    from tournaments.online import TournamentHost

    assert isinstance(hosts.host_for_kind(GameSession.Kind.TOURNAMENT), TournamentHost)
    assert hosts.host_for_kind(GameSession.Kind.PRACTICE) is hosts.DEFAULT_HOST


def test_the_online_game_listens_to_the_match_clock():
    """tournaments/clocks.py sits below tournaments/online.py and tells it by a listener."""
    from tournaments import clocks
    from tournaments.online import on_match_clock_event

    assert clocks._listeners == [on_match_clock_event]


def _imports_of_source(relative: str, source: str) -> list[Import]:
    return imports_of(ROOT / relative, ast.parse(source))


@pytest.mark.parametrize(
    ("relative", "source", "problem"),
    [
        ("games/services/play.py", "from tournaments.models import Match\n", "games knows nothing"),
        (
            "games/selectors.py",
            "def f():\n    from tournaments import selectors\n",
            "games knows nothing",
        ),
        ("games/api.py", "import tournaments.online\n", "games knows nothing"),
        ("players/models.py", "from games.models import GameSession\n", "players is below"),
        ("players/views.py", "from tournaments import services\n", "players is below"),
        ("games/engines/irondie/state.py", "from django.db import models\n", "no framework"),
        ("tournaments/standings.py", "from tournaments.models import Match\n", "only other pure"),
        ("tournaments/pairing/swiss.py", "from config.dbtime import db_now\n", "only other pure"),
        ("tournaments/views.py", "def f():\n    from games import services\n", "inside a function"),
        ("tournaments/match_rules.py", "from . import standings\n", None),
        ("players/services.py", "from games.engines.irondie.dice import Die\n", None),
        ("tournaments/online.py", "from games.hosts import SessionHost\n", None),
        ("games/selectors.py", "from games.engines.irondie import view\n", "through engine_for"),
        (
            "games/bots.py",
            "from games.engines.irondie.bots import RandomBot\n",
            "through engine_for",
        ),
        ("games/services/play.py", "from games.engines import engine_for\n", None),
        (
            "tournaments/services/match_games.py",
            "from games.engines.irondie.dice import Die\n",
            None,
        ),
    ],
)
def test_a_violation_is_found(relative, source, problem):
    """Each rule fails on a made-up import (and a right one passes)."""
    found = violations(_imports_of_source(relative, source))
    if problem is None:
        assert found == []
    else:
        assert any(problem in p for p in found), found


def test_a_circle_between_apps_is_found():
    imports = [
        *_imports_of_source("players/services.py", "from config.dbtime import db_now\n"),
        *_imports_of_source("config/dbtime.py", "from players.models import Player\n"),
    ]
    found = violations(imports)
    assert any("import circle between apps" in p for p in found), found


def test_the_real_tree_has_a_violation_when_one_is_added():
    """The walk reads the real files: an import added to one of them is caught."""
    path = ROOT / "games" / "services" / "play.py"
    tree = ast.parse(path.read_text() + "\nfrom tournaments import online\n")
    imports = [imp for p in project_files() if p != path for imp in imports_of(p)]
    imports += imports_of(path, tree)
    assert any("games knows nothing" in p for p in violations(imports))
