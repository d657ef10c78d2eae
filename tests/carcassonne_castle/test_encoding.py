"""The observation tensor: layout, range, point of view; the picture and the text."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.carcassonne_castle import encoding as enc
from boardgame_envs.carcassonne_castle.castle import (
    CELL_GRID,
    LOCATION_PLANES,
    NO_SEGMENT,
    grid_of,
)
from boardgame_envs.carcassonne_castle.data import HOUSE_X2, TOWER_X2
from boardgame_envs.carcassonne_castle.render import render_rgb, save_png
from boardgame_envs.carcassonne_castle.rules import NUM_ACTIONS, PHASES, PLACE, View
from tests.carcassonne_castle.helpers import PASS, RULES, A, B, place, play, position

pytestmark = pytest.mark.usefixtures("engine")  # each test on both engines (conftest.py)


def at(channel: int, x: int, y: int) -> int:
    return channel * 132 + grid_of(x, y)


def test_layout_blocks_tile_the_tensor():
    vector = [
        (enc.TILE, 46),
        (enc.PHASE, 5),
        (enc.PENDING_MINE, 20),
        (enc.PENDING_OPP, 20),
        (enc.DOUBLING, 20),
        (enc.SCORES, 2),
        (enc.MY_TRACK, 100),
        (enc.OPP_TRACK, 100),
        (enc.STOCKED, 13),
        (enc.MY_WALL, 9),
        (enc.MY_USABLE, 9),
        (enc.OPP_WALL, 9),
        (enc.UNSEEN_WALL, 9),
        (enc.SUPPLY, 2),
        (enc.KEEP_SIZES, 2),
        (enc.STACK_SIZE, 1),
        (enc.STACK_COUNTS, 46),
        (enc.EXTRA_TURN, 1),
        (enc.DISCARDS, 1),
    ]
    offset = enc.VECTOR
    for start, size in vector:
        assert start == offset
        offset += size
    assert offset == enc.OBSERVATION_SIZE == 105 * 11 * 12 + 415 == 14275
    assert RULES.observation_shape == (14275,) and RULES.action_size == NUM_ACTIONS == 326


def test_shape_dtype_and_bounds_over_games():
    low, high = RULES.observation_bounds
    rng = np.random.default_rng(0)
    for seed in range(4):
        state = RULES.new_state(2, seed=seed)
        while True:
            for seat in (A, B):
                obs = state.view(seat).observation()
                assert obs.shape == (14275,) and obs.dtype == np.float32
                assert low <= obs.min() and obs.max() <= high
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))


def reference_observation(view: View) -> np.ndarray:
    """The observation written entry by entry from the module's tables, through the
    castle's queries only: slow and plain, to check the fast encoder against."""
    obs = np.zeros(enc.OBSERVATION_SIZE, dtype=np.float32)
    castle, me, opp = view.castle, view.seat, 1 - view.seat
    for g in range(132):
        obs[g : enc.MY_FOLLOWERS * 132 : 132] = LOCATION_PLANES[castle.code[g]]
        for s in range(12):
            root = castle.feature_at(g, s)
            if root == NO_SEGMENT:
                continue
            counts = castle.followers_on(root)
            obs[(enc.MY_FOLLOWERS + s) * 132 + g] = counts[me] / 6
            obs[(enc.OPP_FOLLOWERS + s) * 132 + g] = counts[opp] / 6
            obs[(enc.COMPLETE + s) * 132 + g] = castle.is_complete(root)
            obs[(enc.SIZE + s) * 132 + g] = castle.size[root] / 16
    for channel, seat in ((enc.MY_KEEP, me), (enc.OPP_KEEP, opp)):
        keep = view.keeps[seat]
        if keep is not None:
            obs[enc.KEEP_SIZES + (seat != me)] = keep[0] / 16
            for g in keep[1]:
                obs[channel * 132 + g] = 1
    if view.phase == PLACE and view.tile is not None:
        fits = castle.placement_mask(view.tile)
        for c, g in enumerate(CELL_GRID):
            for r in range(4):
                obs[(enc.LEGAL + r) * 132 + g] = fits[4 * c + r]
    if view.last_cell is not None:
        obs[enc.JUST_PLACED * 132 + CELL_GRID[view.last_cell]] = 1
    if view.tile is not None:
        obs[enc.TILE + view.tile] = 1
    if view.phase in PHASES:
        obs[enc.PHASE + PHASES.index(view.phase)] = 1
    mine = view.groups[0 if view.active == me else 1]
    theirs = view.groups[1 if view.active == me else 0]
    for base, names in ((enc.PENDING_MINE, mine), (enc.PENDING_OPP, theirs)):
        for name in names:
            obs[base + enc.pending_position(name)] = 1
    if view.doubling is not None:
        obs[enc.DOUBLING + enc.pending_position(view.doubling)] = 1
    for i, seat in enumerate((me, opp)):
        obs[enc.SCORES + i] = min(view.scores[seat], 1000) / 100
        obs[(enc.MY_TRACK, enc.OPP_TRACK)[i] + view.scores[seat] % 100] = 1
        obs[enc.SUPPLY + i] = view.supply[seat] / 6
    obs[enc.STOCKED : enc.STOCKED + 13] = view.stocked
    for k in range(1, 10):
        held_me, held_opp = view.held[me].count(k), view.held[opp].count(k)
        obs[enc.MY_WALL + k - 1] = held_me / 2
        obs[enc.MY_USABLE + k - 1] = view.usable.count(k) / 2
        obs[enc.OPP_WALL + k - 1] = held_opp / 2
        obs[enc.UNSEEN_WALL + k - 1] = (2 - held_me - held_opp - view.used.count(k)) / 2
    obs[enc.STACK_SIZE] = view.stack_size / 60
    obs[enc.STACK_COUNTS : enc.STACK_COUNTS + 46] = np.array(view.stack_counts) / 2
    obs[enc.EXTRA_TURN] = view.extra_turn
    obs[enc.DISCARDS] = len(view.discards) / 60
    return obs


