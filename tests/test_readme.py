"""The README and the user docs work as written.

* Every ```python block of README.md and of the pages in docs/ runs, from the repository
  root. A block that trains (calls ``.learn(N)``) runs in the default suite with its budget
  cut to one rollout, so that its API is checked quickly, and as written in the slow suite.
  Tracebacks name the page and the block's own line numbers.
* The README's five-minute start runs as written: every ``boardgame-envs`` command of its
  shell blocks (``play`` answered with ``q`` at its first prompt; ``watch`` at ``--pace 0``).
* Every relative link of README.md and docs/ points to a file (or folder) that exists, and
  a link to a heading to a heading that exists.
* Every env id and ``boardgame-envs`` command that README.md, docs/ and the package's
  docstring name exists.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
#: The pages whose python blocks run: the README and the user guides (not the generated
#: leaderboard, which has none).
#: Pages about a game of your own: their blocks run with the example game registered
#: (tests/plugin/test_docs_add_a_game.py), and the ids they name are that game's.
PLUGIN_PAGES = {"add-a-game.md"}
RUNNABLE_PAGES = [
    README,
    *sorted(p for p in (REPO / "docs").glob("*.md") if p.name not in PLUGIN_PAGES),
]
#: Every page whose links, ids and commands are checked.
DOCS = [README, *sorted((REPO / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
ANY_FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
LEARN = re.compile(r"\.learn\(\s*[\d_]+")
QUICK_BUDGET = ".learn(64"  # MaskablePPO still collects one full rollout (2,048 steps)
# SB3's progress bar is tqdm.rich, which warns that it is experimental.
pytestmark = pytest.mark.filterwarnings("ignore:rich is experimental")


def python_blocks(page: Path) -> list[tuple[int, str]]:
    """(first line of the code in ``page``, code) for every python block."""
    text = page.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start(1)) + 1, match.group(1)) for match in FENCE.finditer(text)
    ]


def unique_blocks() -> list[tuple[Path, int, str]]:
    """(page, line, code) of every python block; a block repeated word for word on another
    page (the README's, shown again in a guide) runs once, where it first appears."""
    seen: set[str] = set()
    blocks = []
    for page in RUNNABLE_PAGES:
        for line, code in python_blocks(page):
            if code not in seen:
                seen.add(code)
                blocks.append((page, line, code))
    return blocks


BLOCKS = unique_blocks()
#: Pages whose blocks reproduce measurements (games played for a figure): they run in the
#: slow suite only.
SLOW_PAGES = {"results.md"}


def _block_id(page: Path, line: int) -> str:
    return f"{page.relative_to(REPO)}:{line}"


QUICK = [
    pytest.param(
        page,
        line,
        code,
        id=_block_id(page, line),
        marks=[pytest.mark.slow] if page.name in SLOW_PAGES else [],
    )
    for page, line, code in BLOCKS
]
TRAINING = [
    pytest.param(page, line, code, id=_block_id(page, line))
    for page, line, code in BLOCKS
    if LEARN.search(code)
]


def run_block(page: Path, line: int, code: str) -> None:
    if "sb3_contrib" in code or "PPOAgent" in code or "ppo:" in code:
        pytest.importorskip("sb3_contrib")
    # Pad with blank lines so that a traceback's line numbers are the page's.
    compiled = compile("\n" * (line - 1) + code, str(page), "exec")
    exec(compiled, {"__name__": "__readme__"})


@pytest.fixture
def at_repo_root(monkeypatch):
    """Blocks may use paths relative to the repository (``runs/...``, ``examples/...``).
    Torch runs on one thread meanwhile (these small networks train fastest so beside other
    test workers); its setting is restored afterwards."""
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


def test_the_docs_have_the_examples():
    """The examples the README and the environments guide promise are there: a random AEC
    loop, evaluating your own agent, MaskablePPO on the Gymnasium env in the README; the
    shipped model through PPOAgent and through MaskablePPO.predict, batched envs and the
    rules engine in docs/environments.md."""
    readme = [code for page, _, code in BLOCKS if page == README]
    assert any("agent_iter()" in code for code in readme)
    assert any("evaluate(" in code and ".py:" in code for code in readme)
    assert any("MaskablePPO" in code and "progress_bar=True" in code for code in readme)
    guide = [code for _, code in python_blocks(REPO / "docs" / "environments.md")]
    assert any("PPOAgent.load(" in code for code in guide)
    assert any("model.predict(" in code and "action_masks()" in code for code in guide)
    assert any("observe_mask=True" in code for code in guide)
    assert any("make_vec(" in code for code in guide)
    assert any("make_rules(" in code for code in guide)


@pytest.mark.parametrize(("page", "line", "code"), QUICK)
def test_doc_block_runs(page, line, code, at_repo_root):
    run_block(page, line, LEARN.sub(QUICK_BUDGET, code))


@pytest.mark.slow
@pytest.mark.parametrize(("page", "line", "code"), TRAINING)
def test_doc_training_block_runs_as_written(page, line, code, at_repo_root):
    run_block(page, line, code)


# -- the five-minute start, as written ------------------------------------------------------
def section(text: str, heading: str) -> str:
    """The text of the ``## heading`` section of a markdown page."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def quick_start_commands() -> list[str]:
    """The ``boardgame-envs`` command lines of the shell blocks of the README's five-minute
    start (``make`` lines are the test suite and the demo themselves: not run here)."""
    quick_start = section(README.read_text(encoding="utf-8"), "Five-minute start")
    blocks = re.findall(r"^```bash\n(.*?)^```", quick_start, re.DOTALL | re.MULTILINE)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.startswith("boardgame-envs ")]


QUICK_START = quick_start_commands()


def as_run(command: str) -> tuple[list[str], str]:
    """(argv, stdin) that run ``command`` here: the console script of this interpreter's
    environment (or ``python -m boardgame_envs.training.cli``); ``play`` gets ``q`` at its first
    prompt, and ``watch`` plays at ``--pace 0``."""
    args = shlex.split(command)[1:]
    script = Path(sys.executable).with_name("boardgame-envs")
    module = [sys.executable, "-m", "boardgame_envs.training.cli"]
    program = [str(script)] if script.exists() else module
    stdin = ""
    if args[0] == "play":
        stdin = "q\n"
    if args[0] == "watch":
        if "--pace" in args:
            index = args.index("--pace")
            del args[index : index + 2]
        args += ["--pace", "0"]
    return program + args, stdin


def test_the_five_minute_start_shows_the_commands_it_promises():
    verbs = [shlex.split(command)[1] for command in QUICK_START]
    assert verbs[:3] == ["play", "watch", "eval"], QUICK_START
    assert any(".py:" in command for command in QUICK_START)


@pytest.mark.parametrize("command", QUICK_START)
def test_the_five_minute_start_runs_as_written(command):
    pytest.importorskip("sb3_contrib")  # the shipped agents' stack
    argv, stdin = as_run(command)
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        argv, cwd=REPO, input=stdin, capture_output=True, text=True, timeout=600, env=env
    )
    assert done.returncode == 0, f"`{command}` exited {done.returncode}:\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), f"`{command}` printed nothing"
    if shlex.split(command)[1] == "play":
        assert "quit" in done.stdout  # it showed the board and asked for a move


# -- every relative link points somewhere ----------------------------------------------------
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def slug(heading: str) -> str:
    """The anchor GitHub and MkDocs give a heading: lower case, markup and punctuation
    dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.strip().replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = ANY_FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(match.group(1)) for match in HEADING.finditer(text)}


