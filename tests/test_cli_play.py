"""``boardgame-envs play``: the numbered menu, announcements, the key on ``?`` (not under every
board), and the legend that explains every mark of a board.

``play`` takes ``read`` (the prompt function) and ``out`` (where the transcript goes), so each
test drives it with scripted answers and reads the transcript back.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from boardgame_envs.carcassonne_castle import render as carcassonne_render
from boardgame_envs.carcassonne_castle.castle import GRID_H, GRID_W
from boardgame_envs.cornucopia.render import turn_report
from boardgame_envs.cornucopia.rules import NO, YES, bet_action, bid_action, place_action
from boardgame_envs.registry import GAMES, game_info, make_rules
from boardgame_envs.tahiti.data import GOODS_NAMES, ISLAND_SLOTS, TILE_IDS
from boardgame_envs.tahiti.render import render_map
from boardgame_envs.training.cli import play as play_module
from boardgame_envs.training.cli.play import _ask_action, _menu_lines, play
from boardgame_envs.training.records.narration import describe_move
from boardgame_envs.training.records.replay import Narrator
from boardgame_envs.wasabi import render as wasabi_render
from boardgame_envs.wasabi.data import KIND_SHORT
from boardgame_envs.wasabi.render import board_text

MENU_ITEM = re.compile(r"\s*(\d+): (.*?)(?=\s{2,}\d+: |$)")


def _answers(replies: Callable[[int, str], str]) -> tuple[Callable[[str], str], io.StringIO]:
    """A ``read`` that answers ``replies(prompt_number, transcript_so_far)``."""
    out = io.StringIO()
    count = iter(range(10**6))

    def read(prompt: str) -> str:
        return replies(next(count), out.getvalue())

    return read, out


def _menus(text: str) -> Iterator[tuple[list[tuple[int, str]], str | None]]:
    """Each menu in a transcript (its (number, description) items in number order) and the
    line echoing the move then made (None after the last menu, where the player quit)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("your choices ("):
            continue
        items, j = [], i + 1
        while j < len(lines) and MENU_ITEM.match(lines[j]) and not lines[j].startswith("P"):
            items += [(int(n), d.rstrip()) for n, d in MENU_ITEM.findall(lines[j])]
            j += 1
        after = (x for x in lines[j:] if x.startswith(("P0 (you): ", "your choices (")))
        echo = next(after, None)
        yield sorted(items), None if echo is None or echo.startswith("your") else echo


# -- the menu ------------------------------------------------------------------------------
def test_ask_action_numbers_the_choices_from_one():
    out = io.StringIO()
    for typed, action in (("1", 3), ("2", 5)):
        assert _ask_action([3, 5], lambda prompt, typed=typed: typed, out) == action
    answers = iter(["0", "3", "5", "-1", "2"])  # 0 and 3 are out of range; 5 is an action id
    assert _ask_action([3, 5], lambda prompt: next(answers), out) == 5
    for bad in ("0", "3", "5", "-1"):
        expected = f"{bad!r} is not a legal move; type a number from 1 to 2, ? for the key, or q"
        assert expected in out.getvalue()


def test_ask_action_shows_the_key_on_a_question_mark_then_asks_again():
    out = io.StringIO()
    answers = iter(["?", "2"])
    key = ["  key: X = a mark"]
    assert _ask_action([3, 5], lambda prompt: next(answers), out, key) == 5
    lines = out.getvalue().splitlines()
    assert lines[0] == "  key: X = a mark"
    assert lines[1].startswith("  prompt: 1-2 plays that choice")
    assert "? shows this key" in lines[1] and "q, Ctrl-D or Ctrl-C quits" in lines[1]
    assert len(lines) == 2  # nothing else: no complaint about "?"


@pytest.mark.parametrize("game", list(GAMES))
def test_play_lists_choices_1_to_k_and_typing_1_plays_the_first(game):
    read, out = _answers(lambda i, text: "1" if i < 12 else "q")
    assert play(game, "random", seat=0, seed=5, read=read, out=out) is None
    menus = list(_menus(out.getvalue()))
    assert len(menus) == 13
    for items, _ in menus:
        assert [n for n, _ in items] == list(range(1, len(items) + 1)), items
        assert all(text for _, text in items)
    for items, echo in menus[:-1]:
        assert echo == f"P0 (you): {items[0][1]}"


