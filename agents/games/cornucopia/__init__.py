"""Cornucopia: its settings for agents and training.

The heuristic is :mod:`.heuristic`, what the search knows of the game :mod:`.search`, the
training recipes :mod:`.recipes`; ``SETTINGS`` gathers what the agents read
(:class:`boardgame_envs.agents.settings.GameSettings`).
"""

from boardgame_envs.agents.games.cornucopia import search
from boardgame_envs.agents.settings import GameSettings

#: ``ismcts:preset=v1``: the settings tuned on the Python engine, the reference opponent of
#: later comparisons (over :class:`SearchOptions`, whose ``seconds=0.25`` caps every decision).
# Cornucopia: one-step improvement of the heuristic. Every legal move is played on the
# same 48 determinizations, each continued by the heuristic to the end of the turn and
# judged with the next turn's worth (quiet=BID); a move other than the heuristic's must
# be one standard error better. (The tree, depth-6 rollouts: 0.387.)
V1 = {
    "root": "paired",
    "iterations": 48,
    "rollout": "heuristic",
    "depth": 1,
    "quiet": "BID",
    "z": 1.0,
}

#: Today's defaults: those of v1.
SEARCH = V1

#: What the agents read. ``score_scale``, a score difference that counts as a clear lead in
#: the leaf evaluation: about the mean final score difference of heuristic-against-heuristic
#: games (12 games each).
SETTINGS = GameSettings(
    heuristic="boardgame_envs.agents.games.cornucopia.heuristic:HeuristicAgent",
    search=SEARCH,
    search_presets={"v1": V1},
    # ismcts compares moves by paired rollouts (root=paired) and never grows a tree;
    # ismcts-net searches a tree, so that the network is used
    net_search={"root": "tree"},
    provisional=search.provisional_score,
    score_scale=15.0,
)
