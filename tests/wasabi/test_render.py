"""Text and picture renderings."""

from __future__ import annotations

import numpy as np

import boardgame_envs
from boardgame_envs.wasabi import render
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
    assert lines[0].startswith("Wasabi! · turn 1/250 · P0 to decide: D3 STEP1_START")
    assert lines[1].split() == ["0", "1", "2", "3", "4"]
    assert lines[4].split() == ["2", ".", ".", ".", "Sa", "."]
    assert lines[5].split() == ["3", ".", "Sa+1", ".", ".", "."]
    assert lines[2].split()[:3] == ["0", "[.]", "[.]"]
    assert "Salmon Nigiri (Salmon > Rice)" in text and "Lobster Feast" not in text
    assert "[0] length 5" in text
    assert "legal: 42 place Rice; 45 place Tuna; 68 discard the recipe in slot 0" in text
    assert "Lobster Feast" in state.render_text()  # everything when no seat is given
    assert "legal:" not in state.render_text(1)


def test_text_at_the_end_names_the_winners():
    state = table(2, max_turns=1, cubes={1: 2})
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    assert state.render_text().startswith("Wasabi! · game over (turn limit) · winners: P1")


def test_picture_shape_and_it_changes_when_a_tile_is_placed():
    for n in (2, 3, 4):
        picture = RULES.new_state(n, seed=0).render_rgb()
        assert picture.shape == (render.HEIGHT, render.WIDTH, 3) and picture.dtype == np.uint8
    state = table(2, hands={0: "Rice"})
    before = state.render_rgb()
    state.apply(KIND("Rice"))
    assert np.array_equal(state.render_rgb(), before)  # nothing on the board yet
    state.apply(CELL(1, 3))
    after = state.render_rgb()
    changed = np.argwhere((after != before).any(axis=2))
    top, left = changed.min(axis=0)
    bottom, right = changed.max(axis=0)
    # Only the cell (1, 3) changed (and the seats' panel stays the same: no score).
    cell_x = render.MARGIN + 3 * render.CELL
    cell_y = render.MARGIN + 1 * render.CELL
    assert cell_x <= left and right < cell_x + render.CELL
    assert cell_y <= top and bottom < cell_y + render.CELL
    rice = np.array(render.KIND_COLOURS[0], dtype=np.uint8)
    assert (after[cell_y + 10, cell_x + 6] == rice).all()


def test_picture_shows_wasabi_cards_and_stacks():
    state = table(2, board={(0, 0): "Rice Tuna"}, cards={0: "Wasabi!"}, hands={0: "Eel"})
    plain = state.render_rgb()
    state.apply(CARD("Wasabi!"))
    state.apply(CELL(2, 2))
    covered = state.render_rgb()
    block = (slice(render.MARGIN + 2 * render.CELL, render.MARGIN + 4 * render.CELL),) * 2
    assert not np.array_equal(plain[block], covered[block])
    assert (covered[block][..., 1] >= covered[block][..., 0]).mean() > 0.9  # green tint
    # One white dot for the buried Rice under the Tuna at (0, 0).
    y, x = render.MARGIN + render.CELL - 8, render.MARGIN + 8
    assert (plain[y, x] == 255).all()


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
