"""The label study (scripts/label_study.py): the search's departures from the heuristic, and
a network's agreement with held-out labels."""

import math

import pytest

from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.training.exit import train as exit_
from tests.test_endings import _script
from tests.test_expert_iteration import tiny

label_study = _script("label_study")


def test_a_search_that_is_the_heuristic_never_departs():
    study = label_study.search_repeatability("factors_multiples", "heuristic", 12, seed=5)
    assert study.positions == 12 and study.games >= 1
    assert study.departs == 0.0 and study.second_departs == 0.0
    assert math.isnan(study.repeated)  # no departure to repeat


def test_random_moves_depart_and_rarely_repeat():
    study = label_study.search_repeatability("wasabi", "random", 60, seed=5, share=1.0)
    assert study.departs > 0.5
    assert study.repeated < 0.6  # two random players seldom pick the same move
    assert 0.0 <= study.second_plays_heuristic <= 1.0


def test_held_out_agreement_reads_a_hinted_run(tmp_path):
    run = exit_.main(tiny(tmp_path, "wasabi", hint="heuristic", iterations=2))
    agreement = label_study.held_out_agreement(run)
    assert agreement.iteration == 2 and agreement.labels > 0
    assert 0.0 <= agreement.departures <= 1.0 and 0.0 <= agreement.agrees <= 1.0


def test_bad_study_arguments_are_refused(tmp_path):
    with pytest.raises(InvalidConfigError, match="give the game"):
        label_study.Args()
    with pytest.raises(InvalidConfigError, match="share"):
        label_study.Args(game="wasabi", share=0.0)
    with pytest.raises(InvalidConfigError, match="no replay"):
        label_study.held_out_agreement(tmp_path)


def test_equivalent_moves_count_as_the_same_move():
    # A Carcassonne position with a symmetric tile: its rotations are different actions that
    # leave the same position, and the study compares them as one move.
    from boardgame_envs import make_rules

    rules = make_rules("carcassonne_castle")
    for seed in range(40):
        state = rules.new_state(2, seed=seed)
        legal = state.view(state.current_player).legal_actions()
        same = label_study._same_move(state, legal, state.current_player)
        if len(set(same.values())) < len(legal):
            break
    else:
        pytest.fail("no opening with a symmetric tile in 40 deals")
    merged = [move for move in legal if same[move] != move]
    assert merged and all(same[same[move]] == same[move] for move in legal)
