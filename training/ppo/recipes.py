"""What ``train G`` trains with when only the game is given: the game's recipe.

A recipe is data. Each game's is in its settings package's ``recipes`` module
(``agents/games/<game>/recipes.py`` for the built-in games, found by
:func:`boardgame_envs.agents.settings.game_recipes`), built from the starting points below
beside the measurements that chose its values (docs/design-notes.md holds the runs). PPO
reads three names there, each optional:

- ``PPO_HYPERPARAMS``: PPO's settings (rate, rollout length, passes, discount, entropy,
  clip, dense layers, annealing); without it, :data:`DEFAULT_HYPERPARAMS`.
- ``PPO_RECIPE``: the rest of the run: its length, the opponents, the reward, the imitation
  warm start and the hint; without it, :data:`DEFAULT_RECIPE`.
- ``PPO_PLANES``: the PlanesExtractor settings (agents/networks.py) of a game whose
  observation starts with board planes, the small CNN over them; without it, the
  observation goes flat into the dense layers.

A key a game's table leaves out is the default's. Every value is a default: an argument
given to ``train`` (:class:`boardgame_envs.training.ppo.train.Args`) overrides it. Each
built-in game's recipe is the one its shipped policy was trained with. (Expert iteration's
recipe, ``EXIT_RECIPE``, is read by :mod:`boardgame_envs.training.exit.recipes`.)
"""

from __future__ import annotations

from boardgame_envs.agents.settings import for_game, game_recipes
from boardgame_envs.registry import GAMES

#: PPO's settings for a game without its own (``PPO_HYPERPARAMS``).
DEFAULT_HYPERPARAMS = dict(
    learning_rate=3e-4,
    n_steps=512,
    batch_size=256,
    n_epochs=4,
    gamma=0.99,
    gae_lambda=0.95,
    ent_coef=0.01,
    clip_range=0.2,
    net_arch="256,256",
    anneal_lr=False,
    final_lr_fraction=0.0,
)
# After the imitation warm start: little entropy (stay near it), and a rate falling to 0
# to settle the policy (in Factors and Multiples 0.54 -> 0.58 against the heuristic).
AFTER_IMITATION = dict(DEFAULT_HYPERPARAMS, ent_coef=0.001, anneal_lr=True)
# A hinted policy (agents/hinted.py) starts at the heuristic's strength: small steps, so
# that PPO's noisy early advantages do not move it off (at 3e-4 with a score reward and
# half random opponents a Wasabi! one fell from 0.50 to 0.36-0.39 within 200k steps).
HINTED_PPO = dict(AFTER_IMITATION, learning_rate=1e-4)
# Longer and with larger steps, a hinted policy does find departures that win: at 3e-4
# (two passes a rollout) a 4M-step run's checkpoints took Wasabi! from 0.543 at 1M to
# 0.733 at 4M against the heuristic and Tahiti from 0.442 to 0.630 (2,000 deals each,
# docs/design-notes.md), where 300k at 1e-4 kept the heuristic's every move. Cornucopia climbed
# more slowly (0.526 at 1M, 0.568 at 4M); Carcassonne fell below the heuristic and came
# back to it (0.358 at 1M, 0.453 at 2M, 0.499 at 4M), no better than 300k at 1e-4.
LONG_HINTED_PPO = dict(HINTED_PPO, learning_rate=3e-4, n_epochs=2)

#: The run of a game without its own recipe (``PPO_RECIPE``): the training length, the
#: opponents, the reward and the warm start.
DEFAULT_RECIPE = dict(
    timesteps=200_000,
    eval_every=50_000,
    opponent="random=0.5,heuristic=0.5",
    reward="outcome",
    imitate="",
    imitation_games=2000,
    hint="",
)
# What every built-in game's recipe shares: copy the heuristic, then train mostly against
# it (from-scratch PPO stays far below it). Imitation keeps every observation (CodedRows,
# one byte a value): about 15 KB a decision in Carcassonne (64 a game), 10 KB in Tahiti
# (111 a game).
WARM_START = dict(
    eval_every=50_000,
    opponent="heuristic=0.7,random=0.3",
    reward="outcome",
    imitate="heuristic",
    imitation_games=2000,
    hint="",
)
# A hinted policy, its value network warm-started on 300 of the heuristic's games (which
# also fits its logits to the hint), then trained against the heuristic alone.
HINTED = dict(WARM_START, opponent="heuristic", imitation_games=300, hint="heuristic")


def recipe(game: str) -> dict:
    """The game's ``PPO_RECIPE`` over :data:`DEFAULT_RECIPE`."""
    return for_game(dict(DEFAULT_RECIPE, **getattr(game_recipes(game), "PPO_RECIPE", {})), game)


def hyperparameters(args) -> dict:
    """The game's ``PPO_HYPERPARAMS`` over :data:`DEFAULT_HYPERPARAMS`, with each one that
    ``args`` (the run's ``Args``) gives in place of None."""
    own = getattr(game_recipes(args.game), "PPO_HYPERPARAMS", {})
    table = dict(DEFAULT_HYPERPARAMS, **own)
    for name in table:
        if getattr(args, name) is not None:
            table[name] = getattr(args, name)
    return table


def planes_net(game: str) -> dict | None:
    """The game's ``PPO_PLANES`` (None: it has no board planes to read)."""
    return getattr(game_recipes(game), "PPO_PLANES", None)


def games_with_planes() -> list[str]:
    """The registered games that have a ``PPO_PLANES``, by name."""
    return sorted(game for game in GAMES if planes_net(game) is not None)
