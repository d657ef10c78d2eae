"""training/ in rooms: each room's public names resolve, few modules stay at the top, the
command line's help imports no training stack, and a game's recipe is found in its own
settings package (a game without one trains with the generic recipes)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from boardgame_envs import GAMES

TRAINING = Path(__file__).resolve().parents[1] / "training"
ROOMS = ("ppo", "exit", "evaluation", "records", "cli", "web")


@pytest.mark.parametrize("room", ROOMS)
def test_every_public_name_of_a_room_is_its_modules(room):
    package = importlib.import_module(f"boardgame_envs.training.{room}")
    assert package.__all__, room
    for name in package.__all__:
        module = importlib.import_module(f"{package.__name__}.{package.PUBLIC[name]}")
        assert getattr(package, name) is getattr(module, name), name
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018


def test_at_most_ten_modules_stay_at_the_top():
    top = sorted(p.name for p in TRAINING.glob("*.py") if p.name != "__init__.py")
    assert len(top) <= 10, top
    rooms = sorted(p.name for p in TRAINING.iterdir() if (p / "__init__.py").exists())
    assert rooms == sorted(ROOMS)


@pytest.mark.parametrize("command", [["--help"], ["list"]])
def test_help_and_list_import_no_training_stack(command):
    code = (
        "import sys\n"
        "from boardgame_envs.training.cli import main\n"
        f"try:\n    main({command!r})\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'torch', 'stable_baselines3', 'sb3_contrib', 'tqdm', 'matplotlib'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_games_recipes_are_in_its_settings_package(game):
    from boardgame_envs.agents.settings import game_recipes

    recipes = game_recipes(game)
    assert recipes.__name__ == f"boardgame_envs.agents.games.{game}.recipes"
    assert {"PPO_HYPERPARAMS", "PPO_RECIPE", "EXIT_RECIPE"} <= set(vars(recipes))


def test_a_game_without_recipes_trains_with_the_generic_ones():
    from boardgame_envs.training.exit import recipes as exit_recipes
    from boardgame_envs.training.ppo import recipes, train

    with (
        mock.patch.object(recipes, "game_recipes", lambda game: None),
        mock.patch.object(exit_recipes, "game_recipes", lambda game: None),
    ):
        args = train.Args(game="wasabi")
        assert recipes.recipe("wasabi") == recipes.DEFAULT_RECIPE
        assert recipes.hyperparameters(args) == recipes.DEFAULT_HYPERPARAMS
        assert recipes.planes_net("wasabi") is None
        assert exit_recipes.exit_recipe("wasabi") == exit_recipes.BASE_RECIPE
        assert args.opponent == recipes.DEFAULT_RECIPE["opponent"]
