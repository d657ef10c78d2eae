"""The ``engine`` fixture: a test module that uses it (``pytestmark =
pytest.mark.usefixtures("engine")``) runs each test on the Python engine (the reference) and
on the compiled one where it is built.

On the native engine the module's ``RULES`` and the helpers' ``RULES`` (what ``position``,
``random_game`` and ``first_state`` build on) are the native Rules for the test's duration.
A module lists in ``PYTHON_ONLY`` (test name -> why) the tests that read or edit the Python
engine's internals, or build positions a snapshot may not hold; those are skipped on the
native engine with that reason.
"""

from __future__ import annotations

import pytest

from boardgame_envs import make_rules
from boardgame_envs.core.native import native_games
from tests.carcassonne_castle import helpers

GAME = "carcassonne_castle"


@pytest.fixture(params=["python", "native"])
def engine(request, monkeypatch):
    name = request.param
    if name == "native":
        if GAME not in native_games():
            pytest.skip("carcassonne_castle is not compiled")
        why = getattr(request.module, "PYTHON_ONLY", {}).get(request.function.__name__)
        if why:
            pytest.skip(f"Python engine only: {why}")
        rules = make_rules(GAME, engine="native")
        monkeypatch.setattr(helpers, "RULES", rules)
        if hasattr(request.module, "RULES"):
            monkeypatch.setattr(request.module, "RULES", rules)
    return name
