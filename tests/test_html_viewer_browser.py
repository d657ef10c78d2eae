"""The HTML replay viewer in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium) opens a replay from a file, steps through it with
the keys, the buttons, the move list and the view selector, and shows the record's moves,
scores and pictures; a seat's view hides the other seat's hand; the page asks the network
for nothing.

Skipped, saying why, only where Chromium, its driver or Selenium cannot be found
(``.ci/run`` installs them when it can; ``pip install -e .[dev]`` brings Selenium).
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from boardgame_envs.factors_multiples.data import card_name
from boardgame_envs.training.records.game_records import replay_states
from boardgame_envs.training.records.html_replay import write_html
from tests.test_html_replay import fm_record_with_hidden_discard

webdriver = pytest.importorskip(
    "selenium.webdriver", reason="selenium is not installed (pip install -e '.[dev]')"
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no headless browser: install Debian's chromium and chromium-driver "
    "(apt-get install chromium chromium-driver) to run the viewer's browser test",
)

#: The same checksum of the shown picture in the page and here: sum over pixels i (RGB,
#: row-major) of (r + 256 g + 65536 b) * (i % 65521 + 1), modulo 2**32.
CHECKSUM_JS = """
const canvas = document.getElementById("picture");
const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
let sum = 0;
for (let i = 0, p = 0; p < pixels.length; i++, p += 4) {
  const value = pixels[p] + 256 * pixels[p + 1] + 65536 * pixels[p + 2];
  sum = (sum + value * ((i % 65521) + 1)) % 4294967296;
}
return [canvas.width, canvas.height, sum];
"""


def checksum(picture: np.ndarray) -> list[int]:
    height, width = picture.shape[:2]
    flat = picture.reshape(-1, 3).astype(np.int64)
    value = flat[:, 0] + 256 * flat[:, 1] + 65536 * flat[:, 2]
    weight = np.arange(len(flat), dtype=np.int64) % 65521 + 1
    return [width, height, int(np.sum((value * weight) % 2**32) % 2**32)]


@pytest.fixture(scope="module")
def browser():
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
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    # The driver's path is given, so Selenium Manager never looks for (or downloads) one.
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    record = fm_record_with_hidden_discard()
    path = write_html(record, tmp_path_factory.mktemp("viewer") / "game.html")
    return record, replay_states(record, engine="python"), path


def _wait(driver, condition, what: str, timeout: float = 20):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d), message=what)


def _at(driver, step: int) -> None:
    _wait(
        driver,
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-step") == str(step),
        f"the page at move {step}",
    )


def _shown(driver) -> dict:
    return {
        "move": driver.find_element(By.ID, "move").text,
        "position": driver.find_element(By.ID, "position").text,
        "text": driver.find_element(By.ID, "text").get_attribute("textContent"),
        "scores": [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#scores td.score")],
        "winners": [
            row.get_attribute("data-seat")
            for row in driver.find_elements(By.CSS_SELECTOR, "#scores tr.winner")
        ],
    }


def _expect_frame(driver, record, states, step, view) -> None:
    """The page shows position ``step`` from ``view``: the move that led there, the scores,
    the text board and the picture."""
    _at(driver, step)
    state = states[step]
    shown = _shown(driver)
    assert shown["position"] == f"move {step} of {len(record['actions'])}"
    if step:
        mover = states[step - 1].current_player
        move = states[step - 1].describe_action(record["actions"][step - 1])
        if view is None or view == mover:
            assert f"Move {step}: P{mover} ({record['agents'][mover]}): {move}" in shown["move"]
    else:
        assert shown["move"].startswith("Start of the game")
    assert shown["scores"] == [f"{x:g}" for x in state.scores()]
    assert shown["text"] == state.render_text(view, legend=False)
    expected = checksum(state.rules.renderer.render_rgb(state, view))
    _wait(
        driver,
        lambda d: d.execute_script(CHECKSUM_JS) == expected,
        f"the picture of move {step} seen by {view}",
    )


def test_the_viewer_steps_through_a_replay_in_chromium(browser, replay):
    record, states, path = replay
    last = len(record["actions"])
    browser.get(path.as_uri())
    _expect_frame(browser, record, states, 0, None)
    body = browser.find_element(By.TAG_NAME, "body")
    # keys: → → ← End Home
    body.send_keys(Keys.ARROW_RIGHT)
    _expect_frame(browser, record, states, 1, None)
    body.send_keys(Keys.ARROW_RIGHT)
    _expect_frame(browser, record, states, 2, None)
    body.send_keys(Keys.ARROW_LEFT)
    _expect_frame(browser, record, states, 1, None)
    body.send_keys(Keys.END)
    _expect_frame(browser, record, states, last, None)
    shown = _shown(browser)
    assert shown["scores"] == [f"{x:g}" for x in record["scores"]]
    assert shown["winners"] == [str(w) for w in record["winners"]]
    assert "game over" in shown["move"]
    body.send_keys(Keys.HOME)
    _expect_frame(browser, record, states, 0, None)
    # buttons
    for button, step in (
        ("next", 1),
        ("next", 2),
        ("next", 3),
        ("prev", 2),
        ("last", last),
        ("first", 0),
    ):
        browser.find_element(By.ID, button).click()
        _expect_frame(browser, record, states, step, None)
    # the move list: a click goes to the position after that move
    middle = last // 2
    item = browser.find_element(By.CSS_SELECTOR, f"#moves li[data-step='{middle}']")
    move = states[middle - 1].describe_action(record["actions"][middle - 1])
    assert item.text.endswith(move)
    item.click()
    _expect_frame(browser, record, states, middle, None)
    assert "current" in item.get_attribute("class")
    # space plays (the fastest speed) and pauses
    Select(browser.find_element(By.ID, "speed")).select_by_value("200")
    body.send_keys(Keys.HOME)
    _at(browser, 0)
    body.send_keys(Keys.SPACE)
    _wait(
        browser,
        lambda d: int(d.find_element(By.TAG_NAME, "body").get_attribute("data-step")) >= 3,
        "playing moves on by itself",
    )
    body.send_keys(Keys.SPACE)
    paused = int(body.get_attribute("data-step"))
    assert "play" in browser.find_element(By.ID, "play").text
    browser.execute_script("return new Promise((done) => setTimeout(done, 700));")
    assert int(body.get_attribute("data-step")) == paused
    _expect_frame(browser, record, states, paused, None)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def test_a_seat_view_hides_the_other_seats_hand(browser, replay):
    record, states, path = replay
    browser.get(path.as_uri())
    _at(browser, 0)
    # a position where P1 holds a card it never showed
    step = next(i for i, s in enumerate(states) if set(s.hands[1]) - set(s.reveals[1]))
    secret = card_name(min(set(states[step].hands[1]) - set(states[step].reveals[1])))
    browser.find_element(By.CSS_SELECTOR, f"#moves li[data-step='{step}']").click()
    _expect_frame(browser, record, states, step, None)
    assert secret in _shown(browser)["text"]  # everything: P1's hand is shown
    views = Select(browser.find_element(By.ID, "view"))
    labels = [option.text for option in views.options]
    assert labels == ["everything (spectator)", "P0 (random)", "P1 (random)"]
    views.select_by_visible_text("P0 (random)")
    _expect_frame(browser, record, states, step, 0)  # the text and picture P0 saw
    assert secret not in _shown(browser)["text"]
    # P1's face-down discards read as hidden in P0's move list, and only there
    discard = next(
        i
        for i, s in enumerate(states[:-1])
        if s.phase == "A_DISCARD" and s.current_player == 1 and len(s.legal_actions()) > 1
    )
    item = browser.find_element(By.CSS_SELECTOR, f"#moves li[data-step='{discard + 1}']")
    assert item.text == "P1 (random): discard (hidden from P0)"
    views.select_by_visible_text("P1 (random)")
    _expect_frame(browser, record, states, step, 1)
    item = browser.find_element(By.CSS_SELECTOR, f"#moves li[data-step='{discard + 1}']")
    assert item.text == "P1 (random): " + states[discard].describe_action(
        record["actions"][discard]
    )
    # the arrow keys step again once a view is chosen
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    _expect_frame(browser, record, states, step + 1, 1)


def test_the_page_asks_the_network_for_nothing(browser, replay):
    _, _, path = replay
    page = path.read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page
    browser.get_log("performance")  # drop what earlier tests left
    browser.get(path.as_uri())
    _at(browser, 0)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    _at(browser, int(browser.find_element(By.ID, "slider").get_attribute("max")))
    requested = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requested.append(message["params"]["request"]["url"])
    assert requested, "the browser's network log was read"
    outside = [url for url in requested if not url.startswith(("file:", "data:"))]
    assert not outside, outside
    resources = browser.execute_script(
        "return performance.getEntriesByType('resource').map((r) => r.name)"
    )
    assert all(name.startswith(("file:", "data:")) for name in resources), resources
