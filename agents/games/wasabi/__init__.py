"""Wasabi!: its settings for agents and training.

The heuristic is :mod:`.heuristic`, what the search knows of the game :mod:`.search`, the
training recipes :mod:`.recipes`; ``SETTINGS`` gathers what the agents read
(:class:`boardgame_envs.agents.settings.GameSettings`).
"""

from boardgame_envs.agents.games.wasabi import search
from boardgame_envs.agents.search import VERIFIED
from boardgame_envs.agents.settings import GameSettings

#: ``ismcts:preset=v1``: the settings tuned on the Python engine, the reference opponent of
#: later comparisons (over :class:`SearchOptions`, whose ``seconds=0.25`` caps every decision).
# Wasabi!: a small tree (12 iterations) checked by 8 pairs plays as well as 50 iterations
# and 16 pairs did (0.717 against 0.698, 300 fresh deals each) at 0.4 of the time.
V1 = {
    "iterations": 12,
    "rollout": "heuristic",
    "depth": 6,
    "first": 1,
    "guard": 0.1,
    **VERIFIED,
    "verify": 8,
}

#: Today's defaults: v1 with the native engine's speed spent on a larger budget, which
#: measured stronger head to head against v1 (docs/results.md); still within ``seconds``.
SEARCH = {**V1, "iterations": 120, "verify": 32}

#: What the agents read. ``score_scale``, a score difference that counts as a clear lead in
#: the leaf evaluation: about the mean final score difference of heuristic-against-heuristic
#: games (12 games each).
SETTINGS = GameSettings(
    heuristic="boardgame_envs.agents.games.wasabi.heuristic:HeuristicAgent",
    search=SEARCH,
    search_presets={"v1": V1},
    provisional=search.provisional_score,
    score_scale=5.0,
)
