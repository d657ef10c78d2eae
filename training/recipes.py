"""What ``train --game G`` trains with when only the game is given: each game's recipe.

A recipe is data, in three tables a reader can check against the measurements quoted beside
them (docs/design-notes.md holds the runs):

- ``HYPERPARAMS``: PPO's settings per game (rate, rollout length, passes, discount, entropy,
  clip, dense layers, annealing), built from a few shared starting points.
- ``RECIPES``: the rest of the run per game: its length, the opponents, the reward, the
  imitation warm start and the hint.
- ``PLANES_NETS``: the small CNN over the board planes of the games that have them.

Every value is a default: an argument given to ``training/train_ppo.py`` (``Args``)
overrides it. Each game's entry is the recipe its shipped policy was trained with.
"""

from __future__ import annotations

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
#: Hyperparameters per game; "default" for games without an entry. Args override them.
#: Each game's entry, with its RECIPES and PLANES_NETS entries, is the recipe its shipped
#: policy was trained with (docs/design-notes.md gives the figures).
HYPERPARAMS: dict[str, dict] = {
    "default": DEFAULT_HYPERPARAMS,
    "factors_multiples": dict(AFTER_IMITATION, n_epochs=8, gamma=1.0),
    # 4M steps: 0.544, 0.555, 0.568 at 1.5M, 2M, 4M (2,000 deals each), where 300k at
    # 1e-4 (HINTED_PPO) read 0.510 and a 2M-step run annealed to 0 at 2M 0.510-0.532.
    "cornucopia": dict(LONG_HINTED_PPO, gamma=1.0),
    # Two passes over each rollout: its 14,601-value observations (with mask and hint) make
    # every pass costly, and the hinted policy did not gain from four (docs/design-notes.md).
    # A 4M-step run at 3e-4 (LONG_HINTED_PPO) read 0.499 (2,000 deals), no better than
    # this recipe's 0.498 at eleven times the CPU time; 2M-step ones with hint weight 8
    # (its sampled moves near the heuristic's) 0.511-0.512, still no better.
    "carcassonne_castle": dict(HINTED_PPO, gamma=1.0, n_epochs=2),
    "tahiti": dict(LONG_HINTED_PPO, gamma=0.995),
    # The rate falls as if over 4M steps and the run stops at 2.5M (3e-4 -> 1.125e-4): the
    # checkpoints of a 4M-step run annealed to 0 read 0.592, 0.638, 0.713 at 2M, 2.5M, 3M
    # steps (2,000 deals each), where a 2M-step run annealed to 0 read 0.560.
    "wasabi": dict(LONG_HINTED_PPO, gamma=0.995, final_lr_fraction=0.375),
}
#: The PlanesExtractor settings (agents/networks.py) of the games whose observation starts
#: with board planes; None: the observation goes flat into the dense layers.
PLANES_NETS: dict[str, dict] = {
    # Cheap enough for >= 1,000 learner steps/s on 2 cores (a dense layer over the
    # 13,860 plane values cost 3.3 ms of training per step; these 0.5-0.7 ms).
    "carcassonne_castle": dict(channels=8, depth=1),
    # No broadcast planes: they were the costliest part of Tahiti's learner, and the hinted
    # policy trained with them played no better than the heuristic (docs/design-notes.md).
    "tahiti": dict(channels=16, depth=0),
    "wasabi": dict(channels=16, depth=1, broadcast=16),
}
# What every game's recipe shares: copy the heuristic, then train mostly against it.
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
#: What ``train --game G`` does when only the game is given, beside its HYPERPARAMS: the
#: training length, the opponents, the reward and the warm start. Args override them.
RECIPES: dict[str, dict] = {
    "default": dict(
        timesteps=200_000,
        eval_every=50_000,
        opponent="random=0.5,heuristic=0.5",
        reward="outcome",
        imitate="",
        imitation_games=2000,
        hint="",
    ),
    # Every recipe starts from a copy of the heuristic (from scratch PPO stays far below
    # it) and trains mostly against it. Imitation keeps every observation (CodedRows, one
    # byte a value): about 15 KB a decision in Carcassonne (64 a game), 10 KB in Tahiti
    # (111 a game).
    # 3.5M steps: 0.641 against the heuristic where 2M read 0.617 (the same 2,000 fresh
    # deals, docs/design-notes.md); evaluations every 100k keep the run under 30 CPU-minutes.
    "factors_multiples": dict(
        WARM_START, timesteps=3_500_000, eval_every=100_000, reward="score"
    ),  # demo: 800k
    # The other four: a policy hinted by the heuristic (agents/hinted.py). Their unhinted
    # recipes (docs/design-notes.md) left 0.000-0.435 against the heuristic.
    # Over the 30 CPU-minutes (53 for the 4M steps) and below 0.60 (docs/design-notes.md).
    "cornucopia": dict(HINTED, timesteps=4_000_000, eval_every=500_000),
    "carcassonne_castle": dict(HINTED, timesteps=300_000),
    # Over the 30 CPU-minutes: 0.445 at 2M, 0.572 at 3M, 0.630 at 4M (docs/design-notes.md).
    "tahiti": dict(HINTED, timesteps=4_000_000, eval_every=500_000),
    "wasabi": dict(HINTED, timesteps=2_500_000, eval_every=500_000),
}


def recipe(game: str) -> dict:
    """The game's entry of RECIPES (the "default" one for a game without its own)."""
    return RECIPES.get(game, RECIPES["default"])


def hyperparameters(args) -> dict:
    """The game's HYPERPARAMS with each one that ``args`` (train_ppo's ``Args``) gives in
    place of None."""
    table = dict(HYPERPARAMS.get(args.game, HYPERPARAMS["default"]))
    for name in table:
        if getattr(args, name) is not None:
            table[name] = getattr(args, name)
    return table
