"""CodedRows: imitation observations at one byte a value, read back exactly."""

import numpy as np
import pytest

from boardgame_envs.registry import make_rules
from boardgame_envs.training.coded_rows import CODES, CodedRows


def test_rows_of_real_observations_come_back_exactly_at_a_quarter_of_the_memory():
    rules = make_rules("tahiti")
    state, rng, rows = rules.new_state(2, seed=3), np.random.default_rng(3), []
    while not state.is_terminal() and len(rows) < 60:
        rows.append(state.view(state.current_player).observation())
        state.apply(int(rng.choice(state.legal_actions())))
    coded = CodedRows()
    for row in rows:
        coded.append(row)
    assert len(coded) == len(rows)
    np.testing.assert_array_equal(coded[:], np.stack(rows))
    index = np.array([5, 0, 5, 59])
    np.testing.assert_array_equal(coded[index], np.stack(rows)[index])
    assert coded[index].dtype == np.float32
    assert coded.nbytes == len(rows) * rows[0].size  # one byte a value


def test_past_256_distinct_values_the_rows_fall_back_to_float32_still_exact():
    rows = [np.arange(100, dtype=np.float32) + 100 * k for k in range(4)]  # 400 values
    coded = CodedRows()
    for row in rows:
        coded.append(row)
    np.testing.assert_array_equal(coded[:], np.stack(rows))
    assert len(set(coded[:].ravel().tolist())) > CODES
    assert coded.nbytes == 4 * 100 * 4


def test_appending_after_reading_is_an_error():
    coded = CodedRows()
    coded.append(np.zeros(3))
    assert coded[:].shape == (1, 3)
    with pytest.raises(RuntimeError, match="frozen"):
        coded.append(np.zeros(3))
