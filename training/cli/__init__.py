"""The command line: ``boardgame-envs`` (``python -m boardgame_envs.training.cli``).

commands.py  the command and its subcommands; each subcommand's module is imported only
             when it runs (``boardgame-envs --help`` and ``list`` import no torch)
play.py      ``play``: a person against agents in the terminal
demo.py      ``demo``: train a policy for one game, then rank it
"""

from boardgame_envs.training import public_names

#: Each public name and the module of the room that defines it.
PUBLIC = {"main": "commands", "list_games": "commands"}
__all__ = list(PUBLIC)
__getattr__ = public_names(__name__, PUBLIC)
