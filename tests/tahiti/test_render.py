"""Text and picture renderings."""

from __future__ import annotations

import numpy as np

import boardgame_envs
from boardgame_envs.core import image
from boardgame_envs.tahiti import render
from boardgame_envs.tahiti.rules import END
from tests.tahiti.helpers import RULES, goods, position


def test_text_shows_the_board_and_the_players():
    state = position(4, canoes={0: (1, -1)}, cargo={0: goods("fish")}, cubes={"I01": "B"})
    text = state.render_text(seat=0)
    assert text.startswith("Tahiti · round 1 · P0 to decide · take actions")
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
    assert "round limit reached (truncated) after 1 round · winners: P1" in text


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
    assert env.render().startswith("Tahiti · round 1 · ")


def _in_panel(picture, text, scale=1, top=0):
    hits = image.find_label(picture, text, render.TEXT, scale)
    return [(x, y) for x, y in hits if x >= render.BOARD_WIDTH and y >= top]


def _seat_of(y: int) -> int:
    return (y - render.PANEL_SEATS_TOP + 4) // render.SEAT_H


def _marked_seats(picture) -> set[int]:
    x = render.BOARD_WIDTH + 10
    rows = np.argwhere((picture[:, x : x + 8] == render.TEXT).all(axis=-1))[:, 0]
    top = render.PANEL_SEATS_TOP
    # the first line of each seat's block (its name line), left of the colour swatch
    return {
        _seat_of(y)
        for y in rows
        if top <= y < render.seat_top(4) and (y - top) % render.SEAT_H < 13
    }


def test_panel_names_each_seat_in_its_colour_and_marks_the_seat_to_move():
    state = RULES.new_state(4, seed=0)
    picture = state.render_rgb()
    for seat, name in enumerate(render.SEAT_NAMES):
        [(x, y)] = _in_panel(picture, f"P{seat} {name}", 2, top=render.PANEL_SEATS_TOP - 4)
        assert _seat_of(y) == seat
        swatch = {tuple(c) for c in picture[y : y + 10, x - 16 : x - 8].reshape(-1, 3)}
        assert render.SEAT_COLOURS[seat] in swatch  # the legend
        score = int(state.scores()[seat])
        assert seat in [_seat_of(y) for _, y in _in_panel(picture, f"score {score}")]
    p = state.current_player
    assert _in_panel(picture, f"P{p} {render.SEAT_NAMES[p]} to move", 2)
    assert not _in_panel(picture, "winner")
    seen = []
    for _ in range(20):
        assert _marked_seats(state.render_rgb()) == {state.current_player}
        seen.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert len(set(seen)) > 1  # the marker moved with the player to move


def test_panel_at_the_end_names_the_winner():
    state = position(2, turn=1, config={"max_rounds": 1}, charts={1: goods("fish")})
    state.apply(END)
    picture = state.render_rgb()
    assert _in_panel(picture, "P1 blue wins", 2)
    assert [_seat_of(y) for _, y in _in_panel(picture, "winner")] == [1] == state.winners()
    assert _marked_seats(picture) == set()
    assert _in_panel(picture, "round limit (truncated) after 1 rounds")
    for label in ("cargo", "chart", "goods", "reef", "haumea", "depletion", "fishing bonus"):
        assert _in_panel(picture, label), label
