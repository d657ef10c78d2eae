"""The ``boardgame-envs`` command: list, play, watch, replay, train, eval, league, leaderboard,
bench, benchmark, demo.

boardgame-envs list
boardgame-envs play factors_multiples --vs heuristic --num-players 3
boardgame-envs watch <game> --agents heuristic,random --save game.json
boardgame-envs replay game.json --out game.html
boardgame-envs train factors_multiples --timesteps 300000
boardgame-envs play <game> --vs ppo:<game>
boardgame-envs eval <game> --agents ppo:runs/my_run,heuristic,random --games 500
boardgame-envs league cornucopia --num-players 2,4 --workers 2
boardgame-envs leaderboard --workers 2
boardgame-envs bench --seconds 3
boardgame-envs benchmark heuristic --workers 2
boardgame-envs demo
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import TextIO

from boardgame_envs.agents.specs import split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError, players_allowed
from boardgame_envs.registry import GAMES, engine_info, game_info
from boardgame_envs.training.cli.play import play
from boardgame_envs.training.cli_args import (
    OneLineParser,
    add_dataclass_arguments,
    add_deprecated_flag,
    args_from_namespace,
    as_typed,
    example,
    take_deprecated_flags,
)

#: play's flags that set the library's ``num_players``: the flag and its deprecated form.
PLAY_FLAGS = {"num_players": ("--num-players", "--players")}


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


def version_text() -> str:
    """``boardgame-envs --version``: the library's version, the native build's and each
    game's env version and engine, and the versions of what the envs run on."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    import boardgame_envs

    info = engine_info()
    native = info["native"]
    if native["error"]:
        native_line = f"native engines: not built ({native['error']}); the Python engines run"
    else:
        stale = (
            f" (built from another version than the library's {boardgame_envs.__version__}: "
            "rebuild with pip install .)"
            if native["version"] != boardgame_envs.__version__
            else ""
        )
        native_line = f"native engines {native['version']} ({native['build']} build){stale}"
    lines = [f"boardgame-envs {boardgame_envs.__version__}", native_line, "games:"]
    for game, game_info_ in GAMES.items():
        env_version = game_info_.rules("python").version
        lines.append(
            f"  {game:<22}env v{env_version}  {game_info_.pettingzoo_id:<38}{info['engines'][game]}"
        )
    found = []
    for package in ("numpy", "gymnasium", "pettingzoo"):
        try:
            found.append(f"{package} {version(package)}")
        except PackageNotFoundError:  # pragma: no cover - core dependencies
            found.append(f"{package} missing")
    lines.append(f"Python {platform.python_version()}, {', '.join(found)}")
    return "\n".join(lines)


#: Where the documentation is (one place for the top-level help and the README's).
DOCS = "docs/index.md in the source (make docs builds the site)"

#: The end of ``boardgame-envs --help``: two examples (``{game}``: a registered game, see
#: ``cli_args.example``) and where the documentation is.
EPILOG = f"""examples:
  boardgame-envs play {{game}} --vs heuristic
  boardgame-envs eval {{game}} --agents ismcts,heuristic,random --games 100

every command: boardgame-envs COMMAND --help; the versions: boardgame-envs --version
documentation: {DOCS}"""


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
    "benchmark": "a score card for an agent against the fixed reference pool, checkable",
    "demo": "train a policy for Factors and Multiples, then rank it (make demo)",
    "serve": "a web app: play the games in the browser against agents or other people",
}


def _first_paragraph(doc: str) -> str:
    """A module docstring's first paragraph as plain text: one line, no ``code`` marks."""
    return " ".join(doc.strip().split("\n\n")[0].replace("``", "").split())


#: ``train --algo``: the training algorithms (``exit``: training/exit/train.py).
ALGOS = ("ppo", "exit")

#: The module of each command that runs one from an ``Args`` dataclass (its ``Args``,
#: ``main`` and docstring), and of the viewers (their ``add_arguments`` and ``run``),
#: imported only when that command runs: ``--help`` and ``list`` import no torch. A command
#: whose work needs torch keeps its ``Args`` apart, in the module named here, and its
#: ``main`` in the module of ``RUNNERS``, imported only when it starts.
COMMAND_MODULES = {
    "train": "boardgame_envs.training.ppo.options",
    "eval": "boardgame_envs.training.evaluation.tournament",
    "league": "boardgame_envs.training.evaluation.league",
    "leaderboard": "boardgame_envs.training.evaluation.leaderboard",
    "bench": "boardgame_envs.training.evaluation.bench",
    "benchmark": "boardgame_envs.training.evaluation.benchmark",
    "demo": "boardgame_envs.training.cli.demo",
}
RUNNERS = {
    "train": "boardgame_envs.training.ppo.train",
    "exit": "boardgame_envs.training.exit.train",
}
VIEWER_MODULES = {
    "watch": "boardgame_envs.training.records.watch",
    "replay": "boardgame_envs.training.records.replay",
    "serve": "boardgame_envs.training.web.server",
}


