"""Replay a saved game record: move by move in the terminal, as an HTML viewer or as a GIF.

boardgame-envs replay games/wasabi-0.json                       the moves and the table, all seen
boardgame-envs replay games/wasabi-0.json --seat 1 --pace 0     what seat 1 could see, no pauses
boardgame-envs replay games/wasabi-0.json --out game.html       a viewer to open in a browser
boardgame-envs replay games/tahiti-3.json --out game.gif        an animated picture of the game

A record (see :mod:`boardgame_envs.training.records`) comes from ``boardgame-envs watch ...
--save``, or ``eval`` / ``league`` with ``--save-games DIR``. The terminal shows each move (who
played what), the table after it (from one seat's point of view with ``--seat N``: the other
seats' hidden cards, tiles and bets stay hidden; else everything) and the final scores.
"""

from __future__ import annotations

import argparse
import inspect
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from boardgame_envs.core.rules import InvalidConfigError, State
from boardgame_envs.core.text import plural
from boardgame_envs.registry import GAMES, game_info
from boardgame_envs.training.cli_args import check_output_file
from boardgame_envs.training.records.game_records import load_record, replay_states
from boardgame_envs.training.records.narration import (
    describe_move,
    round_report,
    rounds_done,
    turn_reporter,
)

#: What ``--out`` writes, by the file's extension.
OUTPUT_KINDS = {".html": "an HTML replay viewer", ".gif": "an animated GIF of the pictures"}

#: How long the GIF holds its last frame (the final position), in seconds.
GIF_FINAL_HOLD = 3.0


# -- the terminal --------------------------------------------------------------------------
class Narrator:
    """Shows a game in the terminal as it goes: each move (who played what), the table after
    it, from ``seat``'s point of view (None: a spectator who sees everything), a pause of
    ``pace`` seconds between moves, and the final scores and winners. The key to the
    table's marks is shown once, at the start.

    From a seat's point of view, a move of another seat that the seat could not tell from
    another move the mover could have made (a Cornucopia bet, a card discarded face down,
    even when it was the mover's only card to discard) is shown as hidden (see
    :func:`describe_move`); "(only move)" marks the seat's own forced moves only.
    """

    def __init__(
        self,
        game: str,
        agent_names: Sequence[str],
        seat: int | None = None,
        pace: float = 0.5,
        out: TextIO | None = None,
        sleep: Callable[[float], Any] = time.sleep,
    ) -> None:
        self.game = game
        self.names = list(agent_names)
        self.seat = seat
        self.pace = pace
        self.out = out or sys.stdout
        self.sleep = sleep
        self._rounds_done = 0

    def who(self, seat: int) -> str:
        return f"P{seat} ({self.names[seat]})"

    def start(self, state: State, seed: int) -> None:
        """The title line and the table before the first move."""
        title = game_info(self.game).title
        table = " vs ".join(self.who(s) for s in range(len(self.names)))
        viewpoint = (
            "everything shown (a spectator's view)"
            if self.seat is None
            else f"the table as P{self.seat} sees it"
        )
        self._print(f"{title}: {table}, seed {seed}; {viewpoint}")
        for line in state.rules.renderer.legend_lines():
            self._print(line)
        self._print("\n" + self.table(state))
        self._rounds_done = rounds_done(state)

    def move(self, step: int, before: State, action: int, after: State) -> None:
        """Move ``step`` (0-based): ``action`` took ``before`` to ``after``."""
        mover = before.current_player
        text = self.move_text(before, action)
        if len(before.legal_actions()) == 1 and (self.seat is None or mover == self.seat):
            # Not for the others' moves from a seat: the seat may not know that the mover
            # had no choice (a Factors and Multiples play of the one card that fits).
            text += " (only move)"
        self._print(f"\nmove {step + 1}: {self.who(mover)}: {text}")
        for report in self._reports(before, after):
            self._print(report)
        self._print("\n" + self.table(after))
        if self.pace > 0 and not after.is_terminal():
            self.sleep(self.pace)

    def table(self, state: State) -> str:
        """The table as the viewing seat sees it, without the key (shown once at the start)."""
        return state.render_text(self.seat, legend=False)

    def move_text(self, before: State, action: int) -> str:
        """What the move was, as the viewing seat may know it (see :func:`describe_move`)."""
        return describe_move(before, action, self.seat)

    def end(self, state: State, moves: int) -> None:
        """The final scores and winners."""
        self._print("\n" + final_line(state, self.names, moves))

    def show(self, record: dict[str, Any], states: Sequence[State]) -> None:
        """A whole recorded game: ``states`` from
        :func:`boardgame_envs.training.records.game_records.replay_states`."""
        self.start(states[0], record["seed"])
        for step, action in enumerate(record["actions"]):
            self.move(step, states[step], action, states[step + 1])
        self.end(states[-1], len(record["actions"]))

    def _reports(self, before: State, after: State) -> list[str]:
        """The lines ``play`` prints after a move: how a Cornucopia turn ended, the end of a
        Factors and Multiples round."""
        reports = []
        turn_report = turn_reporter(before.rules)
        if turn_report is not None:
            # Told from a seat other than the turn player's, so that every turn reads "P1's
            # bid ..." (the report uses public facts only: the outcome, chips, revealed bets).
            turn_player = getattr(before.view(0), "turn_player", None)
            teller = 1 if turn_player == 0 else 0
            report = turn_report(before.view(teller), after.view(teller), teller)
            if report:
                reports.append(report)
        if rounds_done(after) > self._rounds_done:
            self._rounds_done = rounds_done(after)
            reports.append(round_report(after))
        return reports

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)


