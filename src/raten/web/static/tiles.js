/* raten: tiles and coloured squares, and the words for their colours. Colours are 0 (grey),
   1 (yellow) and 2 (green); a pattern string writes them . ? ! */
import { LENGTH, tr } from "./config.js";

/** The name of a colour 0/1/2 in the page's language ("grey", "gelb", ...). */
function colourName(c) {
  return tr(["state_absent", "state_present", "state_correct"][c]);
}

/** The accessible name of a tile: its letter and, when coloured, its colour ("C, grey"). */
export function tileLabel(letter, colour) {
  if (!letter) return tr("tile_empty");
  const up = letter.toUpperCase();
  return colour === null || colour === undefined ? up : up + ", " + colourName(colour);
}

/** Colours 0/1/2 from a .?! pattern string. */
export function coloursOf(pattern) {
  return Array.from(pattern).map((ch) => (ch === "!" ? 2 : ch === "?" ? 1 : 0));
}

/** A .?! pattern string from colours 0/1/2. */
export function patternOf(colours) {
  return colours.map((c) => ".?!"[c]).join("");
}

/** Small coloured squares for a .?! pattern (bar charts, review). */
export function squares(pattern) {
  const span = document.createElement("span");
  span.className = "squares";
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", coloursOf(pattern).map(colourName).join(", "));
  for (const c of coloursOf(pattern)) {
    const sq = document.createElement("span");
    sq.className = "sq c" + c;
    span.appendChild(sq);
  }
  return span;
}

/** A row of tiles, one per letter of the list's words; letters and colours (or null for uncoloured). */
export function tileRow(word, colours, clickable) {
  const row = document.createElement("div");
  row.className = "row";
  for (let i = 0; i < LENGTH; i++) {
    const tile = document.createElement(clickable ? "button" : "div");
    if (clickable) tile.type = "button";
    tile.className = "tile";
    const ch = word[i] || "";
    tile.textContent = ch;
    if (ch) tile.classList.add("filled");
    if (colours) tile.classList.add("c" + colours[i]);
    if (clickable) tile.setAttribute("aria-label", tileLabel(ch, colours ? colours[i] : null));
    else {
      tile.setAttribute("role", "img");
      tile.setAttribute("aria-label", tileLabel(ch, colours ? colours[i] : null));
    }
    tile.dataset.col = i;
    row.appendChild(tile);
  }
  return row;
}
