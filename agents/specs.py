"""Agents by name: the agent-spec table and its parser.

A spec is plain text, so worker processes and Ray tasks build the agent themselves:

=======================================  ==============================================
``random``                               uniform over the legal moves
``heuristic``                            the game's rule-based player
``ismcts[:<option=value,...>]``          the search (:mod:`boardgame_envs.agents.search`)
``ppo:<model>[,device=cuda]``            a saved PPO policy (:mod:`boardgame_envs.agents.ppo`)
``net:<network>[,options]``              a policy-value network's policy alone
``ismcts-net:<network>[,options]``       the search guided by it
``module.path:attr``                     your own agent, from an importable module
``path/to/file.py:attr``                 your own agent, from a Python file
=======================================  ==============================================

Each shipped kind is one row of :data:`KINDS`: its factory and its option names, named by
import path and loaded on first use (so naming an agent imports only that agent's module,
and no agent module imports this one).
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from boardgame_envs.agents.base import (
    GUMBEL_OPTIONS,
    NET_SEARCH_OPTIONS,
    NET_SPEC_OPTIONS,
    USER_AGENT_FORMS,
    Agent,
    RandomAgent,
    _describe,
    as_agent,
)
from boardgame_envs.core.game import load_object
from boardgame_envs.core.rules import InvalidConfigError


@dataclass(frozen=True)
class AgentKind:
    """One shipped kind of agent spec, ``<name>`` or ``<name>:<options>``."""

    factory: str
    """``"module:function"`` (or ``"module:Class.method"``), called as
    ``function(options, game, seed=seed)`` (and ``engine=engine`` when ``engine``)"""
    options: tuple[str, ...] = ()
    """option names its spec takes (``name=value`` after the name)"""
    options_from: str = ""
    """``"module:attr"`` of more option names, read when a list of specs is split"""
    bare: bool = True
    """whether the name alone is a spec (``ismcts``); False: it needs options (``ppo:<model>``)"""
    with_options: bool = True
    """whether ``<name>:<options>`` is a spec (False: ``random``, ``heuristic``)"""
    engine: bool = False
    """whether the factory takes the engine (the heuristic: its reference or compiled twin)"""

    def option_names(self) -> tuple[str, ...]:
        more = tuple(load_object(self.options_from)) if self.options_from else ()
        return more + self.options


#: The shipped kinds, by name.
KINDS: dict[str, AgentKind] = {
    "random": AgentKind("boardgame_envs.agents.specs:random_agent", with_options=False),
    "heuristic": AgentKind(
        "boardgame_envs.agents.heuristic:from_spec", with_options=False, engine=True
    ),
    "ismcts": AgentKind(
        "boardgame_envs.agents.search:make_search_agent",
        options_from="boardgame_envs.agents.search:OPTIONS",
    ),
    "ppo": AgentKind(
        "boardgame_envs.agents.ppo:PPOAgent.from_spec",
        options_from="boardgame_envs.agents.ppo:SPEC_OPTIONS",
        bare=False,
    ),
    "net": AgentKind(
        "boardgame_envs.agents.policy_value:NetAgent.from_spec",
        options=NET_SPEC_OPTIONS,
        bare=False,
    ),
    "ismcts-net": AgentKind(
        "boardgame_envs.agents.search_net:make_net_search_agent",
        options=NET_SEARCH_OPTIONS,
        options_from="boardgame_envs.agents.search:OPTIONS",
        bare=False,
    ),
    "gumbel": AgentKind(
        "boardgame_envs.agents.gumbel:make_gumbel_agent", options=GUMBEL_OPTIONS, bare=False
    ),
}
#: The forms a spec may take, for messages.
AGENT_KINDS = (
    "random",
    "heuristic",
    "ismcts",
    "ismcts:<option=value,...>",
    "ppo:<model.zip, run dir or shipped name>[,device=cuda]",
    "net:<network .pt, run dir or shipped name>[,device=cuda][,sample=1]",
    "ismcts-net:<network .pt, run dir or shipped name>[,<ismcts options>][,prior=..,value=..]",
    "gumbel:<network .pt, run dir or shipped name>[,simulations=..,considered=..,depth=..]",
    "module.path:attr",
    "path/to/file.py:attr",
)
_SHIPPED_PREFIXES = tuple(f"{name}:" for name, kind in KINDS.items() if kind.with_options)


def random_agent(options: str, game: str, seed: int | None = None) -> Agent:
    return RandomAgent(seed)


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
    name, colon, options = spec.partition(":")
    kind = KINDS.get(name)
    if kind is not None and (kind.with_options if colon else kind.bare):
        factory = _factory(kind.factory)
        if kind.engine:
            return factory(options, game, seed=seed, engine=engine)
        return factory(options, game, seed=seed)
    if kind is not None and not colon and not kind.bare:
        form = next(form for form in AGENT_KINDS if form.startswith(f"{name}:"))
        raise InvalidConfigError(f"agent {spec!r} needs what to load after a colon: {form}")
    near = difflib.get_close_matches(name, [n for n in KINDS if n != name], n=1)
    hint = f" did you mean {near[0] + colon + options!r}?" if near else ""
    if is_user_spec(spec):
        try:
            return load_user_agent(spec, game, seed)
        except InvalidConfigError as error:
            if not hint:
                raise
            raise InvalidConfigError(f"{error};{hint}") from error
    raise InvalidConfigError(f"unknown agent {spec!r};{hint} allowed: {', '.join(AGENT_KINDS)}")


def _factory(path: str) -> Any:
    """The callable at ``"module:attr"`` or ``"module:Class.method"``."""
    module, _, attribute = path.partition(":")
    target = importlib.import_module(module)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


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


def split_agent_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs, keeping a search agent's or a PPO
    policy's own ``name=value`` options with it: ``"ismcts:iterations=50,rollout=random,
    ppo:wasabi,device=cuda,my_agents.py:FirstLegal,heuristic"`` is
    ``["ismcts:iterations=50,rollout=random", "ppo:wasabi,device=cuda",
    "my_agents.py:FirstLegal", "heuristic"]`` (your own agents take no options: they end at
    the next comma)."""
    options = {
        f"{name}:": kind.option_names()
        for name, kind in KINDS.items()
        if kind.options or kind.options_from
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
