"""The ``engine`` fixture: a test that takes it runs on the Python engine (the reference)
and, where it is built, on the compiled one."""

from __future__ import annotations

import pytest

from tests.factors_multiples.helpers import ENGINES


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    return request.param
