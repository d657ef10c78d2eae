"use strict";
// One seat's page: its view from the server, moves by clicking, live updates.
(function () {
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/");  // /t/<table>/<seat>
  const table = parts[2], seat = parts[3];
  const token = new URLSearchParams(location.search).get("token") || "";
  const base = "/api/tables/" + encodeURIComponent(table) + "/seats/" + encodeURIComponent(seat);
  const withToken = (path) => base + path + "?token=" + encodeURIComponent(token);
  let view = null, sending = false, loading = null, again = false, shownPicture = null;

  async function load() {
    // one request at a time; a change announced meanwhile loads once more afterwards
    if (loading) { again = true; return loading; }
    loading = (async () => {
      try {
        const response = await fetch(withToken(""), { cache: "no-store" });
        const answer = await response.json();
        if (!response.ok) { fail(answer.error || response.statusText); return; }
        if (!view || answer.version !== view.version) { view = answer; show(); }
      } catch (error) {
        fail("the server did not answer; trying again");
      }
    })();
    await loading;
    loading = null;
    if (again) { again = false; await load(); }
  }

  function fail(message) { $("error").textContent = message; }

  function show() {
    const v = view;
    document.title = v.title + " \u00B7 P" + v.seat;
    $("title").textContent = v.title + ": table " + v.table + ", you are P" + v.seat;
    let state, status;
    if (v.finished) { state = "over"; status = "Game over."; }
    else if (v.agentError) { state = "stuck"; status = v.agentError; }
    else if (v.thinking === v.seat) { state = "thinking"; status = "Playing your only move"; }
    else if (v.thinking !== null) {
      state = "thinking";
      status = v.players[v.thinking] + " is thinking";
    } else if (v.toMove === v.seat) { state = "your-turn"; status = "Your turn: click a move."; }
    else { state = "waiting"; status = "Waiting for " + v.players[v.toMove] + "."; }
    $("status").textContent = status;
    document.body.dataset.state = state;
    document.body.dataset.version = String(v.version);
    document.body.dataset.move = String(v.move);
    if (v.picture && v.picture !== shownPicture) {
      $("picture").src = "data:image/png;base64," + v.picture;
      $("picture").hidden = false;
      shownPicture = v.picture;
    }
    $("text").textContent = v.text;
    document.querySelector("#legend pre").textContent = v.legend.join("\n");
    fillScores(v);
    fillLog(v);
    fillMoves(v);
    $("end").hidden = !v.finished;
    if (v.finished) {
      $("result").textContent = v.result;
      $("record-link").href = withToken("/record");
      $("replay-link").href = withToken("/replay");
    }
  }

  function fillScores(v) {
    const body = $("scores").tBodies[0];
    body.textContent = "";
    for (let s = 0; s < v.numPlayers; s++) {
      const row = body.insertRow();
      if (v.toMove === s) row.classList.add("to-move");
      if (v.finished && v.winners.includes(s)) row.classList.add("winner");
      row.insertCell();
      row.insertCell().textContent = v.players[s] + (v.thinking === s && s !== v.seat ? " (thinking\u2026)" : "");
      row.insertCell().textContent = v.scores[s];
    }
  }

  function fillLog(v) {
    const list = $("log");
    list.textContent = "";
    for (const line of v.log) {
      const item = document.createElement("li");
      item.textContent = line;
      if (line.includes("(hidden from")) item.classList.add("note");
      list.appendChild(item);
    }
    list.scrollTop = list.scrollHeight;
  }

  function moveButton(move) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.action = String(move.action);
    button.textContent = move.text;
    button.onclick = () => send(move.action);
    return button;
  }

  function fillMoves(v) {
    closeChoices();
    const mine = v.legal.length > 0;
    $("legal-box").hidden = !mine;
    const list = $("legal");
    list.textContent = "";
    for (const move of v.legal) list.appendChild(moveButton(move));
    $("legal-title").textContent = v.targets.length
      ? "Your moves (or click the picture)" : "Your moves";
    const box = $("targets");
    box.textContent = "";
    if (!v.pictureSize) return;
    const [w, h] = v.pictureSize;
    const texts = new Map(v.legal.map((m) => [m.action, m.text]));
    v.targets.forEach((target, i) => {
      const [x, y, tw, th] = target.box;
      const spot = document.createElement("div");
      spot.className = "target";
      spot.id = "target-" + i;
      spot.dataset.actions = target.actions.join(",");
      spot.style.left = (100 * x / w) + "%";
      spot.style.top = (100 * y / h) + "%";
      spot.style.width = (100 * tw / w) + "%";
      spot.style.height = (100 * th / h) + "%";
      spot.title = target.actions.map((a) => texts.get(a)).join("\n");
      spot.onclick = () => {
        if (target.actions.length === 1) { send(target.actions[0]); return; }
        spot.classList.add("chosen");
        $("choices-title").textContent = "Which one?";
        const buttons = $("choice-buttons");
        buttons.textContent = "";
        for (const a of target.actions) buttons.appendChild(moveButton({ action: a, text: texts.get(a) }));
        $("choices").hidden = false;
      };
      box.appendChild(spot);
    });
  }

  function closeChoices() {
    $("choices").hidden = true;
    for (const spot of document.querySelectorAll(".target.chosen")) spot.classList.remove("chosen");
  }
  $("choices-close").onclick = closeChoices;

  async function send(action) {
    if (sending || !view) return;  // a second click while the first is on its way
    sending = true;
    for (const b of document.querySelectorAll("button.move")) b.disabled = true;
    $("error").textContent = "";
    try {
      const response = await fetch(withToken("/moves"), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ action: action, move: view.move }),
      });
      const answer = await response.json();
      if (!response.ok) fail(answer.error);
    } catch (error) {
      fail("the move may not have reached the server; reloading the table");
    } finally {
      sending = false;
      await load();
      for (const b of document.querySelectorAll("button.move")) b.disabled = false;
    }
  }

  // live updates: server-sent events; polling where they are not available or fail
  function poll(ms) { setInterval(load, ms); }
  if (window.EventSource) {
    const events = new EventSource(withToken("/events"));
    events.addEventListener("change", (event) => {
      const version = JSON.parse(event.data).version;
      if (!view || version !== view.version) load();
    });
    poll(10000);  // a safety net, should the stream be cut without an error
  } else {
    poll(1500);
  }
  load();
})();
