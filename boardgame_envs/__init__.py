"""boardgame-envs: modern tabletop games as multi-agent RL environments.

>>> import boardgame_envs
>>> env = boardgame_envs.make("factors_multiples", num_players=3)   # PettingZoo AEC env
>>> env.reset(seed=0)

Importing the package registers every game with PettingZoo
(``pettingzoo.make("aec", "boardgame_envs/<game>-v0")``) and Gymnasium
(``gymnasium.make("boardgame_envs/<Game>-v0")``, the single-agent env).
"""

from boardgame_envs.core.native import engine_info
from boardgame_envs.core.rules import (
    IllegalActionError,
    InvalidConfigError,
    InvalidStateError,
    PlayerView,
    Rules,
    State,
)
from boardgame_envs.registry import (
    GAMES,
    GameInfo,
    game_info,
    make,
    make_rules,
    make_single_agent,
    raw_env,
    register_all,
)

register_all()

__version__ = "0.1.0"
__all__ = [
    "GAMES",
    "GameInfo",
    "IllegalActionError",
    "InvalidConfigError",
    "InvalidStateError",
    "PlayerView",
    "Rules",
    "State",
    "engine_info",
    "game_info",
    "make",
    "make_rules",
    "make_single_agent",
    "raw_env",
]
