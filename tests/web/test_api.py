"""The table server over HTTP (Starlette's test client): a seat's answers hold its view
only (resampling what it cannot see leaves every answer the same), wrong or missing tokens
are refused with 403, and bad requests (malformed JSON, an illegal move, an unknown table
or seat, a move sent twice) get a 4xx with one line of reason and change nothing."""

from __future__ import annotations

import json
import random
import time

import numpy as np
import pytest

pytest.importorskip("starlette", reason='the web extra is not installed (pip install ".[web]")')
pytest.importorskip("httpx", reason="httpx is not installed (Starlette's test client needs it)")

from starlette.testclient import TestClient  # noqa: E402

from boardgame_envs.factors_multiples.data import card_name  # noqa: E402
from boardgame_envs.training.web.server import make_app  # noqa: E402
from tests.web.helpers import open_table, seat_path, wait_view  # noqa: E402


@pytest.fixture
def client(tmp_path):
    # no drawing ahead in another thread: the hidden-information test swaps the state
    with TestClient(make_app(tmp_path / "tables", prefetch=False)) as client:
        client.data = tmp_path / "tables"
        yield client


def snapshot(client, table: str) -> tuple[str, list[int], int]:
    """What must not change: the table's file, its moves and its version."""
    live = client.app.state.store.get(table)
    return (client.data / f"{table}.json").read_text(), list(live.actions), live.version


def refused(answer, status: int) -> str:
    assert answer.status_code == status, answer.text
    reason = answer.json()["error"]
    assert reason and "\n" not in reason
    return reason


def play_randomly(client, table: str, tokens: dict[int, str], moves: int, seed: int = 0) -> None:
    """``moves`` random moves by the table's people (every seat a person)."""
    rng = random.Random(seed)
    for _ in range(moves):
        live = client.app.state.store.get(table)
        seat = live.state.current_player
        view = wait_view(client, table, seat, tokens[seat])
        if view["finished"]:
            return
        action = rng.choice(view["legal"])["action"]
        answer = client.post(
            seat_path(table, seat) + "/moves",
            params={"token": tokens[seat]},
            json={"action": action, "move": view["move"]},
        )
        assert answer.status_code == 200, answer.text
        settle(live)


def settle(live) -> None:
    """Wait until the server has played the moves due from it (a person's only move)."""
    deadline = time.monotonic() + 30
    while live.needs_server_move() or (live._runner is not None and live._runner.is_alive()):
        assert time.monotonic() < deadline, "the server's moves never came"
        time.sleep(0.005)


# -- tokens --------------------------------------------------------------------------------
def test_wrong_or_missing_token_is_refused_and_changes_nothing(client):
    table, tokens = open_table(client, "wasabi", ["person", "person"], seed=4)
    play_randomly(client, table, tokens, 3)
    live = client.app.state.store.get(table)
    mover = live.state.current_player
    other = 1 - mover
    before = snapshot(client, table)
    view = client.get(seat_path(table, mover), params={"token": tokens[mover]}).json()
    move = {"action": view["legal"][0]["action"], "move": view["move"]}
    for token in (None, "", "x" * 24, tokens[other], tokens[mover][:-1]):
        params = {} if token is None else {"token": token}
        path = seat_path(table, mover)
        for answer in (
            client.get(path, params=params),
            client.post(path + "/moves", params=params, json=move),
            client.get(path + "/events", params=params),
            client.get(path + "/record", params=params),
            client.get(path + "/replay", params=params),
            client.get(f"/t/{table}/{mover}", params=params),
        ):
            assert f"seat {mover}" in refused(answer, 403)
    assert snapshot(client, table) == before
    # the right token works (so the refusals above are the token's doing)
    ok = client.post(seat_path(table, mover) + "/moves", params={"token": tokens[mover]}, json=move)
    assert ok.status_code == 200 and ok.json()["applied"] is True


def test_unknown_table_or_seat_is_404(client):
    table, tokens = open_table(client, "factors_multiples", ["person", "heuristic"], seed=1)
    wait_view(client, table, 0, tokens[0])  # the agent's moves first
    before = snapshot(client, table)
    assert "no table" in refused(client.get(seat_path("nosuch", 0), params={"token": "x"}), 404)
    for seat in (2, 9, "x", "-1"):
        answer = client.get(seat_path(table, seat), params={"token": tokens[0]})
        assert "no seat" in refused(answer, 404)
    answer = client.post(seat_path("nosuch", 0) + "/moves", params={"token": tokens[0]}, json={})
    refused(answer, 404)
    assert snapshot(client, table) == before


