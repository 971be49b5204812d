/* raten game page: the daily word or a practice game, six tries, typed or tapped.
   The server keeps the answer; this page only ever sees the colours until the game is over. */
"use strict";

(function playPage() {
  const params = new URLSearchParams(location.search);
  const el = (id) => document.getElementById(id);
  const practiceKey = "raten-practice-" + RATEN.list;
  let mode = params.get("mode") === "practice" ? "practice" : "daily";
  let hard = localStorage.getItem("raten-hard") === "1";
  let game = null;
  let current = "";
  let ahead = "";  // letters typed while a guess is in flight: the next row's beginning
  let sending = false;

  function start(fresh) {
    openGame({
      body: { list: RATEN.list, mode, hard },
      practiceKey,
      fresh,
      retry: () => start(fresh),
      shown: (opened, made) => { game = opened; if (made) current = ""; render(); },
    });
  }

  function render() {
    if (game.status === "playing") {
      hard = game.hard;
      el("hard").checked = game.hard;
    }
    const title = game.mode === "daily"
      ? tr("game_daily", { list: game.list, number: game.number })
      : tr("game_practice", { list: game.list });
    const heading = el("game-title");
    heading.textContent = title;
    if (game.hard) {
      const star = document.createElement("abbr");
      star.textContent = "*";
      star.title = tr("hard_star");
      heading.append(" ", star);
    }
    // the tab says what this is: "raten · Wordle auf Deutsch · Nr. 700"
    const what = tr(RATEN.language === "de" ? "wordle_de" : "wordle_en");
    document.title = "raten \u00b7 " + what + " \u00b7 "
      + (game.mode === "daily" ? tr("number", { number: game.number }) : tr("practice"))
      + (game.hard ? " *" : "");
    el("tries").textContent = game.status === "playing" ? tr("tries_left", { n: game.max_tries - game.rows.length }) : "";
    const board = el("board");
    board.replaceChildren();
    for (let i = 0; i < game.max_tries; i++) {
      let row;
      if (i < game.rows.length) {
        row = tileRow(game.rows[i].guess, coloursOf(game.rows[i].pattern), false);
        row.classList.add("done");
        row.setAttribute("role", "group");
        row.setAttribute("aria-label", tr("row_label", { n: i + 1, word: game.rows[i].guess.toUpperCase() }));
      } else if (i === game.rows.length && game.status === "playing") {
        row = inputRow();
      } else {
        row = tileRow("", null, false);
        row.setAttribute("aria-hidden", "true");
      }
      board.appendChild(row);
    }
    keyboard.setStates(game.keyboard);
    fitBoard();
    document.body.dataset.game = game.status;
    if (game.status === "playing") { el("after").hidden = true; review.hide(); } else showAfter();
  }

  function shake() {
    const row = el("input-row");
    if (!row) return;
    row.classList.remove("shake");
    void row.offsetWidth;
    row.classList.add("shake");
  }

  /** The row being typed: while a guess is in flight, that guess, marked pending. */
  function inputRow() {
    const row = tileRow(current, null, false);
    row.id = "input-row";
    row.setAttribute("aria-label", tr("input_row", { word: current.toUpperCase() || "\u2013" }));
    if (sending) {
      row.classList.add("pending");
      row.setAttribute("aria-busy", "true");
    }
    return row;
  }

  /** The row after the one in flight shows the letters typed meanwhile. */
  function drawAhead() {
    const input = el("input-row");
    const next = input && input.nextElementSibling;
    if (!next) return;
    const row = tileRow(ahead, null, false);
    row.id = "ahead-row";
    row.setAttribute("aria-label", tr("input_row", { word: ahead.toUpperCase() || "\u2013" }));
    next.replaceWith(row);
  }

  async function submit() {
    if (!game || game.status !== "playing" || sending) return;
    if (current.length < 5) { toast(tr("too_short")); shake(); return; }
    sending = true;
    ahead = "";
    const before = game.rows.length;
    await sendGuess(game, current, {
      pending: () => el("input-row").replaceWith(inputRow()),
      sent: (after) => {
        game = after;
        sending = false;
        current = game.status === "playing" ? ahead : "";
        ahead = "";
        render();
        if (game.rows.length > before) {
          const row = game.rows[game.rows.length - 1];
          const tiles = coloursOf(row.pattern).map((c, i) => tileLabel(row.guess[i], c)).join("; ");
          let said = tr("row_revealed", { n: game.rows.length, tiles });
          if (game.status === "won") said += ". " + tr("won", { n: game.rows.length });
          else if (game.status === "lost") said += ". " + tr("lost") + " " + tr("answer_was", { answer: game.answer.toUpperCase() });
          announce(said);
          const done = el("board").querySelectorAll(".row.done");
          const last = done[done.length - 1];
          last.classList.add(game.status === "won" ? "reveal-win" : "reveal");
        }
        if (game.status !== "playing" && window.innerWidth < 900) el("after").scrollIntoView({ behavior: "smooth" });
      },
      failed: () => {
        sending = false;
        ahead = "";
        el("input-row").replaceWith(inputRow());
        const next = el("ahead-row");
        if (next) next.replaceWith(Object.assign(tileRow("", null, false), { ariaHidden: "true" }));
        shake();
      },
      again: submit,
      settled: () => { sending = false; },
    });
  }

  function onKey(key) {
    if (!game || game.status !== "playing") return;
    if (sending) {  // the guess is on its way: keep what is typed for the next row
      if (key === "backspace") ahead = ahead.slice(0, -1);
      else if (key !== "enter" && ahead.length < 5) ahead += key;
      drawAhead();
      return;
    }
    if (key === "enter") { submit(); return; }
    if (key === "backspace") current = current.slice(0, -1);
    else if (current.length < 5) current += key;
    const row = el("input-row");
    if (row) {
      const fresh = inputRow();
      if (key !== "backspace" && current.length) fresh.children[current.length - 1].classList.add("pop");
      row.replaceWith(fresh);
    }
  }

  function showAfter() {
    el("after").hidden = false;
    const n = game.rows.length;
    el("result").textContent = (game.status === "won" ? tr("won", { n }) : tr("lost")) + " "
      + tr("answer_was", { answer: game.answer.toUpperCase() });
    el("share").textContent = game.share;
    // The same, drawn with CSS squares (emoji fonts are not everywhere); Copy copies the emoji text.
    const preview = el("share-preview");
    preview.replaceChildren();
    const head = document.createElement("div");
    head.textContent = game.share.split("\n")[0];
    preview.appendChild(head);
    for (const row of game.rows) {
      const line = document.createElement("div");
      line.appendChild(squares(row.pattern));
      preview.appendChild(line);
    }
    const stats = game.stats;
    el("stats-heading").textContent = tr("stats_heading", { list: game.list });
    const dl = el("stats");
    dl.replaceChildren();
    for (const [key, value] of [["stat_played", stats.played], ["stat_win", stats.win_percent],
      ["stat_streak", stats.current_streak], ["stat_max", stats.max_streak]]) {
      const box = document.createElement("div");
      const dt = document.createElement("dt");
      dt.textContent = tr(key);
      const dd = document.createElement("dd");
      dd.textContent = value;
      dd.id = key;
      box.append(dt, dd);
      dl.appendChild(box);
    }
    barChart(el("distribution"), stats.distribution.map((v, i) => [String(i + 1), v]), "");

    // the exact review (one board only; Dordle and Quordle have no panel): figures from the server
    review.show(game.rows, (signal) => api("/api/games/" + encodeURIComponent(game.id) + "/review", { signal }));
  }

  const keyboard = makeKeyboard(el("keyboard"), onKey);
  const review = reviewPanel(el("review-panel"), el("after"));
  listenKeys(onKey);
  el("hard").checked = hard;
  el("hard").addEventListener("change", async () => {
    const wanted = el("hard").checked;
    if (game && game.status === "playing" && game.rows.length) {
      el("hard").checked = game.hard;
      toast(tr("hard_locked"));
      return;
    }
    hard = wanted;
    localStorage.setItem("raten-hard", wanted ? "1" : "0");
    if (game && game.status === "playing") {
      try {
        game = await api("/api/games", { method: "POST", body: { list: RATEN.list, mode, hard } });
        if (mode === "practice") localStorage.setItem(practiceKey, game.id);
        render();
      } catch (e) { toast(e.message); }
    }
  });
  wireNewGame(() => { mode = "practice"; start(true); });
  el("copy-share").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(game.share); toast(tr("copied")); } catch (e) { toast(game.share); }
  });
  start(false);
})();