#: The optional extra (pyproject.toml) that installs each module a command may need.
TRAIN_EXTRA = ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "tqdm", "rich")
TRAIN_EXTRA += ("matplotlib", "openskill", "threadpoolctl", "pygame")
WEB_EXTRA = ("starlette", "uvicorn")
EXTRAS = {**dict.fromkeys(TRAIN_EXTRA, "train"), **dict.fromkeys(WEB_EXTRA, "web"), "ray": "ray"}


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
        from boardgame_envs.training.exit import options as expert_iteration
    except ModuleNotFoundError as error:
        return _missing_extra(error, "train")
    parser = OneLineParser(
        prog="boardgame-envs train --algo exit",
        description=(expert_iteration.__doc__ or "").split("\n")[0],
    )
    add_dataclass_arguments(parser, expert_iteration.Args)
    namespace = parser.parse_args(argv)
    try:  # the arguments' checks: one line naming the command as the others do, exit code 2
        notices = take_deprecated_flags(namespace, argv)
        args = args_from_namespace(expert_iteration.Args, namespace)
    except InvalidConfigError as error:
        print(f"boardgame-envs train: {as_typed(str(error), argv)}", file=sys.stderr)
        raise SystemExit(2) from None
    _print_notices("train", notices)
    try:
        _runner("exit")(args)
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
    try:
        return _main(sys.argv[1:] if argv is None else list(argv))
    except BrokenPipeError:
        # The reader went away (``boardgame-envs list | head``): stop quietly, as other
        # command-line tools do, with stdout pointed at nothing for the final flush.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _main(argv: list[str]) -> int:
    if argv[:1] == ["--version"]:
        print(version_text())
        return 0
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
        notices = take_deprecated_flags(args, argv)
        if args.command == "list":
            list_games()
        elif args.command == "play":
            _check_play(args, argv)
            _print_notices("play", notices)
            play(args.game, args.vs, args.num_players, args.seat, args.seed)
        elif args.command in VIEWER_MODULES:
            modules[args.command].run(args)
        else:
            module = modules[args.command]
            checked = args_from_namespace(module.Args, args)
            _print_notices(args.command, notices)
            _runner(args.command, module)(checked)
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


def _runner(command: str, module=None):
    """The ``main`` that does ``command``'s work: its ``RUNNERS`` module's, else
    ``module``'s (the one its arguments came from)."""
    if command in RUNNERS:
        return importlib.import_module(RUNNERS[command]).main
    return module.main


def _print_notices(command: str, notices: list[str]) -> None:
    for notice in notices:
        print(f"boardgame-envs {command}: {notice}", file=sys.stderr)


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
    players = args.num_players
    if not rules.min_players <= players <= rules.max_players:
        flag = "--players" if any(w.startswith("--players") for w in argv) else "--num-players"
        raise InvalidConfigError(
            f"{flag} {players} is not allowed for {args.game}; allowed: "
            f"{players_allowed(rules.min_players, rules.max_players)}"
        )
    if args.seat not in range(players):
        raise InvalidConfigError(
            f"--seat {args.seat} is not allowed; allowed: 0 to {players - 1} ({players} players)"
        )
    if args.seed is not None and args.seed < 0:
        raise InvalidConfigError(f"--seed {args.seed} is not allowed; allowed: an integer >= 0")


def _parser(chosen: str | None) -> tuple[argparse.ArgumentParser, dict]:
    """The command line's parser, with the options of the ``chosen`` command only, and the
    modules imported for it ({command: module})."""
    parser = OneLineParser(
        prog="boardgame-envs",
        description="Modern tabletop games as multi-agent RL environments.",
        epilog=example(EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="store_true",
        help="the library's, the native build's and every env's version",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help=SUMMARIES["list"], description=SUMMARIES["list"])
    play_doc = sys.modules[play.__module__].__doc__
    play_parser = commands.add_parser(
        "play", help=SUMMARIES["play"], description=_first_paragraph(play_doc)
    )
    play_parser.add_argument("game", metavar="GAME", help=f"the game: {', '.join(GAMES)}")
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
        "--num-players", type=int, default=2, help="players at the table (default: 2)"
    )
    add_deprecated_flag(play_parser, "--players", type=int)
    play_parser.add_argument(
        "--seat",
        type=int,
        default=0,
        help="your seat (0 moves first unless the game draws a start player) (default: 0)",
    )
    play_parser.add_argument(
        "--seed", type=int, default=None, help="deal seed (default: drawn at random)"
    )
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
