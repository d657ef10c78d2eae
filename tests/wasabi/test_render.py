"""Text and picture renderings."""

from __future__ import annotations

import numpy as np
import pytest

import boardgame_envs
from boardgame_envs.core import image
from boardgame_envs.wasabi import data, render
from tests.wasabi.helpers import CARD, CELL, KIND, RULES, table


def test_text_shows_the_board_and_hides_other_recipes():
    state = table(
        2,
        board={(2, 3): "Salmon", (3, 1): "Tuna Salmon"},
        anchors=[(0, 0)],
        hands={0: "Rice Tuna"},
        menus={0: ["Salmon Nigiri"], 1: ["Lobster Feast"]},
    )
    text = state.render_text(0)
    lines = text.splitlines()
    assert lines[0].startswith(
        "Wasabi! · turn 1 · P0 to decide: D3 step 1: place, play a card or pass"
    )
    assert lines[1].split() == ["(r,c)", "0", "1", "2", "3", "4"]
    assert lines[4].split() == ["2", ".", ".", ".", "Sa", "."]
    assert lines[5].split() == ["3", ".", "Sa+1", ".", ".", "."]
    assert lines[2].split()[:3] == ["0", "[.]", "[.]"]
    assert "Salmon Nigiri (Salmon > Rice)" in text and "Lobster Feast" not in text
    assert "[0] length 5" in text
    assert "legal:" not in text  # the moves are listed once, by `play`'s numbered menu
    assert lines[-1].strip() == "> = the seat to decide"  # the legend closes the board
    assert "Lobster Feast" in state.render_text()  # everything when no seat is given
    assert "legal:" not in state.render_text(1)


def test_text_at_the_end_names_the_winners():
    state = table(2, max_turns=1, cubes={1: 2})
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    assert state.render_text().startswith("Wasabi! · game over (turn limit) · winners: P1")


BOARD = (
    slice(render.BOARD_TOP, render.BOARD_BOTTOM),
    slice(render.BOARD_LEFT, render.BOARD_LEFT + 7 * render.CELL),
)


def test_picture_shape_and_it_changes_when_a_tile_is_placed():
    for n in (2, 3, 4):
        picture = RULES.new_state(n, seed=0).render_rgb()
        assert picture.shape == (render.HEIGHT, render.WIDTH, 3) == (418, 730, 3)
        assert picture.dtype == np.uint8
    state = table(2, hands={0: "Rice"})
    before = state.render_rgb()
    state.apply(KIND("Rice"))
    assert np.array_equal(state.render_rgb()[BOARD], before[BOARD])  # nothing on the board yet
    state.apply(CELL(1, 3))
    after = state.render_rgb()
    changed = np.argwhere((after[BOARD] != before[BOARD]).any(axis=2))
    top, left = changed.min(axis=0)
    bottom, right = changed.max(axis=0)
    # On the board only the cell (1, 3) changed.
    cell_x, cell_y = 3 * render.CELL, 1 * render.CELL
    assert cell_x <= left and right < cell_x + render.CELL
    assert cell_y <= top and bottom < cell_y + render.CELL
    rice = np.array(render.KIND_COLOURS[0], dtype=np.uint8)
    assert (after[BOARD][cell_y + 10, cell_x + 6] == rice).all()


def test_picture_shows_wasabi_cards_and_stacks():
    state = table(2, board={(0, 0): "Rice Tuna"}, cards={0: "Wasabi!"}, hands={0: "Eel"})
    plain = state.render_rgb()[BOARD]
    state.apply(CARD("Wasabi!"))
    state.apply(CELL(2, 2))
    covered = state.render_rgb()[BOARD]
    block = (slice(2 * render.CELL, 4 * render.CELL),) * 2
    assert not np.array_equal(plain[block], covered[block])
    assert (covered[block][..., 1] >= covered[block][..., 0]).mean() > 0.9  # green tint
    # One white dot for the buried Rice under the Tuna at (0, 0).
    assert (plain[render.CELL - 8, 8] == 255).all()


def _seat_of(y: int) -> int:
    return (y - render.HEADER_H) // render.SEAT_H


def _in_panel(picture, text, colour=render.TEXT, scale=1):
    return [
        (x, y) for x, y in image.find_label(picture, text, colour, scale) if x >= render.PANEL_LEFT
    ]


