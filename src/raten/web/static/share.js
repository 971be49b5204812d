/* raten: sharing a result or a link: the share sheet, the clipboard or the text to copy by hand;
   and a share text drawn with CSS squares (emoji fonts are not everywhere). */
import { tr } from "./config.js";
import { toast } from "./ui.js";

/** Share a text: the phone's share sheet where there is one, else the clipboard, else (plain
    HTTP on a LAN has no clipboard) the text shown selected in `fallback` to copy by hand. */
export async function share(text, status, fallback) {
  fallback.hidden = true;
  if (navigator.share) {
    try { await navigator.share({ text }); status.textContent = tr("stats_shared"); return; } catch (e) {
      if (e && e.name === "AbortError") return;  // the player closed the share sheet
    }
  }
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(text); status.textContent = tr("copied"); return; } catch (e) { /* below */ }
  }
  fallback.value = text;
  fallback.hidden = false;
  status.textContent = tr("stats_fallback");
  fallback.focus();
  fallback.select();
}

/** Copy `text` to the clipboard and say `said` (a text key); where that fails, show the text. */
export async function copyText(text, said) {
  try { await navigator.clipboard.writeText(text); toast(tr(said)); } catch (e) { toast(text); }
}

/** The share text of a game of several boards drawn in `box`: its squares, keycaps and lines. */
export function drawShare(box, text) {
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
