/* raten game on several boards (Dordle, Quordle): what play.js does differently there: the
   boards side by side (each head says the board's state), the keys coloured per board, what is
   said after a guess, and the panel after the game (the answers, the share text and the
   statistics). The answers come only once the game is over. */
import { blankRow, drawBoards, fitManyBoards, guessRow } from "./board-view.js";
import { BOARDS as N, RATEN, boardName, tr } from "./config.js";
import { drawShare } from "./share.js";
import { openStats } from "./stats.js";
import { coloursOf, tileLabel, tileRow } from "./tiles.js";
import { announce, toast } from "./ui.js";

const el = (id) => document.getElementById(id);
let page = null;

/** What a new game of several boards is asked with. */
export function options() { return { boards: N }; }

const variantName = () => RATEN.variants[String(N)];

/** Draw the game: its title, the boards, the keys. */
export function draw(p) {
  const game = p.game;
  const title = game.mode === "daily"
    ? tr("game_daily_v", { variant: variantName(), list: game.list, number: game.number })
    : tr("game_practice_v", { variant: variantName(), list: game.list });
  el("game-title").textContent = title;
  document.title = "raten \u00b7 " + title;
  drawGame(p);
  p.keys.colour(game.keyboards.map((k, b) => (game.solved_at[b] ? {} : k)));
  fitBoards();
}

/** The answers as their language writes them (BÖSE, not BOESE), in capitals. */
function answersShown(game) {
  return (game.answers_written || game.answers).map((a) => a.toUpperCase());
}

function drawGame(p) {
  const game = p.game;
  drawBoards(el("boards"), N, (b) => {
    const at = game.solved_at[b];
    // a short head a phone has room for ("✓ 4", or the answer once lost), said in full
    let shown = "";
    let said = boardName(b);
    if (at) { shown = "\u2713 " + at; said += ": " + tr("board_solved_in", { n: at }); } else if (game.answers) {
      shown = answersShown(game)[b];
      said += ": " + tr("board_open") + ", " + shown;
    }
    const full = document.createElement("span");
    full.className = "sr-only";
    full.textContent = said;
    const short = document.createElement("span");
    short.setAttribute("aria-hidden", "true");
    short.textContent = shown || "\u00a0";
    const played = game.rows.filter((r) => r.patterns[b] !== null);
    const rows = [];
    for (let i = 0; i < game.max_tries; i++) {
      if (i < played.length) {
        rows.push(guessRow(played[i].guess, coloursOf(played[i].patterns[b]),
          boardName(b) + ", " + tr("row_label", { n: i + 1, word: played[i].guess.toUpperCase() })));
      } else if (!at && i === game.rows.length && game.status === "playing") {
        const row = tileRow(p.current, null, false);
        row.classList.add("input");
        if (p.sending) row.classList.add("pending");
        row.setAttribute("aria-hidden", "true");
        rows.push(row);
      } else {
        rows.push(blankRow());
      }
    }
    return { solved: Boolean(at), head: [full, short], rows };
  });
  el("board").setAttribute("aria-label", tr("input_row", { word: p.current.toUpperCase() || "\u2013" }));
}

function fitBoards() {
  fitManyBoards(el("boards"), (cols) => page.game.max_tries * Math.ceil(N / cols));
}
window.addEventListener("resize", () => { if (page && page.game) fitBoards(); });

export function typed(p) { drawGame(p); }
export function typedAhead() {}  // keys wait while a guess is on its way
export function tooShort() {}
export function pending(p) { drawGame(p); }
export function nextWord() { return ""; }
export function failed(p) { drawGame(p); }

/** The new row's colours said board by board, with the result once the game is over. */
export function revealed(game) {
  const row = game.rows[game.rows.length - 1];
  const said = row.patterns.map((p, b) => (p === null ? null
    : boardName(b) + ": " + coloursOf(p).map((c, i) => tileLabel(row.guess[i], c)).join(", ")))
    .filter(Boolean).join(". ");
  announce(tr("row_revealed", { n: game.rows.length, tiles: said }) + (game.status !== "playing" ? ". " + el("result").textContent : ""));
  if (game.status !== "playing") toast(el("result").textContent);  // on a phone the result is below the boards
}

export function playing() { el("after").hidden = true; }

/** The panel after the game: the result, the answers, the share text. */
export function after(game) {
  el("after").hidden = false;
  const solved = game.solved_at.filter(Boolean).length;
  el("result").textContent = game.status === "won"
    ? tr("won_boards", { boards: N, n: game.rows.length })
    : tr("lost_boards", { solved, boards: N });
  el("answers").textContent = tr("answers_were", { answers: answersShown(game).join(", ") });
  el("share").textContent = game.share || "";
  drawShare(el("share-preview"), game.share || "");
}

/** The statistics of this variant and mode. */
export function wire(p) {
  page = p;
  el("show-stats").addEventListener("click", (e) => openStats({ boards: N, mode: page.game ? page.game.mode : page.mode, pointer: e.detail > 0 }));
}
