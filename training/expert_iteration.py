"""Moved: expert iteration is :mod:`boardgame_envs.training.exit` (the loop:
``boardgame_envs.training.exit.train``; ``boardgame-envs train --algo exit``). This old name
warns once and leads there."""

import warnings

from boardgame_envs.training.exit import train as _moved

warnings.warn(
    "boardgame_envs.training.expert_iteration moved to boardgame_envs.training.exit.train "
    "(or run: boardgame-envs train --algo exit)",
    DeprecationWarning,
    stacklevel=1 if __name__ == "__main__" else 2,
)


def __getattr__(name: str):
    return getattr(_moved, name)


if __name__ == "__main__":
    _moved.main(_moved.parse_args(_moved.Args))
