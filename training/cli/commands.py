"""The ``boardgame-envs`` command: list, play, watch, replay, train, eval, league, leaderboard,
bench, demo.

boardgame-envs list
boardgame-envs play factors_multiples --vs heuristic --players 3
boardgame-envs watch wasabi --agents heuristic,random --save game.json
boardgame-envs replay game.json --out game.html
boardgame-envs train --game factors_multiples --timesteps 300000
boardgame-envs play wasabi --vs ppo:wasabi
boardgame-envs eval --game wasabi --agents ppo:runs/my_run,heuristic,random --games 500
boardgame-envs league --game cornucopia --num-players 2,4 --workers 2
boardgame-envs leaderboard --workers 2
boardgame-envs bench --seconds 3
boardgame-envs demo
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import TextIO

from boardgame_envs.agents.specs import split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError, players_allowed
from boardgame_envs.registry import GAMES, game_info
from boardgame_envs.training.cli.play import play
from boardgame_envs.training.cli_args import (
    OneLineParser,
    add_dataclass_arguments,
    args_from_namespace,
    as_typed,
)

#: play's flags whose names are not the library's keyword's (``num_players``).
PLAY_FLAGS = {"num_players": ("--players", "--num-players")}


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


#: What each command does, in one line of ``boardgame-envs --help`` (no "%": argparse
#: formats help with it); ``boardgame-envs <command> --help`` opens with the first paragraph
#: of its module's docstring.
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


#: ``train --algo``: the training algorithms (``exit``: training/exit/train.py).
ALGOS = ("ppo", "exit")

#: The module of each command that runs one from an ``Args`` dataclass (its ``Args``,
#: ``main`` and docstring), and of the two viewers (their ``add_arguments`` and ``run``),
#: imported only when that command runs: ``--help`` and ``list`` import no torch.
COMMAND_MODULES = {
    "train": "boardgame_envs.training.ppo.train",
    "eval": "boardgame_envs.training.evaluation.tournament",
    "league": "boardgame_envs.training.evaluation.league",
    "leaderboard": "boardgame_envs.training.evaluation.leaderboard",
    "bench": "boardgame_envs.training.evaluation.bench",
    "demo": "boardgame_envs.training.cli.demo",
}
VIEWER_MODULES = {
    "watch": "boardgame_envs.training.records.watch",
    "replay": "boardgame_envs.training.records.replay",
}


#: The optional extra (pyproject.toml) that installs each module a command may need.
TRAIN_EXTRA = ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "tqdm", "rich")
TRAIN_EXTRA += ("matplotlib", "openskill", "threadpoolctl", "pygame")
EXTRAS = {**dict.fromkeys(TRAIN_EXTRA, "train"), "ray": "ray"}


def _missing_extra(error: ModuleNotFoundError, command: str) -> int:
    """Exit code 2 after one line naming the extra that installs the missing module; the
    error itself for a module no extra installs."""
    extra = EXTRAS.get((error.name or "").partition(".")[0])
    if extra is None:
        raise error
    print(
        f"boardgame-envs {command}: needs {error.name}, which is not installed; install it "
        f'with: pip install "boardgame-envs[{extra}]"',
        file=sys.stderr,
    )
    return 2


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
    try:
        from boardgame_envs.training.exit import train as expert_iteration
    except ModuleNotFoundError as error:
        return _missing_extra(error, "train")
    parser = OneLineParser(
        prog="boardgame-envs train --algo exit",
        description=(expert_iteration.__doc__ or "").split("\n")[0],
    )
    add_dataclass_arguments(parser, expert_iteration.Args)
    namespace = parser.parse_args(argv)
    try:  # the arguments' checks: one line naming the command as the others do, exit code 2
        args = args_from_namespace(expert_iteration.Args, namespace)
    except InvalidConfigError as error:
        print(f"boardgame-envs train: {as_typed(str(error), argv)}", file=sys.stderr)
        raise SystemExit(2) from None
    try:
        expert_iteration.main(args)
    except InvalidConfigError as error:
        print(f"boardgame-envs train: {as_typed(str(error), argv)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nboardgame-envs train: interrupted", file=sys.stderr)
        return 130
    except ModuleNotFoundError as error:
        return _missing_extra(error, "train")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    exit_argv = _exit_arguments(argv)
    if exit_argv is not None:
        return _train_expert_iteration(exit_argv)
    # The command is the first word that is no option (the only option before it is -h):
    # only its module is imported, and only its options are added to the parser.
    chosen = next((word for word in argv if not word.startswith("-")), None)
    try:
        parser, modules = _parser(chosen)
    except ModuleNotFoundError as error:
        return _missing_extra(error, chosen)
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            list_games()
        elif args.command == "play":
            _check_play(args, argv)
            play(args.game, args.vs, args.players, args.seat, args.seed)
        elif args.command in VIEWER_MODULES:
            modules[args.command].run(args)
        else:
            module = modules[args.command]
            module.main(args_from_namespace(module.Args, args))
    except InvalidConfigError as error:  # the library names keywords; say the flags typed
        message = as_typed(str(error), argv, PLAY_FLAGS if args.command == "play" else None)
        print(f"boardgame-envs {args.command}: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: stop without a traceback
        print(f"\nboardgame-envs {args.command}: interrupted", file=sys.stderr)
        return 130
    except ModuleNotFoundError as error:
        return _missing_extra(error, args.command)
    return 0


def _check_play(args: argparse.Namespace, argv: list[str]) -> None:
    """What ``play``'s flags may be, each named as typed, before anything is printed."""
    specs = split_agent_specs(args.vs)
    if len(specs) > 1:
        raise InvalidConfigError(
            f"--vs {args.vs} names {len(specs)} agents; --vs takes one agent spec, played at "
            "every seat but yours (play cannot seat different agents; watch --agents "
            f"{','.join(specs)} plays one agent per seat)"
        )
    rules = game_info(args.game).rules()
    if not rules.min_players <= args.players <= rules.max_players:
        flag = "--num-players" if any(w.startswith("--num-players") for w in argv) else "--players"
        raise InvalidConfigError(
            f"{flag} {args.players} is not allowed for {args.game}; allowed: "
            f"{players_allowed(rules.min_players, rules.max_players)}"
        )
    if args.seat not in range(args.players):
        raise InvalidConfigError(
            f"--seat {args.seat} is not allowed; allowed: 0 to {args.players - 1} "
            f"({args.players} players)"
        )
    if args.seed is not None and args.seed < 0:
        raise InvalidConfigError(f"--seed {args.seed} is not allowed; allowed: an integer >= 0")


