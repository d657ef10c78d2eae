"""Carcassonne: The Castle: its settings for agents and training.

The heuristic is :mod:`.heuristic`, what the search knows of the game :mod:`.search`, the
training recipes :mod:`.recipes`; ``SETTINGS`` gathers what the agents read
(:class:`boardgame_envs.agents.settings.GameSettings`).
"""

from boardgame_envs.agents.games.carcassonne_castle import search
from boardgame_envs.agents.search import VERIFIED
from boardgame_envs.agents.settings import GameSettings

#: ``ismcts:preset=v1``: the settings tuned on the Python engine, the reference opponent of
#: later comparisons (over :class:`SearchOptions`, whose ``seconds=0.25`` caps every decision).
# Carcassonne, Tahiti and Wasabi!: the tree proposes, the check decides. Without it
# searching every decision lost Tahiti and Wasabi! nearly every game (0/16, 2/20 in
# tuning), choosing by the truncated rollouts' noise where a move's worth shows later.
# (Carcassonne with iterations=100,verify=32: 0.588 over 300 fresh deals, no better.)
# Carcassonne's last 8 tiles: the heuristic's 16 best moves, each played to the end on
# 24 common determinizations; in tuning this won more of the endings than the tree did.
V1 = {
    "iterations": 50,
    "rollout": "heuristic",
    "depth": 4,
    "first": 1,
    "widen": 5,
    "guard": 0.1,
    **VERIFIED,
    "late": 8,
    "late_iterations": 24,
    "late_widen": 16,
    # Before that, from 20 tiles left, each follower choice (put one out, and where) is
    # played to the end on 24 common determinizations: +0.033 +- 0.019 in win share
    # over 200 endings in tuning (docs/design-notes.md).
    "mid": 20,
    "mid_iterations": 24,
    "mid_widen": 0,
    "mid_phases": "FOLLOWER",
}

#: Today's defaults: those of v1.
SEARCH = V1

#: What the agents read. ``score_scale``, a score difference that counts as a clear lead in
#: the leaf evaluation: about the mean final score difference of heuristic-against-heuristic
#: games (12 games each).
SETTINGS = GameSettings(
    heuristic="boardgame_envs.agents.games.carcassonne_castle.heuristic:HeuristicAgent",
    search=SEARCH,
    search_presets={"v1": V1},
    provisional=search.provisional_score,
    score_scale=25.0,
    turns_left=search.turns_left,
    rank_actions=search.rank_actions,
)
