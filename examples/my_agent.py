"""Your own agents: two small players that follow the Agent protocol of ``agents/base.py``.

An agent is any object with ``act(view) -> int``: it gets the view of its own seat (the
structured fields of ``state.view(seat)``, ``view.legal_action_mask()``,
``view.legal_actions()`` and ``view.observation()``), never the full state, and returns a
legal action. Subclassing ``boardgame_envs.agents.base.Agent`` also gives it ``self.rng``, a numpy
generator that ``reset(seed)`` reseeds before every game, so seeded games reproduce.

Every command that takes an agent takes these by file and name, for example::

    boardgame-envs eval wasabi --agents examples/my_agent.py:GreedyAgent,heuristic
    boardgame-envs play wasabi --vs examples/my_agent.py:GreedyAgent

and so does ``boardgame_envs.training.evaluation.evaluate`` (see ``evaluate_my_agent.py``).
This file is a module to import, not a script: it runs nothing itself.
"""

import numpy as np

from boardgame_envs.agents.base import Agent


class FirstLegal(Agent):
    """Plays the legal action with the lowest index: the simplest possible agent."""

    name = "first-legal"

    def act(self, view) -> int:
        return int(np.flatnonzero(view.legal_action_mask())[0])


class GreedyAgent(Agent):
    """One-ply greedy: tries each legal move and keeps the one that leaves the best score
    margin (its own score against the best other seat's), ties broken at random.

    The agent does not see the hidden cards, so it first guesses them:
    ``rules.sample_state(view, rng)`` builds a full position consistent with everything the
    seat knows, the hidden parts drawn at random (the same determinizer the search agent
    uses). It looks no further than its own move: in Wasabi! it beats random play but
    not the heuristic (``evaluate_my_agent.py`` measures by how much).
    """

    name = "greedy"

    def act(self, view) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]  # a forced move: nothing to think about
        guess = view.rules.sample_state(view, self.rng)
        margins = [self.margin_after(guess, action, view.seat) for action in legal]
        best = max(margins)
        return int(self.rng.choice([a for a, m in zip(legal, margins) if m == best]))

    @staticmethod
    def margin_after(state, action: int, seat: int) -> float:
        """``seat``'s score margin once ``action`` is played on a copy of ``state``."""
        after = state.clone()
        after.apply(action)
        scores = after.scores()
        margin = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
        return -margin if state.rules.lower_score_wins else margin
