"""The ``engine`` fixture: a test that uses it runs on the Python engine (the reference) and,
where the extension is built, again on the native one. It points ``RULES`` (of the helpers
and of the test's module) at that engine's Rules for the test's duration. A test may pick
one engine with ``@pytest.mark.parametrize("engine", ["python"], indirect=True)``."""

from __future__ import annotations

import pytest

from boardgame_envs import make_rules
from tests.cornucopia import helpers
from tests.native.lockstep import has_native


@pytest.fixture(params=["python", "native"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "native" and not has_native("cornucopia"):
        pytest.skip("the native cornucopia engine is not built")
    rules = make_rules("cornucopia", engine=request.param)
    monkeypatch.setattr(helpers, "RULES", rules)
    if hasattr(request.module, "RULES"):
        monkeypatch.setattr(request.module, "RULES", rules)
    return request.param
