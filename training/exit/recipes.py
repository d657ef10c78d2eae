"""What ``train G --algo exit`` does when only the game is given: the game's recipe.

A game's ``recipes`` module (see :mod:`boardgame_envs.training.ppo.recipes`) may hold
``EXIT_RECIPE``: expert iteration's settings for the game (iterations, games, labels,
search, opponents, network, learning, window), built from :data:`BASE_RECIPE` (and
:data:`PPO_DISTILLED`) beside the measurements that chose its values; a key it leaves out,
or a game without one, takes :data:`BASE_RECIPE`'s. Every value is a default: an argument
given to :class:`boardgame_envs.training.exit.train.Args` overrides it.
"""

from __future__ import annotations

from boardgame_envs.agents.settings import for_game, game_recipes

#: The search of every recipe: each game's defaults, reproducible (an iteration budget).
DEFAULT_SEARCH = "ismcts:seconds=0"

# What every recipe shares; each game's EXIT_RECIPE overrides a few. The CPU seconds a game
# costs (play and labelling at label_share=0.25 with the default search, measured on this
# 2-core machine) set how many games fit in <= 2 CPU-hours; learning and evaluation add
# little.
BASE_RECIPE = dict(
    iterations=30,
    games_per_iteration=100,
    label_share=0.25,
    search=DEFAULT_SEARCH,
    opponent="heuristic=0.5,self-play=0.3,past=0.2",
    play="searched",
    target="visits",
    hint="none",
    hidden=256,
    layers=2,
    learning_rate=1e-3,
    epochs=12,
    imitation_games=1000,
    imitate="heuristic",
    window=30,
    eval_every=5,
    value_mix=0.0,
)
# Tahiti and Wasabi!: the network learns the shipped PPO policy's move distributions in
# 2,000 of its games (--imitate), and that is Tahiti's recipe (iterations=0; Wasabi!'s
# goes on with the Gumbel search, agents/games/wasabi/recipes.py): it then beats the
# heuristic by as much as the policy does (Wasabi! 0.639, the policy 0.643, the same 2,000
# deals), where the networks the search's labels taught stayed at the heuristic's level
# (0.50-0.51). Iterations after it (the search guided by the network, small steps) lowered
# it: 0.612 after 10 (0.618 at --value-weight 0.1). docs/results.md has the runs.
PPO_DISTILLED = dict(
    iterations=0,
    target="move",
    hint="heuristic",
    imitation_games=2000,
    learning_rate=3e-4,
    epochs=4,
)

#: Args fields whose None means "the game's recipe".
RECIPE_FIELDS = tuple(BASE_RECIPE)


def exit_recipe(game: str) -> dict:
    """The game's ``EXIT_RECIPE`` over :data:`BASE_RECIPE`."""
    own = getattr(game_recipes(game), "EXIT_RECIPE", {})
    return for_game(dict(BASE_RECIPE, **own), game, no_hint="none")
