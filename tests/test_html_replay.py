"""The HTML replay viewer (training/records/html_replay.py) without a browser, and the pictures it
shows: the page is one file that needs nothing from the network, it holds every frame of
the game from every view, a frame rebuilt from the page is the game's own picture, and a
seat's frames show only what that seat could see. tests/test_html_viewer_browser.py runs
the page in headless Chromium."""

from __future__ import annotations

import base64
import json
import re
import struct
import zlib

import numpy as np
import pytest

from boardgame_envs.agents.specs import make_agent
from boardgame_envs.core import image
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_rules, raw_env
from boardgame_envs.training.records.game_records import play_recorded_game, replay_states
from boardgame_envs.training.records.html_replay import render_html, viewer_data, write_html

FM_OPTIONS = {"rounds": 1}


# -- helpers: read a page back ----------------------------------------------------------------
def decode_png(data: bytes) -> np.ndarray:
    """The pixels of a PNG written by ``boardgame_envs.core.image.png_bytes`` (8-bit RGB or
    indexed, no interlace, filter 0 on every row)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    idat = b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        assert (
            zlib.crc32(kind + body)
            == struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])[0]
        )
        if kind == b"IDAT":
            idat += body
        else:
            chunks[kind] = body
        pos += 12 + length
    width, height, depth, colour_type = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert depth == 8 and colour_type in (2, 3)
    per_pixel = 3 if colour_type == 2 else 1
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + width * per_pixel)
    assert not rows[:, 0].any(), "filter 0 on every row"
    pixels = rows[:, 1:]
    if colour_type == 2:
        return pixels.reshape(height, width, 3)
    palette = np.frombuffer(chunks[b"PLTE"], np.uint8).reshape(-1, 3)
    return palette[pixels]


def page_data(page: str) -> dict:
    found = re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S
    )
    assert found, "the page embeds its data"
    return json.loads(found.group(1).replace("<\\/", "</"))


class Pictures:
    """Rebuilds the page's pictures as its script does."""

    def __init__(self, data: dict) -> None:
        self.data = data
        self.built: dict[int, np.ndarray] = {}

    def png(self, k: int) -> np.ndarray:
        return decode_png(base64.b64decode(self.data["pngs"][k]))

    def __getitem__(self, picture_id: int) -> np.ndarray:
        if picture_id not in self.built:
            spec = self.data["pictures"][picture_id]
            if "base" not in spec:
                self.built[picture_id] = self.png(spec["png"])
            else:
                picture = self[spec["base"]].copy()
                atlas = self.png(spec["png"])
                for x, y, w, h, top in spec["patches"]:
                    picture[y : y + h, x : x + w] = atlas[top : top + h, :w]
                self.built[picture_id] = picture
        return self.built[picture_id]


def text_of(data: dict, text_id: int) -> str:
    return "\n".join(data["lines"][line] for line in data["texts"][text_id])


def play(game: str, n: int, seed: int, agent: str = "random", options=None) -> dict:
    agents = [make_agent(agent, game, seed=seed + s) for s in range(n)]
    record, _ = play_recorded_game(game, agents, [agent] * n, seed, n, options)
    return record


def fm_record_with_hidden_discard() -> dict:
    """A short Factors and Multiples game (one round, 2 players) in which P1 discards a card
    face down (after an A), so that P0's view has a hidden move."""
    for seed in range(100):
        record = play("factors_multiples", 2, seed, options=FM_OPTIONS)
        states = replay_states(record, engine="python")
        if any(
            s.phase == "A_DISCARD" and s.current_player == 1 and len(s.legal_actions()) > 1
            for s in states[:-1]
        ):
            return record
    raise AssertionError("no game with a discard by P1 in 100 seeds")


@pytest.fixture(scope="module")
def fm_record() -> dict:
    return fm_record_with_hidden_discard()


@pytest.fixture(scope="module")
def fm_page(fm_record) -> str:
    return render_html(fm_record, seat=1)  # opens on seat 1's view


# -- the page ---------------------------------------------------------------------------------
def test_the_page_is_one_file_that_needs_no_network(fm_record, fm_page, tmp_path):
    for outside in ("http://", "https://", "<link", "<script src", "<img", "url(", "@import"):
        assert outside not in fm_page
    assert fm_page.startswith("<!DOCTYPE html>") and fm_page.rstrip().endswith("</html>")
    path = write_html(fm_record, tmp_path / "sub" / "game.html", seat=1)
    assert path.read_text(encoding="utf-8") == fm_page
    assert [p.name for p in (tmp_path / "sub").iterdir()] == ["game.html"]