def test_a_long_menu_is_laid_out_in_columns_read_down():
    lines = _menu_lines([f"move {i}" for i in range(1, 41)])
    assert len(lines) < 40
    numbers = [int(n) for line in lines for n, _ in MENU_ITEM.findall(line)]
    assert sorted(numbers) == list(range(1, 41))
    assert [int(n) for n, _ in MENU_ITEM.findall(lines[0])][:2] == [1, 1 + len(lines)]


# -- announcements and game-specific help --------------------------------------------------
def test_factors_and_multiples_announces_each_round_end():
    read, out = _answers(lambda i, text: "1")
    returns = play("factors_multiples", "random", seat=0, seed=11, read=read, out=out)
    text = out.getvalue()
    assert returns is not None
    announcements = re.findall(r"== round (\d) of 3 over: (.*?) ==", text)
    assert [n for n, _ in announcements] == ["1", "2", "3"]
    for _, body in announcements:
        assert "went out" in body or "blocked" in body
        assert "this round P0 " in body and "totals P0 " in body
    assert "round 2 is dealt" in text and "round 3 is dealt" in text
    assert text.index("== round 3 of 3 over") < text.index("You ")


def test_tahiti_shows_the_tiles_reefs_when_it_asks_for_a_rotation():
    def replies(i: int, text: str) -> str:
        menu = text[text.rindex("your choices (") :]
        return "q" if "rotation" in menu or i > 400 else "1"

    read, out = _answers(replies)
    play("tahiti", "random", seat=0, seed=2, read=read, out=out)
    text = out.getvalue()
    screen = text[text.rindex("Tahiti · round") :]
    assert "place " in screen and ", rotation 5" in screen, "never asked for a rotation"
    reefs = re.search(r"its reefs at rotation 0: (.*)", screen)
    assert reefs is not None
    assert [part.split(": ")[0] for part in ("0: " + reefs.group(1)).split(" · ")] == [
        str(r) for r in range(6)
    ]


def _tahiti_goods(tile: str) -> str:
    return ", ".join(GOODS_NAMES[g] for g in ISLAND_SLOTS[TILE_IDS[tile]])


def test_tahiti_shows_the_goods_of_the_tile_to_take_and_to_place():
    """The goods spaces of a tile show while it is chosen (the stack tops) and while it waits
    in hand to be placed, not only on the map once it lies there."""

    def replies(i: int, text: str) -> str:
        menu = text[text.rindex("your choices (") :]
        return "q" if "rotation" in menu or i > 400 else "1"

    read, out = _answers(replies)
    play("tahiti", "random", seat=0, seed=2, read=read, out=out)
    text = out.getvalue()
    taken = re.findall(r"P0 \(you\): take stack [AB]: (I\d\d) \(([a-z, ]+)\)", text)
    assert taken, "never took a tile"
    for tile, goods in taken:
        assert goods == _tahiti_goods(tile)
    screen = text[text.rindex("Tahiti · round") :]
    assert "· place the tile by Haumea" in screen.splitlines()[0]
    tile, goods = re.search(r"  tile in hand: (I\d\d) \(([a-z, ]+)\)", screen).groups()
    assert tile == taken[-1][0] and goods == _tahiti_goods(tile)
    assert f"{tile} " not in "\n".join(render_map_lines(screen))  # not on the map yet
    for top, goods in re.findall(r"stack [AB]: \d+, top (I\d\d) \(([a-z, ]+)\)", screen):
        assert goods == _tahiti_goods(top)


