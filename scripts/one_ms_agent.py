"""An agent that spends 1 ms of processor time on every decision, then plays a random legal
move: the agent the benchmark's default budget is sized for (docs/reporting-results.md).

    boardgame-envs benchmark scripts/one_ms_agent.py:OneMillisecond --workers 2
"""

from __future__ import annotations

import time

import numpy as np

from boardgame_envs.agents.base import Agent


class OneMillisecond(Agent):
    """Busy for 1 ms of this process's processor time a decision, then uniform over the legal
    actions (a busy wait, not a sleep: it costs a core as a real agent's thinking does)."""

    name = "one-ms"

    def act(self, view) -> int:
        until = time.process_time() + 0.001
        while time.process_time() < until:
            pass
        return int(self.rng.choice(np.flatnonzero(view.legal_action_mask())))