def test_observation_equals_the_plain_reference_over_games():
    """Both seats, every step of seeded games (the fast encoder copies planes the castle
    keeps up to date, and writes the vector as counts divided in one call)."""
    for seed in range(6 if RULES.engine == "python" else 2):  # native: lockstep tests more
        state = RULES.new_state(2, seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            for seat in (A, B):
                view = state.view(seat)
                assert np.array_equal(view.observation(), reference_observation(view))
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))


def test_board_channels_of_example_3():
    state = position(("T19", 0, (4, 0)), followers={(4, 0): (A, 8)}, tile="T35", active=B)
    obs_a, obs_b = state.view(A).observation(), state.view(B).observation()
    assert obs_a[at(enc.PLAYABLE, 4, 0)] == 1 and obs_a[at(enc.NOT_PLAYABLE, 4, -1)] == 1
    assert obs_a[at(enc.GATE, 4, -1)] == 1 and obs_a[at(enc.OCCUPIED, 4, -1)] == 1
    assert obs_a[at(enc.OCCUPIED, 4, 0)] == 1 and obs_a[at(enc.OCCUPIED, 4, 1)] == 0
    assert obs_a[at(enc.AREA + 3 * 0 + 2, 4, 0)] == 1  # Na is court
    assert obs_a[at(enc.PATHS + 0, 4, 0)] == obs_a[at(enc.PATHS + 2, 4, 0)] == 1
    assert obs_a[at(enc.PATH_LINKS + 1, 4, 0)] == 1  # N-S joined
    assert obs_a[at(enc.FOUNTAIN + 0, 4, 0)] == 1
    # the path (slot 8): A's follower, size 2 (G1 + the tile), not complete
    assert obs_a[at(enc.MY_FOLLOWERS + 8, 4, 0)] == pytest.approx(1 / 6)
    assert obs_a[at(enc.OPP_FOLLOWERS + 8, 4, 0)] == 0
    assert obs_b[at(enc.OPP_FOLLOWERS + 8, 4, 0)] == pytest.approx(1 / 6)
    assert obs_a[at(enc.SIZE + 8, 4, 0)] == pytest.approx(2 / 16)
    assert obs_a[at(enc.SIZE + 10, 4, -1)] == pytest.approx(2 / 16)  # G1's path port S
    assert obs_a[at(enc.COMPLETE + 8, 4, 0)] == 0
    # the drawn tile, legal cells (public to both seats), phase, scores
    assert obs_a[enc.TILE + 34] == obs_b[enc.TILE + 34] == 1  # T35
    assert obs_a[at(enc.LEGAL + 2, 4, 1)] == obs_b[at(enc.LEGAL + 2, 4, 1)] == 1
    assert obs_a[at(enc.LEGAL + 0, 4, 1)] == 0
    assert obs_a[enc.PHASE + 0] == 1
    assert obs_a[enc.SUPPLY] == pytest.approx(5 / 6) and obs_b[enc.SUPPLY + 1] == pytest.approx(
        5 / 6
    )
    play(state, 30, PASS)  # the path completes: A scores 6
    obs_a = state.view(A).observation()
    assert obs_a[enc.SCORES] == pytest.approx(0.06) and obs_a[enc.MY_TRACK + 6] == 1
    assert obs_a[at(enc.COMPLETE + 8, 4, 0)] == 1
    assert obs_a[at(enc.SIZE + 8, 4, 0)] == pytest.approx(3 / 16)


