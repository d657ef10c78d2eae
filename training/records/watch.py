"""Watch agents play each other: move by move in the terminal, or as an HTML viewer or a GIF.

boardgame-envs watch wasabi --agents heuristic,random                 everything shown
boardgame-envs watch cornucopia --agents heuristic,random,ismcts --seat 0   as seat 0 sees it
boardgame-envs watch tahiti --agents ppo:tahiti,heuristic --pace 0 --save game.json
boardgame-envs watch carcassonne_castle --agents heuristic,heuristic --out game.html

One agent per seat, seat 0 first (any agent the other commands take: random, heuristic,
ismcts[:options], ppo:<game>, ppo:<model>, net:<game>, ismcts-net:<game>, module:attr or
file.py:attr). The terminal shows each move (who played what), the table after it and the
final scores; ``--save`` keeps the game as a record that ``boardgame-envs replay`` shows
again.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from boardgame_envs.agents.specs import make_agent, split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError, State, check_seed, players_allowed
from boardgame_envs.registry import GAMES, game_info
from boardgame_envs.training.cli_args import check_output_file
from boardgame_envs.training.records.game_records import play_recorded_game, save_record
from boardgame_envs.training.records.replay import (
    Narrator,
    add_view_arguments,
    check_output_path,
    check_pace,
    check_seat,
    final_line,
    write_replay_file,
)


def watch(
    game: str,
    agents: str | Sequence[str],
    seed: int | None = None,
    seat: int | None = None,
    pace: float = 0.5,
    out_path: str | Path | None = None,
    save: str | Path | None = None,
    out: TextIO | None = None,
    sleep: Callable[[float], Any] = time.sleep,
) -> dict[str, Any]:
    """Play one game of ``game`` between ``agents`` (specs, one per seat, or one
    comma-separated string) and show it: in the terminal move by move (see
    :class:`boardgame_envs.training.records.replay.Narrator`), or written to ``out_path``
    (``.html`` or ``.gif``). ``save`` also writes the game's record there. Returns the record."""
    out = out or sys.stdout
    rules = game_info(game).rules()
    specs = split_agent_specs(agents) if isinstance(agents, str) else list(agents)
    if not rules.min_players <= len(specs) <= rules.max_players:
        allowed = players_allowed(rules.min_players, rules.max_players)
        raise InvalidConfigError(
            f"--agents {','.join(specs) or repr('')} gives {len(specs)} agent(s); {game} "
            f"is played by {allowed}: give one agent per seat, e.g. --agents heuristic,random"
        )
    seed = check_seed(seed)
    seat = check_seat(seat, len(specs))
    pace = check_pace(pace)
    if out_path is not None:
        check_output_path(out_path, game)
    if save is not None:
        check_output_file("--save", save)
    if seed is None:
        seed = int(np.random.default_rng().integers(2**31))
    players = [make_agent(spec, game) for spec in specs]
    on_move = None
    if out_path is None:
        narrator = Narrator(game, specs, seat, pace, out, sleep)

        def on_move(step: int, before: State, action: int, after: State) -> None:
            if step == 0:
                narrator.start(before, seed)
            narrator.move(step, before, action, after)

    record, states = play_recorded_game(game, players, specs, seed, len(specs), on_move=on_move)
    if out_path is None:
        narrator.end(states[-1], len(record["actions"]))
    else:
        written = write_replay_file(record, states, out_path, seat=seat, pace=pace)
        print(f"wrote {written}", file=out)
        print(final_line(states[-1], specs, len(record["actions"])), file=out)
    if save is not None:
        print(f"saved the game's record to {save_record(record, save)}", file=out)
    return record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help=f"the game: {', '.join(GAMES)}")
    parser.add_argument(
        "--agents",
        required=True,
        help="one agent per seat, seat 0 first, comma-separated: random, heuristic, "
        "ismcts[:option=value,...], ppo:<game> (ppo:<game>@3p for bigger tables), "
        "ppo:<model .zip or run dir>, net:<game or network .pt>, "
        "ismcts-net:<game or network .pt>[,options], module:attr or path/to/file.py:attr "
        "(your own agent) (required)",
    )
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: drawn)")
    add_view_arguments(parser)
    parser.add_argument(
        "--save",
        default=None,
        metavar="RECORD.json",
        help="also save the game's record (boardgame-envs replay shows it again) (default: "
        "not saved)",
    )


def run(args: argparse.Namespace) -> None:
    watch(
        args.game,
        args.agents,
        seed=args.seed,
        seat=args.seat,
        pace=args.pace,
        out_path=args.out,
        save=args.save,
    )
