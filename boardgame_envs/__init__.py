"""boardgame-envs: modern tabletop games as multi-agent RL environments.

>>> import boardgame_envs
>>> env = boardgame_envs.make("factors_multiples", num_players=3)   # PettingZoo AEC env
>>> env.reset(seed=0)

Importing the package registers every game with PettingZoo and Gymnasium, under ids that
carry the game's version (``boardgame-envs list`` prints them all;
``boardgame_envs.game_info("wasabi").pettingzoo_id`` and ``.gymnasium_id`` give one game's):

>>> import gymnasium, pettingzoo
>>> env = pettingzoo.make("aec", "boardgame_envs/factors_multiples-v1", num_players=3)
>>> env = gymnasium.make("boardgame_envs/FactorsMultiples-v1", opponent="heuristic")

The Gymnasium env is the single-agent one: one learning seat, agents in the others.
"""

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
    engine_info,
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