def render_map_lines(screen: str) -> list[str]:
    """The map rows of a Tahiti screen: from under the last info line to the reefs list."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  last: ")) + 1
    end = next(i for i, line in enumerate(lines) if line.startswith("  reefs: "))
    return lines[start:end]


CROPS = dict(zip("WCPTEG", range(6)))


def _cornucopia_turn(baskets: str, chips, card: str, bet: tuple[int, int], move) -> str | None:
    """P0 bids 1 in a constructed position, P1 bets, ``card`` is drawn and P0 makes ``move``
    (an action, or None: its only legal one); the report ``play`` prints for P0."""
    rules = make_rules("cornucopia")
    state = rules.position(
        baskets=[[CROPS[c] for c in basket] for basket in baskets.split()],
        chips=chips,
        deck_top=[CROPS[card]],
    )
    state.apply(bid_action(1))
    state.apply(bet_action(*bet))
    before = state.view(0)
    state.apply(state.legal_actions()[0] if move is None else move)
    return turn_report(before, state.view(0), 0)


def test_cornucopia_reports_how_your_own_turn_ended():
    chips = [(5, 5, 1), (5, 5, 1)]
    # The drawn G completes B0 (C P T E G, all different): the bid succeeds, +6 yellow.
    assert _cornucopia_turn("CPTE CC PP TT WE", chips, "G", (NO, 1), place_action(0)) == (
        "== your bid of 1 succeeded: B0 complete as DIFFERENT; you keep bid card 1, "
        "chips +6 yellow; bets: P1 NO 1 lost =="
    )
    # A C fits only B1 and completes nothing: one card placed of one bid, the turn fails.
    assert _cornucopia_turn("CPTE CC PP TT WE", chips, "C", (YES, 2), place_action(1)) == (
        "== your bid of 1 failed: 1 card placed and no basket completed; bid card 1 returns "
        "to its stack, chips -1 yellow; bets: P1 YES 2 lost =="
    )
    # A G fits no basket and no red chip is left to redraw: forfeited.
    no_red = [(5, 5, 0), (5, 5, 1)]
    assert _cornucopia_turn("CC PP TT EE WC", no_red, "G", (NO, 3), None) == (
        "== your bid of 1 failed: the dead G was forfeited; bid card 1 returns to its stack, "
        "chips -1 yellow; bets: P1 NO 3 won =="
    )


def test_cornucopia_play_reports_the_end_of_every_turn():
    read, out = _answers(lambda i, text: "1" if i < 40 else "q")
    play("cornucopia", "heuristic", seat=0, seed=4, read=read, out=out)
    lines = out.getvalue().splitlines()
    bids = [i for i, line in enumerate(lines) if re.match(r"P\d( \(you\))?: bid \d", line)]
    assert len(bids) >= 6
    for start, end in zip(bids, bids[1:]):
        bidder, number = re.match(r"P(\d)(?: \(you\))?: bid (\d)", lines[start]).groups()
        whose = "your" if bidder == "0" else f"P{bidder}'s"
        reports = [x for x in lines[start:end] if x.startswith("== ")]
        assert len(reports) == 1, lines[start:end]
        assert re.fullmatch(rf"== {whose} bid of {number} (succeeded|failed): .* ==", reports[0])
    assert any(x.startswith("== your bid of ") for x in lines)


def test_wasabi_lists_its_legal_moves_once():
    read, out = _answers(lambda i, text: "1" if i < 8 else "q")
    play("wasabi", "random", num_players=3, seat=0, seed=1, read=read, out=out)
    text = out.getvalue()
    assert "legal:" not in text
    screens = text.split("your choices (")[1:]
    for (items, _), screen in zip(_menus(text), screens):
        board = text[: text.index(screen)].rsplit("Wasabi! · ", 1)[1]
        for _, description in items:
            assert description not in board  # the board does not list them again
    assert len(screens) == 9


# -- the legend under every board ----------------------------------------------------------
def _positions(game: str, games: int = 3, every: int = 9) -> Iterator[tuple[object, int | None]]:
    """(state, seat) pairs from seeded random games: every ``every``-th decision, the end.
    Python engine states: the token readers below read its fields (a native state renders
    through a Python copy of itself, the same text)."""
    rules = game_info(game).rules("python")
    for g in range(games):
        n = rules.min_players + g % (rules.max_players - rules.min_players + 1)
        state = rules.new_state(n, seed=100 + g)
        rng = np.random.default_rng(g)
        step = 0
        while not state.is_terminal() and step < 2000:
            if step % every == 0:
                yield state.clone(), state.current_player
            state.apply(int(rng.choice(state.legal_actions())))
            step += 1
        yield state, None


def _legend(text: str) -> tuple[list[str], set[str]]:
    """The legend lines at the bottom of a rendered board, and the marks they explain."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  key: "))
    legend = lines[start:]
    assert all(line.startswith("       ") for line in legend[1:]), "the legend ends the text"
    marks = set()
    for line in legend:
        for entry in line.removeprefix("  key:").strip().split(" · "):
            assert " = " in entry, entry
            marks.update(entry.split(" = ")[0].split())
    return legend, marks


