"""The picture's side panel: seat legend, whose turn it is, the winner, labelled scores."""

from __future__ import annotations

import numpy as np

from boardgame_envs.carcassonne_castle import render
from boardgame_envs.core import image
from tests.carcassonne_castle.helpers import RULES

PANEL = render.GRID_W * render.TILE_PX  # x where the side panel starts


def _in_panel(picture, text, scale=1):
    hits = image.find_label(picture, text, render.TEXT, scale)
    return [(x, y) for x, y in hits if x >= PANEL]


def _seat_of(y: int) -> int:
    return (y - render.SEATS_TOP + 2) // render.SEAT_H


def _marked_seats(picture) -> set[int]:
    """Seats whose name line has the turn marker (a triangle left of the swatch)."""
    marks = (picture[:, PANEL + 10 : PANEL + 18] == render.TEXT).all(axis=-1)
    return {s for s in range(2) if marks[render.seat_top(s) : render.seat_top(s) + 11].any()}


def _played(seed: int, steps: int | None):
    state = RULES.new_state(2, seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal() and (steps is None or steps > 0):
        state.apply(int(rng.choice(state.legal_actions())))
        steps = None if steps is None else steps - 1
    return state


def test_panel_names_each_seat_in_its_colour_with_a_labelled_score():
    state = _played(1, 30)
    picture = render.render_rgb(state)
    assert picture.shape == (440, 680, 3)
    for seat, name in enumerate(render.SEAT_NAMES):
        [(x, y)] = _in_panel(picture, f"P{seat} {name}")
        assert _seat_of(y) == seat
        swatch = {tuple(c) for c in picture[y : y + 8, x - 14 : x - 6].reshape(-1, 3)}
        assert render.SEAT_COLOURS[seat] in swatch  # the legend
        score_rows = [_seat_of(y) for _, y in _in_panel(picture, f"score {state.scores_[seat]}")]
        assert seat in score_rows
        assert seat in [_seat_of(y) for _, y in _in_panel(picture, "followers")]
        assert seat in [_seat_of(y) for _, y in _in_panel(picture, "wall tiles")]
    for label in ("score track (mod 100)", "tower", "house", "court", "1 extra turn"):
        assert _in_panel(picture, label), label


def test_the_turn_marker_and_headline_follow_the_player_to_move():
    state = RULES.new_state(2, seed=2)
    rng = np.random.default_rng(2)
    seen = []
    for _ in range(12):
        picture = render.render_rgb(state)
        p = state.current_player
        assert _marked_seats(picture) == {p}
        if len(seen) < 3 or p not in seen:
            assert _in_panel(picture, f"P{p} to move", 2)
            assert not _in_panel(picture, "winner")
        seen.append(p)
        state.apply(int(rng.choice(state.legal_actions())))
    assert set(seen) == {0, 1}


def test_at_the_end_the_winner_is_named_and_no_one_is_to_move():
    for seed in range(3):
        state = _played(seed, None)
        picture = render.render_rgb(state)
        winners = state.winners()
        assert _marked_seats(picture) == set()
        assert [_seat_of(y) for _, y in _in_panel(picture, "winner")] == winners
        if len(winners) == 1:
            w = winners[0]
            assert _in_panel(picture, f"P{w} {render.SEAT_NAMES[w]} wins", 2)
            assert tuple(picture[12, PANEL + 14]) == render.SEAT_COLOURS[w]
        else:
            assert _in_panel(picture, "draw", 2)
        assert _in_panel(picture, f"game over after turn {state.turn}")
