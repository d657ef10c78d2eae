"""Every position a Tahiti test builds with ``helpers.position`` is replayed on the native
engine after the test, in lockstep with the Python engine (where the native one is built):
the actions the test played on it are recorded as they are applied."""

from __future__ import annotations

import pytest

from boardgame_envs.tahiti.rules import State
from tests.tahiti import helpers


@pytest.fixture(autouse=True)
def _replay_constructed_positions_natively(monkeypatch):
    helpers.RECORDED.clear()
    apply = State.apply

    def recording_apply(self: State, action: int) -> None:
        apply(self, action)
        entry = helpers.RECORDED.get(id(self))
        if entry is not None and entry[0] is self:
            entry[2].append(action)

    monkeypatch.setattr(State, "apply", recording_apply)
    yield
    recorded = list(helpers.RECORDED.values())
    helpers.RECORDED.clear()
    if helpers.HAS_NATIVE:
        for _, start, played in recorded:
            helpers.replay_natively(start, played)