# -- bad requests --------------------------------------------------------------------------
def test_malformed_or_illegal_moves_are_refused_and_change_nothing(client):
    table, tokens = open_table(client, "carcassonne_castle", ["person", "person"], seed=2)
    live = client.app.state.store.get(table)
    seat = live.state.current_player
    token = {"token": tokens[seat]}
    view = wait_view(client, table, seat, tokens[seat])
    legal = {m["action"] for m in view["legal"]}
    illegal = next(a for a in range(live.rules.action_size) if a not in legal)
    before = snapshot(client, table)
    moves = seat_path(table, seat) + "/moves"
    send = {"headers": {"Content-Type": "application/json"}}
    for body in (b"{", b"[1, 2]", b'"move"', b"\xff\xfe", b""):
        assert "JSON" in refused(client.post(moves, params=token, content=body, **send), 400)
    for payload in (
        {"action": illegal, "move": view["move"]},
        {"action": -1, "move": view["move"]},
        {"action": "3", "move": view["move"]},
        {"action": True, "move": view["move"]},
        {"action": 1.5, "move": view["move"]},
        {"action": view["legal"][0]["action"]},
        {"move": view["move"]},
    ):
        refused(client.post(moves, params=token, json=payload), 400)
    # the other seat, out of turn; a position that is not reached
    other = 1 - seat
    answer = client.post(
        seat_path(table, other) + "/moves",
        params={"token": tokens[other]},
        json={"action": view["legal"][0]["action"], "move": view["move"]},
    )
    assert "turn" in refused(answer, 409)
    payload = {"action": view["legal"][0]["action"], "move": view["move"] + 1}
    assert "not reached" in refused(client.post(moves, params=token, json=payload), 409)
    assert snapshot(client, table) == before
    # and a legal one is applied (the refusals were the requests' fault)
    payload = {"action": view["legal"][0]["action"], "move": view["move"]}
    assert client.post(moves, params=token, json=payload).json()["applied"] is True


def test_a_move_sent_twice_is_applied_once(client):
    table, tokens = open_table(client, "cornucopia", ["person", "person"], seed=3)
    live = client.app.state.store.get(table)
    seat = live.state.current_player
    view = wait_view(client, table, seat, tokens[seat])
    payload = {"action": view["legal"][-1]["action"], "move": view["move"]}
    moves = seat_path(table, seat) + "/moves"
    first = client.post(moves, params={"token": tokens[seat]}, json=payload)
    assert first.json() == {"applied": True, "move": view["move"] + 1}
    after = snapshot(client, table)
    again = client.post(moves, params={"token": tokens[seat]}, json=payload)
    assert again.status_code == 200 and again.json()["applied"] is False
    assert snapshot(client, table) == after
    assert len(live.actions) == view["move"] + 1
    # another move at that move number is not the same move: refused
    others = [m["action"] for m in view["legal"] if m["action"] != payload["action"]]
    if others:
        answer = client.post(
            moves, params={"token": tokens[seat]}, json={"action": others[0], "move": view["move"]}
        )
        assert "played already" in refused(answer, 409)
    assert snapshot(client, table) == after


def test_bad_new_tables_are_refused(client):
    for body, words in (
        ({"game": "chess", "players": ["person", "heuristic"]}, "unknown game"),
        ({"game": "tahiti", "players": ["person"]}, "num_players"),
        ({"game": "tahiti", "players": ["person", "nosuchagent"]}, "unknown agent"),
        ({"game": "tahiti", "players": ["person", "heuristic"], "seed": -1}, "seed"),
        ({"game": "tahiti", "players": ["person", "heuristic"], "options": {"x": 1}}, "option"),
        ({"game": "tahiti", "players": ["person", "heuristic"], "colour": "red"}, "unknown field"),
        ({"game": "tahiti", "players": "person"}, "players"),
        ({"game": "tahiti"}, "players"),
    ):
        assert words in refused(client.post("/api/tables", json=body), 400)
    assert list(client.data.glob("*.json")) == []


def test_record_and_replay_come_at_the_end_only(client):
    table, tokens = open_table(
        client, "factors_multiples", ["person", "heuristic"], seed=5, options={"rounds": 1}
    )
    path = seat_path(table, 0)
    assert "not over" in refused(client.get(path + "/record", params={"token": tokens[0]}), 409)
    assert "not over" in refused(client.get(path + "/replay", params={"token": tokens[0]}), 409)
    view = wait_view(client, table, 0, tokens[0])
    assert "seed" not in view
    play_to_end(client, table, 0, tokens[0])
    record = client.get(path + "/record", params={"token": tokens[0]}).json()
    assert record["seed"] == 5 and record["agents"] == ["person", "heuristic"]
    page = client.get(path + "/replay", params={"token": tokens[0]})
    assert page.status_code == 200 and "replay-data" in page.text