def _parser(chosen: str | None) -> tuple[argparse.ArgumentParser, dict]:
    """The command line's parser, with the options of the ``chosen`` command only, and the
    modules imported for it ({command: module})."""
    parser = OneLineParser(
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
    play_parser.add_argument(
        "--players", "--num-players", type=int, default=2, help="players at the table"
    )
    play_parser.add_argument(
        "--seat",
        type=int,
        default=0,
        help="your seat (0 moves first unless the game draws a start player)",
    )
    play_parser.add_argument("--seed", type=int, default=None, help="deal seed")
    modules = {}
    for name, path in {**VIEWER_MODULES, **COMMAND_MODULES}.items():
        if name != chosen:
            commands.add_parser(name, help=SUMMARIES[name])
            continue
        module = modules[name] = importlib.import_module(path)
        sub = commands.add_parser(
            name, help=SUMMARIES[name], description=_first_paragraph(module.__doc__)
        )
        if name in VIEWER_MODULES:
            module.add_arguments(sub)
            continue
        add_dataclass_arguments(sub, module.Args)
        if name == "train":
            sub.add_argument(
                "--algo",
                choices=ALGOS,
                default="ppo",
                help="ppo: MaskablePPO (the options here); exit: expert iteration, a network "
                "trained on the search's decisions (see train --algo exit --help)",
            )
    return parser, modules


if __name__ == "__main__":
    sys.exit(main())
