"""A web app on this computer: open a table of any game, play it in the browser by
clicking, against agents or other people, and replay it.

boardgame-envs serve                                  http://127.0.0.1:8000/, tables kept in
                                                      ~/.local/share/boardgame-envs/tables
boardgame-envs serve --port 8080 --data my-tables     another port, another folder
boardgame-envs serve --host 0.0.0.0                   reachable from the network: the seats'
                                                      secret links are its only access control

The start page opens a table: the game (every installed game, plugins included), the number
of players, the game's options, a seed (or a random one) and, for each seat, a person or an
agent spec (``heuristic``, ``ismcts``, ``ppo:<game>``, ``net:<game>``, ``file.py:Name``...).
Each person's seat gets a secret link; its page shows that seat's view only. Tables are
saved after every move and resume when the server starts again.

Built on Starlette (a small ASGI toolkit: routing, JSON, static files, streamed responses
for server-sent events, and a test client) served by uvicorn. The pages are plain HTML and
JavaScript files, so no template engine is needed.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import gc
import json
import multiprocessing
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from boardgame_envs.agents.specs import AGENT_KINDS
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import GAMES
from boardgame_envs.training.cli_args import check_output_folder
from boardgame_envs.training.web.tables import PERSON, Table, TableError, TableStore
from boardgame_envs.training.web.views import board_future, finish_view, warm_up, watch_parent

#: The pages and their script and style.
STATIC = Path(__file__).parent / "static"
#: A server-sent events stream says something at least this often (seconds), so that
#: proxies and browsers keep it open.
KEEP_ALIVE = 15.0
#: The addresses of this computer only.
LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: The largest request body read, in bytes (a move or a new table is far smaller).
MAX_BODY = 64 * 1024


def default_data_folder() -> Path:
    """Where tables are kept unless ``--data`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "boardgame-envs" / "tables"


def default_workers() -> int:
    """Processes that draw pages by default: the cores but one, at least 1, at most 4."""
    return min(4, max(1, (os.cpu_count() or 2) - 1))


# -- the app -------------------------------------------------------------------------------
def make_app(
    data: str | Path,
    agent_pause: float = 0.0,
    prefetch: bool = True,
    workers: int = 0,
    own_agents: bool = True,
) -> Starlette:
    """The web app, keeping its tables in the folder ``data``; agents move at least
    ``agent_pause`` seconds after the move before theirs. Tables are loaded (and their
    agents set to play) when the app starts.

    ``workers``: processes that draw the seats' views (the pictures, and the places to
    click, which take a second in a large position), so that the server answers moves
    while they draw and uses more than one core; 0 draws them in threads of the server's
    own process. ``prefetch``: a person's view is drawn as soon as it is their turn, before
    their page asks. ``own_agents``: whether a new table may seat agents from the user's
    own code (``module:attr``, ``file.py:attr``: they run code of this computer).
    """
    store = TableStore(data, pause=agent_pause, own_agents=own_agents)
    if workers > 0:
        spawn = multiprocessing.get_context("spawn")  # no fork of a process with threads
        drawing: concurrent.futures.Executor = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=spawn, initializer=watch_parent, initargs=(os.getpid(),)
        )
    else:
        drawing = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="drawing")
    # the pages of seats not to move are quick to draw: here, in threads
    quick = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="quick-drawing")
    waiters: dict[str, asyncio.Event] = {}
    stopping: list[asyncio.Event] = []  # set when the app stops (one per start)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        stopping[:] = [asyncio.Event()]

        def wake(table_id: str) -> None:
            event = waiters.pop(table_id, None)
            if event is not None:
                event.set()

        def stop() -> None:
            stopping[0].set()
            for event in list(waiters.values()):
                event.set()

        def changed(table: Table) -> None:
            try:
                loop.call_soon_threadsafe(wake, table.id)
                if prefetch and not table.finished:
                    mover = table.state.current_player
                    if table.seats[mover].is_person:
                        board_future(table, mover, drawing, quick)
            except RuntimeError:  # the app is stopping: its loop or its drawing is closed
                pass

        store.on_change = changed
        # the event streams end first when the server stops (uvicorn waits for open
        # answers before the app's shutdown)
        app.state.stop_streams = lambda: loop.call_soon_threadsafe(stop)
        for _ in range(workers):
            drawing.submit(warm_up)
        await run_in_threadpool(store.load)
        for problem in store.problems:
            print(f"boardgame-envs serve: skipped {problem}", file=sys.stderr)
        store.start_agents()
        yield
        stop()
        store.on_change = lambda table: None  # agents still thinking find no loop to tell
        await run_in_threadpool(store.close)
        drawing.shutdown(wait=False, cancel_futures=True)
        quick.shutdown(wait=False, cancel_futures=True)
        stop_workers(drawing)

    async def start_page(request: Request) -> Response:
        return FileResponse(STATIC / "start.html")

    async def table_page(request: Request) -> Response:
        table, _ = _seat_of(request)
        return FileResponse(STATIC / "table.html")

    async def games(request: Request) -> Response:
        return JSONResponse({"games": [_game_entry(g) for g in GAMES], "agents": AGENT_KINDS})

    async def create(request: Request) -> Response:
        body = await _json_body(request)
        fields = {"game", "num_players", "players", "seed", "options"}
        unknown = sorted(set(body) - fields)
        if unknown:
            known = ", ".join(sorted(fields))
            raise TableError(400, f"unknown field {unknown[0]!r}; known: {known}")
        if "game" not in body or "players" not in body:
            raise TableError(400, 'a table needs "game" and "players" (one per seat)')
        table = await run_in_threadpool(lambda: store.create(**body))
        table.start_agents()
        return JSONResponse(_table_links(table), status_code=201)

    async def view(request: Request) -> Response:
        table, seat = _seat_of(request)
        board = await asyncio.wrap_future(board_future(table, seat, drawing, quick))
        return JSONResponse(finish_view(table, seat, board))

    async def move(request: Request) -> Response:
        table, seat = _seat_of(request)
        body = await _json_body(request)
        if "action" not in body or "move" not in body:
            raise TableError(
                400, 'a move needs "action" and "move" (how many moves were played before it)'
            )
        answer = await run_in_threadpool(table.submit, seat, body["action"], body["move"])
        return JSONResponse(answer)

    async def events(request: Request) -> Response:
        table, seat = _seat_of(request)

        async def stream() -> AsyncIterator[str]:
            last = None
            while not stopping[0].is_set():
                event = waiters.setdefault(table.id, asyncio.Event())
                if table.version != last:
                    last = table.version
                    yield f"event: change\ndata: {json.dumps({'version': last})}\n\n"
                try:
                    await asyncio.wait_for(event.wait(), KEEP_ALIVE)
                except asyncio.TimeoutError:
                    yield ": still here\n\n"

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    async def record(request: Request) -> Response:
        table, seat = _seat_of(request)
        record = table.record()
        name = f"{table.game}-{table.id}.json"
        return Response(
            json.dumps(record, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def replay(request: Request) -> Response:
        table, seat = _seat_of(request)
        page = await run_in_threadpool(_replay_page, store, table, seat)
        return HTMLResponse(page)

    def _seat_of(request: Request) -> tuple[Table, int]:
        table = store.get(request.path_params["table"])
        seat = table.check_token(request.path_params["seat"], request.query_params.get("token"))
        return table, seat

    seat_path = "/api/tables/{table}/seats/{seat}"
    routes = [
        Route("/", start_page),
        Route("/t/{table}/{seat}", table_page),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/games", games),
        Route("/api/tables", create, methods=["POST"]),
        Route(seat_path, view),
        Route(seat_path + "/moves", move, methods=["POST"]),
        Route(seat_path + "/events", events),
        Route(seat_path + "/record", record),
        Route(seat_path + "/replay", replay),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def refused(request: Request, error: Exception) -> Response:
        assert isinstance(error, TableError)
        return JSONResponse({"error": error.reason}, status_code=error.status)

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={TableError: refused},
        middleware=[Middleware(_SecretHeaders)],
    )
    app.state.store = store
    return app


class _SecretHeaders:
    """The links hold secrets: a page never sends its address on as a referrer, and no
    answer is kept in a cache."""

    HEADERS = [
        (b"referrer-policy", b"no-referrer"),
        (b"x-content-type-options", b"nosniff"),
        (b"cache-control", b"no-store"),
    ]

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k != b"cache-control"]
                message = {**message, "headers": headers + self.HEADERS}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def stop_workers(drawing: concurrent.futures.Executor) -> None:
    """End a process pool's workers now (a worker busy drawing a large position would
    otherwise hold the server's exit until it is done)."""
    terminate = getattr(drawing, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(drawing, "_processes", None) or {}).values()):
        process.terminate()


async def _json_body(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise TableError(413, f"the request body is over {MAX_BODY} bytes")
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise TableError(400, f"the request body is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise TableError(400, "the request body must be a JSON object")
    return data


def _game_entry(game: str) -> dict[str, Any]:
    info = GAMES[game]
    rules = info.rules()
    options = []
    for name, option in rules.options.items():
        allowed = list(option.allowed) if isinstance(option.allowed, tuple) else None
        options.append(
            {
                "name": name,
                "default": option.default,
                "doc": option.doc,
                "allowed": allowed,
                "allowedText": option.allowed_text,
            }
        )
    return {
        "id": game,
        "title": info.title,
        "minPlayers": rules.min_players,
        "maxPlayers": rules.max_players,
        "options": options,
    }


def _table_links(table: Table) -> dict[str, Any]:
    seats = []
    for s, seat in enumerate(table.seats):
        entry = {"seat": s, "player": seat.player}
        if seat.player == PERSON:
            entry["link"] = f"/t/{table.id}/{s}?token={seat.token}"
        seats.append(entry)
    return {"table": table.id, "game": table.game, "seats": seats}


def _replay_page(store: TableStore, table: Table, seat: int) -> str:
    """The replay viewer of the finished game, opening on ``seat``'s view (made once and
    kept beside the table's file)."""
    from boardgame_envs.training.records.html_replay import render_html

    record = table.record()
    path = store.folder / f"{table.id}.replay-{seat}.html"
    if path.exists():
        return path.read_text(encoding="utf-8")
    views = [seat, None, *(s for s in range(table.num_players) if s != seat)]
    page = render_html(record, views=views, seat=seat)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(page, encoding="utf-8")
    os.replace(temporary, path)
    return page


# -- the command -----------------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this computer only; another "
        "address lets others reach the server, and the seats' links are then the only "
        "access control)",
    )
    parser.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    parser.add_argument(
        "--data",
        default=None,
        metavar="DIR",
        help=f"the folder the tables are kept in (default: {default_data_folder()})",
    )
    parser.add_argument(
        "--own-agents",
        action="store_true",
        help="let tables seat agents from your own code (module:attr, file.py:attr) even when "
        "--host is not this computer's: they run code of this computer (default: off, "
        "except on 127.0.0.1, where they are always allowed)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=default_workers(),
        help="processes that draw the seats' pages, beside the server's own (0: drawn in "
        f"the server's process; default: {default_workers()}, the cores but one, at most 4)",
    )
    parser.add_argument(
        "--agent-pause",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="the least time between an agent's move and the move before it, so that people "
        "can follow (default: 0.6)",
    )


def check_arguments(args: argparse.Namespace) -> Path:
    """The data folder; InvalidConfigError for a bad argument, before anything starts."""
    if not 1 <= args.port <= 65535:
        raise InvalidConfigError(f"--port {args.port} is not allowed; allowed: 1 to 65535")
    if not args.host or not re.fullmatch(r"[A-Za-z0-9.:\-\[\]]+", args.host):
        raise InvalidConfigError(
            f"--host {args.host!r} is not an address; give one such as 127.0.0.1"
        )
    if not 0 <= args.workers <= 64:
        raise InvalidConfigError(f"--workers {args.workers} is not allowed; allowed: 0 to 64")
    if not args.agent_pause >= 0 or args.agent_pause > 60:
        raise InvalidConfigError(
            f"--agent-pause {args.agent_pause} is not allowed; allowed: 0 to 60 seconds"
        )
    data = Path(args.data) if args.data is not None else default_data_folder()
    return check_output_folder("--data", data)


def run(args: argparse.Namespace) -> None:
    data = check_arguments(args)
    local = args.host in LOOPBACK
    app = make_app(
        data,
        agent_pause=args.agent_pause,
        workers=args.workers,
        own_agents=local or args.own_agents,
    )
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"boardgame-envs serve: http://{shown}:{args.port}/ (tables in {data})", flush=True)
    if not local:
        print(
            "boardgame-envs serve: listening beyond this computer; anyone with a seat's "
            "link can play that seat",
            flush=True,
        )
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=2,
    )
    try:
        serve_app(uvicorn.Server(config), app)
    finally:
        # the tables' states and agents go before the interpreter does (the compiled
        # engines would report them as leaked otherwise)
        app.state.store.close()
        gc.collect()


def serve_app(server: uvicorn.Server, app: Starlette) -> None:
    """Run ``server`` (serving ``app``) until it is stopped; its event streams end first,
    so that it stops at once."""
    handle_exit = server.handle_exit

    def stop(sig: int, frame: Any) -> None:
        stop_streams = getattr(app.state, "stop_streams", None)
        if stop_streams is not None:
            stop_streams()
        handle_exit(sig, frame)

    server.handle_exit = stop  # type: ignore[method-assign]
    server.run()