def _explained(token: str, marks: set[str]) -> bool:
    """``token`` is a mark of the legend, or falls in one of its ranges (``I01-I18``, ``2-6``)."""
    if token in marks:
        return True
    found = re.fullmatch(r"([A-Z]*)(\d+)", token)
    for mark in marks:
        span = re.fullmatch(r"([A-Z]*)(\d+)-([A-Z]*)(\d+)", mark)
        if found and span and found.group(1) == span.group(1):
            if int(span.group(2)) <= int(found.group(2)) <= int(span.group(4)):
                return True
    return False


def _factors_multiples_tokens(state, text: str) -> set[str]:
    tokens = set()
    for rank, suit in re.findall(r"(10|[2-9]|[AJQK])([♣♦♥♠])", text):
        tokens |= {rank, suit}
    if re.search(r"\(P\d\)", text):
        tokens.add("(P1)")  # the legend's example of "who played it"
    if " · value * · " in text:
        tokens.add("*")
    return tokens


def _cornucopia_tokens(state, text: str) -> set[str]:
    tokens = set()
    for basket, cards, status in re.findall(r"  (B\d) \[([^\]]*)\]\s+(\w+)", text):
        tokens |= {basket, status, *cards.split()}
    for fits in re.findall(r"fits: (.*)", text):
        tokens |= set(fits.split())
    tokens |= set(re.findall(r"drawn card: (\w)", text))
    for discard in re.findall(r"discard pile: (.*)", text):
        tokens |= {entry.rstrip("0123456789") for entry in discard.split()}
    return tokens


def _carcassonne_block(rows: list[str]) -> set[str]:
    if all(row == "#####" for row in rows):
        return {"#####"}
    middle = rows[1].strip()
    if not rows[0].strip() and not rows[2].strip():
        return {middle}  # "." or the number of a cell where the drawn tile fits
    tokens = {c for row in (rows[0], rows[2]) for c in row} | {rows[1][0], rows[1][4]}
    centre = rows[1][1:4]
    if centre.startswith("G"):  # a gate: its name, then its market if any
        tokens |= {centre[:2], centre[2]}
    else:
        tokens |= set(centre)
    return tokens - {" "}


def _carcassonne_tokens(state, text: str) -> set[str]:
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("(x,y)  -1    0"))
    tokens = {carcassonne_render.COORDINATES}
    for row in range(GRID_H):
        rows = lines[top + 1 + 3 * row : top + 4 + 3 * row]
        for col in range(GRID_W):
            tokens |= _carcassonne_block([r[5 + 6 * col : 10 + 6 * col] for r in rows])
    at = next((i for i, line in enumerate(lines) if line.startswith("  drawn tile ")), None)
    if at is not None:
        rows = lines[at + 1 : at + 4]
        for r in range(4):
            tokens |= _carcassonne_block([line[4 + 8 * r : 9 + 8 * r] for line in rows])
    return tokens


def _tahiti_tokens(state, text: str) -> set[str]:
    lines = render_map(state)
    assert "\n".join(lines) in text
    tokens = set()
    for top, bottom, where in zip(lines[::3], lines[1::3], lines[2::3]):
        for word in top.split():
            if word.startswith("["):  # where the tile in hand may go: "[E]"
                tokens |= {"[E]", word[1:-1]}
            else:
                tokens |= {word} if word[0] in "IHW" and word != "I" else set(word)
        tokens |= set(bottom) - {" "}
        if re.search(r"\(-?\d+, -?\d+\)", where):
            tokens |= {"(q,", "r)"}  # the legend's "(q, r)", split at its space
    for reefs in re.findall(r"  reefs: (.*)", text):
        for entry in filter(None, reefs.split(", ")):
            name, edges = entry.split()
            tokens |= {name, *edges.split("/")}
    return tokens


