"""Tahiti on the compiled engine (``boardgame_envs._native.TahitiState``).

The same Rules (name, options, phases, encoding, renderer) as :mod:`.rules`, with positions,
masks, transitions, observations, snapshots and playouts computed natively; views are
:class:`.rules.View` objects built from the native position, so agents read them unchanged.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from boardgame_envs.core.native_state import NativeRules, NativeState, NativeView
from boardgame_envs.tahiti import rules as reference
from boardgame_envs.tahiti.rules import TahitiRules


class View(NativeView, reference.View):
    """A :class:`.rules.View` whose observation is encoded by the compiled engine."""

    __slots__ = ("_source",)


class State(NativeState):
    """One position of Tahiti on the compiled engine."""

    view_class = View
    no_actions = reference._NO_MASK

    def scores_known_to(self, seat: int) -> list[float]:
        if type(seat) is not int or not 0 <= seat < self.num_players:
            seat = self._check_seat(seat)
        return self._native.scores_known_to(seat)

    def _view_fields(self, seat: int, mask: np.ndarray) -> tuple:
        # a copy where no action is legal: the Python engine's views hold a writable one
        return (
            *self._native.view_fields(seat),
            mask if mask is not self.no_actions else mask.copy(),
        )


class Rules(NativeRules, TahitiRules):
    """Tahiti with the compiled engine."""

    native_class_name = "TahitiState"
    state_class = State

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        if seed is None:  # fresh entropy, as default_rng(None) draws it (128 bits)
            seed = secrets.randbits(128)
        return self.wrap(self.native_class.new_state(num_players, seed, config["max_rounds"]))
