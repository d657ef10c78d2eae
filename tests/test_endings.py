"""scripts/endings.py: agents finishing the same endings."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from boardgame_envs.core.rules import InvalidConfigError


def _script(name: str) -> ModuleType:
    """``scripts/<name>.py``, a study outside the package, imported by its path."""
    path = Path(__file__).resolve().parents[1] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look a class's module up here
    spec.loader.exec_module(module)
    return module


endings = _script("endings")


def _outcome(ending: endings.Ending) -> tuple:
    return ending.win, ending.margin, ending.decisions  # not the seconds: those vary


def test_every_agent_finishes_the_same_position():
    args = endings.Args(turns_left=3, games=3, agents="heuristic,random,heuristic")
    results = endings.main(args)
    assert len(results) == 3 and all(len(game) == 3 for game in results)
    # the same agent at the same seed finishes the same ending the same way
    assert all(_outcome(game[0]) == _outcome(game[2]) for game in results)
    assert all(game[0].decisions >= 1 for game in results)


def test_only_the_ending_is_played_by_the_agents():
    task = ("carcassonne_castle", ["heuristic"], "random", 2, 2, 5, 1)
    (ending,) = endings.play_endings(task)
    # two tiles at most, one of them the seat's: a handful of decisions, not a game's 60
    assert 1 <= ending.decisions <= 6


def test_report_pairs_every_agent_with_the_first():
    same = endings.Ending(win=1.0, margin=4.0, decisions=2, seconds=0.2)
    worse = endings.Ending(win=0.0, margin=-2.0, decisions=2, seconds=0.4)
    table = endings.report(["a", "b"], [[same, worse], [same, same]])
    row = table.splitlines()[3]
    assert row.startswith("| `b` | 2 | 0.500 |")
    assert "-0.500 ± 0.500" in row and "-3.00 ± 3.00" in row and "0.150" in row


def test_a_game_without_a_turn_count_is_refused():
    with pytest.raises(InvalidConfigError, match="does not count its turns left; allowed"):
        endings.Args(game="factors_multiples")


def test_a_bad_agent_fails_before_any_game(capsys):
    with pytest.raises(InvalidConfigError, match="unknown"):
        endings.main(endings.Args(agents="heuristic,ismcts:speed=3", games=1))
    assert capsys.readouterr().out == ""
