"use strict";
// The start page: the games from /api/games, a form for a new table, the links it gives.
(function () {
  const $ = (id) => document.getElementById(id);
  const CHOICES = ["person", "heuristic", "random", "ismcts"];
  let games = [];

  function game() { return games.find((g) => g.id === $("game").value); }

  function fillPlayers() {
    const g = game(), box = $("players"), was = Number(box.value) || g.minPlayers;
    box.textContent = "";
    for (let n = g.minPlayers; n <= g.maxPlayers; n++) box.add(new Option(String(n), String(n)));
    box.value = String(Math.min(Math.max(was, g.minPlayers), g.maxPlayers));
    fillSeats();
  }

  function fillSeats() {
    const box = $("seats"), n = Number($("players").value);
    const old = [...box.querySelectorAll(".seat-row")].map(seatSpec);
    box.textContent = "";
    for (let s = 0; s < n; s++) {
      const row = document.createElement("div");
      row.className = "seat-row";
      row.innerHTML = "<label>P" + s + " <select class='seat-kind'></select></label>" +
        "<input class='seat-spec' placeholder='agent spec, e.g. ismcts:iterations=200' size='34' hidden>";
      const select = row.querySelector("select");
      select.id = "seat-" + s;
      row.querySelector("input").id = "seat-spec-" + s;
      for (const c of CHOICES) select.add(new Option(c, c));
      select.add(new Option("another agent\u2026", "other"));
      const spec = old[s] || (s === 0 ? "person" : "heuristic");
      if (CHOICES.includes(spec)) select.value = spec;
      else { select.value = "other"; row.querySelector("input").value = spec; }
      const input = row.querySelector("input");
      input.hidden = select.value !== "other";
      select.onchange = () => { input.hidden = select.value !== "other"; };
      box.appendChild(row);
    }
  }

  function seatSpec(row) {
    const kind = row.querySelector("select").value;
    return kind === "other" ? row.querySelector("input").value.trim() : kind;
  }

  function fillOptions() {
    const box = $("options");
    box.textContent = "";
    $("options-box").hidden = game().options.length === 0;
    for (const o of game().options) {
      const label = document.createElement("label");
      label.title = o.doc;
      let input;
      if (typeof o.default === "boolean") {
        input = document.createElement("input");
        input.type = "checkbox";
        input.checked = o.default;
      } else if (o.allowed && o.allowed.length) {
        input = document.createElement("select");
        o.allowed.forEach((v, i) => input.add(new Option(String(v), String(i))));
        input.value = String(o.allowed.findIndex((v) => v === o.default));
      } else {
        input = document.createElement("input");
        input.type = typeof o.default === "number" ? "number" : "text";
        input.value = String(o.default);
        input.size = 8;
      }
      input.id = "option-" + o.name;
      input.dataset.name = o.name;
      label.append(o.name + " ", input);
      box.appendChild(label);
    }
  }

  function options() {
    const out = {};
    for (const o of game().options) {
      const input = $("option-" + o.name);
      let value;
      if (typeof o.default === "boolean") value = input.checked;
      else if (o.allowed && o.allowed.length) value = o.allowed[Number(input.value)];
      else if (typeof o.default === "number") value = Number(input.value);
      else value = input.value;
      if (value !== o.default) out[o.name] = value;
    }
    return out;
  }

  function remember(table, links) {
    const saved = JSON.parse(localStorage.getItem("boardgame-envs-tables") || "[]");
    saved.unshift({ table: table.table, game: table.game, links: links, when: Date.now() });
    localStorage.setItem("boardgame-envs-tables", JSON.stringify(saved.slice(0, 30)));
    showMine();
  }

  function showMine() {
    const list = $("my-tables");
    list.textContent = "";
    const saved = JSON.parse(localStorage.getItem("boardgame-envs-tables") || "[]");
    for (const t of saved) {
      for (const l of t.links) {
        const item = document.createElement("li"), a = document.createElement("a");
        a.href = l.link;
        a.textContent = t.game + " " + t.table + ", P" + l.seat;
        item.append(a, " (" + new Date(t.when).toLocaleString() + ")");
        list.appendChild(item);
      }
    }
    if (!saved.length) list.innerHTML = "<li class='note'>none yet</li>";
  }

  $("game").onchange = () => { fillPlayers(); fillOptions(); };
  $("players").onchange = fillSeats;
  $("new-table").onsubmit = async (event) => {
    event.preventDefault();
    $("error").textContent = "";
    const seed = $("seed").value.trim();
    const body = {
      game: $("game").value,
      num_players: Number($("players").value),
      players: [...document.querySelectorAll(".seat-row")].map(seatSpec),
      seed: seed === "" ? null : Number(seed),
      options: options(),
    };
    $("open").disabled = true;
    try {
      const response = await fetch("/api/tables", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (!response.ok) { $("error").textContent = answer.error; return; }
      const list = $("links");
      list.textContent = "";
      const links = answer.seats.filter((s) => s.link);
      for (const s of links) {
        const item = document.createElement("li"), a = document.createElement("a");
        a.href = s.link;
        a.id = "open-seat-" + s.seat;
        a.textContent = "Open P" + s.seat + "'s seat";
        const text = document.createElement("div");
        text.className = "link-text";
        text.textContent = new URL(s.link, location.href).href;
        item.append(a, text);
        list.appendChild(item);
      }
      if (!links.length) list.innerHTML = "<li>No person sits at this table: agents only.</li>";
      $("opened").hidden = false;
      remember(answer, links);
    } catch (error) {
      $("error").textContent = "the server did not answer: " + error;
    } finally {
      $("open").disabled = false;
    }
  };

  fetch("/api/games").then((r) => r.json()).then((answer) => {
    games = answer.games;
    for (const g of games) $("game").add(new Option(g.title + " (" + g.id + ")", g.id));
    fillPlayers();
    fillOptions();
    showMine();
    document.body.dataset.ready = "1";
  });
})();
