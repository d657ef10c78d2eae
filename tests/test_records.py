"""Game records (training/records/game_records.py): a played game saved, loaded and
replayed move for move on either engine, and every kind of bad file refused with an error
naming the file and what is wrong."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardgame_envs.agents.specs import make_agent
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import GAMES, game_info
from boardgame_envs.training.records.game_records import (
    FORMAT,
    InvalidRecordError,
    load_record,
    make_record,
    play_recorded_game,
    replay_states,
    save_record,
)


def snapshot(state) -> dict:
    """The position as the Python engine's snapshot (the same for either engine)."""
    reference = state.to_reference() if hasattr(state, "to_reference") else state
    return reference.to_dict()


def tables() -> list[tuple[str, int]]:
    """Every game at 2 players and at its largest table."""
    sizes = []
    for game in GAMES:
        rules = game_info(game).rules()
        sizes += [(game, n) for n in sorted({2, rules.max_players})]
    return sizes


def played(game: str, num_players: int, seed: int = 11) -> tuple[dict, list]:
    """A game between the heuristic (seat 0) and random agents, recorded."""
    specs = ["heuristic"] + ["random"] * (num_players - 1)
    agents = [make_agent(spec, game) for spec in specs]
    return play_recorded_game(game, agents, specs, seed, num_players)


@pytest.fixture(scope="module")
def wasabi_game(tmp_path_factory) -> tuple[dict, list, object]:
    record, states = played("wasabi", 2)
    path = save_record(record, tmp_path_factory.mktemp("records") / "wasabi.json")
    return record, states, path


@pytest.mark.parametrize("game,num_players", tables())
def test_a_saved_record_replays_the_played_game(game, num_players, tmp_path):
    record, states = played(game, num_players)
    final = states[-1]
    assert record["format"] == FORMAT and record["game"] == game
    assert record["num_players"] == num_players and record["seed"] == 11
    assert record["agents"] == ["heuristic"] + ["random"] * (num_players - 1)
    assert len(record["actions"]) == len(states) - 1 > 0
    assert record["scores"] == pytest.approx(final.scores())
    assert record["winners"] == final.winners() and final.is_terminal()

    path = save_record(record, tmp_path / "deep" / "game.json")
    assert path.exists() and [p.name for p in path.parent.iterdir()] == ["game.json"]
    loaded = load_record(path)
    assert loaded == record
    assert json.loads(path.read_text()) == record  # plain JSON, nothing else

    # on the Python engine (the reference), whichever engine played it
    replayed = replay_states(loaded, engine="python")
    assert len(replayed) == len(states)
    assert [snapshot(s) for s in replayed] == [snapshot(s) for s in states]
    # each position is its own copy
    assert replayed[0].is_terminal() is False and replayed[-1].is_terminal()


def test_the_actions_are_the_played_ones_forced_included(wasabi_game):
    record, states, _ = wasabi_game
    for before, action, after in zip(states, record["actions"], states[1:]):
        assert before.legal_action_mask()[action]
        state = before.clone()
        state.apply(action)
        assert snapshot(state) == snapshot(after)
    forced = [len(s.legal_actions()) == 1 for s in states[:-1]]
    assert any(forced) and not all(forced)


def test_agents_are_reseeded_so_a_seed_and_specs_replay_the_same_game():
    first, _ = played("cornucopia", 3, seed=5)
    again, _ = played("cornucopia", 3, seed=5)
    other, _ = played("cornucopia", 3, seed=6)
    assert first == again and first["actions"] != other["actions"]


def test_make_record_takes_numpy_numbers_and_writes_plain_json(tmp_path):
    record = make_record(
        "factors_multiples",
        np.int64(2),
        np.int64(3),
        ["a", "b"],
        np.array([1, 2, 3]),
        np.array([4.0, 7.5]),
        [np.int64(0)],
        options={"rounds": 1},
    )
    assert record["num_players"] == 2 and type(record["seed"]) is int
    assert record["actions"] == [1, 2, 3] and all(type(a) is int for a in record["actions"])
    assert record["scores"] == [4, 7.5] and record["winners"] == [0]
    assert record["options"] == {"rounds": 1}
    path = save_record(record, tmp_path / "r.json")
    assert load_record(path) == record
    lines = path.read_text().splitlines()
    assert lines[1] == f'  "format": "{FORMAT}",' and len(lines) == 11  # one key a line


def test_options_are_replayed(tmp_path):
    specs = ["heuristic", "heuristic"]
    agents = [make_agent(s, "factors_multiples") for s in specs]
    record, states = play_recorded_game(
        "factors_multiples", agents, specs, 4, 2, options={"rounds": 1}
    )
    assert record["options"] == {"rounds": 1} and len(states[-1].round_scores) == 1
    loaded = load_record(save_record(record, tmp_path / "fm.json"))
    assert snapshot(replay_states(loaded)[-1]) == snapshot(states[-1])


def test_save_record_replaces_a_file_whole_and_leaves_no_temporary(wasabi_game, tmp_path):
    record, _, _ = wasabi_game
    path = tmp_path / "game.json"
    path.write_text("old")
    save_record(record, path)
    save_record(record, path)
    assert load_record(path) == record
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    with pytest.raises(InvalidRecordError, match="is a folder"):
        save_record(record, tmp_path)
    bad = dict(record, actions="12 7")
    with pytest.raises(InvalidRecordError, match="actions='12 7' must be a list of ints"):
        save_record(bad, tmp_path / "bad.json")
    assert not (tmp_path / "bad.json").exists()


