"""People at the table server in a real browser: headless Chromium (Debian's ``chromium``
and ``chromium-driver``, driven by Selenium) opens a table from the start page, plays a
whole game of every game against the heuristic by clicking (the picture where a move has
a place on it, else the list of moves), sees the result, downloads the record and opens
the replay; two browsers at one table see only their own hands.

Skipped, saying why, only where Chromium, its driver, Selenium or the web extra cannot be
found.
"""

from __future__ import annotations

import json
import random
import shutil
import urllib.request

import pytest

pytest.importorskip("starlette", reason='the web extra is not installed (pip install ".[web]")')
pytest.importorskip("uvicorn", reason='the web extra is not installed (pip install ".[web]")')
webdriver = pytest.importorskip(
    "selenium.webdriver", reason="selenium is not installed (pip install -e '.[dev]')"
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from boardgame_envs.factors_multiples.data import card_name  # noqa: E402
from boardgame_envs.registry import GAMES  # noqa: E402
from boardgame_envs.training.records.game_records import replay_states  # noqa: E402
from tests.web.helpers import live_server  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no headless browser: install Debian's chromium and chromium-driver "
    "(apt-get install chromium chromium-driver) to run the table server's browser tests",
)

#: Options that keep each game short (the game's own options, chosen on the start page).
SHORT = {
    "factors_multiples": {"rounds": "1"},
    "wasabi": {"max_turns": "8"},
    "tahiti": {"max_rounds": "3"},
}


def chromium():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The driver's path is given, so Selenium Manager never looks for (or downloads) one.
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with live_server(tmp_path_factory.mktemp("tables")) as (url, app):
        yield url, app


@pytest.fixture(scope="module")
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def wait(driver, condition, what: str, timeout: float = 60):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(
        lambda d: condition(d), message=what
    )


def body(driver, name: str) -> str | None:
    return driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")


def open_table(driver, url: str, game: str, players: list[str], seed: int) -> list[str]:
    """Open a table from the start page; the links of its people, seat 0 first."""
    driver.get(url + "/")
    wait(driver, lambda d: body(d, "ready") == "1", "the start page")
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "players")).select_by_value(str(len(players)))
    for seat, player in enumerate(players):
        Select(driver.find_element(By.ID, f"seat-{seat}")).select_by_value(player)
    for name, value in SHORT.get(game, {}).items():
        field = driver.find_element(By.ID, f"option-{name}")
        field.clear()
        field.send_keys(value)
    driver.find_element(By.ID, "seed").send_keys(str(seed))
    driver.find_element(By.ID, "open").click()
    people = [s for s, p in enumerate(players) if p == "person"]
    wait(driver, lambda d: d.find_elements(By.ID, f"open-seat-{people[-1]}"), "the seats' links")
    return [driver.find_element(By.ID, f"open-seat-{s}").get_attribute("href") for s in people]


def click(driver, element) -> None:
    element.click()


#: The places on the picture whose middle is not under another place (a click there
#: reaches them).
ON_TOP_JS = """
return [...document.querySelectorAll("#targets .target")].filter((spot) => {
  spot.scrollIntoView({block: "nearest"});
  const box = spot.getBoundingClientRect();
  return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === spot;
});
"""


def play_one_move(driver, rng: random.Random) -> bool | None:
    """Click one move: a place on the picture (and a choice, if it offers several), or a
    move of the list. True if it was a place on the picture; None if the page has moved on
    meanwhile (another move came first)."""
    targets = driver.execute_script(ON_TOP_JS)
    moves = driver.find_elements(By.CSS_SELECTOR, "#legal button.move")
    if not moves:
        return None
    if targets and rng.random() < 0.8:
        click(driver, rng.choice(targets))
        if driver.find_element(By.ID, "choices").is_displayed():
            buttons = driver.find_elements(By.CSS_SELECTOR, "#choice-buttons button")
            click(driver, rng.choice(buttons))
        return True
    click(driver, rng.choice(moves))
    return False


