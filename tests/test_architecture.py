"""The shape the architecture promises (design/ARCHITECTURE.md): no import circles between
our modules, nothing in app/ or store/ imports web/, one root error type, one Phase."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "nardy_pi"


def import_graph() -> dict[str, set[str]]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # lazy imports too
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("nardy_pi"):
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    target = full if full in modules else node.module
                    if target in modules and target != name:
                        graph[name].add(target)  # type: ignore[arg-type]
            elif isinstance(node, ast.Import):
                graph[name] |= {a.name for a in node.names if a.name in modules}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_circles() -> None:
    assert cycles(import_graph()) == []


def test_app_and_store_never_import_the_web_layer() -> None:
    graph = import_graph()
    wrong = [(m, t) for m, targets in graph.items() for t in targets
             if m.startswith(("nardy_pi.app", "nardy_pi.store")) and t.startswith("nardy_pi.web")]
    assert wrong == []


def test_every_refusal_is_a_nardy_error_with_an_english_key() -> None:
    from nardy_pi.errors import CommandError, CommandRefused, IllegalEventError, NardyError
    from nardy_pi.messages_en import MESSAGES
    from nardy_pi.web.controller import ControlError

    for cls in (CommandError, CommandRefused, IllegalEventError, ControlError):
        assert issubclass(cls, NardyError)
    err = CommandRefused("refusal.cube_owned", owner="white")
    assert (err.key, err.params, str(err)) == ("refusal.cube_owned", {"owner": "white"},
                                               "white owns the cube")
    assert all(key.count(".") >= 1 for key in MESSAGES)


def test_one_phase_for_engine_referee_and_state() -> None:
    from nardy_pi.game.state import Phase
    from nardy_pi.referee import Phase as RefereePhase

    assert RefereePhase is Phase
