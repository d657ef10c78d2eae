"""Goofspiel with hidden bids: a game for boardgame-envs written outside the library.

The package registers itself with one entry point in its ``pyproject.toml``::

    [project.entry-points."boardgame_envs.games"]
    goofspiel = "goofspiel_game:GAME"

Nothing else is imported here: the library loads the rules (and, on first use, the encoding
and render modules they name) from the paths in :data:`GAME`.
"""

from boardgame_envs.core.game import GameInfo

#: The game's registration: no compiled engine, no agent settings (the generic ones).
GAME = GameInfo(
    id="goofspiel",
    title="Goofspiel",
    gym_name="Goofspiel",
    rules_class="goofspiel_game.rules:GoofspielRules",
)

__all__ = ["GAME"]
