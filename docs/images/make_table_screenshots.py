"""Remake the screenshots of docs/play-in-the-browser.md:
``python docs/images/make_table_screenshots.py``.

Starts the table server (``boardgame-envs serve``'s app) on a free port, opens one table
of each game (a person against the heuristic, a fixed seed), plays the person's first
moves at random, and takes a screenshot of the person's page in headless Chromium when it
is their turn: ``docs/images/table-<game>.png`` (reduced to 64 colours, so that each stays
small). Needs the web extra, Selenium, Pillow, and Debian's ``chromium`` and
``chromium-driver``.
"""

from __future__ import annotations

import io
import random
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from boardgame_envs.registry import GAMES
from boardgame_envs.training.web.server import make_app

HERE = Path(__file__).resolve().parent
#: game: (the person's moves before the screenshot, the options of the table)
SETTINGS = {
    "factors_multiples": (4, {}),
    "carcassonne_castle": (12, {}),
    "wasabi": (24, {}),
    "tahiti": (20, {}),
    "cornucopia": (9, {}),
}
SEED = 7


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def play_until_turn(client: httpx.Client, path: str, token: str, moves: int, rng) -> None:
    """The person's first ``moves`` moves, at random; returns at the person's next turn."""
    made = 0
    while True:
        view = client.get(path, params={"token": token}).json()
        if view["finished"]:
            raise RuntimeError("the game ended before the screenshot")
        if not view["legal"]:
            time.sleep(0.02)
            continue
        if made == moves:
            return
        action = rng.choice(view["legal"])["action"]
        client.post(
            path + "/moves", params={"token": token}, json={"action": action, "move": view["move"]}
        )
        made += 1


def main() -> None:
    data = Path(tempfile.mkdtemp(prefix="screenshots-"))
    app = make_app(data)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,860"):
        options.add_argument(flag)
    options.add_argument("--disable-background-networking")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        with httpx.Client(base_url=base, timeout=60) as client:
            for game, (moves, game_options) in SETTINGS.items():
                if game not in GAMES:
                    continue
                body = {
                    "game": game,
                    "players": ["person", "heuristic"],
                    "seed": SEED,
                    "options": game_options,
                }
                table = client.post("/api/tables", json=body).json()
                link = table["seats"][0]["link"]
                token = link.split("token=")[1]
                path = f"/api/tables/{table['table']}/seats/0"
                play_until_turn(client, path, token, moves, random.Random(SEED))
                driver.get(base + link)
                WebDriverWait(driver, 60).until(
                    lambda d: (
                        d.find_element(By.TAG_NAME, "body").get_attribute("data-state")
                        == "your-turn"
                    )
                )
                time.sleep(0.3)  # the picture drawn
                shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
                small = shot.quantize(colors=64, method=Image.Quantize.MEDIANCUT)
                out = HERE / f"table-{game}.png"
                small.save(out, optimize=True)
                print(f"wrote {out} ({out.stat().st_size // 1024} KiB)")
    finally:
        driver.quit()
        app.state.stop_streams()
        server.should_exit = True
        thread.join(10)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
