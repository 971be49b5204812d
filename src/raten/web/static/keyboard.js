/* raten: the keyboard of the solver and game pages, on screen (#keyboard, its keys coloured by
   what the boards showed) and the physical one (the list's letters, others written its way, Enter, Backspace). */
import { RATEN, boardName, tr, typedLetters } from "./config.js";

const COLOURS = { absent: "var(--grey)", present: "var(--yellow)", correct: "var(--green)" };
/** The on-screen key last pressed by a tap or a click: it keeps focus (a screen reader's place),
    but Enter typed on the physical keyboard afterwards types the word. */
let tapped = null;

/** The keyboard: `onKey` gets a letter, "enter" or "backspace", from the keys on screen or typed.
    Returns { colour(boards) }: colour the keys, `boards` a {letter: "absent" | "present" |
    "correct"} a board; on several boards each key shows every board's colour (halves for two,
    quarters for four). */
export function keyboard(onKey) {
  const keys = drawKeys(document.getElementById("keyboard"), onKey);
  listenKeys(onKey);
  return {
    colour(boards) {
      for (const [ch, b] of Object.entries(keys)) {
        if (boards.length === 1) colourOne(b, ch, boards[0][ch]);
        else colourMany(b, ch, boards.map((k) => k[ch] || null));
      }
    },
  };
}

function colourOne(key, ch, state) {
  key.classList.remove("absent", "present", "correct");
  if (state) key.classList.add(state);
  key.setAttribute("aria-label", ch.toUpperCase() + (state ? ", " + tr("state_" + state) : ""));
}

function colourMany(key, ch, states) {
  const parts = states.map((s) => (s ? COLOURS[s] : "var(--empty)"));
  key.classList.toggle("split", states.some(Boolean));
  if (states.some(Boolean)) {
    key.style.background = states.length === 2
      ? "linear-gradient(to right, " + parts[0] + " 50%, " + parts[1] + " 50%)"
      : "conic-gradient(" + parts[1] + " 0 25%, " + parts[3] + " 0 50%, " + parts[2] + " 0 75%, " + parts[0] + " 0)";
  } else {
    key.style.background = "";
  }
  const said = states.map((s, b) => (s ? boardName(b) + ": " + tr("state_" + s) : null)).filter(Boolean);
  key.setAttribute("aria-label", ch.toUpperCase() + (said.length ? "; " + said.join("; ") : ""));
}

/** The keys on screen, in the list's layout (RATEN.keyboard; + is Enter, - Backspace); returns the letter keys. */
function drawKeys(container, onKey) {
  container.replaceChildren();
  const keys = {};
  for (const line of RATEN.keyboard) {
    const row = document.createElement("div");
    row.className = "krow";
    for (const ch of line) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "key";
      if (ch === "+") {
        b.textContent = "\u21b5";
        b.setAttribute("aria-label", tr("enter"));
        b.classList.add("wide");
        b.dataset.key = "enter";
      } else if (ch === "-") {
        b.textContent = "\u232b";
        b.setAttribute("aria-label", tr("backspace"));
        b.classList.add("wide");
        b.dataset.key = "backspace";
      } else {
        b.textContent = ch;
        b.dataset.key = ch;
        b.setAttribute("aria-label", ch.toUpperCase());
        keys[ch] = b;
      }
      // the key keeps focus, to be pressed again (Enter or Space when reached by keyboard)
      b.addEventListener("click", (e) => { tapped = e.detail > 0 ? b : null; onKey(b.dataset.key); });
      b.addEventListener("blur", () => { if (tapped === b) tapped = null; });
      row.appendChild(b);
    }
    container.appendChild(row);
  }
  return keys;
}

/** Where Enter types the word: the page itself, the board, or an on-screen key last pressed by a
    tap. Everywhere else (buttons, among them an on-screen key or a solver tile reached by
    keyboard, links, the candidates' summary, form fields) Enter does what it does natively. */
function entersWord(target) {
  if (!target || target === document.body || target === document.documentElement || target === tapped) return true;
  return Boolean(target.closest && target.closest("#board, #keyboard") && !target.closest("button"));
}

/** Typing on the physical keyboard: the list's letters (the others written its way: ä as two
    letters where it folds them, é as e), Enter, Backspace. A letter typed
    while a button or link has focus moves focus to the board, so the Enter after the word types
    it instead of pressing that button again. */
function listenKeys(onKey) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    if (document.querySelector("dialog[open]")) return;  // a dialog (settings, help, statistics) has the keys
    const target = e.target;
    const typing = target && (target.tagName === "SELECT" || target.tagName === "TEXTAREA"
      || (target.tagName === "INPUT" && !["checkbox", "radio", "button"].includes(target.type)));
    if (typing) return;
    const k = e.key.toLowerCase();
    // Enter or Space on a focused key or tile presses it (its click), and it keeps focus
    if ((k === "enter" || k === " ") && !entersWord(target)) return;
    const board = document.getElementById("board");
    // Typing on the physical keyboard while an on-screen key has focus (it keeps focus after a tap)
    // would draw the focus ring on that key (keyboard use makes :focus-visible match): leave it.
    const onScreenKey = target && target.closest && target.closest("#keyboard");
    const letters = typedLetters(k);
    if (onScreenKey && (k === "enter" || k === "backspace" || letters)) target.blur();
    if (k === "enter") {
      e.preventDefault();
      onKey("enter");
    } else if (k === "backspace") {
      e.preventDefault();
      onKey("backspace");
    } else if (letters) {
      if (!entersWord(target) && board) board.focus({ preventScroll: true });
      for (const ch of letters) onKey(ch);
    }
  });
  // A button clicked with the mouse or a finger gives focus back to the page, so that Enter
  // afterwards types the word; one pressed from the keyboard keeps focus (detail 0).
  document.addEventListener("click", (e) => {
    const button = e.target.closest && e.target.closest("button");
    if (button && e.detail > 0 && !button.closest("#keyboard, dialog, [data-dialog]")) button.blur();
  });
}
