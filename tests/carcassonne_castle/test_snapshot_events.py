"""A snapshot's event log holds texts only: ``None`` among the events is refused by both
engines, as any other non-text is (the check once let ``None`` through: it was the sentinel of
its search for a bad entry)."""

from __future__ import annotations

import json

import pytest

from boardgame_envs import make_rules
from boardgame_envs.core.native import native_games
from boardgame_envs.core.rules import InvalidStateError
from tests.carcassonne_castle import helpers

GAME = "carcassonne_castle"


def snapshot_with_events(events: list) -> dict:
    data = helpers.random_game(3)[20].to_dict()  # a game under way
    data["events"] = [*data["events"], *events]
    return data


@pytest.mark.parametrize("events", [[None], [None, "P0 passes"], ["turn 9: P0", None]])
def test_none_among_the_events_is_refused(engine, events):
    data = snapshot_with_events(events)
    with pytest.raises(InvalidStateError, match="events: None is not a text"):
        helpers.RULES.from_dict(data)
    with pytest.raises(InvalidStateError, match="events: None is not a text"):
        helpers.RULES.from_json(json.dumps(data))


def test_texts_among_the_events_still_load(engine):
    data = snapshot_with_events(["anything", ""])
    assert helpers.RULES.from_dict(data).to_dict()["events"] == data["events"]


@pytest.mark.native
@pytest.mark.skipif(GAME not in native_games(), reason="carcassonne_castle is not compiled")
def test_the_compiled_reader_refuses_none_itself():
    """The native snapshot reader checks every value again: None is no event there either."""
    rules = make_rules(GAME, engine="native")
    data = snapshot_with_events([None])
    with pytest.raises(TypeError, match="events: not a str"):
        rules.native_class.from_dict(data)
