"""Every ```python block of README.md runs as written, from the repository root.

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
    """Blocks use paths relative to the repository (``models/...``). Torch runs on one
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