# -- bad files: each error names the file and says what is wrong -----------------------------
def write(tmp_path, record) -> str:
    path = tmp_path / "bad.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return str(path)


@pytest.mark.parametrize(
    "change,expected",
    [
        (lambda r: "{not json", r"not JSON"),
        (lambda r: [1, 2], r"not a record: a JSON object"),
        (lambda r: dict(r, format="chess-pgn"), r"format 'chess-pgn' is not a game record's"),
        (lambda r: {k: v for k, v in r.items() if k != "format"}, r"format None"),
        (lambda r: {k: v for k, v in r.items() if k != "seed"}, r"missing seed"),
        (lambda r: dict(r, game="chess"), r"unknown game 'chess'; known: factors_multiples"),
        (
            lambda r: dict(r, num_players=9),
            r"num_players=9 is not allowed for wasabi; "
            r"allowed: 2 to 4",
        ),
        (lambda r: dict(r, num_players=True), r"num_players=True"),
        (lambda r: dict(r, seed=-1), r"seed=-1 is not allowed; allowed: an int >= 0"),
        (lambda r: dict(r, seed="7"), r"seed='7'"),
        (lambda r: dict(r, options=[]), r"options=\[\] is not allowed"),
        (lambda r: dict(r, options={"colour": 1}), r"unknown option 'colour'"),
        (lambda r: dict(r, agents=["heuristic"]), r"agents=\['heuristic'\] must be a list of 2"),
        (lambda r: dict(r, actions=[1, "2"]), r"actions\[1\]='2' is not an action of wasabi"),
        (lambda r: dict(r, actions=[1, 2.0]), r"actions\[1\]=2.0"),
        (lambda r: dict(r, actions=[True]), r"actions\[0\]=True"),
        (lambda r: dict(r, actions=[1, 10**6]), r"actions\[1\]=1000000 .* allowed: ints 0 to"),
        (lambda r: dict(r, scores=[1]), r"scores=\[1\] must be a list of 2 numbers"),
        (lambda r: dict(r, winners=[2]), r"winners=\[2\] must be a list of distinct seats 0 to 1"),
        (lambda r: dict(r, winners=[0, 0]), r"winners=\[0, 0\] must be a list of distinct"),
    ],
)
def test_load_record_refuses_a_malformed_file(wasabi_game, tmp_path, change, expected):
    record, _, _ = wasabi_game
    path = write(tmp_path, change(dict(record)))
    with pytest.raises(InvalidRecordError, match=expected) as error:
        load_record(path)
    assert str(error.value).startswith(f"record {path}: ")
    assert isinstance(error.value, InvalidConfigError)  # the CLI's one-line exit 2


def test_load_record_names_a_missing_file_and_a_folder(tmp_path):
    with pytest.raises(InvalidRecordError, match=r"record .*nowhere.json: no such file"):
        load_record(tmp_path / "nowhere.json")
    with pytest.raises(InvalidRecordError, match="a folder, not a record file"):
        load_record(tmp_path)


def illegal_step(states, actions) -> tuple[int, int]:
    """A step with a choice and an action in range that is not legal there."""
    for step, state in enumerate(states[:-1]):
        mask = state.legal_action_mask()
        if mask.sum() > 1:
            return step, int(np.flatnonzero(~mask)[0])
    raise AssertionError("no decision with a choice")


def test_replay_names_an_illegal_action_its_step_and_the_legal_ones(wasabi_game, tmp_path):
    record, states, _ = wasabi_game
    step, bad = illegal_step(states, record["actions"])
    actions = list(record["actions"])
    actions[step] = bad
    path = write(tmp_path, dict(record, actions=actions))
    loaded = load_record(path)  # well-formed: only the replay finds the illegal move
    with pytest.raises(InvalidRecordError) as error:
        replay_states(loaded, source=path)
    message = str(error.value)
    assert message.startswith(f"record {path}: actions[{step}] (move {step + 1} of ")
    assert f"action {bad} (" in message and "is not legal" in message and "legal: " in message
    with pytest.raises(InvalidRecordError, match=r"^record of wasabi \(seed 11\): actions"):
        replay_states(loaded)


@pytest.mark.parametrize(
    "change,expected",
    [
        (lambda r: dict(r, scores=[s + 1 for s in r["scores"]]), "ends with scores"),
        (lambda r: dict(r, winners=[1 - r["winners"][0]]), "ends with scores"),
        (lambda r: dict(r, actions=r["actions"][:-3]), "the game is not over after"),
        (lambda r: dict(r, actions=[*r["actions"], 0]), "the game is over after"),
    ],
)
def test_replay_refuses_a_record_that_does_not_end_as_it_says(
    wasabi_game, tmp_path, change, expected
):
    record, _, _ = wasabi_game
    path = write(tmp_path, change(dict(record)))
    with pytest.raises(InvalidRecordError, match=expected) as error:
        replay_states(load_record(path), source=path)
    assert str(error.value).startswith(f"record {path}: ")
    if expected == "ends with scores":
        assert "but the record says" in str(error.value)


def test_play_recorded_game_checks_the_table():
    agents = [make_agent("random", "wasabi")]
    with pytest.raises(InvalidConfigError, match="num_players=1 is not allowed"):
        play_recorded_game("wasabi", agents, ["random"], 1, 1)
    with pytest.raises(InvalidConfigError, match="1 agents and 1 names for 2 seats"):
        play_recorded_game("wasabi", agents, ["random"], 1, 2)