# -- the end -------------------------------------------------------------------------------
def final_line(state: State, names: Sequence[str], moves: int) -> str:
    """``game over after 57 moves: P0 (heuristic) 31, P1 (random) 25; P0 (heuristic) wins``."""
    scores = ", ".join(f"P{s} ({names[s]}) {x:g}" for s, x in enumerate(state.scores()))
    winners = state.winners()
    if len(winners) == 1:
        verdict = f"P{winners[0]} ({names[winners[0]]}) wins"
    else:
        verdict = " and ".join(f"P{s} ({names[s]})" for s in winners) + " share the win"
    lowest = " (lowest score wins)" if state.rules.lower_score_wins else ""
    cap = " at the game's safety cap" if getattr(state, "truncated", False) else ""
    return f"game over after {plural(moves, 'move')}{cap}: scores {scores}{lowest}; {verdict}"


# -- files: HTML and GIF -------------------------------------------------------------------
def check_output_path(path: str | Path, game: str) -> Path:
    """``path`` if ``--out`` can write it for ``game`` (checked before a game is played)."""
    path = Path(path)
    kind = path.suffix.lower()
    if kind not in OUTPUT_KINDS:
        allowed = "; ".join(f"{ext} ({what})" for ext, what in OUTPUT_KINDS.items())
        raise InvalidConfigError(f"--out {path}: unknown kind of file; allowed: {allowed}")
    if kind == ".gif":
        picture_function(game)
    return check_output_file("--out", path, tuple(OUTPUT_KINDS))


def write_replay_file(
    record: dict[str, Any],
    states: Sequence[State],
    path: str | Path,
    seat: int | None = None,
    pace: float = 0.5,
) -> Path:
    """Write ``record`` as the kind of file ``path`` names: ``.html`` (the replay viewer,
    every seat's view selectable in it) or ``.gif`` (one picture per position, from
    ``seat``'s point of view where the game's picture has one, ``pace`` seconds each)."""
    path = check_output_path(path, record["game"])
    if path.suffix.lower() == ".html":
        from boardgame_envs.training.records.html_replay import write_html

        return Path(write_html(record, path))
    return write_gif(states, path, record["game"], seat=seat, seconds=pace)


def picture_function(game: str) -> Callable[[State, int | None], np.ndarray]:
    """``draw(state, seat) -> uint8[H, W, 3]``: the game's picture (its renderer's
    ``render_rgb``), from ``seat``'s point of view where the picture has one (the others
    show public facts only); InvalidConfigError for a game without a picture."""
    rules = game_info(game).rules("python")
    render_rgb = getattr(rules.renderer, "render_rgb", None)
    if render_rgb is None:
        with_pictures = [
            g for g in GAMES if hasattr(game_info(g).rules("python").renderer, "render_rgb")
        ]
        raise InvalidConfigError(
            f"{game} has no picture to make a GIF of; games with one: "
            f"{', '.join(with_pictures) or 'none'} (an .html replay works for every game)"
        )
    takes_seat = "seat" in inspect.signature(render_rgb).parameters

    def draw(state: State, seat: int | None = None) -> np.ndarray:
        reference = state.to_reference() if hasattr(state, "to_reference") else state
        return render_rgb(reference, seat) if takes_seat else render_rgb(reference)

    return draw


