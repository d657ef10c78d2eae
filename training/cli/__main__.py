"""``python -m boardgame_envs.training.cli``: the ``boardgame-envs`` command."""

import sys

from boardgame_envs.training.cli.commands import main

sys.exit(main())