def _wasabi_tokens(state, text: str) -> set[str]:
    lines = board_text(state)
    assert "\n".join(lines) in text
    corner = wasabi_render.COORDINATES
    assert lines[0].startswith(corner)
    tokens = {corner}
    for line in lines[1:]:
        for cell in line[len(corner) + 1 :].split():
            if cell.startswith("*"):
                tokens.add("*")
                cell = cell[1:]
            if cell.startswith("["):
                tokens.add("[ ]")
                cell = cell[1:-1]
            code, _, more = cell.partition("+")
            tokens |= {code} | ({"+1"} if more else set())
    pantry = re.search(r"pantry: (.*)", text).group(1)
    tokens |= {entry.rstrip("0123456789") for entry in pantry.split()}
    return tokens


TOKENS = {
    "factors_multiples": _factors_multiples_tokens,
    "cornucopia": _cornucopia_tokens,
    "carcassonne_castle": _carcassonne_tokens,
    "tahiti": _tahiti_tokens,
    "wasabi": _wasabi_tokens,
}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_mark_on_a_board_is_explained_in_the_legend_under_it(game):
    seen: set[str] = set()
    for state, seat in _positions(game):
        text = state.render_text(seat)
        legend, marks = _legend(text)
        board = text[: text.index("\n  key: ")]  # what the legend explains
        tokens = TOKENS[game](state, board)
        if any(line.startswith(">") for line in board.splitlines()):
            tokens.add(">")
        missing = {t for t in tokens if not _explained(t, marks)}
        assert not missing, f"{game}: {sorted(missing)} not in the legend:\n" + "\n".join(legend)
        seen |= tokens
    assert len(seen) >= 8, seen  # the positions really exercised the board's marks


def test_the_wasabi_legend_names_every_ingredient_code():
    state = game_info("wasabi").rules().new_state(2, seed=0)
    _, marks = _legend(state.render_text(0))
    assert set(KIND_SHORT) <= marks


# -- the compact screen: the key on "?" ------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_play_shows_the_key_only_when_asked_and_a_move_then_works(game):
    """The boards of ``play`` carry no legend; ``?`` prints the game's key and the prompt's
    help under the menu, then the move typed next is played."""
    answers = iter(["1", "?", "1", "1"])
    read, out = _answers(lambda i, text: next(answers, "q"))
    assert play(game, "random", seat=0, seed=5, read=read, out=out) is None
    text = out.getvalue()
    key = game_info(game).rules().renderer.legend_lines()
    assert text.count("  key: ") == 1 and "\n".join(key) in text  # once: where "?" was typed
    menus = list(_menus(text))
    assert len(menus) == 4  # "?" did not use up a move: 1, (?) 1, 1, then q
    _, echo = menus[1]
    after_key = text[text.index("  key: ") :]
    assert after_key.index("  prompt: 1-") < after_key.index("P0 (you): ")
    assert echo == f"P0 (you): {menus[1][0][0][1]}"  # the move typed after "?" was played
    second, third = [m.start() for m in re.finditer(r"your choices \(", text)][1:3]
    assert second < text.index("  key: ") < third  # under the second menu, not on a board


def test_play_says_once_that_a_question_mark_shows_the_key():
    read, out = _answers(lambda i, text: "1" if i < 5 else "q")
    play("wasabi", "random", seat=0, seed=5, read=read, out=out)
    lines = out.getvalue().splitlines()
    hints = [line for line in lines if "? shows the key" in line]
    assert hints == [lines[1]] and "q quits" in lines[1]
    prompts: list[str] = []
    _ask_action([1, 2], lambda prompt: prompts.append(prompt) or "q", io.StringIO())
    assert prompts == ["your move (1-2, ? key, q quit): "]