def test_pending_doubling_and_wall_tile_blocks():
    state = position(
        ("T18", 0, (4, 0)),
        ("T07", 1, (5, 0)),
        followers={(5, 0): (A, 2)},
        tile="T07",
        held=[[TOWER_X2, HOUSE_X2], [HOUSE_X2]],
        corners={1: 9},
    )
    play(state, 19, PASS)  # DOUBLE for the tower, named 304 + 6 on (6,0)
    obs = state.view(A).observation()
    assert obs[enc.DOUBLING + 6] == 1 and obs[enc.PHASE + 3] == 1
    assert obs[enc.MY_WALL + 1] == 0.5 and obs[enc.MY_WALL + 2] == 0.5
    assert obs[enc.MY_USABLE + 1] == 0.5 and obs[enc.OPP_WALL + 2] == 0.5
    assert obs[enc.UNSEEN_WALL + 1] == 0.5 and obs[enc.UNSEEN_WALL + 2] == 0  # kind 3: both out
    assert obs[enc.STOCKED] == 1 and obs[enc.STOCKED + 1 : enc.STOCKED + 13].sum() == 0
    assert obs[at(enc.JUST_PLACED, 6, 0)] == 1
    assert state.view(B).observation()[enc.MY_USABLE : enc.MY_USABLE + 9].sum() == 0


def test_keep_channels():
    state = position(tile="T03", keeps=[(3, [(2, 0), (3, 0), (2, 1)]), None])
    obs_a, obs_b = state.view(A).observation(), state.view(B).observation()
    assert obs_a[at(enc.MY_KEEP, 3, 0)] == 1 and obs_b[at(enc.OPP_KEEP, 3, 0)] == 1
    assert obs_a[enc.KEEP_SIZES] == pytest.approx(3 / 16) and obs_b[enc.KEEP_SIZES + 1] > 0


def test_mask_zero_for_the_waiting_seat():
    state = RULES.new_state(2, seed=0)
    for seat in (A, B):
        assert state.view(seat).legal_action_mask().any() == (seat == state.current_player)


def test_view_shares_a_read_only_mask_and_hands_out_copies():
    state = RULES.new_state(2, seed=0)
    view = state.view(state.current_player)
    assert not view.mask.flags.writeable
    mask = view.legal_action_mask()
    mask[:] = False  # a copy: the state's mask is untouched
    assert state.legal_action_mask().any() and state.view(state.current_player).mask.any()


# -- pictures and text ---------------------------------------------------------------------
def test_picture_shape_and_it_changes_when_a_tile_is_placed(tmp_path):
    state = position(tile="T18")
    before = render_rgb(state)
    assert before.shape == (440, 680, 3) and before.dtype == np.uint8
    assert np.array_equal(state.render_rgb(), before)
    play(state, place(4, 0, 0))
    after = render_rgb(state)
    assert after.shape == before.shape and not np.array_equal(after, before)
    path = save_png(state, tmp_path / "castle.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_text_shows_the_position():
    state = position(("T19", 0, (4, 0)), followers={(4, 0): (A, 8)}, tile="T35", active=B)
    text = state.render_text(seat=B)
    assert "Carcassonne: The Castle" in text and "P1 to decide: place the drawn tile" in text
    assert "drawn tile T35" in text and "followers: P0 path (4,0) slot 8" in text
    assert "  7  " in text  # the legal cell (4,1) shows its index
    assert "C0~ C" in text  # (4,0): P0's follower, T19's fountain on the path
    assert " G1 " in text


def test_env_renders_a_picture():
    import boardgame_envs

    env = boardgame_envs.raw_env("carcassonne_castle", render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (440, 680, 3)
    assert "rgb_array" in env.metadata["render_modes"]