def test_picture_names_each_seat_in_its_colour_and_marks_the_seat_to_move():
    state = table(3, active=1, cubes={2: 2})
    picture = state.render_rgb()
    for seat, name in enumerate(render.SEAT_NAMES[:3]):
        [(x, y)] = _in_panel(picture, f"P{seat} {name}", scale=2)
        assert _seat_of(y) == seat
        swatch = picture[y : y + 10, x - 16 : x - 8].reshape(-1, 3)
        assert render.SEAT_COLOURS[seat] in {tuple(c) for c in swatch}  # the legend
        marker = picture[y : y + 12, x - 30 : x - 20]
        assert (marker == render.TURN_MARKER).all(axis=-1).any() == (seat == 1)
        score = int(state.scores()[seat])
        assert seat in [_seat_of(y) for _, y in _in_panel(picture, f"score {score}", scale=2)]
    assert image.find_label(picture, "P1 blue to move", render.TEXT, 2)
    assert [_seat_of(y) for _, y in _in_panel(picture, "score 2", scale=2)] == [2]
    assert not image.find_label(picture, "winner", render.TEXT)


def test_the_turn_marker_moves_with_the_player_to_move():
    state = table(2, hands={0: "Rice"})
    marked = []
    while len(marked) < 2 or marked[-1] == marked[0]:
        picture = state.render_rgb()
        rows = np.argwhere(
            (picture[:, render.PANEL_LEFT + 8 : render.PANEL_LEFT + 16] == render.TURN_MARKER).all(
                axis=-1
            )
        )[:, 0]
        assert {_seat_of(y) for y in rows} == {state.current_player}
        marked.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert marked[0] != marked[-1]


def test_picture_at_the_end_names_the_winner():
    state = table(2, max_turns=1, cubes={1: 2})
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    picture = state.render_rgb()
    assert image.find_label(picture, "P1 blue wins", render.TEXT, 2)
    badges = image.find_label(picture, "winner", render.TEXT)
    assert [_seat_of(y) for _, y in badges] == [1] == state.winners()
    assert not (picture[:, render.PANEL_LEFT + 8 : render.PANEL_LEFT + 16] == 0).all(-1).any()


def test_ingredients_are_drawn_by_code_and_named_in_the_legend():
    picture = RULES.new_state(2, seed=0).render_rgb()
    inks = set()
    for kind in range(data.NUM_KINDS):
        x, y = render.legend_xy(kind)
        icon = picture[y : y + render.ICON, x : x + render.ICON]
        assert tuple(icon[2, 2]) == render.KIND_COLOURS[kind]
        ink = (icon == render._ink(render.KIND_COLOURS[kind])).all(axis=-1)
        assert ink.sum() > 10
        inks.add(ink.tobytes())
        assert image.find_label(picture, data.KIND_NAMES[kind], render.TEXT)
    assert len(inks) == data.NUM_KINDS  # every kind's letters differ, not only its colour
    assert len(set(render.KIND_CODES)) == data.NUM_KINDS


def test_picture_shows_hands_and_recipes_and_hides_what_a_seat_may_not_see():
    state = table(
        2,
        hands={0: "Rice Tuna", 1: "Eel"},
        cards={1: "Chop!"},
        menus={0: ["Salmon Nigiri"], 1: ["Lobster Feast"]},
        hide_opponent_hands=True,
    )
    full = state.render_rgb()  # the full state
    assert np.array_equal(full, render.render_rgb(state, None))
    for seat, code in ((0, "RI"), (0, "TU"), (1, "EE")):
        ink = render._ink(render.KIND_COLOURS[render.KIND_CODES.index(code)])
        assert seat in [_seat_of(y) for _, y in _in_panel(full, code, ink)]
    assert image.find_label(full, "Salmon Nigiri", render.TEXT)
    assert image.find_label(full, "Lobster Feast", render.TEXT)
    assert image.find_label(full, "cards: Chop!", render.TEXT)
    mine = render.render_rgb(state, 0)  # seat 0: its own menu and hand, not seat 1's
    assert image.find_label(mine, "Salmon Nigiri", render.TEXT)
    assert not image.find_label(mine, "Lobster Feast", render.TEXT)
    assert image.find_label(mine, "hidden, length 5", render.TEXT)
    assert not _in_panel(mine, "EE", render._ink(render.KIND_COLOURS[data.kind_id("Eel")]))
    assert [_seat_of(y) for _, y in _in_panel(mine, "?", image.BLACK)] == [1] * 6  # 1 + 5
    assert image.find_label(mine, "cards: 1 hidden", render.TEXT)
    assert image.find_label(mine, "P0 red (you)", render.TEXT, 2)
    with pytest.raises(ValueError):
        render.render_rgb(state, 2)


def test_save_png_writes_a_png(tmp_path):
    state = RULES.new_state(3, seed=1)
    path = render.save_png(state, tmp_path / "board.png")
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and b"IHDR" in data
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (render.WIDTH, render.HEIGHT)


def test_env_render_modes():
    env = boardgame_envs.raw_env("wasabi", num_players=3, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (render.HEIGHT, render.WIDTH, 3)
    assert "rgb_array" in env.metadata["render_modes"]
    env = boardgame_envs.raw_env("wasabi", num_players=2, render_mode="ansi")
    env.reset(seed=0)
    assert env.render().startswith("Wasabi!")
