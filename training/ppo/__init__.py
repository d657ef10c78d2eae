"""MaskablePPO by a game's recipe: ``boardgame-envs train`` (``python -m
boardgame_envs.training.ppo.train``).

    train.py           the loop, read top to bottom: Args, main
    recipes.py         the generic starting points; a game's own recipe is its data
    envs.py            the training envs: here, in worker processes or Ray actors, or compiled
    vec_envs.py        envs stepped in worker groups (processes or Ray actors)
    model.py           the MaskablePPO learner built to a recipe; --init; --resume
    rollout_buffer.py  observations kept env-major, one array across rollouts
    imitation.py       the imitation warm start (--imitate) and its data
    ship.py            a run's policy copied into the shipped models
"""

from boardgame_envs.training import public_names

#: Each public name and the module of the room that defines it (imported when first used:
#: the room's modules import torch and SB3).
PUBLIC = {
    "Args": "train",
    "main": "train",
    "recipe": "recipes",
    "hyperparameters": "recipes",
    "planes_net": "recipes",
    "make_env": "envs",
    "make_vec_env": "envs",
    "new_model": "model",
    "imitate": "imitation",
}
__all__ = list(PUBLIC)
__getattr__ = public_names(__name__, PUBLIC)
