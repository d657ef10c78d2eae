"""A game from another package plugs into the library through its entry point.

Each test runs Python in a subprocess that sees examples/goofspiel registered (see
:mod:`tests.plugin.helpers`), or installs it for real into a temporary folder: the library
discovers games once, at import, so registration is per process.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

import boardgame_envs
from tests.plugin.helpers import (
    DISTRIBUTION,
    ENTRY_POINTS,
    EXAMPLE,
    VERSION,
    plugin_environ,
    run_python,
    with_path,
)

#: The games this process knows: the built-in ones (the plugin is registered in subprocesses only).
BUILT_IN = list(boardgame_envs.GAMES)


def test_the_tests_register_what_the_example_declares():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION and project["version"] == VERSION
    assert project["entry-points"]["boardgame_envs.games"] == ENTRY_POINTS


def test_the_game_is_registered_with_every_factory(tmp_path):
    out = run_python(
        f"""
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import boardgame_envs
        from boardgame_envs.registry import GameRegistrationWarning, BROKEN_GAMES
        assert not [w for w in caught if w.category is GameRegistrationWarning], caught
        assert BROKEN_GAMES == {{}}, BROKEN_GAMES
        assert list(boardgame_envs.GAMES) == {BUILT_IN + ["goofspiel"]!r}  # built-ins first

        import gymnasium, pettingzoo
        from boardgame_envs import InvalidConfigError
        info = boardgame_envs.game_info("goofspiel")
        assert info.title == "Goofspiel" and not info.has_native and info.settings_module == ""
        assert info.pettingzoo_id == "boardgame_envs/goofspiel-v0", info.pettingzoo_id
        assert info.gymnasium_id == "boardgame_envs/Goofspiel-v0", info.gymnasium_id
        assert info.pettingzoo_id in pettingzoo.aec_registry
        assert info.gymnasium_id in gymnasium.registry
        rules = boardgame_envs.make_rules("goofspiel")
        assert type(rules).__module__ == "goofspiel_game.rules" and rules.engine == "python"
        assert boardgame_envs.make_rules("goofspiel", engine="python") is rules
        assert boardgame_envs.engine_info()["engines"]["goofspiel"] == "python"
        try:
            boardgame_envs.make_rules("goofspiel", engine="native")
        except InvalidConfigError as error:
            print("native:", error)
        else:
            raise AssertionError("a game without a compiled engine gave a native one")
        env = pettingzoo.make("aec", "boardgame_envs/goofspiel-v0", num_players=3, cards=4)
        env.reset(seed=0)
        assert env.unwrapped.state.config == {{"cards": 4}}
        assert env.unwrapped.rules is rules
        print("ok")
        """,
        plugin_environ(tmp_path),
    )
    assert out.splitlines()[-1] == "ok"
    assert "native: goofspiel: no native engine here" in out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pettingzoo_api_and_seed_tests(tmp_path, n):
    out = run_python(
        f"""
        import warnings
        import numpy as np
        import pettingzoo
        from pettingzoo.test import api_test, seed_test
        import boardgame_envs

        warnings.simplefilter("ignore", UserWarning)  # api_test's advice about Dict spaces
        api_test(boardgame_envs.make("goofspiel", num_players={n}), num_cycles=200)
        seed_test(lambda: boardgame_envs.make("goofspiel", num_players={n}), num_cycles=200)
        raw = boardgame_envs.raw_env("goofspiel", num_players={n}, auto_resolve=True, cards=13)
        api_test(raw, num_cycles=200)
        env = pettingzoo.make("aec", "boardgame_envs/goofspiel-v0", num_players={n})
        api_test(env, num_cycles=200)

        # a whole game through the AEC loop, with each render mode
        for mode in ("ansi", "rgb_array"):
            env = boardgame_envs.make("goofspiel", num_players={n}, render_mode=mode)
            env.reset(seed=1)
            rng = np.random.default_rng(1)
            for agent in env.agent_iter():
                observation, reward, termination, truncation, info = env.last()
                action = None
                if not (termination or truncation):
                    action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                env.step(action)
            picture = env.render()
        assert isinstance(picture, np.ndarray) and picture.dtype == np.uint8, type(picture)
        returns = env.unwrapped.state.returns()
        assert abs(sum(returns)) < 1e-9 and env.unwrapped.state.is_terminal()
        print("ok")
        """,
        plugin_environ(tmp_path),
    )
    assert out.splitlines()[-1] == "ok"


def test_gymnasium_single_agent_env_and_the_search_agent(tmp_path):
    out = run_python(
        """
        import gymnasium
        import numpy as np
        from gymnasium.utils.env_checker import check_env
        import boardgame_envs

        for n in (2, 4):
            env = gymnasium.make("boardgame_envs/Goofspiel-v0", opponent="random", num_players=n)
            check_env(env.unwrapped)

        # ISMCTS opponents: they rest on the game's determinizer (rules.sample_state) alone
        env = gymnasium.make(
            "boardgame_envs/Goofspiel-v0", opponent="ismcts:iterations=20,seconds=0",
            num_players=3,
        )
        for seed in range(2):
            observation, info = env.reset(seed=seed)
            done = False
            while not done:
                action = int(np.flatnonzero(env.unwrapped.action_masks())[-1])
                observation, reward, terminated, truncated, info = env.step(action)
                done = terminated or truncated
            assert terminated and not truncated and reward in (-1.0, -0.5, 0.0, 0.5, 1.0)
        print("ok")
        """,
        plugin_environ(tmp_path),
    )
    assert out.splitlines()[-1] == "ok"


def test_the_rules_import_no_rl_framework(tmp_path):
    """As the built-in games' rules (tests/test_layering.py): the package initialiser, which
    registers the envs, is bypassed, and the rules, encoding and render modules import alone."""
    out = run_python(
        """
        import importlib, importlib.util, sys, types
        spec = importlib.util.find_spec("boardgame_envs")
        package = types.ModuleType("boardgame_envs")
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules["boardgame_envs"] = package
        from goofspiel_game.rules import GoofspielRules
        rules = GoofspielRules()
        state = rules.new_state(2, seed=0)
        state.view(0).observation(); state.render_text(); state.render_rgb()
        heavy = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib")
        print("heavy:" + ",".join(m for m in heavy if m in sys.modules))
        """,
        with_path(EXAMPLE),
    )
    assert out.splitlines()[-1] == "heavy:"


def test_a_real_installation_registers_the_game(tmp_path):
    """``pip install`` of the example (built with its own pyproject.toml, into a folder
    of its own) is all it takes. Built from a copy, so no build files land in the checkout."""
    skip = shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    source = shutil.copytree(EXAMPLE, tmp_path / "src", ignore=skip)
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--target", str(site), str(source)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if done.returncode != 0 and "No module named pip" in done.stderr:
        pytest.skip("no pip in this environment")
    assert done.returncode == 0, done.stderr[-3000:]
    out = run_python(
        f"""
        import importlib.metadata
        import boardgame_envs
        from boardgame_envs.registry import BROKEN_GAMES
        dist = importlib.metadata.distribution("{DISTRIBUTION}")
        assert dist.version == "{VERSION}", dist.version
        assert "goofspiel" in boardgame_envs.GAMES and not BROKEN_GAMES, BROKEN_GAMES
        import goofspiel_game
        assert goofspiel_game.__file__.startswith({str(site)!r}), goofspiel_game.__file__
        state = boardgame_envs.make_rules("goofspiel").new_state(2, seed=0)
        state.playout(seed=0)
        print("ok", state.scores())
        """,
        with_path(site),
    )
    assert out.startswith("ok")


BROKEN_CHECK = """
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import boardgame_envs
    from boardgame_envs.registry import GameRegistrationWarning, BROKEN_GAMES
    for w in caught:
        if w.category is GameRegistrationWarning:
            print("WARNING", w.message)
    print("BROKEN", sorted(BROKEN_GAMES))
    print("GAMES", list(boardgame_envs.GAMES))
    for game in ("wasabi", "goofspiel"):  # a built-in game and the good plugin play on
        env = boardgame_envs.make(game, num_players=2)
        env.reset(seed=0)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            mask = observation["action_mask"]
            env.step(None if termination or truncation else int(mask.argmax()))
        assert env.unwrapped.state.is_terminal()
        assert type(env.unwrapped.rules).__module__.startswith(
            "boardgame_envs." if game == "wasabi" else "goofspiel_game."
        )
    for game in sorted(BROKEN_GAMES):
        try:
            boardgame_envs.make_rules(game)
        except boardgame_envs.InvalidConfigError as error:
            print("MAKE", error)
