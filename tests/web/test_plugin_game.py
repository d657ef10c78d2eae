"""A game from another package (the example ``examples/goofspiel``, registered through its
entry point in a subprocess) is on the start page and plays through the table server: its
text board, its picture where it has one, its moves, its record and its replay."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("starlette", reason='the web extra is not installed (pip install ".[web]")')
pytest.importorskip("httpx", reason="httpx is not installed (Starlette's test client needs it)")

from tests.plugin.helpers import REPO, plugin_environ  # noqa: E402

SCRIPT = textwrap.dedent(
    """
    import random, sys
    from starlette.testclient import TestClient
    from boardgame_envs.training.web.server import make_app
    from tests.web.helpers import open_table, seat_path, wait_view

    with TestClient(make_app(sys.argv[1])) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
        assert "goofspiel" in games, sorted(games)
        table, tokens = open_table(client, "goofspiel", ["person", "random"], seed=3)
        rng = random.Random(0)
        moves = 0
        while True:
            view = wait_view(client, table, 0, tokens[0])
            assert view["text"] and view["title"] == games["goofspiel"]["title"]
            if view["finished"]:
                break
            action = rng.choice(view["legal"])["action"]
            answer = client.post(seat_path(table, 0) + "/moves", params={"token": tokens[0]},
                                 json={"action": action, "move": view["move"]})
            assert answer.status_code == 200, answer.text
            moves += 1
        path, token = seat_path(table, 0), {"token": tokens[0]}
        assert client.get(path + "/record", params=token).json()["game"] == "goofspiel"
        assert "replay-data" in client.get(path + "/replay", params=token).text
        print("played", moves, "moves;", view["result"])
    """
)


def test_a_plugin_game_plays_through_the_server(tmp_path):
    env = plugin_environ(tmp_path / "dist")
    env["PYTHONPATH"] = f"{REPO}{':' + env['PYTHONPATH'] if env.get('PYTHONPATH') else ''}"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "tables")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "played" in done.stdout
