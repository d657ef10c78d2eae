"""The ``boardgame-envs`` command: list, play, watch, replay, train, eval, league, leaderboard,
bench, demo.

boardgame-envs list
boardgame-envs play factors_multiples --vs heuristic --players 3
boardgame-envs watch wasabi --agents heuristic,random --save game.json
boardgame-envs replay game.json --out game.html
boardgame-envs train --game factors_multiples --timesteps 300000
boardgame-envs play wasabi --vs ppo:wasabi
boardgame-envs eval --agents ppo:runs/my_run,heuristic,random --games 500
boardgame-envs league --game cornucopia --num-players 2,4 --workers 2
boardgame-envs leaderboard --workers 2
boardgame-envs bench --seconds 3
boardgame-envs demo
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

import numpy as np
from boardgame_envs.agents.base import make_agent
from boardgame_envs.training.cli_args import add_dataclass_arguments, args_from_namespace
from boardgame_envs.training.replay import describe_move

from boardgame_envs.core.rules import InvalidConfigError, PlayerView
from boardgame_envs.registry import GAMES, game_info


def list_games(out: TextIO | None = None) -> None:
    """The games, with their sizes and the ids they are registered under."""
    out = out or sys.stdout
    print(
        f"{'game':<22}{'players':<9}{'actions':>8}  {'observation':<14}{'engine':<8}title",
        file=out,
    )
    for game, info in GAMES.items():
        rules = info.rules()
        players = (
            f"{rules.min_players}-{rules.max_players}"
            if rules.max_players > rules.min_players
            else str(rules.min_players)
        )
        print(
            f"{game:<22}{players:<9}{rules.action_size:>8}  "
            f"{str(rules.observation_shape):<14}{rules.engine:<8}{info.title}",
            file=out,
        )
    print(f"\n{'game':<22}{'PettingZoo id':<38}Gymnasium id", file=out)
    for game, info in GAMES.items():
        print(f"{game:<22}{info.pettingzoo_id:<38}{info.gymnasium_id}", file=out)
    print(
        "\nPettingZoo: pettingzoo.make('aec', '<PettingZoo id>', num_players=n)"
        "\nGymnasium:  gymnasium.make('<Gymnasium id>', opponent='heuristic') "
        "(one learning seat)"
        "\nEngines:    native (compiled) where built, else python; "
        "BOARDGAME_ENVS_ENGINE=python selects the reference",
        file=out,
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
    rounds_done = _rounds_done(state)
    turn_report = TURN_REPORTS.get(game)
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
        if _rounds_done(state) > rounds_done:
            rounds_done = _rounds_done(state)
            print(_round_report(state), file=out)
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


def _rounds_done(state) -> int:
    """Rounds finished so far, for games that play several in one match (Factors and
    Multiples keeps ``round_scores``, one row per finished round); 0 for the others."""
    return len(getattr(state, "round_scores", ()))


def _round_report(state) -> str:
    """The announcement of the round that just ended (Factors and Multiples)."""
    done = len(state.round_scores)
    went_out = state.went_out[-1]
    how = (
        f"P{went_out} went out"
        if went_out is not None
        else "blocked (all piles empty and nobody can play)"
    )
    last = ", ".join(f"P{s} {x:+d}" for s, x in enumerate(state.round_scores[-1]))
    totals = ", ".join(f"P{s} {int(x)}" for s, x in enumerate(state.scores()))
    rounds = state.config["rounds"]
    after = " (lowest total wins)" if done == rounds else f"; round {done + 1} is dealt"
    return (
        f"== round {done} of {rounds} over: {how} · this round {last} · totals {totals}{after} =="
    )


def _cornucopia_turn_report(before: PlayerView, after: PlayerView, seat: int) -> str | None:
    """How the Cornucopia turn that the last move ended went: the bid's success (the basket
    completed, the chips gained) or failure (why, what was paid) and the bets settled; None
    while the turn goes on. Read from ``seat``'s views before and after the move (the bets
    are public by then), so the person learns the outcome of every turn, their own too."""
    if before.bid is None or (after.turn == before.turn and after.phase != "GAME_OVER"):
        return None
    ended = after.log if after.turn == before.turn else after.last_log
    outcome = next((e for e in ended if e.startswith(("SUCCESS", "FAILURE"))), None)
    if outcome is None:  # the game ended for want of cards before the turn's end
        return None
    from boardgame_envs.cornucopia.rules import SIDE_NAMES, YES

    t, number = before.turn_player, before.bid
    success = outcome.startswith("SUCCESS")
    whose, who, s = ("your", "you", "") if t == seat else (f"P{t}'s", f"P{t}", "s")
    change = [after.chips[t][c] - before.chips[t][c] for c in range(3)]
    chips = " ".join(f"{d:+d} {name}" for d, name in zip(change, ("yellow", "blue", "red")) if d)
    if success:
        basket = outcome.removeprefix("SUCCESS: ").split(",")[0]  # "B2 complete as SAME"
        text = f"{whose} bid of {number} succeeded: {basket}; {who} keep{s} bid card {number}"
        text += f", chips {chips}" if chips else ""
    else:
        forfeit = next((e for e in ended if e.startswith("forfeits ")), None)
        if forfeit:
            why = f"{forfeit.removeprefix('forfeits ')} was forfeited"
        else:
            why = f"{number} card{'' if number == 1 else 's'} placed and no basket completed"
        paid = f"chips {chips}" if chips else "nothing to pay (no yellow, nor three blue)"
        text = f"{whose} bid of {number} failed: {why}; bid card {number} returns to its stack"
        text += f", {paid}"
    bets = []
    for bettor, bet in enumerate(before.bets):
        if bet is not None:
            side, stake = bet
            won = (side == YES) == success
            bets.append(f"P{bettor} {SIDE_NAMES[side]} {stake} {'won' if won else 'lost'}")
    if bets:
        text += "; bets: " + ", ".join(bets)
    return f"== {text} =="


#: Per game, what ``play`` reports after a move: (the seat's view before it, after it, the
#: seat) -> a line, or None.
TURN_REPORTS: dict[str, Callable[[PlayerView, PlayerView, int], str | None]] = {
    "cornucopia": _cornucopia_turn_report,
}


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


#: What each command does, in one line of ``boardgame-envs --help``; ``boardgame-envs
#: <command> --help`` opens with the first paragraph of its module's docstring.
SUMMARIES = {
    "list": "the games, their player counts and space sizes",
    "play": "play a game in the terminal against agents",
    "watch": "agents play each other: move by move in the terminal, as HTML or a GIF",
    "replay": "show a saved game record: in the terminal, as an HTML viewer or a GIF",
    "train": "train a policy: MaskablePPO by the game's recipe, or expert iteration (--algo exit)",
    "eval": "a tournament of agents: win shares with confidence intervals, ratings",
    "league": "a round robin of a game's agents: win-share matrix, ratings, plots",
    "leaderboard": "every game's league at 2 players and its largest table",
    "bench": "the speed of every game on each engine, beside Connect Four",
    "demo": "train a policy for Factors and Multiples, then rank it (make demo)",
}


def _first_paragraph(doc: str) -> str:
    return " ".join(doc.strip().split("\n\n")[0].split())


def _summary(name: str, doc: str) -> str:
    """The command's line of ``--help``: its entry of SUMMARIES, else the first sentence of
    its module's docstring, whole (a "%" doubled: argparse formats help with it)."""
    summary = SUMMARIES.get(name) or _first_paragraph(doc).split(". ")[0].rstrip(".")
    return summary.replace("%", "%%")


