"""The game runs through the pipeline's play, eval and bench with no game-specific code."""

from __future__ import annotations

import io
import itertools

from boardgame_envs import raw_env
from boardgame_envs.training.cli.play import play
from boardgame_envs.training.evaluation import bench
from boardgame_envs.training.evaluation import tournament as evaluate


def test_play_in_the_terminal_to_the_end():
    answers = itertools.cycle(str(i) for i in range(69))  # illegal numbers are asked again
    out = io.StringIO()
    returns = play("tahiti", "heuristic", 2, seat=0, seed=3, read=lambda _: next(answers), out=out)
    assert returns == [-1.0, 1.0]  # the first legal number each time loses to the heuristic
    assert "Tahiti · season over after" in out.getvalue()


def test_eval_and_bench():
    report = evaluate.main(
        evaluate.Args(
            game="tahiti", agents="heuristic,random", num_players="2", games=2, progress=False
        )
    )
    assert report is not None
    assert bench.random_play_aec(raw_env("tahiti", 3), seconds=0.2, seed=0) > 0
