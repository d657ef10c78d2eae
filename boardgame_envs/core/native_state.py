"""The Python face of a native engine: a :class:`NativeState` holds one position of the
compiled engine (``boardgame_envs._native``) and answers the rules contract from it.

A game's ``native.py`` binds the two with a few lines: its Rules class is the Python one
with :class:`NativeRules` mixed in first (the same name, options, phases, encoding and
renderer), and its State class a :class:`NativeState` that knows how to build the game's
view. Everything else is shared:

* the position, the legal mask, ``apply``, ``clone``, scores, observations and playouts
  are the compiled engine's;
* snapshots are written by the compiled engine in the Python engine's format, and loaded
  through the Python engine's validation (the same :class:`InvalidStateError` messages),
  then handed to the compiled engine, which checks every value again;
* words for people (``describe_action``, text and pictures) come from the Python engine
  through a copy of the position: they are not on any hot path.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from boardgame_envs.core.native import native_module
from boardgame_envs.core.rules import PlayerView, Rules, State, check_playout_args


class NativeRules:
    """Mixin for a game's native Rules: ``class Rules(NativeRules, PythonRules)``."""

    engine: ClassVar[str] = "native"
    #: The attribute of ``boardgame_envs._native`` that is the game's compiled state class.
    native_class_name: ClassVar[str]
    #: The game's NativeState subclass.
    state_class: ClassVar[type[NativeState]]

    @functools.cached_property
    def reference(self) -> Rules:
        """The same game's Python engine (the reference)."""
        from boardgame_envs.registry import make_rules

        return make_rules(self.name, engine="python")

    @functools.cached_property
    def native_class(self) -> Any:
        return getattr(native_module(), self.native_class_name)

    @functools.cached_property
    def pcg64_class(self) -> type:
        return native_module().Pcg64

    def wrap(self, native: Any) -> NativeState:
        state = object.__new__(self.state_class)
        state.rules = self
        state.num_players = native.num_players
        state._native = native
        return state

    def from_reference(self, state: State) -> NativeState:
        """The native copy of a Python engine's state (its snapshot, loaded natively)."""
        return self.wrap(self.native_class.from_dict(state.to_dict()))

    def from_dict(self, data: dict[str, Any]) -> NativeState:  # type: ignore[override]
        """Validated by the Python engine (the same errors), then loaded natively."""
        return self.from_reference(self.reference.from_dict(data))

    def sample_state(self, view: PlayerView, rng: Any) -> NativeState:
        """A determinization of ``view``: the compiled determinizer, drawing the same numbers
        from ``rng`` as the Python one (the same sample); a view of the Python engine goes
        to the Python determinizer, its sample loaded natively.

        ``rng`` is a numpy ``Generator`` (its state crosses into native code and back, a few
        microseconds) or the engine's own generator, ``boardgame_envs._native.Pcg64``
        (numpy's PCG64 stream, drawn from directly: what the search uses)."""
        source = getattr(view, "_source", None)
        if type(rng) is self.pcg64_class and type(source) is self.native_class:
            return self.wrap(source.sample(view.seat, rng))  # the search's path, first
        native_rng = rng if isinstance(rng, native_module().Pcg64) else None
        if type(source) is not self.native_class or not hasattr(source, "sample"):
            if native_rng is not None:
                raise TypeError(
                    "a native Pcg64 generator samples views of the native engine only; "
                    "pass a numpy Generator for this view"
                )
            return self.from_reference(self.reference.sample_state(view, rng))
        if native_rng is not None:
            return self.wrap(source.sample(view.seat, native_rng))
        native_rng = native_module().Pcg64.from_state(rng.bit_generator.state)
        sample = source.sample(view.seat, native_rng)
        rng.bit_generator.state = native_rng.state
        return self.wrap(sample)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class NativeState(State):
    """One position of a compiled engine (``self._native``)."""

    engine: ClassVar[str] = "native"
    _native: Any

    # -- what each game defines ------------------------------------------------------------
    #: The game's native View class (a :class:`NativeView`).
    view_class: ClassVar[type]
    #: The mask in the view of a seat that is not to decide (read-only, shared by views).
    no_actions: ClassVar[np.ndarray]
    #: Fields of the Python engine's State readable on a native one, attribute name to
    #: snapshot key: copies, read from the snapshot (not for hot paths).
    snapshot_attributes: ClassVar[Mapping[str, str]] = {}

    def _view_fields(self, seat: int, mask: np.ndarray) -> tuple:
        """The fields of the view of ``seat`` after ``rules``, ``mask`` in its place."""
        raise NotImplementedError

    def _view(self, seat: int) -> PlayerView:
        """The view of ``seat`` (a checked seat), built from the compiled engine; its
        observation is encoded from a copy of this position."""
        native = self._native
        mask = self._legal_mask() if seat == native.current_player else self.no_actions
        view = self.view_class(self.rules, *self._view_fields(seat, mask))
        view._source = native.clone()
        return view

    def _snapshot_field(self, key: str) -> Any:
        """``to_dict()[key]``; a game whose engine builds one field alone says so here."""
        return self._native.to_dict()[key]

    def __getattr__(self, name: str) -> Any:
        # Only reached for names the class does not define: the Python engine's fields.
        key = type(self).snapshot_attributes.get(name)
        if key is not None:
            return self._snapshot_field(key)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def config(self) -> dict[str, Any]:
        """The game's options, as the Python engine's state holds them (a fresh copy)."""
        return self._snapshot_field("config")

    # -- the contract ----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._native.current_player

    @property
    def truncated(self) -> bool:  # type: ignore[override]
        return self._native.truncated

    def is_terminal(self) -> bool:
        return self._native.is_terminal()

    def _compute_mask(self) -> np.ndarray:
        return self._native.legal_mask()

    def _apply(self, action: int) -> None:
        self._native.apply(action)

    def _phase_name(self) -> str:
        return self._native.phase_name()

    def legal_actions(self) -> list[int]:
        if self._mask is None:  # one call, without building a mask
            return self._native.legal_actions()
        return super().legal_actions()

    def apply(self, action: int) -> None:
        # One call in the common case (a legal int); anything else gets the contract's checks
        # and messages.
        if type(action) is int and self._native.try_apply(action):
            self._mask = None
            return
        super().apply(action)

    def clone(self) -> NativeState:
        return self.rules.wrap(self._native.clone())

    def scores(self) -> list[float]:
        return self._native.scores()

    def view(self, seat: int) -> PlayerView:
        if type(seat) is not int or not 0 <= seat < self.num_players:
            seat = self._check_seat(seat)
        return self._view(seat)

    def observation(self, seat: int) -> np.ndarray:
        if type(seat) is not int or not 0 <= seat < self.num_players:
            seat = self._check_seat(seat)
        return self._native.observation(seat)

    def to_dict(self) -> dict[str, Any]:
        return self._native.to_dict()

    def to_reference(self) -> State:
        """The same position on the Python engine."""
        return self.rules.reference.from_dict(self.to_dict())

    def describe_action(self, action: int) -> str:
        return self.to_reference().describe_action(action)

    def render_text(self, seat: int | None = None, legend: bool = True) -> str:
        return self.to_reference().render_text(seat, legend=legend)

    def render_rgb(self) -> np.ndarray:
        return self.to_reference().render_rgb()

    def playout(
        self,
        policy: str = "random",
        seed: int | None = None,
        depth: int = 0,
        epsilon: float = 0.0,
    ) -> int:
        policy, seed, depth, epsilon = check_playout_args(policy, seed, depth, epsilon)
        self._mask = None
        seed = secrets.randbits(63) if seed is None else seed
        if policy == "heuristic":
            return self._native.heuristic_playout(seed, depth, epsilon)
        return self._native.playout(seed, depth)

    # copies and pickles (multiprocessing, Ray) go through the snapshot
    def __copy__(self) -> NativeState:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> NativeState:
        return self.clone()

    def __reduce__(self) -> tuple:
        return (_from_snapshot, (self.rules.name, self.to_dict()))

    def __repr__(self) -> str:
        return f"<native {self.rules.name} state, seat {self.current_player} to decide>"


def _from_snapshot(game: str, data: dict[str, Any]) -> NativeState:
    from boardgame_envs.registry import make_rules

    return make_rules(game, engine="native").from_dict(data)


class NativeView:
    """Mixin for a game's native view: its ``observation()`` is encoded by the compiled
    engine from the position the view was taken of (``_source``, a native copy).

    ``class View(NativeView, PythonView): __slots__ = ("_source",)`` (the slot is declared
    by the game's class: two slotted bases cannot both add one)."""

    __slots__ = ()

    def observation(self) -> np.ndarray:
        return self._source.observation(self.seat)
