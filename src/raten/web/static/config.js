/* raten: the page's config (the JSON block templates/base.html writes: list, language, board
   count, keyboard, the UI's texts...) and the texts in the page's language. */

export const RATEN = JSON.parse(document.getElementById("raten-config").textContent);

/** A UI string in the page's language, with {name} placeholders filled in. */
export function tr(key, params) {
  let text = RATEN.text[key] || key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
  return text;
}

/** `x` with `digits` decimals in the page's language ("5.932", "5,932"): every page writes its
    numbers so (as i18n.number does on the server), a decimal comma in German, no grouping. */
export function formatNumber(x, digits) {
  return Number(x).toLocaleString(RATEN.lang, { minimumFractionDigits: digits, maximumFractionDigits: digits,
    useGrouping: false });
}

/** Letters per word of the page's list (4 to 8), and the letters it keeps (a-z, and any of its own). */
export const LENGTH = RATEN.length;
export const LETTERS = RATEN.letters;

/** What a letter typed on the physical keyboard becomes in the list: itself, or written the
    list's way (ä as "ae", é as "e"; ä itself where the list keeps it), or null for no letter of it. */
export function typedLetters(key) {
  if (key.length === 1 && LETTERS.includes(key)) return key;
  return Object.prototype.hasOwnProperty.call(RATEN.typed, key) ? RATEN.typed[key] : null;
}

/** The board count of the page: 1, or 2 and more for Dordle, Quordle... */
export const BOARDS = RATEN.boards > 1 ? RATEN.boards : 1;

/** "Board 2" (said before a row or a tile of that board on a page of several boards). */
export function boardName(b) {
  return tr("board_n", { n: b + 1 });
}
