"""The table server under load: many tables at once, each a random "person" (an HTTP
client) against the heuristic.

Starts ``boardgame-envs serve`` in a process of its own, opens ``tables`` tables (the games
in turn, two seats: a person, then the heuristic), and plays them all at the same time: each
person waits for its turn on the table's event stream, reads its view (what its page would
show), and sends a random legal move. Reports the moves served per second (people's and
agents') and the latency of a person's move (the POST, answered once the move is applied
and saved; the agent's reply comes after the answer, so its thinking is not counted) and of
a view (the GET a page makes after each change).

    python scripts/web_load.py --tables 50 --seconds 60
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import httpx

from boardgame_envs.registry import GAMES
from boardgame_envs.training.cli_args import POSITIVE, at_least, check_fields, parse_args


@dataclass
class Args:
    tables: int = 50
    """tables played at once"""
    seconds: float = 60.0
    """how long to play (the tables still playing then are left)"""
    games: str = ",".join(GAMES)
    """the games, comma-separated, taken in turn by the tables"""
    seed: int = 0
    """seeds the deals and the people's moves"""
    workers: int = -1
    """the server's --workers (-1: its default)"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def next_change(lines, version: int) -> None:
    """Read the event stream until the table's version is another than ``version``."""
    async for line in lines:
        if line.startswith("data:") and json.loads(line[5:])["version"] != version:
            return


async def play_table(
    client: httpx.AsyncClient, game: str, seed: int, deadline: float, stats: dict
) -> None:
    answer = await client.post(
        "/api/tables", json={"game": game, "players": ["person", "heuristic"], "seed": seed}
    )
    answer.raise_for_status()
    body = answer.json()
    link = body["seats"][0]["link"]
    token = link.split("token=")[1]
    path = f"/api/tables/{body['table']}/seats/0"
    params = {"token": token}
    rng = random.Random(seed)
    async with client.stream("GET", path + "/events", params=params, timeout=None) as events:
        lines = events.aiter_lines()
        while time.monotonic() < deadline:
            started = time.perf_counter()
            view = (await client.get(path, params=params)).json()
            stats["view"].append(time.perf_counter() - started)
            if view["finished"]:
                stats["finished"] += 1
                stats["moves"] += view["move"]
                return
            if view["legal"]:
                action = rng.choice(view["legal"])["action"]
                started = time.perf_counter()
                answer = await client.post(
                    path + "/moves", params=params, json={"action": action, "move": view["move"]}
                )
                stats["move"].append(time.perf_counter() - started)
                if answer.status_code != 200:
                    stats["refused"] += 1
                continue
            try:  # the next change of the table
                await asyncio.wait_for(
                    next_change(lines, view["version"]), deadline - time.monotonic()
                )
            except asyncio.TimeoutError:
                break
        stats["moves"] += view["move"]


async def load(args: Args, base: str) -> dict:
    games = args.games.split(",")
    stats = {"view": [], "move": [], "moves": 0, "finished": 0, "refused": 0}
    limits = httpx.Limits(
        max_connections=4 * args.tables, max_keepalive_connections=4 * args.tables
    )
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        started = time.monotonic()
        deadline = started + args.seconds
        await asyncio.gather(
            *(
                play_table(client, games[t % len(games)], args.seed + t, deadline, stats)
                for t in range(args.tables)
            )
        )
        stats["wall"] = time.monotonic() - started
    return stats


def main(args: Args) -> dict:
    check_fields(args, {"tables": at_least(1), "seconds": POSITIVE})
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tempfile.mkdtemp(prefix="web-load-")
    command = [sys.executable, "-m", "boardgame_envs.training.cli", "serve", "--port", str(port)]
    command += ["--data", data, "--agent-pause", "0"]
    if args.workers >= 0:
        command += ["--workers", str(args.workers)]
    server = subprocess.Popen(command)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(base + "/api/games").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        stats = asyncio.run(load(args, base))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        shutil.rmtree(data, ignore_errors=True)
    moves = stats["moves"]
    person = len(stats["move"])
    print(
        f"{args.tables} tables ({args.games}), {stats['wall']:.0f} s, {os.cpu_count()} cores, "
        f"server workers {'default' if args.workers < 0 else args.workers}: "
        f"{moves} moves ({person} by people, {moves - person} by the heuristic), "
        f"{moves / stats['wall']:.0f} moves/s; {stats['finished']} games finished; "
        f"{stats['refused']} moves refused"
    )
    print(
        f"a person's move (POST): median {1000 * percentile(stats['move'], 0.5):.0f} ms, "
        f"95th percentile {1000 * percentile(stats['move'], 0.95):.0f} ms"
    )
    print(
        f"a view (GET): median {1000 * percentile(stats['view'], 0.5):.0f} ms, "
        f"95th percentile {1000 * percentile(stats['view'], 0.95):.0f} ms"
    )
    return stats


if __name__ == "__main__":
    main(parse_args(Args))
