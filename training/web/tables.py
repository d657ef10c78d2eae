"""Tables: one game in progress, its seats and their secret links, and the folder that keeps
them.

A :class:`Table` holds a game (dealt by ``rules.new_state(num_players, seed, **options)``),
who sits at each seat (``"person"`` or an agent spec such as ``heuristic``), one secret
token per seat, the moves played so far and what each seat was told of each move. Agents
move on the server, in a thread of their own (:meth:`Table.run_agents`); a person moves
through :meth:`Table.submit`, which checks the move against the rules and applies it once.

A :class:`TableStore` keeps every table in a folder as ``<id>.json``, written again after
every move: a temporary file in the same folder, then ``os.replace`` over the old one, so
the file on disk is always a whole table, whenever the server is stopped (even by
``SIGKILL``). At start the store loads every table of its folder and replays its moves from
the deal seed, so a table resumes where it was and its links keep working.

The file of a table holds its seats' tokens: anyone who can read the folder can open every
seat.
"""

from __future__ import annotations

import datetime
import hmac
import json
import os
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs.agents.specs import is_user_spec, make_agent
from boardgame_envs.core.rules import (
    IllegalActionError,
    InvalidConfigError,
    check_seed,
    is_integer,
)
from boardgame_envs.registry import GAMES, game_info
from boardgame_envs.training.records.game_records import make_record
from boardgame_envs.training.records.narration import (
    describe_move,
    round_report,
    rounds_done,
    turn_reporter,
)

#: The format tag of a table's file; a later, incompatible layout gets a new number.
FORMAT = "boardgame-envs-table/1"
#: What a seat played by a person is called in a table's seats.
PERSON = "person"


