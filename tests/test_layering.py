"""Layers: rules engines import no RL framework (a person can use them in a notebook), and
the core never imports agents/ or training/ (agents are handed to it as objects)."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from boardgame_envs import GAMES

HEAVY = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib")


@pytest.mark.parametrize("game", GAMES)
def test_rules_module_imports_no_rl_framework(game):
    module = GAMES[game].rules_class.split(":")[0]
    # ``import boardgame_envs`` registers the envs (and so imports PettingZoo and
    # Gymnasium); the rules modules must not need that, so the package initialiser is
    # bypassed here and the rules module, its encoding and its renderer are imported alone.
    code = textwrap.dedent(f"""
        import importlib.util, sys, types
        spec = importlib.util.find_spec("boardgame_envs")
        package = types.ModuleType("boardgame_envs")
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules["boardgame_envs"] = package
        rules = importlib.import_module("{module}")
        cls = getattr(rules, "{GAMES[game].rules_class.split(":")[1]}")()
        state = cls.new_state(cls.min_players, seed=0)
        state.view(0).observation(); state.render_text()
        print(",".join(m for m in {HEAVY!r} if m in sys.modules))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"{module} pulled in {result.stdout.strip()}"


CORE = Path(__file__).resolve().parents[1] / "boardgame_envs" / "core"
CORE_MODULES = sorted(f"boardgame_envs.core.{p.stem}" for p in CORE.glob("*.py"))
UPPER_LAYERS = ("boardgame_envs.agents", "boardgame_envs.training")


def _imported_names(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):  # every import, the lazy ones inside functions too
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_core_source_never_imports_agents_or_training(path):
    """The core is below agents/ and training/: it is handed agents as objects."""
    names = _imported_names(ast.parse(path.read_text()))
    upward = [n for n in names if n.split(".")[0] in UPPER_LAYERS]
    assert upward == [], f"{path.name} imports {upward}"


def test_core_runs_without_agents_or_training():
    """Import every core module and play the single-agent env to the end with a plain
    function as the opponent: nothing of agents/ or training/ is loaded."""
    code = textwrap.dedent(f"""
        import importlib, sys
        for name in {CORE_MODULES!r}:
            importlib.import_module(name)
        from boardgame_envs.registry import make_rules
        from boardgame_envs.core.single_agent import SingleAgentEnv
        for game in ("factors_multiples", "cornucopia"):
            env = SingleAgentEnv(make_rules(game), 3, opponent=lambda v: v.legal_actions()[0])
            env.reset(seed=0)
            done = False
            while not done:
                action = int(env.action_masks().nonzero()[0][-1])
                _, _, terminated, truncated, _ = env.step(action)
                done = terminated or truncated
            assert env.state.is_terminal()
        print(",".join(m for m in sys.modules if m.split(".")[0] in {UPPER_LAYERS!r}))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"the core pulled in {result.stdout.strip()}"
