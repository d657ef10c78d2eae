"""One command-line grammar: the game first after the command in every command that plays
one, the same flag names everywhere, the old forms working for one version with a one-line
notice, plain-text help with real defaults, and ``--version``."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

import boardgame_envs
from boardgame_envs.registry import GAMES
from boardgame_envs.training import cli_args
from boardgame_envs.training.cli import commands as cli

#: The commands that play one game, and the options that make each end at once (checked,
#: then stopped before any game by a bad value given last).
GAME_COMMANDS = ("train", "eval", "league")

#: Every help text a user can ask for.
HELP_COMMANDS = [
    [],
    *[[name] for name in (*cli.COMMAND_MODULES, *cli.VIEWER_MODULES, "play", "list")],
    ["train", "--algo", "exit"],
]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = cli.main(argv)
    except SystemExit as done:
        code = done.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def help_of(argv: list[str], capsys) -> str:
    code, out, _ = run([*argv, "--help"], capsys)
    assert code == 0
    return out


def parsed(command: str, argv: list[str]):
    """``command``'s checked arguments from ``argv`` (the game and the options), and the
    deprecation notices the command line would print."""
    parser, modules = cli._parser(command)
    namespace = parser.parse_args([command, *argv])
    notices = cli_args.take_deprecated_flags(namespace, argv)
    return cli_args.args_from_namespace(modules[command].Args, namespace), notices


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_the_game_comes_first_after_the_command(command):
    args, notices = parsed(command, ["wasabi"])
    assert args.game == "wasabi" and notices == []
    args, _ = parsed(command, ["--seed", "3", "tahiti"])  # after the options too
    assert args.game == "tahiti"


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_the_old_game_flag_works_with_a_one_line_notice(command):
    args, notices = parsed(command, ["--game", "wasabi"])
    assert args.game == "wasabi"
    assert len(notices) == 1
    assert "--game is deprecated" in notices[0] and cli_args.DEPRECATED_UNTIL in notices[0]
    assert cli_args.example("boardgame-envs eval {game}") in notices[0]


@pytest.mark.parametrize("command", ["eval", "league"])
def test_no_command_picks_a_game_for_you(command, capsys):
    code, out, err = run([command], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "the game is required, first after the command" in err
    for game in GAMES:
        assert game in err


def test_a_game_given_twice_two_ways_is_refused(capsys):
    code, out, err = run(["eval", "wasabi", "--game", "tahiti"], capsys)
    assert code == 2 and out == ""
    assert err == (
        "boardgame-envs eval: the game is given twice (wasabi, and --game tahiti); give it "
        "once, as the game first after the command\n"
    )


def test_the_notice_comes_once_the_arguments_are_checked(capsys):
    # a bad option with the old form: the error alone, no notice before it
    code, _, err = run(["eval", "--game", "wasabi", "--games", "0"], capsys)
    assert code == 2
    assert err.count("\n") == 1 and "--games 0 is not allowed" in err


def test_play_takes_num_players_as_every_command_does(capsys):
    text = help_of(["play"], capsys)
    assert "--num-players" in text
    assert "--players" not in text.replace("--num-players", "")
    code, _, err = run(["play", "tahiti", "--num-players", "7"], capsys)
    assert code == 2
    assert "--num-players 7 is not allowed for tahiti" in err
    code, _, err = run(["play", "tahiti", "--players", "7"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "--players 7 is not allowed for tahiti" in err


def test_plays_old_players_flag_works_with_a_notice(monkeypatch, capsys):
    played = {}
    monkeypatch.setattr(cli, "play", lambda game, vs, players, seat, seed: played.update(n=players))
    code, _, err = run(["play", "wasabi", "--players", "3"], capsys)
    assert code == 0 and played == {"n": 3}
    assert err == (
        "boardgame-envs play: --players is deprecated and will be removed in version "
        f"{cli_args.DEPRECATED_UNTIL}; give --num-players instead, e.g. "
        f"{cli_args.example('boardgame-envs play {game} --num-players 3')}\n"
    )
    code, _, err = run(["play", "wasabi", "--players", "3", "--num-players", "4"], capsys)
    assert code == 2
    assert err == (
        "boardgame-envs play: the number of players is given twice (--num-players 4, and "
        "--players 3); give it once, as --num-players\n"
    )


#: What a help text must not show: code marks, the library's internal names (constants,
#: module paths, functions), and None or '' where a default should be said in words.
NOT_PLAIN = {
    "code marks": re.compile(r"``"),
    "a constant's name": re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"),
    "a module path": re.compile(r"\b(?:agents|training|boardgame_envs)[./]\w+"),
    "a function's name": re.compile(r"\b(?:train_ppo|main|make_agent)\(?\b"),
    "None": re.compile(r"\bNone\b"),
    "an empty quoted default": re.compile(r"default: (?:''|\"\")"),
    "a quoted default": re.compile(r"default: '"),
    "a default not said in words": re.compile(r"default: unset"),
}


def option_help(text: str) -> str:
    """The help's descriptions, without its usage lines and each option's metavar (the
    placeholders of its value, such as NUM_PLAYERS)."""
    return re.sub(r"(--[a-z-]+) [A-Z][A-Z_.]*\b", r"\1", text.split("\n\n", 1)[1])


@pytest.mark.parametrize("argv", HELP_COMMANDS, ids=lambda a: " ".join(a) or "top")
def test_help_is_plain_text_with_real_defaults(argv, capsys):
    text = " ".join(option_help(help_of(argv, capsys)).split())
    for what, pattern in NOT_PLAIN.items():
        found = pattern.search(text)
        assert found is None, f"{what}: ...{text[max(0, found.start() - 60) : found.end() + 30]}"


@pytest.mark.parametrize("argv", HELP_COMMANDS[1:], ids=lambda a: " ".join(a))
def test_every_option_says_its_default(argv, capsys):
    """Every option of a command's help ends with its default (or says it is required);
    flags and positional arguments whose help says what they take are the exceptions."""
    text = option_help(help_of(argv, capsys))
    options = re.split(r"\n  (?=-)", text.split("options:\n", 1)[1])[1:]
    for option in options:
        words = " ".join(option.split())
        if words.startswith(("-h,", "--algo")):
            continue
        assert re.search(r"\((?:default: [^()]*(?:\([^()]*\)[^()]*)*|required)\)$", words) or (
            "default:" in words
        ), words


def test_top_level_help_ends_with_two_examples_and_the_docs(capsys):
    text = help_of([], capsys)
    examples = re.findall(r"^  boardgame-envs .+$", text.split("examples:")[1], re.M)
    assert len(examples) == 2
    assert text.rstrip().endswith(f"documentation: {cli.DOCS}")
    for example in examples:  # each example is a real command line
        argv = example.split()[1:]
        parser, _ = cli._parser(argv[0])
        parser.parse_args(argv)


def test_version_names_the_library_the_native_build_and_every_env(capsys):
    code, out, err = run(["--version"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"boardgame-envs {boardgame_envs.__version__}"
    info = boardgame_envs.engine_info()
    if info["native"]["error"] is None:
        assert lines[1].startswith(f"native engines {info['native']['version']} (")
        assert info["native"]["version"] == boardgame_envs.__version__
    else:
        assert lines[1].startswith("native engines: not built")
    for game, game_info in GAMES.items():
        version = game_info.rules("python").version
        line = next(line for line in lines if line.split()[:1] == [game])
        assert f"env v{version}" in line and game_info.pettingzoo_id in line
        assert line.split()[-1] == info["engines"][game]


def test_help_list_and_version_answer_without_the_heavy_imports():
    """--help, list and --version import no torch (the training stack takes seconds)."""
    code = (
        "import sys, time; t = time.perf_counter(); "
        "from boardgame_envs.training.cli.commands import main; "
        "import contextlib, io\n"
        "for argv in (['list'], ['--version']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()): main(argv)\n"
        "for argv in (['--help'], ['eval', '--help'], ['train', '--help']):\n"
        "    try:\n"
        "        with contextlib.redirect_stdout(io.StringIO()): main(argv)\n"
        "    except SystemExit: pass\n"
        "print(sorted(m for m in ('torch', 'stable_baselines3', 'matplotlib') if m in sys.modules))"
    )
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
    assert time.perf_counter() - started < 30  # a generous bound: the point is the imports


def test_a_reader_that_goes_away_ends_the_command_quietly():
    # `boardgame-envs list | head -1`, its reader gone before anything is written: no
    # traceback, exit status 1.
    command = [
        sys.executable,
        "-c",
        "from boardgame_envs.training.cli import main; raise SystemExit(main())",
        "list",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 1, stderr
    assert b"Traceback" not in stderr and b"BrokenPipeError" not in stderr
