"""The Agent protocol, the random agent, and agents by name.

An agent sees only its own seat's view: ``act(view)`` gets the structured fields of
``state.view(seat)`` plus ``view.legal_action_mask()`` and ``view.observation()``; it never
sees the full state. Agents that draw random numbers own a generator that ``reset(seed)``
reseeds, so a seeded game is reproducible with its agents.
"""

from __future__ import annotations

from collections.abc import Sequence

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


AGENT_KINDS = (
    "random",
    "heuristic",
    "ismcts",
    "ismcts:<option=value,...>",
    "ppo:<model.zip, run dir or shipped name>[,device=cuda]",
)


def make_agent(
    spec: str, game: str, seed: int | None = None, engine: str | None = None
) -> Agent:
    """An agent by name: ``random``, ``heuristic``, ``ismcts[:options]`` or ``ppo:<model>``
    (a model .zip, a run directory, or a shipped policy's name such as ``ppo:wasabi`` or
    ``ppo:tahiti@3p``; ``,device=cuda`` loads it on a GPU: see :mod:`agents.ppo`).

    ``engine`` picks the heuristic's twin ("python": the reference, "native": the compiled
    one; None: the one of the engine in use); both play the same moves."""
    if spec == "ismcts" or spec.startswith("ismcts:"):
        from agents.search import make_search_agent

        return make_search_agent(spec[len("ismcts:") :], game, seed=seed)
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        from agents.heuristic import make_heuristic

        return make_heuristic(game, seed, engine)
    if spec.startswith("ppo:"):
        from agents.ppo import PPOAgent

        return PPOAgent.from_spec(spec[len("ppo:") :], game=game, seed=seed)
    raise InvalidConfigError(f"unknown agent {spec!r}; allowed: {', '.join(AGENT_KINDS)}")


def split_agent_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs, keeping a search agent's or a PPO
    policy's own ``name=value`` options with it: ``"ismcts:iterations=50,rollout=random,
    ppo:wasabi,device=cuda,heuristic"`` is ``["ismcts:iterations=50,rollout=random",
    "ppo:wasabi,device=cuda", "heuristic"]``."""
    from agents.ppo import SPEC_OPTIONS
    from agents.search import OPTIONS

    options = {"ismcts:": OPTIONS, "ppo:": SPEC_OPTIONS}
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name = part.partition("=")[0].strip()
        kind = next((k for k in options if specs and specs[-1].startswith(k)), None)
        if kind is not None and "=" in part and name in options[kind]:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs
