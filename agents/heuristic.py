"""Rule-based players, one module per game, each exposing ``HeuristicAgent``.

The modules here are the reference heuristics. Each has a compiled twin in the native
engine (``native/games/<game>/heuristic.cc``) that chooses exactly the same move in every
position, drawing the same random numbers (``tests/native/test_<game>_agents.py`` holds the
two in lockstep). :func:`make_heuristic` gives the one that fits the engine:

* ``engine="python"``: the reference ``HeuristicAgent``;
* ``engine="native"``: :class:`NativeHeuristicAgent`, which decides in compiled code on the
  views of native states (and hands a Python engine's view to the reference, with the same
  generator, so that it plays the same moves on either);
* ``engine=None``: native wherever the game's native engine is in use.
"""

from __future__ import annotations

import functools
import secrets
from typing import Any

import numpy as np

from boardgame_envs.agents.base import Agent
from boardgame_envs.agents.settings import heuristic_class
from boardgame_envs.core.native import native_module, resolve_engine
from boardgame_envs.core.rules import PlayerView, State, check_playout_args
from boardgame_envs.registry import game_info, make_rules


def reference_class(game: str) -> type[Agent]:
    """The reference ``HeuristicAgent`` class of ``game`` (its settings' ``heuristic``)."""
    return heuristic_class(game)


def make_heuristic(game: str, seed: int | None = None, engine: str | None = None) -> Agent:
    """The heuristic of ``game`` on ``engine`` ("python", "native"; None: the one in use)."""
    reference = reference_class(game)
    if resolve_engine(game, engine) == "native" and game_info(game).has_native:
        return NativeHeuristicAgent(game, seed)
    return reference(seed)


def from_spec(options: str, game: str, seed: int | None = None, engine: str | None = None):
    """The agent spec ``heuristic`` (see :mod:`boardgame_envs.agents.specs`)."""
    return make_heuristic(game, seed, engine)


def native_generator(seed: int | None) -> Any:
    """``numpy.random.default_rng(seed)`` as the native engine's ``Pcg64`` (the same stream)."""
    pcg64 = native_module().Pcg64
    if seed is None:
        seed = secrets.randbits(128)
    if isinstance(seed, (int, np.integer)) and 0 <= seed < 2**64:
        return pcg64.from_seed(int(seed))
    return pcg64.from_state(np.random.default_rng(seed).bit_generator.state)


class NativeHeuristicAgent(Agent):
    """The compiled twin of ``boardgame_envs.agents.heuristic.<game>.HeuristicAgent``: the same
    moves, the same random draws (from ``native_rng``, numpy's stream), decided without Python."""

    name = "heuristic"
    #: The compiled batched env plays this agent itself under this name.
    native_policy = "heuristic"

    def __init__(self, game: str, seed: int | None = None) -> None:
        self.game = game
        self.reference = reference_class(game)()
        self.native_class = getattr(native_module(), _native_class_name(game))
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.native_rng = native_generator(seed)

    @property
    def rng(self) -> np.random.Generator:  # type: ignore[override]
        """A numpy copy of the generator (draws from it do not advance this agent's)."""
        bit_generator = np.random.PCG64()
        bit_generator.state = self.native_rng.state
        return np.random.Generator(bit_generator)

    @rng.setter
    def rng(self, generator: np.random.Generator) -> None:
        """Continue from ``generator``'s state (a copy: the two then draw independently)."""
        self.native_rng = native_module().Pcg64.from_state(generator.bit_generator.state)

    def act(self, view: PlayerView) -> int:
        source = getattr(view, "_source", None)
        if type(source) is self.native_class:
            return source.heuristic_action(view.seat, self.native_rng)
        return self._on_reference("act", view)

    # -- what the search reads, where the game has it ---------------------------------------
    def __getattr__(self, method: str) -> Any:
        """The game heuristic's own evaluations that search reads (a public method of the
        reference, e.g. a placement's value): computed by the compiled twin on a native
        view, by the reference on a Python one."""
        reference = self.__dict__.get("reference")
        if method.startswith("_") or not callable(getattr(reference, method, None)):
            raise AttributeError(f"{type(self).__name__} has no attribute {method!r}")
        return functools.partial(self._search_value, method)

    def _search_value(self, method: str, view: PlayerView) -> Any:
        source = getattr(view, "_source", None)
        if type(source) is self.native_class:
            return getattr(source, method)(view.seat)
        return self._on_reference(method, view)

    def _on_reference(self, method: str, view: PlayerView) -> Any:
        """The reference heuristic's ``method(view)`` (a view of the Python engine), drawing
        from this agent's generator."""
        generator = self.rng
        self.reference.rng = generator
        result = getattr(self.reference, method)(view)
        self.native_rng = native_module().Pcg64.from_state(generator.bit_generator.state)
        return result

    def __repr__(self) -> str:
        return f"NativeHeuristicAgent({self.game!r})"


def _native_class_name(game: str) -> str:
    return make_rules(game, engine="native").native_class_name


def heuristic_playout(
    state: State, seed: int | None = None, depth: int = 0, epsilon: float = 0.0
) -> int:
    """``state.playout(policy="heuristic", ...)`` on either engine: the native engine plays
    it in compiled code; on the Python engine the reference heuristic plays the same moves
    (one generator, ``default_rng(seed)``, for the epsilon draws and the heuristic's own)."""
    if state.rules.engine == "native":
        return state.playout("heuristic", seed, depth, epsilon)
    _, seed, depth, epsilon = check_playout_args("heuristic", seed, depth, epsilon)
    rng = np.random.default_rng(seed)
    heuristic = reference_class(state.rules.name)()
    heuristic.rng = rng
    played = 0
    while not state.is_terminal() and (depth == 0 or played < depth):
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif epsilon > 0 and rng.random() < epsilon:
            action = legal[int(rng.integers(len(legal)))]
        else:
            action = heuristic.act(state.view(state.current_player))
        state.apply(action)
        played += 1
    return played
