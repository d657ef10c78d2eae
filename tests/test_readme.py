"""Every ```python block of README.md runs as written, from the repository root, and every
env id and ``boardgame-envs`` command that README.md, docs/ and the package's docstring
name exists.

A block that trains (calls ``.learn(N)``) runs in the default suite with its budget cut to
one rollout, so that its API is checked quickly, and as written in the slow suite.
Tracebacks name README.md and the block's own line numbers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
FENCE = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
LEARN = re.compile(r"\.learn\(\s*[\d_]+")
QUICK_BUDGET = ".learn(64"  # MaskablePPO still collects one full rollout (2,048 steps)
# SB3's progress bar is tqdm.rich, which warns that it is experimental.
pytestmark = pytest.mark.filterwarnings("ignore:rich is experimental")


def readme_blocks() -> list[tuple[int, str]]:
    """(first line of the code in README.md, code) for every python block."""
    text = README.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start(1)) + 1, match.group(1)) for match in FENCE.finditer(text)
    ]


BLOCKS = readme_blocks()
QUICK = [pytest.param(line, code, id=f"line{line}") for line, code in BLOCKS]
TRAINING = [
    pytest.param(line, code, id=f"line{line}") for line, code in BLOCKS if LEARN.search(code)
]


def run_block(line: int, code: str) -> None:
    if "sb3_contrib" in code or "PPOAgent" in code:
        pytest.importorskip("sb3_contrib")
    # Pad with blank lines so that a traceback's line numbers are README.md's.
    compiled = compile("\n" * (line - 1) + code, str(README), "exec")
    exec(compiled, {"__name__": "__readme__"})


@pytest.fixture
def at_repo_root(monkeypatch):
    """Blocks may use paths relative to the repository (``runs/...``). Torch runs on one
    thread meanwhile (these small networks train fastest so beside other test workers);
    its setting is restored afterwards."""
    monkeypatch.chdir(REPO)
    try:
        import torch
    except ImportError:
        yield
        return
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def test_readme_has_the_examples():
    """The examples the README promises are there: PettingZoo, Gymnasium training, the
    shipped model through PPOAgent and through MaskablePPO.predict, the rules engine."""
    codes = [code for _, code in BLOCKS]
    assert len(codes) >= 5
    assert any("PPOAgent.load(" in code for code in codes)
    assert any("model.predict(" in code and "action_masks()" in code for code in codes)
    assert any("observe_mask=True" in code for code in codes)
    assert any("progress_bar=True" in code for code in codes)


@pytest.mark.parametrize(("line", "code"), QUICK)
def test_readme_block_runs(line, code, at_repo_root):
    run_block(line, LEARN.sub(QUICK_BUDGET, code))


@pytest.mark.slow
@pytest.mark.parametrize(("line", "code"), TRAINING)
def test_readme_training_block_runs_as_written(line, code, at_repo_root):
    run_block(line, code)


# -- every id and command the docs name exists ----------------------------------------------
DOCS = [README, *sorted((REPO / "docs").rglob("*.md"))]
ENV_ID = re.compile(r"boardgame_envs/(?:[A-Za-z_]+|<[A-Za-z]+>)-v\d+")
COMMAND = re.compile(r"boardgame-envs ([a-z][a-z-]*)")


def named(pattern: re.Pattern, group: int = 0) -> dict[str, str]:
    """{what ``pattern`` finds: the first place that names it} over the docs and the
    package's docstring (``help(boardgame_envs)``)."""
    import boardgame_envs

    texts = [(str(path.relative_to(REPO)), path.read_text(encoding="utf-8")) for path in DOCS]
    texts.append(("help(boardgame_envs)", boardgame_envs.__doc__))
    found: dict[str, str] = {}
    for where, text in texts:
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.setdefault(match.group(group), f"{where}:{line}")
    return found


def test_every_env_id_the_docs_name_makes_an_env():
    import gymnasium
    import pettingzoo

    import boardgame_envs

    ids = named(ENV_ID)
    registered = {info.pettingzoo_id for info in boardgame_envs.GAMES.values()}
    registered |= {info.gymnasium_id for info in boardgame_envs.GAMES.values()}
    assert len(ids) >= 10, ids  # both ids of every game are named somewhere
    for env_id, where in ids.items():
        if "<" in env_id:  # a template with a version, "boardgame_envs/<game>-v0": every game's
            wanted = int(env_id.rpartition("-v")[2])
            versions = {g: i.rules().version for g, i in boardgame_envs.GAMES.items()}
            assert set(versions.values()) == {wanted}, f"{where} names {env_id}; {versions}"
            continue
        assert env_id in registered, f"{where} names {env_id}; registered: {sorted(registered)}"
        if env_id in gymnasium.registry:
            env = gymnasium.make(env_id)
        else:
            env = pettingzoo.make("aec", env_id)
        env.reset(seed=0)
        env.close()


def test_every_command_the_docs_name_is_a_command(capsys):
    from training.cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    commands = set(re.search(r"\{([a-z,-]+)\}", capsys.readouterr().out).group(1).split(","))
    named_commands = named(COMMAND, group=1)
    assert {"play", "train", "eval", "league"} <= set(named_commands)
    for command, where in named_commands.items():
        assert command in commands, f"{where}: `boardgame-envs {command}`; commands: {commands}"
