"""Game records: one finished game as a small JSON file that replays exactly.

A record holds what is needed to play the game again move for move: the game, the table
size, the deal seed and options (``rules.new_state(num_players, seed=seed, **options)``
deals the same cards, tiles and bags on every machine and on both engines), every action
applied in order (forced ones included) and, to check the replay against, the final scores
and winners. ``agents[i]`` names who played seat ``i`` (an agent spec such as
``heuristic`` or ``ppo:wasabi``, or any name)::

    {"format": "boardgame-envs-record/1", "game": "wasabi", "num_players": 2,
     "seed": 1234, "options": {}, "agents": ["heuristic", "random"],
     "actions": [12, 7, ...], "scores": [31, 25], "winners": [0]}

Typical use::

    from boardgame_envs.training.records.game_records import load_record, replay_states

    record = load_record("games/heuristic-random-0.json")
    states = replay_states(record)  # the position before each action, then the final one
    print(states[-1].render_text(None))

``boardgame-envs watch`` plays a game and can save its record (``--save``);
``boardgame-envs eval`` and ``league`` save every game with ``--save-games DIR``;
``boardgame-envs replay RECORD`` shows a record in the terminal, as an HTML viewer or as a GIF.
"""

from __future__ import annotations

import json
import math
import os
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs.core.rules import (
    IllegalActionError,
    InvalidConfigError,
    State,
    is_integer,
    players_allowed,
)
from boardgame_envs.registry import GAMES, game_info

#: The format tag of a record; a later, incompatible layout gets a new number.
FORMAT = "boardgame-envs-record/1"

#: The keys of a record, in the order they are written.
KEYS = (
    "format",
    "game",
    "num_players",
    "seed",
    "options",
    "agents",
    "actions",
    "scores",
    "winners",
)


class InvalidRecordError(InvalidConfigError):
    """A record that is malformed, or that does not replay to the game it describes."""


