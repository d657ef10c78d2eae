"""Expert iteration: a policy-value network trained on the search's decisions, repeatedly
(``boardgame-envs train --algo exit``, ``python -m boardgame_envs.training.exit.train``).

    train.py           the loop, read top to bottom: Args, main, what the loop calls
    recipes.py         the generic starting points; a game's own recipe is its data
    labelled_games.py  one game played and labelled by the search: a worker's task
    replay_window.py   the replay window of the samples, and learning from it
    checkpoints.py     the run's counters and checkpoints, and resuming
"""

from boardgame_envs.training import public_names

#: Each public name and the module of the room that defines it (imported when first used:
#: the room's modules import torch).
PUBLIC = {
    "Args": "train",
    "main": "train",
    "with_recipe": "train",
    "exit_recipe": "recipes",
    "play_and_label": "labelled_games",
    "ReplayWindow": "replay_window",
    "RunState": "checkpoints",
}
__all__ = list(PUBLIC)
__getattr__ = public_names(__name__, PUBLIC)
