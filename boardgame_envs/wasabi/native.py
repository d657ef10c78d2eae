"""Wasabi! on the native engine (``boardgame_envs._native.WasabiState``).

The Rules are the Python engine's (:class:`~.rules.WasabiRules`: the same name, options,
phases, encoding and renderer) with :class:`~boardgame_envs.core.native_state.NativeRules`
mixed in; positions, masks, moves, observations and snapshots are the compiled engine's,
held to the Python engine bit for bit by ``tests/native/test_wasabi.py``. Views are the
Python engine's :class:`~.rules.View`, filled from the compiled position.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs.core.native_state import NativeRules, NativeState, NativeView
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.wasabi import rules as reference

#: ``view_fields`` returns the View's fields without ``rules`` and ``mask``; the mask goes
#: after the first MASK_AT of them (View's field order).
MASK_AT = 35


class View(NativeView, reference.View):
    """The Python engine's view of a native position; ``observation()`` is encoded natively."""

    __slots__ = ("_source",)


class State(NativeState):
    """One position of the native engine."""

    view_class = View
    no_actions = reference._NO_ACTIONS

    def _view_fields(self, seat: int, mask: np.ndarray) -> tuple:
        fields = self._native.view_fields(seat)
        return (*fields[:MASK_AT], mask, *fields[MASK_AT:])

    def _score_keys(self) -> list[float]:
        """Score, then cubes; after an instant victory 1 for the winner, 0 for the others
        (the Python engine's ``_score_keys``)."""
        return self._native.score_keys()


class Rules(NativeRules, reference.WasabiRules):
    """Wasabi! for 2-4 players, on the native engine."""

    native_class_name = "WasabiState"
    state_class = State

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        start = config["start_player"]
        if start != "random" and start >= num_players:
            raise InvalidConfigError(
                f"option start_player={start!r} is not allowed with {num_players} players; "
                f"allowed: 'random' or 0..{num_players - 1}"
            )
        if seed is None:
            # What default_rng(None) seeds from: 128 bits of fresh entropy.
            seed = int(np.random.SeedSequence().entropy)
        native = self.native_class.new_state(
            num_players,
            seed,
            config["style_either_direction"],
            config["gift_excludes_maki"],
            config["hide_opponent_hands"],
            config["max_turns"],
            start,
        )
        return self.wrap(native)

    def position(self, num_players: int, **kwargs: Any) -> State:  # type: ignore[override]
        """:meth:`WasabiRules.position` built on the Python engine, loaded natively."""
        return self.from_reference(self.reference.position(num_players, **kwargs))