def test_the_end_of_play_shows_the_final_board_without_the_key():
    read, out = _answers(lambda i, text: "1")
    returns = play("cornucopia", "random", seat=0, seed=4, read=read, out=out)
    text = out.getvalue()
    assert returns is not None and "game over" in text
    assert "  key: " not in text


# -- the others' hidden moves stay hidden --------------------------------------------------
BET = re.compile(r"P(\d)( \(you\))?: bet (.*)")


def test_cornucopia_bets_made_before_yours_do_not_show_their_side_and_stake():
    """At 3 players a bet is secret until every bettor has bet: an opponent's bet that comes
    before another bet of the turn (yours, say) reads "bet (hidden from P0)"; the turn's last
    bet reveals them all, so it reads in full, as do the bets in the turn's report."""
    read, out = _answers(lambda i, text: "1")
    assert play("cornucopia", "heuristic", num_players=3, seat=0, seed=0, read=read, out=out)
    turns = re.split(r"\n(?=P\d(?: \(you\))?: bid \d)", out.getvalue())[1:]
    hidden_before_yours = 0
    for turn in turns:
        bets = [BET.match(line).groups() for line in turn.splitlines() if BET.match(line)]
        for i, (_, you, text) in enumerate(bets):
            if you:
                assert re.fullmatch(r"(YES|NO) \d", text)
            elif i < len(bets) - 1:
                assert text == "(hidden from P0)", turn
                hidden_before_yours += any(later[1] for later in bets[i + 1 :])
            else:
                assert re.fullmatch(r"(YES|NO) \d", text), turn
        report = re.search(r"; bets: (.*) ==", turn)
        if bets and report:
            assert len(report.group(1).split(", ")) == len(bets)  # all shown once revealed
    assert hidden_before_yours >= 2


def test_factors_and_multiples_face_down_discards_do_not_show_the_card(monkeypatch):
    """P1's discards (an A's or K's effect, face down) read "discard (hidden from P0)", the
    one it was forced to make (its only legal move) too; its plays read in full."""
    described: list[tuple[int, str, str]] = []

    def spy(state, action, seat):
        text = describe_move(state, action, seat)
        described.append((len(state.legal_actions()), state.describe_action(action), text))
        return text

    monkeypatch.setattr(play_module, "describe_move", spy)
    read, out = _answers(lambda i, text: "1")
    assert play("factors_multiples", "heuristic", seat=0, seed=8, read=read, out=out)
    lines = out.getvalue().splitlines()
    discards = [line for line in lines if line.startswith("P1: discard")]
    assert len(discards) >= 5
    assert set(discards) == {"P1: discard (hidden from P0)"}
    forced = [full for legal, full, _ in described if legal == 1 and full.startswith("discard")]
    assert forced, "P1 never had to discard its only card rank"
    assert any(re.fullmatch(r"P1: play .+", line) for line in lines)
    assert all(text == full for _, full, text in described if not full.startswith("discard"))


def test_the_replay_from_a_seat_says_only_move_of_its_own_moves_only():
    """From P0's seat, P1's forced moves carry no "(only move)": P0 may not know that P1
    had no choice (the only card of P1's hidden hand that fits); P0's own do."""
    rules = game_info("factors_multiples").rules()
    state = rules.new_state(2, seed=1)
    rng = np.random.default_rng(1)
    out = io.StringIO()
    narrator = Narrator("factors_multiples", ["random", "random"], seat=0, pace=0, out=out)
    forced = {0: 0, 1: 0}
    for step in range(120):
        before = state.clone()
        action = int(rng.choice(state.legal_actions()))
        forced[before.current_player] += len(before.legal_actions()) == 1
        state.apply(action)
        narrator.move(step, before, action, state)
    moves = re.findall(r"^move \d+: P(\d) \(random\): (.*)$", out.getvalue(), re.MULTILINE)
    assert forced[0] and forced[1]
    assert sum(text.endswith(" (only move)") for seat, text in moves if seat == "0") == forced[0]
    assert not any(text.endswith(" (only move)") for seat, text in moves if seat == "1")
