"""Tahiti: its training recipes, what ``train tahiti`` trains with (the names are read
by boardgame_envs.training.ppo.recipes and boardgame_envs.training.exit.recipes). The PPO
recipe is the one the shipped policy was trained with; docs/design-notes.md gives the
figures."""

from boardgame_envs.training.exit.recipes import BASE_RECIPE, PPO_DISTILLED
from boardgame_envs.training.ppo.recipes import HINTED, LONG_HINTED_PPO

PPO_HYPERPARAMS = dict(LONG_HINTED_PPO, gamma=0.995)
# A policy hinted by the heuristic (agents/hinted.py): its unhinted recipe
# (docs/design-notes.md) left 0.000-0.435 against the heuristic.
# Over the 30 CPU-minutes: 0.445 at 2M, 0.572 at 3M, 0.630 at 4M (docs/design-notes.md).
PPO_RECIPE = dict(HINTED, timesteps=4_000_000, eval_every=500_000)
# No broadcast planes: they were the costliest part of Tahiti's learner, and the hinted
# policy trained with them played no better than the heuristic (docs/design-notes.md).
PPO_PLANES = dict(channels=16, depth=0)

# Expert iteration: the shipped PPO policy distilled (PPO_DISTILLED). The warm start:
# 0.34 CPU s a game of the PPO policy.
EXIT_RECIPE = dict(
    BASE_RECIPE, **PPO_DISTILLED, imitate="ppo:tahiti", games_per_iteration=80, window=8
)
