"""Text and picture renderings."""

from __future__ import annotations

import numpy as np

import boardgame_envs
from boardgame_envs.tahiti import render
from boardgame_envs.tahiti.rules import END
from tests.tahiti.helpers import RULES, goods, position


def test_text_shows_the_board_and_the_players():
    state = position(4, canoes={0: (1, -1)}, cargo={0: goods("fish")}, cubes={"I01": "B"})
    text = state.render_text(seat=0)
    assert text.startswith("Tahiti · round 1/1000 · P0 to decide · ACTION")
    assert "I01 cB" in text  # coconut space empty, banana cube present
    assert "HOME" in text and "W1" in text and "reefs: HOME NE/NW/SW/SE" in text
    assert "P0 (you): canoe at I01 (1, -1)" in text and "favourite F1 (coconut, banana)" in text
    assert "favourite F2" not in text  # another seat's secret tile
    assert state.describe_action(4) == "paddle SW to HOME, 2 reefs"  # listed by the CLI
    assert "favourite F2" in state.render_text()  # everything when no seat is given


def test_text_of_a_finished_game():
    state = position(2, turn=1, config={"max_rounds": 1}, charts={1: goods("fish")})
    state.apply(END)
    text = state.render_text()
    assert "round limit reached (truncated) after 1 rounds · winners: P1" in text


def test_picture_shape_and_it_changes_when_a_canoe_moves():
    state = RULES.new_state(3, seed=0)
    while state.phase != "ACTION":
        state.apply(state.legal_actions()[0])
    picture = state.render_rgb()
    assert picture.shape == (render.HEIGHT, render.WIDTH, 3) == (560, 880, 3)
    assert picture.dtype == np.uint8
    paddle = next(a for a in state.legal_actions() if a < 6)
    state.apply(paddle)
    moved = state.render_rgb()
    assert moved.shape == picture.shape and not np.array_equal(moved, picture)
    # the change is on the board, where the canoe was and now is, not only in the panel
    assert not np.array_equal(moved[:, : render.BOARD_WIDTH], picture[:, : render.BOARD_WIDTH])


def test_picture_shows_the_pieces_in_their_colours():
    state = position(4, tokens={"I03": "plain"}, cubes={"I01": "CB", "I02": "TS", "I04": "BS"})
    picture = state.render_rgb()
    colours = {tuple(c) for c in picture.reshape(-1, 3)[::7]}
    for colour in (*render.GOODS_COLOURS[:4], render.REEF, render.HAUMEA, render.TOKEN):
        assert colour in colours
    assert render.SEAT_COLOURS[0] in colours and render.SEA in colours


def test_save_png(tmp_path):
    state = RULES.new_state(2, seed=1)
    path = render.save_png(state, tmp_path / "tahiti.png")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000
    assert int.from_bytes(data[16:20], "big") == 880 and int.from_bytes(data[20:24], "big") == 560


def test_env_renders_rgb_array_and_ansi():
    env = boardgame_envs.raw_env("tahiti", num_players=2, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (560, 880, 3)
    assert "rgb_array" in env.metadata["render_modes"]
    env = boardgame_envs.raw_env("tahiti", num_players=2, render_mode="ansi")
    env.reset(seed=0)
    assert env.render().startswith("Tahiti · round 1/1000")