def test_the_page_holds_every_frame_from_every_view(fm_record, fm_page):
    data = page_data(fm_page)
    states = replay_states(fm_record, engine="python")
    assert data["views"] == ["everything (spectator)", "P0 (random)", "P1 (random)"]
    assert data["viewSeats"] == [None, 0, 1]
    assert data["firstView"] == 2
    pictures = Pictures(data)
    for v, view in enumerate(data["viewSeats"]):
        frames = data["frames"][v]
        assert len(frames) == len(fm_record["actions"]) + 1
        for state, (picture_id, text_id, scores_id) in zip(states, frames):
            assert text_of(data, text_id) == state.render_text(view, legend=False)
            assert data["scores"][scores_id] == [f"{x:g}" for x in state.scores()]
            expected = state.rules.renderer.render_rgb(state, view)
            assert np.array_equal(pictures[picture_id], expected)
    assert data["deciders"] == [s.current_player for s in states]
    assert data["movers"] == [s.current_player for s in states[:-1]]
    spectator = [data["moveTexts"][m] for m in data["moves"][0]]
    assert spectator == [s.describe_action(a) for s, a in zip(states, fm_record["actions"])]
    assert data["winners"] == fm_record["winners"]
    assert data["legend"] == states[0].rules.renderer.legend_lines()


def test_a_card_discarded_face_down_stays_hidden_from_the_other_seat(fm_record, fm_page):
    data = page_data(fm_page)
    states = replay_states(fm_record, engine="python")
    discards = [
        step
        for step, state in enumerate(states[:-1])
        if state.phase == "A_DISCARD" and state.current_player == 1
    ]
    assert discards
    for step in discards:
        spectator, seat0, seat1 = (data["moveTexts"][data["moves"][v][step]] for v in range(3))
        described = states[step].describe_action(fm_record["actions"][step])
        assert spectator == seat1 == described  # "discard 5": the mover knows its card
        if len(states[step].legal_actions()) > 1:
            assert seat0 == "discard (hidden from P0)"


def test_a_page_of_one_seat_holds_nothing_else(fm_record):
    data = viewer_data(fm_record, views=[1])
    states = replay_states(fm_record, engine="python")
    assert data["viewSeats"] == [1] and len(data["frames"]) == 1
    everything = {state.render_text(None, legend=False) for state in states}
    texts = {text_of(data, t) for _, t, _ in data["frames"][0]}
    assert texts == {state.render_text(1, legend=False) for state in states}
    assert not texts & (everything - texts)
    assert data["firstView"] == 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"views": [0, 2]},
            "view 2 is not allowed; allowed: None \\(everything\\) or seats 0 to 1",
        ),
        ({"views": [0, 0]}, "view 0 is given twice"),
        ({"views": []}, "views is empty"),
        ({"views": [0], "seat": 1}, "seat=1 is not one of the page's views; allowed: seat 0"),
        ({"views": [True]}, "view True is not allowed"),
    ],
)
def test_bad_views_are_refused_saying_what_is_allowed(fm_record, kwargs, message):
    with pytest.raises(InvalidConfigError, match=message):
        render_html(fm_record, **kwargs)


# -- hidden information: a seat's frames depend on what it sees, nothing else -----------------
def _seat_frame(state, seat):
    from boardgame_envs.training.records.html_replay import _picture_function, _score_texts

    draw, _ = _picture_function(state.rules.renderer)
    return (
        state.render_text(seat, legend=False),
        _score_texts(state.rules.renderer, state, seat),
        draw(state, seat),
    )


@pytest.mark.parametrize(
    "game, n",
    [
        ("factors_multiples", 3),
        ("cornucopia", 4),
        ("wasabi", 2),
        ("tahiti", 3),
        ("carcassonne_castle", 2),
    ],
)
def test_a_seat_frame_is_the_same_whatever_the_seat_cannot_see(game, n):
    """Resample everything a seat cannot see (``rules.sample_state`` of its view): its text,
    scores and picture stay the same; so the page's frames for that seat hold no hidden
    fact (another seat's cards, bets, recipes, favourite tile, the order of a stack)."""
    rules = make_rules(game, engine="python")
    state = rules.new_state(n, seed=7)
    rng = np.random.default_rng(7)
    step, checked = 0, 0
    while not state.is_terminal() and checked < 6:
        if step % 9 == 4:
            for seat in range(n):
                seen = _seat_frame(state, seat)
                other = _seat_frame(rules.sample_state(state.view(seat), rng), seat)
                assert seen[0] == other[0], f"{game} step {step}: seat {seat}'s text"
                assert seen[1] == other[1], f"{game} step {step}: seat {seat}'s scores"
                assert np.array_equal(seen[2], other[2]), f"{game} step {step}: picture"
            checked += 1
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
        step += 1
    assert checked


def test_tahiti_shows_other_seats_scores_without_their_secret_bonus():
    from boardgame_envs.tahiti.render import score_texts
    from boardgame_envs.tahiti.rules import favourite_bonus

    rules = make_rules("tahiti", engine="python")
    state = rules.new_state(3, seed=1)
    rng = np.random.default_rng(0)
    while not any(favourite_bonus(state.charts, state.favourites)[1:]):
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    assert not state.is_terminal()
    shown = score_texts(state, 0)
    assert shown[0] == str(int(state.scores()[0]))
    for s in (1, 2):
        chart = state.charts[s]
        assert shown[s] == f"{sum(chart) + rules.renderer.SET_BONUS[min(chart)]}+?"
    assert f"score {shown[1]}" in state.render_text(0)
    assert score_texts(state, None) == [str(int(x)) for x in state.scores()]
    state.playout(seed=0)
    assert score_texts(state, 0) == [str(int(x)) for x in state.scores()]