class TableError(Exception):
    """A request the tables refuse, with the HTTP status that says why (400: malformed,
    403: wrong token, 404: no such table or seat, 409: not now) and a one-line reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass
class Seat:
    """Who plays a seat (``"person"`` or an agent spec) and the secret of its link."""

    player: str
    token: str

    @property
    def is_person(self) -> bool:
        return self.player == PERSON


class Table:
    """One game at one table; see the module's docstring. Every change happens under
    :attr:`lock` and bumps :attr:`version`, then calls ``on_change(self)``."""

    def __init__(
        self,
        table_id: str,
        game: str,
        num_players: int,
        seed: int,
        options: dict[str, Any],
        seats: Sequence[Seat],
        actions: Sequence[int] = (),
        log: Sequence[dict[str, Any]] = (),
        created: str | None = None,
    ) -> None:
        self.id = table_id
        self.game = game
        self.info = game_info(game)
        self.num_players = num_players
        self.seed = seed
        self.options = dict(options)
        self.seats = list(seats)
        self.created = created or datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"
        )
        self.rules = self.info.rules()
        self.state = self.rules.new_state(num_players, seed=seed, **self.options)
        self.actions: list[int] = []
        for step, action in enumerate(actions):
            try:
                self.state.apply(int(action))
            except IllegalActionError as error:
                raise InvalidConfigError(f"table {table_id}: move {step + 1}: {error}") from None
            self.actions.append(int(action))
        self.log = list(log)
        if len(self.log) != len(self.actions):
            raise InvalidConfigError(
                f"table {table_id}: {len(self.actions)} moves but {len(self.log)} log entries"
            )
        self.agents = {
            seat: make_agent(s.player, game, seed=seed * 7919 + seat)
            for seat, s in enumerate(self.seats)
            if not s.is_person
        }
        for seat, agent in self.agents.items():
            reset = getattr(agent, "reset", None)
            if reset is not None:
                reset(seed * 7919 + seat)
        self.lock = threading.RLock()
        self.version = 0
        #: The agent's seat while it thinks, else None.
        self.thinking: int | None = None
        #: Why an agent could not move (the table waits), else None.
        self.agent_error: str | None = None
        #: The least time between an agent's move and the move before it, in seconds.
        self.pause = 0.0
        self.on_change: Callable[[Table], None] = lambda table: None
        self.save: Callable[[Table], None] = lambda table: None
        self._runner: threading.Thread | None = None
        self._closing = threading.Event()
        self._cache: dict[Any, Any] = {}

    # -- who may do what ---------------------------------------------------------------
    def check_token(self, seat: Any, token: Any) -> int:
        """``seat`` as an int if ``token`` is its secret; 404 for a seat the table does not
        have, 403 for a missing or wrong token."""
        text = str(seat)
        if not (text.isascii() and text.isdigit() and int(text) < self.num_players):
            raise TableError(
                404, f"table {self.id} has no seat {text}; seats: 0 to {self.num_players - 1}"
            )
        seat = int(text)
        expected = self.seats[seat].token
        if not isinstance(token, str) or not hmac.compare_digest(
            token.encode("utf-8", "surrogateescape"), expected.encode()
        ):
            raise TableError(403, f"wrong or missing token for seat {seat} of table {self.id}")
        return seat

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    # -- moves ---------------------------------------------------------------------------
    def submit(self, seat: int, action: Any, move: Any) -> dict[str, Any]:
        """A person's move: ``action`` (an action index from the seat's list of legal
        moves) at move number ``move`` (how many moves had been played in the position the
        person saw). The same move sent again (a double click, a retried request) is
        answered ``{"applied": False}`` and changes nothing; a move for a position that is
        gone, out of turn or illegal is a :class:`TableError` and changes nothing."""
        if not is_integer(action):
            raise TableError(400, f"action {action!r} is not an integer action index")
        if not is_integer(move):
            raise TableError(
                400, f"move {move!r} is not a move number (how many moves were played before it)"
            )
        action, move = int(action), int(move)
        with self.lock:
            played = len(self.actions)
            if move < played:
                if self.actions[move] == action and self.log[move]["seat"] == seat:
                    return {"applied": False, "move": played, "reason": "already played"}
                raise TableError(
                    409, f"move {move} was played already; the table is at move {played}"
                )
            if move > played:
                raise TableError(409, f"move {move} is not reached; the table is at move {played}")
            if self.finished:
                raise TableError(409, "the game is over")
            mover = self.state.current_player
            if mover != seat:
                raise TableError(409, f"it is P{mover}'s turn, not P{seat}'s")
            try:
                self._apply(action)
            except IllegalActionError as error:
                raise TableError(400, " ".join(str(error).split())) from None
            self.start_agents()
            return {"applied": True, "move": len(self.actions)}

    def _apply(self, action: int) -> None:
        """Apply ``action`` of the seat to move, log what each seat saw, save, announce."""
        state = self.state
        mover = state.current_player
        report = turn_reporter(self.rules)
        before_views = [state.view(s) for s in range(self.num_players)] if report else []
        before = state.clone()
        rounds = rounds_done(state)
        state.apply(action)  # raises IllegalActionError before changing anything
        seen = [describe_move(before, action, s) for s in range(self.num_players)]
        after: list[list[str]] = [[] for _ in range(self.num_players)]
        for s in range(self.num_players):
            if report is not None:
                line = report(before_views[s], state.view(s), s)
                if line:
                    after[s].append(line)
            if rounds_done(state) > rounds:
                after[s].append(round_report(state))
        self.actions.append(action)
        self.log.append({"seat": mover, "seen": seen, "after": after})
        self._changed(saved=True)

    def _changed(self, saved: bool = False) -> None:
        self.version += 1
        if saved:  # a move: what was drawn of the position before is stale
            self._cache.clear()
            self.save(self)
        self.on_change(self)

    def cached(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()``, kept until the next move (``key`` names what it depends on)."""
        with self.lock:
            if key in self._cache:
                return self._cache[key]
            moves = len(self.actions)
        value = make()
        with self.lock:
            if len(self.actions) == moves:
                self._cache[key] = value
        return value

    # -- agents --------------------------------------------------------------------------
    def needs_server_move(self) -> bool:
        """Whether the seat to move is an agent, or a person with a single legal move."""
        if self.finished or self.agent_error is not None:
            return False
        mover = self.state.current_player
        return not self.seats[mover].is_person or len(self.state.legal_actions()) == 1

    def start_agents(self) -> None:
        """Let :meth:`run_agents` play the server's moves in a thread, if any are due and no
        such thread runs."""
        with self.lock:
            if not self.needs_server_move():
                return
            if self._runner is not None and self._runner.is_alive():
                return
            self._runner = threading.Thread(
                target=self.run_agents, args=(self.pause,), name=f"table-{self.id}", daemon=True
            )
            self._runner.start()

    def run_agents(self, pause: float = 0.0) -> None:
        """Play the moves due from the server: agents' moves (each agent thinks on its own
        seat's view, shown as "thinking", and moves at least ``pause`` seconds after the
        last move, so that people can follow), and a person's only legal move."""
        while not self._closing.is_set():
            with self.lock:
                if not self.needs_server_move():
                    return
                mover = self.state.current_player
                if self.seats[mover].is_person:
                    self._apply(self.state.legal_actions()[0])
                    continue
                view = self.state.view(mover)
                self.thinking = mover
                self._changed()
            started = time.monotonic()
            try:
                action = int(self.agents[mover].act(view))
            except Exception as error:  # an agent's failure stops this table, not the server
                with self.lock:
                    self.thinking = None
                    self.agent_error = f"P{mover} ({self.seats[mover].player}) failed: {error}"
                    self._changed()
                return
            rest = pause - (time.monotonic() - started)
            if rest > 0 and self._closing.wait(rest):
                return
            with self.lock:
                self.thinking = None
                try:
                    self._apply(action)
                except IllegalActionError as error:
                    self.agent_error = (
                        f"P{mover} ({self.seats[mover].player}) chose an illegal move: {error}"
                    )
                    self._changed()
                    return

    def close(self, timeout: float = 5.0) -> None:
        """Stop the agents' thread: it plays no more moves (a move it is thinking about is
        dropped, and thought again when the table is next loaded)."""
        self._closing.set()
        runner = self._runner
        if runner is not None:
            runner.join(timeout)

    # -- the end -----------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The finished game's record (see :mod:`boardgame_envs.training.records`)."""
        with self.lock:
            if not self.finished:
                raise TableError(409, "the game is not over; its record comes at the end")
            return make_record(
                self.game,
                self.num_players,
                self.seed,
                [seat.player for seat in self.seats],
                self.actions,
                self.state.scores(),
                self.state.winners(),
                self.options,
            )

    # -- files ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "id": self.id,
            "game": self.game,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": self.options,
            "seats": [{"player": s.player, "token": s.token} for s in self.seats],
            "created": self.created,
            "actions": list(self.actions),
            "log": self.log,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InvalidConfigError(f"not a table file (format {FORMAT!r} expected)")
        try:
            seats = [Seat(str(s["player"]), str(s["token"])) for s in data["seats"]]
            return cls(
                str(data["id"]),
                data["game"],
                int(data["num_players"]),
                int(data["seed"]),
                dict(data["options"]),
                seats,
                [int(a) for a in data["actions"]],
                list(data["log"]),
                data.get("created"),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidConfigError(f"a malformed table file: {error!r}") from None


def new_table(
    game: Any,
    num_players: Any = None,
    players: Any = None,
    seed: Any = None,
    options: Any = None,
    table_id: str | None = None,
    own_agents: bool = True,
) -> Table:
    """A new table, every argument checked as a request's (:class:`TableError` 400 with one
    line saying what is wrong): a known game, a player count it allows, one entry per seat
    in ``players`` (``"person"`` or an agent spec, each agent built here), a seed (None:
    drawn) and the game's options. ``own_agents``: whether agents from the user's own code
    (``module:attr``, ``file.py:attr``) may sit at the table."""
    if not isinstance(game, str) or game not in GAMES:
        raise TableError(400, f"unknown game {game!r}; known: {', '.join(GAMES)}")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise TableError(400, f"options must be a JSON object of {game}'s options")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise TableError(400, 'players must be a list of "person" or agent specs, one per seat')
    players = [p.strip() or PERSON for p in players]
    foreign = [p for p in players if is_user_spec(p)]
    if foreign and not own_agents:
        raise TableError(
            400,
            f"agent {foreign[0]!r} would run code from this computer's files, which this "
            "server does not allow (it listens beyond this computer; start it with "
            "--own-agents to allow it)",
        )
    try:
        rules = game_info(game).rules()
        if num_players is None:
            num_players = len(players)
        num_players = rules.check_num_players(num_players)
        if len(players) != num_players:
            raise InvalidConfigError(f"{len(players)} players for {num_players} seats")
        seed = check_seed(seed)
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        rules.make_config(options)
        seats = [Seat(p, secrets.token_urlsafe(18)) for p in players]
        return Table(table_id or secrets.token_hex(5), game, num_players, seed, options, seats)
    except InvalidConfigError as error:
        raise TableError(400, " ".join(str(error).split())) from None


class TableStore:
    """Every table, each kept in ``folder`` as ``<id>.json`` (see the module's docstring).

    ``pause``: the least time between an agent's move and the move before it, in seconds.
    ``on_change(table)`` is called after every change of a table (from any thread).
    ``own_agents``: whether new tables may seat agents from the user's own code.
    """

    def __init__(
        self,
        folder: str | Path,
        pause: float = 0.0,
        on_change: Callable[[Table], None] | None = None,
        own_agents: bool = True,
    ) -> None:
        self.folder = Path(folder)
        self.pause = pause
        self.own_agents = own_agents
        self.on_change = on_change or (lambda table: None)
        self.tables: dict[str, Table] = {}
        self.problems: list[str] = []
        self._lock = threading.Lock()

    def load(self) -> list[Table]:
        """Load every table of the folder (a file that is no table is named in
        :attr:`problems` and left alone) and remove temporary files a stopped server left."""
        self.folder.mkdir(parents=True, exist_ok=True)
        for leftover in self.folder.glob(".*.tmp"):
            leftover.unlink(missing_ok=True)
        for path in sorted(self.folder.glob("*.json")):
            try:
                table = Table.from_dict(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError, InvalidConfigError) as error:
                self.problems.append(f"{path}: {' '.join(str(error).split())}")
                continue
            self._adopt(table)
        return list(self.tables.values())

    def create(self, **request: Any) -> Table:
        """A new table from a request's fields (see :func:`new_table`), saved."""
        with self._lock:
            table_id = secrets.token_hex(5)
            while table_id in self.tables:
                table_id = secrets.token_hex(5)
            table = new_table(table_id=table_id, own_agents=self.own_agents, **request)
            self._adopt(table)
        self.write(table)
        return table

    def close(self) -> None:
        """Stop every table's agents (the tables stay saved as they are)."""
        for table in list(self.tables.values()):
            table.close()
        self.tables.clear()

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(404, f"no table {table_id!r}")
        return table

    def start_agents(self) -> None:
        """Let every table's agents play the moves that are due (after a restart too)."""
        for table in list(self.tables.values()):
            table.start_agents()

    def _adopt(self, table: Table) -> None:
        table.save = self.write
        table.pause = self.pause
        table.on_change = self._changed
        self.tables[table.id] = table

    def _changed(self, table: Table) -> None:
        self.on_change(table)

    def write(self, table: Table) -> Path:
        """Write ``table``'s file whole: a temporary file, flushed to disk, then renamed
        over the old one."""
        path = self.folder / f"{table.id}.json"
        temporary = self.folder / f".{table.id}.{os.getpid()}.{uuid.uuid4().hex}.tmp"
        text = json.dumps(table.to_dict(), separators=(",", ":"))
        try:
            with open(temporary, "x", encoding="utf-8") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        return path