def make_record(
    game: str,
    num_players: int,
    seed: int,
    agents: Sequence[str],
    actions: Sequence[int],
    scores: Sequence[float],
    winners: Sequence[int],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The record of one finished game, as a plain JSON-ready dict (numpy numbers become
    Python ones). Checked like a loaded file: :class:`InvalidRecordError` if a field is wrong.
    """
    record = {
        "format": FORMAT,
        "game": game,
        "num_players": _plain(num_players),
        "seed": _plain(seed),
        "options": dict(options or {}),
        "agents": [str(name) for name in agents],
        "actions": [_plain(a) for a in actions],
        "scores": [_plain(s) for s in scores],
        "winners": [_plain(w) for w in winners],
    }
    return check_record(record, "the record")


def save_record(record: dict[str, Any], path: str | Path) -> Path:
    """Write ``record`` to ``path`` (its folder made if needed) and return the path.

    The file is written whole or not at all: a temporary file in the same folder, then
    renamed over ``path``, so a reader never sees half a record (even with several
    processes saving games into one folder).
    """
    path = Path(path)
    check_record(record, f"record for {path}")
    if path.is_dir():
        raise InvalidRecordError(f"{path} is a folder; give a file name, such as game.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    # A name of its own per writer, opened like any new file (so the umask applies).
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8") as file:
            file.write(_to_text(record))
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path


def load_record(path: str | Path) -> dict[str, Any]:
    """The record in the JSON file ``path``, checked: the format tag, a known game, a
    player count the game allows, an integer seed, known options, one agent name per seat,
    a list of integer actions in the game's range, one score per seat and the winners'
    seats. :class:`InvalidRecordError` (an ``InvalidConfigError``) names the file and what
    is wrong. Whether the actions are legal is checked by :func:`replay_states`.
    """
    path = Path(path)
    where = f"record {path}"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidRecordError(f"{where}: no such file") from None
    except IsADirectoryError:
        raise InvalidRecordError(f"{where}: a folder, not a record file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidRecordError(f"{where}: cannot be read ({error})") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRecordError(f"{where}: not JSON ({error})") from None
    return check_record(record, where)


def check_record(record: Any, where: str = "record") -> dict[str, Any]:
    """``record`` itself if it is a well-formed record, else :class:`InvalidRecordError`
    starting with ``where`` and saying which field is wrong and what it must be."""

    def fail(problem: str) -> InvalidRecordError:
        return InvalidRecordError(f"{where}: {problem}")

    if not isinstance(record, dict):
        raise fail(f"not a record: a JSON object with the keys {', '.join(KEYS)} is expected")
    if record.get("format") != FORMAT:
        raise fail(f"format {record.get('format')!r} is not a game record's; expected {FORMAT!r}")
    missing = [key for key in KEYS if key not in record]
    if missing:
        raise fail(f"missing {', '.join(missing)}")
    game = record["game"]
    if game not in GAMES:
        raise fail(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    rules = game_info(game).rules()
    n = record["num_players"]
    if not _is_int(n) or not rules.min_players <= n <= rules.max_players:
        raise fail(
            f"num_players={n!r} is not allowed for {game}; "
            f"allowed: {players_allowed(rules.min_players, rules.max_players)}"
        )
    if not _is_int(record["seed"]) or record["seed"] < 0:
        raise fail(f"seed={record['seed']!r} is not allowed; allowed: an int >= 0")
    options = record["options"]
    if not isinstance(options, dict):
        raise fail(
            f"options={options!r} is not allowed; allowed: a JSON object of {game}'s options"
        )
    try:
        rules.make_config(options)
    except InvalidConfigError as error:
        raise fail(str(error)) from None
    agents = record["agents"]
    if not _is_list(agents, n, lambda a: isinstance(a, str)):
        raise fail(f"agents={_short(agents)} must be a list of {n} names (one per seat)")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise fail(f"actions={_short(actions)} must be a list of ints")
    for step, action in enumerate(actions):
        if not _is_int(action) or not 0 <= action < rules.action_size:
            raise fail(
                f"actions[{step}]={action!r} is not an action of {game}; "
                f"allowed: ints 0 to {rules.action_size - 1}"
            )
    if not _is_list(record["scores"], n, _is_number):
        raise fail(f"scores={_short(record['scores'])} must be a list of {n} numbers")
    winners = record["winners"]
    seats_ok = _is_list(winners, None, lambda w: _is_int(w) and 0 <= w < n)
    if not seats_ok or len(set(winners)) != len(winners):
        raise fail(f"winners={_short(winners)} must be a list of distinct seats 0 to {n - 1}")
    return record


def replay_states(
    record: dict[str, Any], engine: str | None = None, source: str | Path | None = None
) -> list[State]:
    """Play ``record`` again: the position before each of its actions, then the final one
    (``len(record["actions"]) + 1`` states, each its own copy).

    ``engine`` picks the rules engine ("python" or "native"; None: the default); both
    replay a record identically. ``source``, the file the record came from, is named in
    errors. :class:`InvalidRecordError` if the record is malformed,
    if an action is not legal at its step (naming the step, the move and the legal ones),
    if the game ends before the actions do or goes on after them, or if the final scores
    or winners differ from the record's.
    """
    where = f"record {source}" if source is not None else "record"
    check_record(record, where)
    if source is None:
        where = f"record of {record['game']} (seed {record['seed']})"
    rules = game_info(record["game"]).rules(engine)
    state = rules.new_state(record["num_players"], seed=record["seed"], **record["options"])
    actions = record["actions"]
    states = [state.clone()]
    for step, action in enumerate(actions):
        if state.is_terminal():
            raise InvalidRecordError(
                f"{where}: the game is over after {step} actions, but the record has {len(actions)}"
            )
        try:
            state.apply(action)
        except IllegalActionError as error:
            raise InvalidRecordError(
                f"{where}: actions[{step}] (move {step + 1} of {len(actions)}, "
                f"seat {state.current_player} to play) is not legal: {error}"
            ) from None
        states.append(state.clone())
    if not state.is_terminal():
        raise InvalidRecordError(
            f"{where}: the game is not over after the record's {len(actions)} actions "
            "(a record holds a whole game)"
        )
    _check_outcome(state, record, where)
    return states


def play_recorded_game(
    game: str,
    agents: Sequence[Any],
    agent_names: Sequence[str],
    seed: int | None,
    num_players: int,
    options: dict[str, Any] | None = None,
    on_move: Callable[[int, State, int, State], None] | None = None,
) -> tuple[dict[str, Any], list[State]]:
    """Play one game, seat ``i`` by ``agents[i]`` (named ``agent_names[i]`` in the record),
    and return its record and its positions (before each action, then the final one).

    Each agent is reseeded as a tournament does (``reset(seed * 7919 + seat)``), so a seed
    and the agents' specs reproduce the game. ``seed`` None draws one. ``on_move(step,
    before, action, after)`` is called after every action (``after`` is the live state:
    read it, do not change it), for a caller that shows the game as it is played.
    """
    rules = game_info(game).rules()
    num_players = rules.check_num_players(num_players)
    if len(agents) != num_players or len(agent_names) != num_players:
        raise InvalidConfigError(
            f"{len(agents)} agents and {len(agent_names)} names for {num_players} seats; "
            "give one agent per seat"
        )
    if seed is None:
        seed = int(np.random.default_rng().integers(2**31))
    options = dict(options or {})
    state = rules.new_state(num_players, seed=seed, **options)
    for seat, agent in enumerate(agents):
        reset = getattr(agent, "reset", None)
        if reset is not None:
            reset(seed * 7919 + seat)
    states, actions = [state.clone()], []
    while not state.is_terminal():
        seat = state.current_player
        action = int(agents[seat].act(state.view(seat)))
        before = states[-1]
        state.apply(action)
        actions.append(action)
        states.append(state.clone())
        if on_move is not None:
            on_move(len(actions) - 1, before, action, state)
    record = make_record(
        game,
        num_players,
        seed,
        agent_names,
        actions,
        state.scores(),
        state.winners(),
        options,
    )
    return record, states


# -- helpers -------------------------------------------------------------------------------
def _check_outcome(state: State, record: dict[str, Any], where: str) -> None:
    scores, winners = [_plain(s) for s in state.scores()], sorted(state.winners())
    same_scores = all(
        math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9) for a, b in zip(scores, record["scores"])
    )
    if not same_scores or winners != sorted(record["winners"]):
        raise InvalidRecordError(
            f"{where}: the replayed game ends with scores {_numbers(scores)} and winners "
            f"{winners}, but the record says scores {_numbers(record['scores'])} and winners "
            f"{record['winners']} (an edited record, or one from another version of the game)"
        )


def _to_text(record: dict[str, Any]) -> str:
    """One key a line, each value compact (a long action list stays on one line)."""
    keys = list(KEYS) + [key for key in record if key not in KEYS]
    lines = [f"  {json.dumps(key)}: {json.dumps(record[key])}" for key in keys]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _plain(value: Any) -> Any:
    """A numpy number as the Python one; an integral float score as an int (31.0 -> 31)."""
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _is_int(value: Any) -> bool:
    return is_integer(value)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _is_list(value: Any, length: int | None, item_ok: Callable[[Any], bool]) -> bool:
    return (
        isinstance(value, list)
        and (length is None or len(value) == length)
        and all(item_ok(item) for item in value)
    )


def _numbers(values: Sequence[float]) -> str:
    return "[" + ", ".join(f"{v:g}" for v in values) + "]"


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