def relative_links(page: Path) -> list[tuple[int, str]]:
    """(line, target) of every link of ``page`` that is not a URL, outside code blocks."""
    raw = page.read_text(encoding="utf-8")
    text = ANY_FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), raw)
    found = []
    for match in LINK.finditer(text):
        target = match.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        found.append((text.count("\n", 0, match.start()) + 1, target))
    return found


@pytest.mark.parametrize("page", DOCS, ids=[str(p.relative_to(REPO)) for p in DOCS])
def test_every_relative_link_points_to_a_file_and_heading_that_exist(page):
    broken = []
    for line, target in relative_links(page):
        path_part, _, anchor = target.partition("#")
        path = (page.parent / path_part).resolve() if path_part else page
        if not path.exists():
            broken.append(f"{page.name}:{line}: {target} (no such file)")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{page.name}:{line}: {target} (no heading #{anchor})")
    assert not broken, "\n".join(broken)


def test_the_link_checker_finds_broken_links(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# There\n\n## A `code` heading: yes\n")
    page.write_text(
        "[ok](there.md#a-code-heading-yes) [gone](missing.md) [bad](there.md#nope)\n"
        "```\n[in code](ignored.md)\n```\n[web](https://example.org)\n"
    )
    targets = [target for _, target in relative_links(page)]
    assert targets == ["there.md#a-code-heading-yes", "missing.md", "there.md#nope"]
    assert "a-code-heading-yes" in anchors(tmp_path / "there.md")


# -- every id and command the docs name exists ----------------------------------------------
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
    ids = {i: at for i, at in ids.items() if Path(at.split(":")[0]).name not in PLUGIN_PAGES}
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
    from boardgame_envs.training.cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    commands = set(re.search(r"\{([a-z,-]+)\}", capsys.readouterr().out).group(1).split(","))
    named_commands = named(COMMAND, group=1)
    assert {"play", "watch", "replay", "train", "eval", "league"} <= set(named_commands)
    for command, where in named_commands.items():
        assert command in commands, f"{where}: `boardgame-envs {command}`; commands: {commands}"
