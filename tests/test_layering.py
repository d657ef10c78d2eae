"""Rules engines import no RL framework: a person can use them in a notebook."""

from __future__ import annotations

import subprocess
import sys
import textwrap

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
