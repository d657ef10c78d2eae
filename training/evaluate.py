"""Moved: tournaments are :mod:`boardgame_envs.training.evaluation` (``evaluate``,
``markdown_table``, ...; the module is ``boardgame_envs.training.evaluation.tournament``).
This old name warns once and leads there."""

import warnings

from boardgame_envs.training.evaluation import tournament as _moved

warnings.warn(
    "boardgame_envs.training.evaluate moved to boardgame_envs.training.evaluation "
    "(from boardgame_envs.training.evaluation import evaluate, markdown_table)",
    DeprecationWarning,
    stacklevel=1 if __name__ == "__main__" else 2,
)


def __getattr__(name: str):
    return getattr(_moved, name)


if __name__ == "__main__":
    _moved.main(_moved.parse_args(_moved.Args))
