"""The ``engine`` fixture: the scenario tests that use it run on the Python engine and, where
it is built, on the native one (``helpers.table`` then builds a lockstep :class:`Twin`)."""

from __future__ import annotations

import pytest

from tests.native.lockstep import has_native
from tests.wasabi import helpers

ENGINES = [
    "python",
    pytest.param(
        "native",
        marks=pytest.mark.skipif(not has_native("wasabi"), reason="no native wasabi engine"),
    ),
]


@pytest.fixture(params=ENGINES)
def engine(request, monkeypatch):
    monkeypatch.setattr(helpers, "ENGINE", request.param)
    return request.param


@pytest.fixture(params=ENGINES)
def rules(request):
    """Wasabi!'s Rules on each engine (contract-level tests)."""
    from boardgame_envs import make_rules

    return make_rules("wasabi", engine=request.param)
