"""Helpers of the web app's tests: a server on a free port, and tables driven over HTTP."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import uvicorn

from boardgame_envs.training.web.server import make_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def live_server(data: Path, agent_pause: float = 0.0) -> Iterator[tuple[str, Any]]:
    """A real server (uvicorn) in a thread of this process: ``(base URL, the app)``."""
    app = make_app(data, agent_pause=agent_pause)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        app.state.stop_streams()
        server.should_exit = True
        thread.join(10)


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["token"][0]


def seat_path(table: str, seat: int | str) -> str:
    return f"/api/tables/{table}/seats/{seat}"


def open_table(client: Any, game: str, players: list[str], **fields: Any) -> tuple[str, dict]:
    """A new table: its id and {seat: token} of its people."""
    answer = client.post("/api/tables", json={"game": game, "players": players, **fields})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    tokens = {s["seat"]: token_of(s["link"]) for s in body["seats"] if "link" in s}
    return body["table"], tokens


def wait_view(client: Any, table: str, seat: int, token: str, timeout: float = 30.0) -> dict:
    """The seat's view once it is the seat's turn (no agent thinking) or the game is over."""
    deadline = time.monotonic() + timeout
    while True:
        view = client.get(seat_path(table, seat), params={"token": token}).json()
        if view["finished"] or view["legal"]:
            return view
        if time.monotonic() > deadline:
            raise AssertionError(f"seat {seat} never got a turn: {view['agentError']}")
        time.sleep(0.01)
