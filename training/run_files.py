"""The files of a training run: its directory, its config.json and its checkpoints.

Every training loop (PPO in ``training/ppo/train.py``, expert iteration in
``training/exit/train.py``) keeps one run directory, named as CleanRL names them:

    <out_dir>/<game>__<algo>__<seed>__<time>/
        config.json     the exact arguments and resolved settings of the run
        checkpoints/    the two latest checkpoints, <stem>_<timesteps, 10 digits>.<suffix>

Every file here is written to a temporary file in its folder and then renamed
(:func:`write_atomically`), so a run killed at any moment leaves each file whole: either the
old one or the new one, never half of one. A resumed run reads its config.json back
(:func:`read_config`) and continues from its newest checkpoint that can still be read
(:func:`newest_checkpoint`).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from boardgame_envs.core.rules import InvalidConfigError

T = TypeVar("T")

CONFIG_FILE = "config.json"
CHECKPOINTS = "checkpoints"
#: Checkpoints kept in ``checkpoints/``: the newest, and the one before it in case the
#: newest cannot be read.
CHECKPOINTS_KEPT = 2


def write_atomically(path: Path, write: Callable[[str], object]) -> Path:
    """``write(temp)`` to a temporary file in ``path``'s folder, then a rename, so that
    ``path`` is either the old file or the whole new one, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    os.close(handle)
    try:
        write(temp)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return path


def run_dir_name(game: str, algo: str, seed: int) -> str:
    """``<game>__<algo>__<seed>__<time>``, the time to the second (``20250101-120000``)."""
    return f"{game}__{algo}__{seed}__{time.strftime('%Y%m%d-%H%M%S')}"


def new_run_dir(out_dir: str | Path, game: str, algo: str, seed: int) -> Path:
    """A run directory ``<out_dir>/<game>__<algo>__<seed>__<time>``, created."""
    path = Path(out_dir) / run_dir_name(game, algo, seed)
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_config(run_dir: Path, config: dict) -> Path:
    """``config`` as ``run_dir/config.json`` (indented JSON), written atomically."""
    text = json.dumps(config, indent=2)
    return write_atomically(Path(run_dir) / CONFIG_FILE, lambda temp: Path(temp).write_text(text))


def read_config(run_dir: str | Path, writer: str = "train") -> dict:
    """``run_dir/config.json`` of a run to resume; ``InvalidConfigError`` naming the
    directory when it has none (``writer``: what writes such directories, for the message)."""
    path = Path(run_dir) / CONFIG_FILE
    if not path.exists():
        raise InvalidConfigError(
            f"--resume {str(run_dir)!r}: no {CONFIG_FILE} there; give a run "
            f"directory written by {writer}"
        )
    return json.loads(path.read_text())


def steps_of(path: Path) -> int:
    """The timesteps in a checkpoint's or snapshot's name: ``model_0000012800.zip`` -> 12800."""
    return int(path.stem.rsplit("_", 1)[1])


def save_atomically(model, path: Path, exclude: Sequence[str] = ()) -> Path:
    """``model.save(path)`` (an SB3 model, without the attributes named in ``exclude``),
    written atomically (:func:`write_atomically`)."""
    if exclude:
        return write_atomically(path, lambda temp: model.save(temp, exclude=list(exclude)))
    return write_atomically(path, model.save)


def checkpoint_paths(run_dir: Path, stem: str = "model", suffix: str = ".zip") -> list[Path]:
    """``run_dir``'s checkpoints of that name, oldest first."""
    return sorted((Path(run_dir) / CHECKPOINTS).glob(f"{stem}_*{suffix}"), key=steps_of)


def save_checkpoint(
    model,
    run_dir: Path,
    timesteps: int,
    write: Callable[[str], object] | None = None,
    stem: str = "model",
    suffix: str = ".zip",
) -> Path:
    """``checkpoints/<stem>_<timesteps>.<suffix>``, written atomically by ``write(temp)``
    (default: ``model.save``, an SB3 model); older checkpoints than the two latest are
    deleted."""
    path = Path(run_dir) / CHECKPOINTS / f"{stem}_{timesteps:010d}{suffix}"
    write_atomically(path, write or model.save)
    for old in checkpoint_paths(run_dir, stem, suffix)[:-CHECKPOINTS_KEPT]:
        old.unlink()
    return path


def newest_checkpoint(
    run_dir: Path,
    load: Callable[[Path], T],
    stem: str = "model",
    suffix: str = ".zip",
    unreadable: tuple[type[BaseException], ...] = (InvalidConfigError,),
) -> tuple[T, Path] | None:
    """``load(path)`` of ``run_dir``'s newest readable checkpoint and its path (None if it
    has none). One whose ``load`` raises one of ``unreadable`` (a file cut short, say) is
    reported and the one before it is tried; ``InvalidConfigError`` when none can be read."""
    checkpoints = checkpoint_paths(run_dir, stem, suffix)
    for path in reversed(checkpoints):
        try:
            loaded = load(path)
        except unreadable as error:
            print(f"checkpoint {path.name} is unreadable ({error}); trying the one before it")
            continue
        return loaded, path
    if checkpoints:
        raise InvalidConfigError(
            f"--resume {str(run_dir)!r}: none of its checkpoints can be read "
            f"({', '.join(p.name for p in checkpoints)})"
        )
    return None