#: Resolves, in the page, when it is the person's turn at another move than
#: ``arguments[0]`` or the game is over: [state, move] (one WebDriver call per wait).
MY_TURN_JS = """
const [clickedAt, done] = [arguments[0], arguments[arguments.length - 1]];
const check = () => {
  const state = document.body.dataset.state, move = document.body.dataset.move;
  if (state === "over" || (state === "your-turn" && move !== clickedAt)) done([state, move]);
  else setTimeout(check, 10);
};
check();
"""


def play_to_the_end(driver, rng: random.Random) -> int:
    """Play until the game is over; how many moves were made on the picture."""
    on_picture, clicked_at = 0, None
    driver.set_script_timeout(60)
    while True:
        state, move = driver.execute_async_script(MY_TURN_JS, clicked_at)
        if state == "over":
            return on_picture
        clicked = play_one_move(driver, rng)
        if clicked is not None:
            clicked_at = move
            on_picture += clicked


@pytest.mark.parametrize("game", list(GAMES))
def test_a_person_plays_a_whole_game_by_clicking(browser, server, game):
    url, app = server
    (link,) = open_table(browser, url, game, ["person", "heuristic"], seed=7)
    browser.get(link)
    on_picture = play_to_the_end(browser, random.Random(1))
    assert on_picture > 0  # moves were found by clicking the picture
    table = app.state.store.get(link.split("/")[4])
    state = table.state
    assert state.is_terminal()
    result = browser.find_element(By.ID, "result").text
    winner = state.winners()[0]
    assert f"P{winner}" in result and ("wins" in result or "share" in result)
    assert "Game over" in browser.find_element(By.ID, "status").text
    # the record: the whole game, which replays to the same end
    href = browser.find_element(By.ID, "record-link").get_attribute("href")
    with urllib.request.urlopen(href) as answer:
        record = json.load(answer)
    assert record["agents"] == ["person", "heuristic"]
    assert record["actions"] == table.actions
    assert replay_states(record)[-1].scores() == state.scores()
    # the replay viewer, in a new tab
    browser.find_element(By.ID, "replay-link").click()
    wait(browser, lambda d: len(d.window_handles) == 2, "the replay's tab")
    browser.switch_to.window(browser.window_handles[1])
    wait(browser, lambda d: d.find_elements(By.ID, "replay-data"), "the replay viewer")
    assert GAMES[game].title in browser.find_element(By.ID, "result").text
    browser.close()
    browser.switch_to.window(browser.window_handles[0])
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def test_two_people_in_two_browsers_see_only_their_own_hands(browser, server):
    url, app = server
    links = open_table(browser, url, "factors_multiples", ["person", "person"], seed=3)
    other = chromium()
    try:
        drivers = [browser, other]
        for driver, link in zip(drivers, links):
            driver.get(link)
        table = app.state.store.get(links[0].split("/")[4])
        rng = random.Random(0)
        for _ in range(6):
            hands = [" ".join(card_name(c) for c in hand) for hand in table.state.hands]
            for seat, driver in enumerate(drivers):
                move = str(len(table.actions))
                wait(driver, lambda d, move=move: body(d, "move") == move, "the table's move")
                text = driver.find_element(By.ID, "text").get_attribute("textContent")
                assert f"hand {hands[seat]}" in text
                assert hands[1 - seat] not in text
            mover = table.state.current_player
            wait(drivers[mover], lambda d: body(d, "state") == "your-turn", "a turn")
            if play_one_move(drivers[mover], rng) is None:
                continue
            wait(drivers[mover], lambda d, move=move: body(d, "move") != move, "the move sent")
        # one seat's token does not open the other seat
        other.get(links[0].replace("/0?", "/1?"))
        assert "wrong or missing token" in other.find_element(By.TAG_NAME, "body").text
    finally:
        other.quit()
