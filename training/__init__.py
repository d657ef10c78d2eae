"""Training and evaluation: MaskablePPO runs, tournaments, benchmarks, the CLI's commands.

One room (sub-package) per concern, each read top to bottom; the helpers several rooms share
stay here.

    ppo/          MaskablePPO by a game's recipe: the loop (train.py) and its parts
    exit/         expert iteration: the loop (train.py) and its parts
    evaluation/   tournaments and ratings, leagues, the leaderboard, benchmarks, learning curves
    records/      game records, replays in the terminal, the HTML viewer, watching agents play
    cli/          the ``boardgame-envs`` command, and the demo
    cli_args.py   command lines from ``@dataclass Args`` classes, and the checks of values
    parallel.py   games in this process, in worker processes or as Ray tasks
    run_files.py  run directories, config.json, atomic writes, the latest checkpoints
    opponents.py  who sits at the other seats while a policy trains (both algorithms)
    coded_rows.py observations kept one byte a value (imitation, replay windows)

``rollout_buffer.py``, ``evaluate.py`` and ``expert_iteration.py`` are the old names of
moved modules: saved PPO models name the rollout buffer's class by its old path, and the
last two warn and lead to the new place.

A room's ``__init__`` lists its public names and imports each from its module when first
used (:func:`public_names`): importing a room costs nothing, and ``python -m`` runs one of
its modules once.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def public_names(package: str, where: dict[str, str]) -> Callable[[str], Any]:
    """A room's module ``__getattr__`` (PEP 562): ``where`` maps each public name to the
    module of the room that defines it, imported when the name is first asked for."""

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{where[name]}"), name)

    return __getattr__
