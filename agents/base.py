"""The Agent protocol, the random agent, and agents by name.

An agent sees only its own seat's view: ``act(view)`` gets the structured fields of
``state.view(seat)`` plus ``view.legal_action_mask()`` and ``view.observation()``; it never
sees the full state. Agents that draw random numbers own a generator that ``reset(seed)``
reseeds, so a seeded game is reproducible with its agents.

Agents by name (:func:`make_agent`): the shipped ones (``random``, ``heuristic``,
``ismcts[:options]``, ``ppo:<model>``, ``net:<network>``, ``ismcts-net:<network>``) and
your own, from an importable module (``my_package.agents:MyAgent``) or from a Python file
(``path/to/my_agents.py:MyAgent``, relative to the current folder or absolute). The part
after the colon names an ``Agent`` subclass, a factory function, or an object with an
``act(view) -> int`` method::

    # my_agents.py
    import numpy as np
    from boardgame_envs.agents.base import Agent

    class FirstLegal(Agent):
        def act(self, view):
            return int(np.flatnonzero(view.legal_action_mask())[0])

    boardgame-envs eval --game wasabi --agents my_agents.py:FirstLegal,heuristic --workers 2

A spec is plain text, so worker processes and Ray tasks import the agent themselves.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
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
    "net:<network .pt, run dir or shipped name>[,device=cuda][,sample=1]",
    "ismcts-net:<network .pt, run dir or shipped name>[,<ismcts options>][,prior=..,value=..]",
    "module.path:attr",
    "path/to/file.py:attr",
)
#: What the ``attr`` of a ``module.path:attr`` or ``path/to/file.py:attr`` spec may name.
USER_AGENT_FORMS = (
    "an Agent subclass, a factory function returning an agent, or an object with an "
    "act(view) -> int method"
)
_SHIPPED_PREFIXES = ("ismcts:", "ppo:", "net:", "ismcts-net:")
#: The options a ``net:`` spec takes after its network (here, so that splitting a list of
#: specs needs no torch).
NET_SPEC_OPTIONS = ("device", "sample")
#: The options an ``ismcts-net:`` spec takes besides the ismcts ones.
NET_SEARCH_OPTIONS = ("prior", "value", "incumbent", "batch", "device")


def make_agent(spec: str, game: str, seed: int | None = None, engine: str | None = None) -> Agent:
    """An agent by name: ``random``, ``heuristic``, ``ismcts[:options]``, ``ppo:<model>``
    (a model .zip, a run directory, or a shipped policy's name such as ``ppo:wasabi`` or
    ``ppo:tahiti@3p``; ``,device=cuda`` loads it on a GPU: see :mod:`boardgame_envs.agents.ppo`),
    ``net:<network>`` (a policy-value network's policy alone:
    :mod:`boardgame_envs.agents.policy_value`),
    ``ismcts-net:<network>[,options]`` (the search guided by it:
    :mod:`boardgame_envs.agents.search_net`), or your own agent: ``module.path:attr`` or
    ``path/to/file.py:attr`` (see :func:`load_user_agent`).

    ``engine`` picks the heuristic's twin ("python": the reference, "native": the compiled
    one; None: the one of the engine in use); both play the same moves."""
    if spec == "ismcts" or spec.startswith("ismcts:"):
        from boardgame_envs.agents.search import make_search_agent

        return make_search_agent(spec[len("ismcts:") :], game, seed=seed)
    if spec == "random":
        return RandomAgent(seed)
    if spec == "heuristic":
        from boardgame_envs.agents.heuristic import make_heuristic

        return make_heuristic(game, seed, engine)
    if spec.startswith("ppo:"):
        from boardgame_envs.agents.ppo import PPOAgent

        return PPOAgent.from_spec(spec[len("ppo:") :], game=game, seed=seed)
    if spec.startswith("net:"):
        from boardgame_envs.agents.policy_value import NetAgent

        return NetAgent.from_spec(spec[len("net:") :], game=game, seed=seed)
    if spec.startswith("ismcts-net:"):
        from boardgame_envs.agents.search_net import make_net_search_agent

        return make_net_search_agent(spec[len("ismcts-net:") :], game, seed=seed)
    if is_user_spec(spec):
        return load_user_agent(spec, game, seed)
    raise InvalidConfigError(f"unknown agent {spec!r}; allowed: {', '.join(AGENT_KINDS)}")


# -- your own agents: module.path:attr and path/to/file.py:attr ---------------------------
def is_user_spec(spec: str) -> bool:
    """Whether ``spec`` names an agent in the user's code (``module:attr``, ``file.py:attr``)
    rather than a shipped one (``ismcts:...``, ``ppo:...``, ``net:...`` and
    ``ismcts-net:...`` are shipped)."""
    return ":" in spec and not spec.startswith(_SHIPPED_PREFIXES)


def _source_and_attr(spec: str) -> tuple[str, str]:
    source, _, attr = spec.rpartition(":")
    if not source.strip() or not attr.strip():
        raise InvalidConfigError(
            f"agent {spec!r} is not allowed; your own agent is module.path:attr or "
            "path/to/file.py:attr, e.g. my_agents.py:FirstLegal"
        )
    return source.strip(), attr.strip()


def _is_file(source: str) -> bool:
    return source.endswith(".py") or "/" in source or os.sep in source


def resolve_agent_spec(spec: str) -> str:
    """``spec`` with a file's path made absolute (from the current folder), so that a worker
    process or a Ray task started in another folder finds the same file; any other spec, or
    one whose file does not exist (``make_agent`` says so), is returned as it is."""
    if not is_user_spec(spec):
        return spec
    source, attr = _source_and_attr(spec)
    path = Path(source).expanduser().resolve()
    if not _is_file(source) or not path.is_file():
        return spec
    return f"{path}:{attr}"


def load_user_agent(spec: str, game: str, seed: int | None = None) -> Agent:
    """The agent that ``module.path:attr`` or ``path/to/file.py:attr`` names.

    ``attr`` (dotted for a nested name) may be an ``Agent`` subclass or any class with an
    ``act`` method (constructed with whichever of ``game=`` and ``seed=`` it accepts), a
    factory function (called the same way; it returns an agent), or an object with an
    ``act(view) -> int`` method (used as it is, one object for every seat it plays; its
    ``reset(seed)``, if it has one, is called before each game). Anything missing or
    unusable is an ``InvalidConfigError`` naming the spec and what is allowed."""
    source, attr = _source_and_attr(spec)
    module = _import_file(spec, source) if _is_file(source) else _import_module(spec, source)
    target = _attribute(spec, module, source, attr)
    if inspect.isclass(target):
        if not callable(getattr(target, "act", None)):
            raise _not_an_agent(spec, target)
        return as_agent(_call_with_accepted(spec, target, game=game, seed=seed), spec)
    if callable(getattr(target, "act", None)):
        agent = as_agent(target, spec)
        if seed is not None:
            agent.reset(seed)
        return agent
    if callable(target):
        made = _call_with_accepted(spec, target, game=game, seed=seed)
        if not callable(getattr(made, "act", None)):
            raise InvalidConfigError(
                f"agent {spec!r}: the factory returned {_describe(made)}, not an agent; "
                "a factory must return an object with an act(view) -> int method"
            )
        return as_agent(made, spec)
    raise _not_an_agent(spec, target)


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


def _import_file(spec: str, source: str) -> ModuleType:
    """The module of a Python file, loaded once per process under a private name (so a
    file called ``random.py`` shadows nothing)."""
    path = Path(source).expanduser().resolve()
    if not path.is_file():
        raise InvalidConfigError(
            f"agent {spec!r}: no file {source} (looked for {path}); allowed: "
            "path/to/file.py:attr naming an existing file, relative to the current folder "
            "or absolute, or module.path:attr naming an importable module"
        )
    if path.suffix != ".py":
        raise InvalidConfigError(
            f"agent {spec!r}: {source} is not a Python file; allowed: path/to/file.py:attr"
        )
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
    name = f"_agent_file_{path.stem if path.stem.isidentifier() else 'module'}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    loader_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[name] = module  # dataclasses and pickle look a class's module up here
    try:
        loader_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _import_module(spec: str, source: str) -> ModuleType:
    """The module ``source``; the current folder is searched too (as ``python -m`` does),
    so ``my_agents:FirstLegal`` finds ``./my_agents.py`` from the installed command."""
    try:
        return importlib.import_module(source)
    except ModuleNotFoundError as error:
        if not _is_missing(source, error):
            raise  # the module exists; something it imports does not
    here = os.getcwd()
    if here not in sys.path:
        sys.path.append(here)  # kept: worker processes start with this process's path
        importlib.invalidate_caches()
        try:
            return importlib.import_module(source)
        except ModuleNotFoundError as error:
            if not _is_missing(source, error):
                raise
    raise InvalidConfigError(
        f"agent {spec!r}: no module named {source!r}; allowed: module.path:attr naming an "
        "importable module (on the Python path or in the current folder), or "
        "path/to/file.py:attr naming a file"
    )


def _is_missing(source: str, error: ModuleNotFoundError) -> bool:
    """Whether ``error`` says ``source`` itself (or a package above it) is missing."""
    return error.name is not None and (source == error.name or source.startswith(error.name + "."))


def _attribute(spec: str, module: ModuleType, source: str, attr: str) -> Any:
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            found = _agent_names(module)
            listed = f"; it defines: {', '.join(found)}" if found else ""
            raise InvalidConfigError(
                f"agent {spec!r}: {source} has no attribute {attr!r}{listed}; allowed: "
                f"{USER_AGENT_FORMS}"
            )
        target = getattr(target, part)
    return target


def _agent_names(module: ModuleType, limit: int = 12) -> list[str]:
    """Names in ``module`` that could be agents (classes with ``act``, objects with ``act``,
    functions defined there), for an error message."""
    names = []
    for name, value in vars(module).items():
        if name.startswith("_"):
            continue
        if inspect.isclass(value) or inspect.isfunction(value):
            usable = value.__module__ == module.__name__ and (
                inspect.isfunction(value) or callable(getattr(value, "act", None))
            )
        else:
            usable = callable(getattr(value, "act", None))
        if usable:
            names.append(name)
    return names[:limit]


def _call_with_accepted(spec: str, target: Any, **offered: Any) -> Any:
    """``target(**kwargs)`` with the ``offered`` keyword arguments that it accepts."""
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # a builtin without a signature
        return target()
    parameters = signature.parameters.values()
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)
    named = {
        p.name
        for p in parameters
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    }
    kwargs = {k: v for k, v in offered.items() if takes_any or k in named}
    try:
        signature.bind(**kwargs)
    except TypeError as error:
        given = ", ".join(f"{k}=..." for k in kwargs)
        raise InvalidConfigError(
            f"agent {spec!r}: cannot call {getattr(target, '__name__', target)}({given}) "
            f"({error}); its arguments other than game and seed need default values"
        ) from None
    return target(**kwargs)


def _not_an_agent(spec: str, value: Any) -> InvalidConfigError:
    return InvalidConfigError(
        f"agent {spec!r} is {_describe(value)}, not an agent; allowed: {USER_AGENT_FORMS}"
    )


def _describe(value: Any) -> str:
    if inspect.isclass(value):
        return f"the class {value.__name__} (it has no act method)"
    text = repr(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"{text} (of type {type(value).__name__})"


def split_agent_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs, keeping a search agent's or a PPO
    policy's own ``name=value`` options with it: ``"ismcts:iterations=50,rollout=random,
    ppo:wasabi,device=cuda,my_agents.py:FirstLegal,heuristic"`` is
    ``["ismcts:iterations=50,rollout=random", "ppo:wasabi,device=cuda",
    "my_agents.py:FirstLegal", "heuristic"]`` (your own agents take no options: they end at
    the next comma)."""
    from boardgame_envs.agents.ppo import SPEC_OPTIONS
    from boardgame_envs.agents.search import OPTIONS

    options = {
        "ismcts:": OPTIONS,
        "ppo:": SPEC_OPTIONS,
        "net:": NET_SPEC_OPTIONS,
        "ismcts-net:": (*OPTIONS, *NET_SEARCH_OPTIONS),
    }
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
