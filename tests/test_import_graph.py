"""The library's import graph: no circles in boardgame_envs/, agents/ or training/, and
generic code names no game.

Every import counts, the lazy ones inside functions too. A game's parts are found by name
(entry points, ``load_object("module:attr")``, ``importlib.import_module``), which is how a
plugin-like lookup stays out of the graph.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Source folder -> the package it installs as (pyproject.toml's wheel.packages).
PACKAGES = {
    "boardgame_envs": "boardgame_envs",
    "agents": "boardgame_envs.agents",
    "training": "boardgame_envs.training",
}


def library_modules() -> dict[str, Path]:
    """Every module of the library by its installed dotted name."""
    modules = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join([package, *parts])] = path
    return modules


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _without_type_checking(tree: ast.Module) -> ast.Module:
    """``tree`` without its ``if TYPE_CHECKING:`` blocks (read by type checkers only)."""
    for node in ast.walk(tree):
        for name in ("body", "orelse"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                setattr(node, name, [n for n in block if not _is_type_checking(n)])
    return tree


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None) if isinstance(node, ast.If) else None
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


def import_edges(modules: dict[str, Path]) -> dict[str, set[str]]:
    """``{module: the library modules it imports}``; ``from a import b`` is an edge to
    ``a.b`` when that is a module, else to ``a``."""
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        tree = ast.parse(path.read_text())
        for node in ast.walk(_without_type_checking(tree)):
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, path.name == "__init__.py", node)
                found = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            else:
                continue
            for target in found:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    targets.add(target)
        edges[name] = targets
    return edges


def find_cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return components


def test_no_import_circles():
    cycles = find_cycles(import_edges(library_modules()))
    assert cycles == [], "import circles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_circle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(edges) == [["a", "b", "c"]]


#: The built-in games' ids.
BUILT_IN = ("factors_multiples", "cornucopia", "carcassonne_castle", "tahiti", "wasabi")
GAME_NAME = re.compile("|".join(BUILT_IN))


def _is_game_place(module: str) -> bool:
    """A game's own places: its rules package and its settings package."""
    parts = module.split(".")
    return (len(parts) > 1 and parts[1] in BUILT_IN) or (
        parts[:3] == ["boardgame_envs", "agents", "games"]
    )


#: Where a game may be named in generic code: the demo trains one game by design.
ALLOWED = {"boardgame_envs.training.cli.demo", "boardgame_envs.training.demo"}


def game_mentions(source: str) -> list[str]:
    """Where ``source``'s code names a game: identifiers that contain a game id, strings that
    are one (a table key, a comparison, a default) or a module path into a game's package.
    Docstrings, comments and prose in messages or help texts do not count."""
    found = [
        token.string
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.NAME and GAME_NAME.search(token.string)
    ]
    module_path = re.compile(rf"\b(boardgame_envs|games)\.({GAME_NAME.pattern})\b")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in BUILT_IN or module_path.search(node.value):
                found.append(repr(node.value))
    return sorted(set(found))


@pytest.mark.parametrize(
    "module",
    [m for m in library_modules() if not _is_game_place(m) and m not in ALLOWED],
)
def test_generic_code_names_no_game(module):
    path = library_modules()[module]
    named = game_mentions(path.read_text())
    assert named == [], f"{path.relative_to(ROOT)} names a game in its code: {named}"


def test_game_mentions_sees_code_not_prose():
    source = '''"""Play wasabi."""
TABLE = {"wasabi": 1}  # tahiti
from boardgame_envs.tahiti.rules import X
HELP = "e.g. --game cornucopia"
LOAD = "boardgame_envs.carcassonne_castle.rules:R"
'''
    assert game_mentions(source) == [
        "'boardgame_envs.carcassonne_castle.rules:R'",
        "'wasabi'",
        "tahiti",
    ]