def write_gif(
    states: Sequence[State],
    path: str | Path,
    game: str,
    seat: int | None = None,
    seconds: float = 0.5,
) -> Path:
    """An animated GIF of ``states`` (one frame each, ``seconds`` apiece, the last held
    longer), looping. Needs Pillow (``pip install pillow``; the ``train`` extra has it)."""
    try:
        from PIL import Image
    except ImportError:
        raise InvalidConfigError(
            "writing a GIF needs Pillow: pip install pillow (or install the train extra)"
        ) from None
    draw = picture_function(game)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    first = Image.fromarray(draw(states[0], seat))
    last = Image.fromarray(draw(states[-1], seat))
    # One palette for every frame, from the first and last positions, so colours never
    # flicker between frames.
    both = Image.new("RGB", (first.width, first.height + last.height))
    both.paste(first, (0, 0))
    both.paste(last, (0, first.height))
    palette = both.quantize(colors=255, method=Image.Quantize.MEDIANCUT)

    def frame(state: State) -> Image.Image:
        return Image.fromarray(draw(state, seat)).quantize(
            palette=palette, dither=Image.Dither.NONE
        )

    step_ms = max(20, round(1000 * seconds))
    durations = [step_ms] * (len(states) - 1) + [round(1000 * GIF_FINAL_HOLD)]
    frames = (frame(state) for state in states[1:])
    frame(states[0]).save(path, save_all=True, append_images=frames, duration=durations, loop=0)
    return path


# -- the command ---------------------------------------------------------------------------
def replay(
    path: str | Path,
    seat: int | None = None,
    pace: float = 0.5,
    out_path: str | Path | None = None,
    out: TextIO | None = None,
    sleep: Callable[[float], Any] = time.sleep,
) -> dict[str, Any]:
    """Replay the record at ``path`` in the terminal (see :class:`Narrator`), or write it
    to ``out_path`` (``.html`` or ``.gif``); returns the record."""
    out = out or sys.stdout
    record = load_record(path)
    seat = check_seat(seat, record["num_players"])
    pace = check_pace(pace)
    if out_path is not None:
        check_output_path(out_path, record["game"])
    states = replay_states(record, source=path)
    if out_path is not None:
        written = write_replay_file(record, states, out_path, seat=seat, pace=pace)
        print(f"wrote {written}", file=out)
        print(final_line(states[-1], record["agents"], len(record["actions"])), file=out)
    else:
        Narrator(record["game"], record["agents"], seat, pace, out, sleep).show(record, states)
    return record


def check_seat(seat: int | None, num_players: int) -> int | None:
    if seat is not None and seat not in range(num_players):
        raise InvalidConfigError(
            f"--seat {seat} is not allowed; allowed: 0 to {num_players - 1} "
            f"({num_players} players), or no --seat to see everything"
        )
    return seat


def check_pace(pace: float) -> float:
    if not (isinstance(pace, (int, float)) and math.isfinite(pace) and pace >= 0):
        raise InvalidConfigError(
            f"--pace {pace} is not allowed; allowed: seconds >= 0 (0: no pause)"
        )
    return float(pace)


def add_view_arguments(parser: argparse.ArgumentParser) -> None:
    """--seat, --pace and --out, shared by ``watch`` and ``replay``."""
    parser.add_argument(
        "--seat",
        type=int,
        default=None,
        help="show the table as this seat sees it, the others' hidden information hidden "
        "(default: everything, as a spectator)",
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=0.5,
        help="seconds between moves in the terminal, and per frame of a GIF; 0: no pause "
        "(default: 0.5)",
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="write FILE instead of showing the game in the terminal: game.html (a replay "
        "viewer for a browser, one file, every seat's view selectable in it) or game.gif (an "
        "animated picture, from --seat's view where the picture hides anything) (default: "
        "the terminal)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "record",
        help="a game record (.json), as saved by watch --save, eval --save-games or "
        "league --save-games",
    )
    add_view_arguments(parser)


def run(args: argparse.Namespace) -> None:
    replay(args.record, seat=args.seat, pace=args.pace, out_path=args.out)