#: ``train --algo``: the training algorithms (``exit``: training/expert_iteration.py).
ALGOS = ("ppo", "exit")


def _exit_arguments(argv: list[str]) -> list[str] | None:
    """The arguments of ``train --algo exit ...`` without the command and ``--algo exit``;
    None for any other command line."""
    if argv[:1] != ["train"]:
        return None
    rest = argv[1:]
    for i, word in enumerate(rest):
        if word == "--algo=exit":
            return rest[:i] + rest[i + 1 :]
        if word == "--algo" and rest[i + 1 : i + 2] == ["exit"]:
            return rest[:i] + rest[i + 2 :]
    return None


def _train_expert_iteration(argv: list[str]) -> int:
    """``boardgame-envs train --algo exit ...``: expert iteration's own options."""
    from boardgame_envs.training import expert_iteration
    from boardgame_envs.training.cli_args import parse_args

    args = parse_args(expert_iteration.Args, argv, prog="boardgame-envs train --algo exit")
    try:
        expert_iteration.main(args)
    except InvalidConfigError as error:
        print(f"boardgame-envs train: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nboardgame-envs train: interrupted", file=sys.stderr)
        return 130
    return 0


def main(argv: list[str] | None = None) -> int:
    exit_argv = _exit_arguments(sys.argv[1:] if argv is None else list(argv))
    if exit_argv is not None:
        return _train_expert_iteration(exit_argv)
    from boardgame_envs.training import (
        bench,
        demo,
        evaluate,
        leaderboard,
        league,
        replay,
        train_ppo,
        watch,
    )

    parser = argparse.ArgumentParser(
        prog="boardgame-envs",
        description="Modern tabletop games as multi-agent RL environments: "
        "list, play, watch, replay, train, eval, league, leaderboard, bench, demo.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help=SUMMARIES["list"], description=SUMMARIES["list"])
    play_parser = commands.add_parser(
        "play", help=SUMMARIES["play"], description=_first_paragraph(play.__doc__)
    )
    play_parser.add_argument("game", help=f"one of: {', '.join(GAMES)}")
    play_parser.add_argument(
        "--vs",
        default="heuristic",
        help="opponent agent: random, heuristic, ismcts[:option=value,...] (the search agent, "
        "e.g. ismcts:iterations=200), ppo:<game> (the shipped policy; ppo:<game>@3p for "
        "bigger tables), ppo:<model .zip or run dir>, net:<game or network .pt> (a "
        "policy-value network alone), ismcts-net:<game or network .pt>[,options] (the search "
        "guided by it), or your own agent: module.path:attr or path/to/file.py:attr "
        "(default: heuristic)",
    )
    play_parser.add_argument("--players", type=int, default=2, help="players at the table")
    play_parser.add_argument(
        "--seat",
        type=int,
        default=0,
        help="your seat (0 moves first unless the game draws a start player)",
    )
    play_parser.add_argument("--seed", type=int, default=None, help="deal seed")
    viewers = {"watch": watch, "replay": replay}
    for name, module in viewers.items():
        sub = commands.add_parser(
            name, help=SUMMARIES[name], description=_first_paragraph(module.__doc__)
        )
        module.add_arguments(sub)
    modules = {
        "train": train_ppo,
        "eval": evaluate,
        "league": league,
        "leaderboard": leaderboard,
        "bench": bench,
        "demo": demo,
    }
    for name, module in modules.items():
        sub = commands.add_parser(
            name, help=_summary(name, module.__doc__), description=_first_paragraph(module.__doc__)
        )
        add_dataclass_arguments(sub, module.Args)
        if name == "train":
            sub.add_argument(
                "--algo",
                choices=ALGOS,
                default="ppo",
                help="ppo: MaskablePPO (the options here); exit: expert iteration, a network "
                "trained on the search's decisions (see train --algo exit --help)",
            )
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            list_games()
        elif args.command == "play":
            play(args.game, args.vs, args.players, args.seat, args.seed)
        elif args.command in viewers:
            viewers[args.command].run(args)
        else:
            module = modules[args.command]
            module.main(args_from_namespace(module.Args, args))
    except InvalidConfigError as error:
        print(f"boardgame-envs {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: stop without a traceback
        print(f"\nboardgame-envs {args.command}: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