def play_to_end(client, table: str, seat: int, token: str, seed: int = 0) -> dict:
    rng = random.Random(seed)
    while True:
        view = wait_view(client, table, seat, token)
        if view["finished"]:
            return view
        action = rng.choice(view["legal"])["action"]
        answer = client.post(
            seat_path(table, seat) + "/moves",
            params={"token": token},
            json={"action": action, "move": view["move"]},
        )
        assert answer.status_code == 200, answer.text


# -- hidden information ----------------------------------------------------------------------
def responses(client, table: str, seat: int, token: str, illegal: int) -> list[str]:
    """Every answer the seat can get now, as text (the moves' answers change nothing:
    an illegal move, and a move at a number that is not reached)."""
    path = seat_path(table, seat)
    params = {"token": token}
    view = client.get(path, params=params)
    move = view.json()["move"]
    texts = [view.text, client.get(f"/t/{table}/{seat}", params=params).text]
    for payload in ({"action": illegal, "move": move}, {"action": 0, "move": move + 5}):
        answer = client.post(path + "/moves", params=params, json=payload)
        texts.append(f"{answer.status_code} {answer.text}")
    return texts


@pytest.mark.parametrize(
    "game, players, own_secrets",
    # Cornucopia's only secrets, bets, last a moment: not always there to be changed
    [("factors_multiples", 3, True), ("cornucopia", 3, False), ("wasabi", 2, True),
     ("tahiti", 2, True)],
)  # fmt: skip
def test_resampling_what_a_seat_cannot_see_leaves_its_answers_unchanged(
    client, game, players, own_secrets
):
    table, tokens = open_table(client, game, ["person"] * players, seed=11)
    live = client.app.state.store.get(table)
    rng = np.random.default_rng(0)
    hidden_differs = changed_by_own_secret = 0
    for step in range(4):
        play_randomly(client, table, tokens, 4, seed=step)
        if live.finished:
            break
        mask = live.state.legal_action_mask()
        illegal = next(a for a in range(live.rules.action_size) if not mask[a])
        for seat in range(players):
            original = live.state
            seen = responses(client, table, seat, tokens[seat], illegal)
            assert "seed" not in json.loads(seen[0])
            for _ in range(2):
                sample = live.rules.sample_state(original.view(seat), rng)
                hidden_differs += sample.to_json() != original.to_json()
                with live.lock:
                    live.state, live._cache = sample, {}
                assert responses(client, table, seat, tokens[seat], illegal) == seen
                # the converse: a state drawn from another seat's view may change this
                # seat's own secrets, and then its answers (the comparison can fail)
                other = live.rules.sample_state(original.view((seat + 1) % players), rng)
                with live.lock:
                    live.state, live._cache = other, {}
                if responses(client, table, seat, tokens[seat], illegal) != seen:
                    changed_by_own_secret += 1
                with live.lock:
                    live.state, live._cache = original, {}
    assert hidden_differs > 0  # the samples did change hidden facts
    assert changed_by_own_secret > 0 or not own_secrets


def test_two_people_at_one_table_each_get_only_their_own_hand(client):
    table, tokens = open_table(client, "factors_multiples", ["person", "person"], seed=1)
    live = client.app.state.store.get(table)
    hands = [" ".join(card_name(c) for c in hand) for hand in live.state.hands]
    for seat in (0, 1):
        text = client.get(seat_path(table, seat), params={"token": tokens[seat]}).text
        assert json.dumps(hands[seat], ensure_ascii=False)[1:-1] in text or hands[seat] in text
        assert hands[1 - seat] not in json.loads(text)["text"]
        # the other seat's token opens the other seat only
        answer = client.get(seat_path(table, 1 - seat), params={"token": tokens[seat]})
        assert answer.status_code == 403


def test_own_agents_are_refused_where_the_server_does_not_allow_them(tmp_path):
    with TestClient(make_app(tmp_path / "tables", own_agents=False)) as client:
        body = {"game": "wasabi", "players": ["person", "examples/my_agent.py:GreedyAgent"]}
        assert "--own-agents" in refused(client.post("/api/tables", json=body), 400)
        assert not list((tmp_path / "tables").glob("*.json"))
        body["players"] = ["person", "heuristic"]
        assert client.post("/api/tables", json=body).status_code == 201
