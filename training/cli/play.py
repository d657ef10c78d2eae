"""``boardgame-envs play``: a person plays a game in the terminal against agents.

The board is shown from the person's seat, the legal moves numbered; ``?`` shows the key to
the board's marks. What is said after a move (how a turn or a round ended) is the replays'
(:mod:`boardgame_envs.training.records.narration`), so ``play``, ``watch`` and ``replay`` read
alike.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

import numpy as np

from boardgame_envs.agents.specs import make_agent
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import game_info
from boardgame_envs.training.records.narration import (
    describe_move,
    round_report,
    rounds_done,
    turn_reporter,
)


def play(
    game: str,
    opponent: str = "heuristic",
    num_players: int = 2,
    seat: int = 0,
    seed: int | None = None,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> list[float] | None:
    """A person plays ``seat`` in the terminal against ``opponent`` agents.

    The board is shown from the person's seat and the legal moves are numbered 1..k with
    what each does; the person types a number (bad input is asked again), or ``?`` for the
    key to the board's marks and positions (kept off the board so that it stays compact).
    Every move made is echoed, the others' as the person may know them (a Cornucopia bet
    not yet revealed, a card discarded face down: "bet (hidden from P0)", as ``replay
    --seat`` shows them), and round ends are announced (Factors and Multiples), as is
    how every turn ended (Cornucopia: the bid's success or failure). Returns the final
    returns, or None if the person quits (q, Ctrl-C or Ctrl-D at the prompt).
    """
    out = out or sys.stdout
    rules = game_info(game).rules()
    rules.check_num_players(num_players)
    if seat not in range(num_players):
        raise InvalidConfigError(f"seat={seat} is not allowed; allowed: 0 to {num_players - 1}")
    seed = int(np.random.default_rng().integers(2**31)) if seed is None else seed
    state = rules.new_state(num_players, seed=seed)
    agents = {s: make_agent(opponent, game, seed=seed + s) for s in range(num_players) if s != seat}
    print(f"{game_info(game).title}: you are P{seat}, against {opponent} (seed {seed})", file=out)
    print(f"At the prompt: a move's number; {KEY_HINT}; q quits.", file=out)
    key = rules.renderer.legend_lines()
    rounds = rounds_done(state)
    turn_report = turn_reporter(rules)
    while not state.is_terminal():
        mover = state.current_player
        legal = state.legal_actions()
        if mover != seat:
            action = agents[mover].act(state.view(mover))
            print(f"P{mover}: {describe_move(state, action, seat)}", file=out)
        elif len(legal) == 1:
            action = legal[0]
            print(f"P{seat} (you): {state.describe_action(action)} (your only move)", file=out)
        else:
            print("\n" + state.render_text(seat, legend=False), file=out)
            descriptions = [state.describe_action(a) for a in legal]
            print(f"your choices ({len(legal)}):", file=out)
            for line in _menu_lines(descriptions):
                print(line, file=out)
            action = _ask_action(legal, read, out, key)
            if action is None:
                print("quit", file=out)
                return None
            print(f"P{seat} (you): {state.describe_action(action)}", file=out)
        before = state.view(seat) if turn_report else None
        state.apply(action)
        if turn_report is not None:
            report = turn_report(before, state.view(seat), seat)
            if report:
                print(report, file=out)
        if rounds_done(state) > rounds:
            rounds = rounds_done(state)
            print(round_report(state), file=out)
    print("\n" + state.render_text(None, legend=False), file=out)
    returns = state.returns()
    verdict = (
        "won"
        if seat in state.winners() and len(state.winners()) == 1
        else ("shared the win" if seat in state.winners() else "lost")
    )
    print(f"You {verdict}: scores {state.scores()}, your reward {returns[seat]:+.2f}", file=out)
    return returns


def _menu_lines(descriptions: list[str], width: int = 100) -> list[str]:
    """The choices numbered 1..k, one a line, or in columns (read down) when there are many
    (a Carcassonne placement can offer over a hundred)."""
    items = [f"{i:>5}: {text}" for i, text in enumerate(descriptions, 1)]
    column = max(len(item) for item in items) + 2
    columns = max(1, min(width // column, len(items) // 8))
    if columns == 1:
        return items
    rows = -(-len(items) // columns)
    return ["".join(f"{item:<{column}}" for item in items[r::rows]).rstrip() for r in range(rows)]


#: What ``?`` does at ``play``'s prompt, said once when a game starts.
KEY_HINT = "? shows the key to the board's marks"
#: What may be typed at ``play``'s prompt for the key (and this help).
KEY_WORDS = ("?", "h", "help", "key")


def _ask_action(
    legal: list[int], read: Callable[[str], str], out: TextIO, key: Sequence[str] = ()
) -> int | None:
    """The action of the choice typed (1 for the first of ``legal``, as listed), asked
    again until it is a number from 1 to len(legal); None to quit (q, or Ctrl-D / Ctrl-C
    at the prompt). ``?`` prints ``key`` (the board's legend lines) and what may be typed,
    then asks again."""
    k = len(legal)
    while True:
        try:
            text = read(f"your move (1-{k}, ? key, q quit): ").strip()
        except (EOFError, KeyboardInterrupt):
            print(file=out)  # the prompt's line is left open
            return None
        if text.lower() in ("q", "quit", "exit"):
            return None
        if text.lower() in KEY_WORDS:
            for line in (*key, _prompt_help(k)):
                print(line, file=out)
            continue
        # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
        if re.fullmatch(r"[0-9]+", text) and 1 <= int(text) <= k:
            return legal[int(text) - 1]
        print(
            f"  {text!r} is not a legal move; type a number from 1 to {k}, ? for the key, or q",
            file=out,
        )


def _prompt_help(k: int) -> str:
    """What may be typed at the prompt of a menu of ``k`` choices."""
    return f"  prompt: 1-{k} plays that choice · ? shows this key · q, Ctrl-D or Ctrl-C quits"