"""


def check_broken(tmp_path, broken: dict[str, str]) -> dict[str, str]:
    """Register the example with ``broken`` entry points beside it; per broken name, the one
    warning line that names it (the other checks are in :data:`BROKEN_CHECK`)."""
    out = run_python(BROKEN_CHECK, plugin_environ(tmp_path, {**ENTRY_POINTS, **broken}))
    seen = [line for line in out.splitlines() if line.startswith("WARNING ")]
    assert len(seen) == len(broken), out
    by_name = {}
    for name, value in broken.items():
        line = f"game entry point {name} = {value} (from {DISTRIBUTION}) is left out: "
        (by_name[name],) = [w for w in seen if line in w]
        if name not in BUILT_IN:  # a clash leaves the built-in game in place
            assert f"MAKE {line}" in out, out  # make_rules() says the same
    assert f"BROKEN {sorted(broken)!r}" in out
    assert f"GAMES {BUILT_IN + ['goofspiel']!r}" in out
    return by_name


def test_broken_registrations_warn_once_each_and_leave_the_other_games_working(tmp_path):
    """A missing module and an object that is not a GameInfo: one warning line each naming
    the entry point; the built-in games and the good plugin work."""
    lines = check_broken(
        tmp_path,
        {
            "ghost": "no_such_module_anywhere:GAME",
            "not_a_game": "goofspiel_game.rules:GoofspielRules",
        },
    )
    assert "ModuleNotFoundError: No module named 'no_such_module_anywhere'" in lines["ghost"]
    assert "not a boardgame_envs.core.game.GameInfo" in lines["not_a_game"]


def test_a_plugin_taking_a_built_in_id_is_refused_with_a_warning(tmp_path):
    lines = check_broken(tmp_path, {"wasabi": "goofspiel_game:GAME"})
    assert "already a game of boardgame-envs" in lines["wasabi"]


def test_the_warning_reaches_stderr_as_one_line(tmp_path):
    environ = plugin_environ(tmp_path, {"ghost": "no_such_module_anywhere:GAME"})
    done = subprocess.run(
        [sys.executable, "-c", "import boardgame_envs"],
        env=environ, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if "GameRegistrationWarning" in line]
    assert len(lines) == 1, done.stderr
    assert "game entry point ghost = no_such_module_anywhere:GAME" in lines[0]


def test_importing_the_plugin_before_the_library_still_registers_it(tmp_path):
    out = run_python(
        """
        import goofspiel_game
        import boardgame_envs
        print(sorted(boardgame_envs.registry.BROKEN_GAMES))
        """,
        plugin_environ(tmp_path),
    )
    assert out.splitlines()[-1] == "[]"


def test_the_examples_readme_code_runs(tmp_path):
    """Every ``python`` block of examples/goofspiel/README.md, in order, in one process."""
    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert len(blocks) >= 2
    out = run_python("\n".join(blocks), plugin_environ(tmp_path))
    assert "winners" in out and "(137,)" in out
