"""A real server (``boardgame-envs serve`` in a process of its own) killed mid-game, by
SIGKILL while an agent is thinking and by SIGTERM, and started again: every table resumes
where it was, the same links open the same seats, and the games play on to the end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason='the web extra is not installed (pip install ".[web]")')
httpx = pytest.importorskip("httpx", reason="httpx is not installed")

from tests.web.helpers import free_port, open_table, seat_path, wait_view  # noqa: E402


def start(data: Path, port: int, pause: float) -> tuple[subprocess.Popen, httpx.Client]:
    command = [sys.executable, "-m", "boardgame_envs.training.cli", "serve"]
    command += ["--port", str(port), "--data", str(data), "--agent-pause", str(pause)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    deadline = time.monotonic() + 60
    while True:
        try:
            if client.get("/api/games").status_code == 200:
                return process, client
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"the server did not start: {process.stdout.read()}")
        time.sleep(0.1)


def move(client, table: str, seat: int, token: str, pick: int = 0) -> dict:
    view = wait_view(client, table, seat, token)
    action = view["legal"][pick % len(view["legal"])]["action"]
    answer = client.post(
        seat_path(table, seat) + "/moves",
        params={"token": token},
        json={"action": action, "move": view["move"]},
    )
    assert answer.status_code == 200, answer.text
    return view


def move_anyone(client, table: str, tokens: dict[int, str], pick: int) -> None:
    """A move by whichever of the table's people is to move."""
    for _ in range(1000):
        for seat, token in tokens.items():
            view = client.get(seat_path(table, seat), params={"token": token}).json()
            if view["legal"]:
                move(client, table, seat, token, pick)
                return
        time.sleep(0.01)
    raise AssertionError("nobody's turn")


def settled(client, table: str, tokens: dict[int, str]) -> None:
    """Wait until one of the table's people has moves to choose from: the server has played
    every forced move it plays for a person, so the table stays as it is until someone
    moves."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for seat, token in tokens.items():
            if client.get(seat_path(table, seat), params={"token": token}).json()["legal"]:
                return
        time.sleep(0.01)
    raise AssertionError(f"table {table} did not settle")


def seen(client, table: str, seat: int, token: str) -> dict:
    view = client.get(seat_path(table, seat), params={"token": token}).json()
    return {key: view[key] for key in ("move", "text", "log", "scores", "toMove", "legal")}


def test_tables_survive_sigkill_and_sigterm(tmp_path):
    data, port = tmp_path / "tables", free_port()
    # an agent that takes its time, so that the kill comes while it thinks
    server, client = start(data, port, pause=2.0)
    try:
        wasabi, wasabi_tokens = open_table(
            client, "wasabi", ["person", "heuristic"], seed=5, options={"start_player": 0}
        )
        duel, duel_tokens = open_table(client, "factors_multiples", ["person", "person"], seed=2)
        for pick in range(6):
            move_anyone(client, duel, duel_tokens, pick)
        for _ in range(20):  # until the agent is thinking
            move(client, wasabi, 0, wasabi_tokens[0])
            view = client.get(seat_path(wasabi, 0), params={"token": wasabi_tokens[0]}).json()
            if view["thinking"] == 1:
                break
        assert view["thinking"] == 1
        settled(client, duel, duel_tokens)
        before = {
            (table, seat): seen(client, table, seat, token)
            for table, tokens in ((wasabi, wasabi_tokens), (duel, duel_tokens))
            for seat, token in tokens.items()
        }
        server.send_signal(signal.SIGKILL)
        server.wait(10)
    finally:
        server.kill()
        client.close()
    assert sorted(p.name for p in data.iterdir()) == sorted([f"{wasabi}.json", f"{duel}.json"])

    server, client = start(data, port, pause=0.0)
    try:
        for (table, seat), shown in before.items():
            tokens = wasabi_tokens if table == wasabi else duel_tokens
            now = seen(client, table, seat, tokens[seat])
            if table == duel:
                assert now == shown
            else:  # its agent plays on at once: what was seen is still there
                assert now["log"][: len(shown["log"])] == shown["log"]
        # the agent that was thinking when the server died moves now
        after = wait_view(client, wasabi, 0, wasabi_tokens[0])
        assert after["move"] > before[(wasabi, 0)]["move"]
        assert client.get(seat_path(wasabi, 0), params={"token": "wrong"}).status_code == 403
        for pick in range(4):
            move_anyone(client, duel, duel_tokens, pick)
        settled(client, duel, duel_tokens)
        shown = {seat: seen(client, duel, seat, token) for seat, token in duel_tokens.items()}
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        assert server.wait(15) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal
        assert time.monotonic() - started < 10
    finally:
        server.kill()
        client.close()

    server, client = start(data, port, pause=0.0)
    try:
        for seat, token in duel_tokens.items():
            assert seen(client, duel, seat, token) == shown[seat]
        while not (view := move_or_end(client, wasabi, 0, wasabi_tokens[0]))["finished"]:
            pass
        assert view["result"]
        record = client.get(seat_path(wasabi, 0) + "/record", params={"token": wasabi_tokens[0]})
        assert record.status_code == 200 and record.json()["seed"] == 5
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(15)
        client.close()
    assert not [p for p in data.iterdir() if p.name.endswith(".tmp")]
    assert os.listdir(data)


def move_or_end(client, table: str, seat: int, token: str) -> dict:
    view = wait_view(client, table, seat, token)
    if not view["finished"]:
        move(client, table, seat, token)
    return view
