/* raten game page on several boards: Dordle (2 boards, 7 tries) and Quordle (4 boards, 9 tries),
   daily or practice. Every guess goes to every board not yet solved; the server keeps the
   answers and sends them only once the game is over. */
"use strict";

(function boardsPlayPage() {
  const N = RATEN.boards;
  if (!(N > 1)) return;
  const params = new URLSearchParams(location.search);
  const el = (id) => document.getElementById(id);
  const practiceKey = "raten-practice-" + RATEN.list + "-" + N;
  const COLOURS = { absent: "var(--grey)", present: "var(--yellow)", correct: "var(--green)" };
  let mode = params.get("mode") === "practice" ? "practice" : "daily";
  let game = null;
  let current = "";
  let sending = false;

  function start(fresh) {
    openGame({
      body: { list: RATEN.list, mode, boards: N },
      practiceKey,
      fresh,
      retry: () => start(fresh),
      shown: (opened, made) => { game = opened; if (made) current = ""; render(); },
    });
  }

  const variantName = () => RATEN.variants[String(N)];

  function render() {
    const title = game.mode === "daily"
      ? tr("game_daily_v", { variant: variantName(), list: game.list, number: game.number })
      : tr("game_practice_v", { variant: variantName(), list: game.list });
    el("game-title").textContent = title;
    document.title = "raten \u00b7 " + title;
    el("tries").textContent = game.status === "playing" ? tr("tries_left", { n: game.max_tries - game.rows.length }) : "";
    renderBoards();
    colourKeys();
    document.body.dataset.game = game.status;
    fitBoards();
    if (game.status === "playing") el("after").hidden = true; else showAfter();
  }

  function renderBoards() {
    const box = el("boards");
    box.replaceChildren();
    for (let b = 0; b < N; b++) {
      const at = game.solved_at[b];
      const wrap = document.createElement("section");
      wrap.className = "mboard" + (at ? " solved" : "");
      wrap.dataset.board = String(b + 1);
      // a short head a phone has room for ("✓ 4", or the answer once lost), said in full
      const head = document.createElement("h2");
      head.className = "mboard-head";
      head.id = "board-head-" + (b + 1);
      let shown = "";
      let said = tr("board_n", { n: b + 1 });
      if (at) { shown = "\u2713 " + at; said += ": " + tr("board_solved_in", { n: at }); } else if (game.answers) {
        shown = game.answers[b].toUpperCase();
        said += ": " + tr("board_open") + ", " + shown;
      }
      const full = document.createElement("span");
      full.className = "sr-only";
      full.textContent = said;
      const short = document.createElement("span");
      short.setAttribute("aria-hidden", "true");
      short.textContent = shown || "\u00a0";
      head.append(full, short);
      wrap.setAttribute("aria-labelledby", head.id);
      wrap.appendChild(head);
      const grid = document.createElement("div");
      grid.className = "mgrid";
      const played = game.rows.filter((r) => r.patterns[b] !== null);
      for (let i = 0; i < game.max_tries; i++) {
        let row;
        if (i < played.length) {
          row = tileRow(played[i].guess, coloursOf(played[i].patterns[b]), false);
          row.classList.add("done");
          row.setAttribute("role", "group");
          row.setAttribute("aria-label", tr("board_n", { n: b + 1 }) + ", " + tr("row_label", { n: i + 1, word: played[i].guess.toUpperCase() }));
        } else if (!at && i === game.rows.length && game.status === "playing") {
          row = tileRow(current, null, false);
          row.classList.add("input");
          if (sending) row.classList.add("pending");
          row.setAttribute("aria-hidden", "true");
        } else {
          row = tileRow("", null, false);
          row.setAttribute("aria-hidden", "true");
        }
        grid.appendChild(row);
      }
      wrap.appendChild(grid);
      box.appendChild(wrap);
    }
    const input = el("board");
    input.setAttribute("aria-label", tr("input_row", { word: current.toUpperCase() || "\u2013" }));
  }

  /** Each key shows every board's colour for its letter: halves for two boards, quarters for four. */
  function colourKeys() {
    for (const key of el("keyboard").querySelectorAll(".key")) {
      const ch = key.dataset.key;
      if (ch.length !== 1) continue;
      const states = game.keyboards.map((k, b) => (game.solved_at[b] ? null : k[ch] || null));
      const parts = states.map((s) => (s ? COLOURS[s] : "var(--empty)"));
      key.classList.toggle("split", states.some(Boolean));
      if (states.some(Boolean)) {
        key.style.background = N === 2
          ? "linear-gradient(to right, " + parts[0] + " 50%, " + parts[1] + " 50%)"
          : "conic-gradient(" + parts[1] + " 0 25%, " + parts[3] + " 0 50%, " + parts[2] + " 0 75%, " + parts[0] + " 0)";
      } else {
        key.style.background = "";
      }
      const said = states.map((s, b) => (s ? tr("board_n", { n: b + 1 }) + ": " + tr("state_" + s) : null)).filter(Boolean);
      key.setAttribute("aria-label", ch.toUpperCase() + (said.length ? "; " + said.join("; ") : ""));
    }
  }

  function fitBoards() {
    fitManyBoards(el("boards"), (cols) => game.max_tries * Math.ceil(N / cols));
  }
  window.addEventListener("resize", () => { if (game) fitBoards(); });

  async function submit() {
    if (!game || game.status !== "playing" || sending) return;
    if (current.length < 5) { toast(tr("too_short")); return; }
    sending = true;
    const before = game.rows.length;
    await sendGuess(game, current, {
      pending: renderBoards,
      sent: (after) => {
        game = after;
        sending = false;
        current = "";
        render();
        if (game.rows.length > before) {
          const row = game.rows[game.rows.length - 1];
          const said = row.patterns.map((p, b) => (p === null ? null
            : tr("board_n", { n: b + 1 }) + ": " + coloursOf(p).map((c, i) => tileLabel(row.guess[i], c)).join(", ")))
            .filter(Boolean).join(". ");
          announce(tr("row_revealed", { n: game.rows.length, tiles: said }) + (game.status !== "playing" ? ". " + el("result").textContent : ""));
          if (game.status !== "playing") toast(el("result").textContent);  // on a phone the result is below the boards
        }
      },
      failed: () => { sending = false; renderBoards(); },
      again: submit,
      settled: () => { sending = false; },
    });
  }

  function onKey(key) {
    if (!game || game.status !== "playing" || sending) return;
    if (key === "enter") { submit(); return; }
    if (key === "backspace") current = current.slice(0, -1);
    else if (current.length < 5) current += key;
    renderBoards();
  }

  function showAfter() {
    el("after").hidden = false;
    const solved = game.solved_at.filter(Boolean).length;
    el("result").textContent = game.status === "won"
      ? tr("won_boards", { boards: N, n: game.rows.length })
      : tr("lost_boards", { solved, boards: N });
    el("answers").textContent = tr("answers_were", { answers: game.answers.map((a) => a.toUpperCase()).join(", ") });
    el("share").textContent = game.share || "";
    drawShare(el("share-preview"), game.share || "");
  }

  /** The share text drawn with CSS squares (emoji fonts are not everywhere); Share sends the text. */
  function drawShare(box, text) {
    const SQ = { "\u2b1c": "c0", "\ud83d\udfe8": "c1", "\ud83d\udfe9": "c2", "\ud83d\udfe6": "c1", "\ud83d\udfe7": "c2",
      "\u2b1b": "blank", "\ud83d\udfe5": "failed" };
    box.replaceChildren();
    for (const line of text.split("\n")) {
      const div = document.createElement("div");
      const chars = Array.from(line);
      for (let i = 0; i < chars.length; i++) {
        const ch = chars[i];
        if (SQ[ch]) {
          const sq = document.createElement("span");
          sq.className = "sq " + SQ[ch];
          div.appendChild(sq);
        } else if (/[0-9]/.test(ch) && chars[i + 1] === "\ufe0f" && chars[i + 2] === "\u20e3") {
          const cap = document.createElement("span");
          cap.className = "keycap";
          cap.textContent = ch;
          div.appendChild(cap);
          i += 2;
        } else if (ch === " " && div.lastChild && div.lastChild.nodeType === 1) {
          div.appendChild(Object.assign(document.createElement("span"), { className: "space" }));
        } else {
          div.append(ch);
        }
      }
      if (!line) div.className = "gap";
      box.appendChild(div);
    }
  }

  makeKeyboard(el("keyboard"), onKey);
  listenKeys(onKey);
  wireNewGame(() => { mode = "practice"; start(true); });
  el("share-button").addEventListener("click", () => {
    if (game && game.share) ratenShare(game.share, el("share-status"), el("share-fallback"));
  });
  el("show-stats").addEventListener("click", (e) => ratenStats.open({ boards: N, mode: game ? game.mode : mode, pointer: e.detail > 0 }));
  start(false);
})();
