"""Marks every test that runs on the native engine (a parameter or fixture param "native")
with ``native``, so that ``make test-sanitize`` (``-m native``) runs them all under the
sanitizers, the scenario tests of each game included."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "native" in callspec.params.values():
            item.add_marker(pytest.mark.native)