# -- the pictures of Factors and Multiples and Cornucopia -------------------------------------
@pytest.mark.parametrize("game", ["factors_multiples", "cornucopia"])
def test_pictures_have_one_sane_size_for_every_table(game):
    rules = make_rules(game, engine="python")
    renderer = rules.renderer
    for n in range(2, 6):
        state = rules.new_state(n, seed=n)
        state.playout(seed=n, depth=15)
        for seat in (None, *range(n)):
            picture = renderer.render_rgb(state, seat)
            assert picture.dtype == np.uint8
            assert picture.shape == (renderer.PIC_HEIGHT, renderer.PIC_WIDTH, 3)
        assert 400 <= renderer.PIC_WIDTH <= 1000 and 300 <= renderer.PIC_HEIGHT <= 700
        last = f"P{n - 1} {renderer.PIC_SEAT_NAMES[n - 1]}"
        assert image.find_label(renderer.render_rgb(state), last, renderer.PIC_TEXT, 2)
        mine = renderer.render_rgb(state, 0)
        assert image.find_label(mine, "P0 red (you)", renderer.PIC_TEXT, 2)
        assert np.array_equal(state.render_rgb(), renderer.render_rgb(state, None))
    with pytest.raises(InvalidConfigError, match="seat=5 is not allowed"):
        renderer.render_rgb(state, 5)


def test_factors_multiples_picture_hides_the_other_hands():
    rules = make_rules("factors_multiples", engine="python")
    renderer = rules.renderer
    state = rules.new_state(2, seed=3)
    full, mine = renderer.render_rgb(state, None), renderer.render_rgb(state, 0)
    hand_rows = slice(
        renderer.PIC_SEAT_TOP + renderer.PIC_SEAT_H, renderer.PIC_SEAT_TOP + 2 * renderer.PIC_SEAT_H
    )
    assert not np.array_equal(full[hand_rows], mine[hand_rows])  # P1's hand face down
    p0_rows = slice(renderer.PIC_SEAT_TOP + 14, renderer.PIC_SEAT_TOP + renderer.PIC_SEAT_H)
    hand_x = slice(renderer.PIC_MARGIN + renderer.HAND_LEFT, renderer.PIC_WIDTH)
    assert np.array_equal(full[p0_rows, hand_x], mine[p0_rows, hand_x])  # its own hand shows


def test_cornucopia_picture_hides_a_bet_until_the_reveal():
    rules = make_rules("cornucopia", engine="python")
    renderer = rules.renderer
    for seed in range(20):
        state = rules.new_state(3, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal() and not (state.phase == "BET" and state.bet_index == 1):
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        if not state.is_terminal():
            break
    bettor = state.bet_order[0]
    side, stake = state.bets[bettor]
    words = f"bet {('YES', 'NO')[side]} {stake} (to stake)"
    other = state.current_player
    assert image.find_label(renderer.render_rgb(state, None), words, renderer.PIC_TEXT)
    assert image.find_label(renderer.render_rgb(state, bettor), words, renderer.PIC_TEXT)
    seen = renderer.render_rgb(state, other)
    assert not image.find_label(seen, words, renderer.PIC_TEXT)
    assert image.find_label(seen, "bet made (secret)", renderer.PIC_TEXT)


@pytest.mark.parametrize("game", ["factors_multiples", "cornucopia"])
def test_the_env_renders_an_rgb_array(game):
    env = raw_env(game, num_players=3, render_mode="rgb_array")
    env.reset(seed=0)
    picture = env.render()
    assert "rgb_array" in env.metadata["render_modes"]
    assert picture.shape == (
        env.unwrapped.rules.renderer.PIC_HEIGHT,
        env.unwrapped.rules.renderer.PIC_WIDTH,
        3,
    )


# -- the PNG encoder ------------------------------------------------------------------------
def test_png_bytes_round_trip_indexed_and_rgb():
    rng = np.random.default_rng(0)
    few = rng.integers(0, 4, size=(9, 13, 3), dtype=np.uint8) * 60
    many = rng.integers(0, 256, size=(20, 30, 3), dtype=np.uint8)  # > 256 colours
    for picture in (few, many):
        for palette in (False, True):
            assert np.array_equal(decode_png(image.png_bytes(picture, palette=palette)), picture)
    indexed = image.png_bytes(few, palette=True)
    colours = len(np.unique(few.reshape(-1, 3), axis=0))
    assert indexed[25] == 3 and indexed[33:41] == struct.pack(">I", 3 * colours) + b"PLTE"
    assert image.png_bytes(many, palette=True)[25] == 2  # too many colours for a palette
    table = make_rules("factors_multiples", engine="python").new_state(4, seed=0).render_rgb()
    assert len(image.png_bytes(table, palette=True)) < 0.8 * len(image.png_bytes(table))


# -- size -----------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_long_game_at_the_largest_table_stays_a_few_megabytes():
    record = play("factors_multiples", 5, 3, options={"rounds": 6})
    assert len(record["actions"]) > 300
    page = render_html(record)  # 6 views: everything and each of the 5 seats
    assert len(page.encode()) < 4_000_000
