"""The Agent protocol: what every player is, and the random agent.

An agent sees only its own seat's view: ``act(view)`` gets the structured fields of
``state.view(seat)`` plus ``view.legal_action_mask()`` and ``view.observation()``; it never
sees the full state. Agents that draw random numbers own a generator that ``reset(seed)``
reseeds, so a seeded game is reproducible with its agents.

Your own agent subclasses :class:`Agent` (or is any object with an ``act(view) -> int``
method)::

    # my_agents.py
    import numpy as np
    from boardgame_envs.agents.base import Agent

    class FirstLegal(Agent):
        def act(self, view):
            return int(np.flatnonzero(view.legal_action_mask())[0])

    boardgame-envs eval wasabi --agents my_agents.py:FirstLegal,heuristic --workers 2

Agents by name (``heuristic``, ``ismcts:...``, ``my_agents.py:FirstLegal``) are built by
:func:`boardgame_envs.agents.specs.make_agent`. This module imports no other agent module:
every agent imports it, and it is the only part of ``agents/`` they share.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgame_envs.core.rules import InvalidConfigError, PlayerView


class Agent:
    """Base class of all players."""

    name = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Called at the start of each game; reseeds the agent's generator."""
        self.rng = np.random.default_rng(seed)

    def act(self, view: PlayerView) -> int:
        raise NotImplementedError

    def sample(self, rng: np.random.Generator) -> Agent:
        """The agent to seat for one game; a plain agent is always itself (see AgentMix)."""
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"
    #: The compiled batched env plays this agent itself under this name (only this class:
    #: a subclass plays its own way).
    native_policy = "random"

    def act(self, view: PlayerView) -> int:
        return int(self.rng.choice(np.flatnonzero(view.legal_action_mask())))


class AgentMix(Agent):
    """A weighted choice of agents, drawn anew for each game by ``sample``."""

    name = "mix"

    def __init__(self, agents: Sequence[Agent], weights: Sequence[float] | None = None) -> None:
        super().__init__()
        if not agents:
            raise InvalidConfigError("AgentMix needs at least one agent")
        weights = [1.0] * len(agents) if weights is None else list(weights)
        if len(weights) != len(agents) or min(weights) < 0 or sum(weights) <= 0:
            raise InvalidConfigError(
                f"AgentMix weights {weights} must be one non-negative number per agent, "
                "not all zero"
            )
        self.agents = list(agents)
        self.weights = np.asarray(weights, dtype=float) / sum(weights)

    def sample(self, rng: np.random.Generator) -> Agent:
        return self.agents[int(rng.choice(len(self.agents), p=self.weights))].sample(rng)

    def act(self, view: PlayerView) -> int:
        raise TypeError("AgentMix is a choice of agents: call sample(rng) to seat one")

    def __repr__(self) -> str:
        parts = ", ".join(f"{a!r}:{w:.2f}" for a, w in zip(self.agents, self.weights))
        return f"AgentMix({parts})"


#: What the ``attr`` of a ``module.path:attr`` or ``path/to/file.py:attr`` spec may name.
USER_AGENT_FORMS = (
    "an Agent subclass, a factory function returning an agent, or an object with an "
    "act(view) -> int method"
)
#: The options a ``net:`` spec takes after its network (here, so that splitting a list of
#: specs needs no torch).
NET_SPEC_OPTIONS = ("device", "sample")
#: The options an ``ismcts-net:`` spec takes besides the ismcts ones.
NET_SEARCH_OPTIONS = ("prior", "value", "incumbent", "batch", "device")
#: The options a ``gumbel:`` spec takes after its network (``agents/gumbel.py``).
GUMBEL_OPTIONS = (
    "simulations",
    "considered",
    "depth",
    "rollout",
    "noise",
    "seconds",
    "c_visit",
    "c_scale",
    "device",
    "seed",
)


class ProtocolAgent(Agent):
    """An object that follows the Agent protocol without subclassing ``Agent``: its
    ``act(view)`` is used as it is, its ``reset(seed)`` called when it has one."""

    def __init__(self, inner: Any, label: str) -> None:
        super().__init__()
        self.inner, self.name = inner, label

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if callable(getattr(self.inner, "reset", None)):
            self.inner.reset(seed)

    def act(self, view: PlayerView) -> int:
        return int(self.inner.act(view))

    def __repr__(self) -> str:
        return f"ProtocolAgent({self.inner!r})"


def as_agent(value: Any, label: str = "agent") -> Agent:
    """``value`` as an ``Agent``: an Agent as it is, any other object with an ``act(view)``
    method wrapped in :class:`ProtocolAgent`."""
    if isinstance(value, Agent):
        return value
    if callable(getattr(value, "act", None)):
        return ProtocolAgent(value, label)
    raise InvalidConfigError(
        f"agent {label!r} is {_describe(value)}, not an agent; allowed: {USER_AGENT_FORMS}"
    )


def _describe(value: Any) -> str:
    if inspect.isclass(value):
        return f"the class {value.__name__} (it has no act method)"
    text = repr(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"{text} (of type {type(value).__name__})"
