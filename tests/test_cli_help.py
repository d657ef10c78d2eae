"""``boardgame-envs --help`` and each command's ``--help``: whole summaries, and the options a
newcomer needs (every kind of agent; what makes a search table reproducible)."""

from __future__ import annotations

import importlib
import re

import pytest

from boardgame_envs.training.cli import commands as cli


def help_text(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as done:
        cli.main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def command_summaries(text: str) -> dict[str, str]:
    """{command: its summary, its wrapped lines joined} from the top-level help."""
    lines = text.split("positional arguments:\n")[1].split("\noptions:")[0].splitlines()[1:]
    summaries: dict[str, str] = {}
    for line in lines:
        found = re.match(r"    ([a-z][a-z-]*)\s+(.*)", line)
        if found:
            name = found.group(1)
            summaries[name] = found.group(2)
        elif line.strip():
            summaries[name] += " " + line.strip()
    return summaries


def test_every_command_has_a_whole_summary(capsys):
    text = help_text([], capsys)
    listed = re.search(r"\{([a-z,-]+)\}", text).group(1).split(",")
    summaries = command_summaries(text)
    assert list(summaries) == listed
    for name, summary in summaries.items():
        expected = cli.SUMMARIES.get(name)
        if expected is not None:
            assert summary == expected, name
        # not cut in mid-sentence: no summary ends on a word that needs another after it
        assert summary.split()[-1] not in {"a", "an", "and", "at", "the", "of", "legal"}, summary
    for name in ("leaderboard", "bench"):
        assert summaries[name] == cli.SUMMARIES[name]


@pytest.mark.parametrize("command", ["train", "eval", "league", "leaderboard", "bench", "demo"])
def test_each_command_opens_with_its_modules_first_paragraph(command, capsys):
    text = " ".join(help_text([command], capsys).split())
    doc = importlib.import_module(cli.COMMAND_MODULES[command]).__doc__
    assert " ".join(doc.strip().split("\n\n")[0].replace("``", "").split()) in text


def test_play_help_names_every_kind_of_agent(capsys):
    text = " ".join(help_text(["play", "wasabi"], capsys).split())
    for kind in ("random", "heuristic", "ismcts", "ppo:<game>", "ppo:<game>@3p", "ppo:<model"):
        assert kind in text, kind


@pytest.mark.parametrize("command", ["eval", "league"])
def test_agents_help_says_what_makes_search_tables_reproducible(command, capsys):
    text = " ".join(help_text([command], capsys).split())
    assert "0.25 s" in text and "ismcts:seconds=0" in text and "reproducible" in text
    assert "ppo:<game>" in text


def test_train_help_offers_the_devices(capsys):
    text = " ".join(help_text(["train"], capsys).split())
    assert "--device DEVICE" in text
    assert "auto (CUDA where torch sees a GPU, else the CPU), cpu, cuda or cuda:N" in text
