/* raten: the dialogs every page may have (settings; the game's how-to-play, opened by itself on
   a first visit) and the settings themselves: theme, high contrast, hard mode. A button with data-dialog="ID" opens <dialog id=ID>
   as a modal (the browser keeps focus inside; Escape closes); focus goes back where it was.
   The look is kept in localStorage["raten.theme"] and ["raten.contrast"] and shown as
   <html data-theme> and <html data-contrast="high"> (theme.js sets them before the first paint);
   a change fires "raten:look" on document, for whoever draws colours (the share text). */
import { tr } from "./config.js";

const root = document.documentElement;

function read(key) {
  try { return localStorage.getItem(key); } catch (e) { return null; }
}
function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
  } catch (e) { /* storage refused: the choice holds for this page only */ }
}

/** Show the saved look on <html> (the same rule as theme.js, again after a change elsewhere). */
function applyLook() {
  const theme = read("raten.theme");
  if (theme === "light" || theme === "dark") root.dataset.theme = theme; else delete root.dataset.theme;
  if (read("raten.contrast") === "high") root.dataset.contrast = "high"; else delete root.dataset.contrast;
  document.dispatchEvent(new CustomEvent("raten:look", {
    detail: { theme: root.dataset.theme || "system", contrast: root.dataset.contrast || "normal" },
  }));
}

/** Every button with data-dialog opens its dialog. */
export function wireDialogs() {
  for (const opener of document.querySelectorAll("[data-dialog]")) {
    const dialog = document.getElementById(opener.dataset.dialog);
    if (!dialog || typeof dialog.showModal !== "function") continue;
    let byPointer = false;
    opener.addEventListener("click", (e) => {
      byPointer = e.detail > 0;
      dialog.dispatchEvent(new Event("raten:open"));
      dialog.showModal();
    });
    // opened by the page itself (openOnce): as after a click, focus is left on the page
    dialog.addEventListener("raten:auto", () => {
      byPointer = true;
      dialog.dispatchEvent(new Event("raten:open"));
      dialog.showModal();
    });
    dialog.addEventListener("close", () => {
      // The browser gives focus back to the opener. After a click, leave it on the page instead,
      // so that Enter types the word rather than opening the dialog again (issue 12 item 1).
      if (byPointer && document.activeElement === opener) opener.blur();
      else if (!byPointer) opener.focus({ preventScroll: true });
    });
    dialog.addEventListener("click", (e) => {
      if (e.target === dialog) dialog.close();  // the backdrop, outside the dialog's body
    });
    for (const close of dialog.querySelectorAll("[data-close]")) close.addEventListener("click", () => dialog.close());
  }
}

/** Open the dialog `id` by itself, once per browser: on the first visit (localStorage[key]
    remembers it; a browser that refuses storage is treated as a first visit each time). Returns
    whether it opened. How to play opens so on the game's first visit, as NYT's does. */
export function openOnce(id, key) {
  const dialog = document.getElementById(id);
  if (!dialog || typeof dialog.showModal !== "function" || read(key) || dialog.open) return false;
  store(key, "1");
  dialog.dispatchEvent(new Event("raten:auto"));
  return dialog.open;
}

/** The settings dialog: the theme, high contrast and the page's hard mode. */
export function wireSettings() {
  const dialog = document.getElementById("settings");
  if (!dialog) return;
  const themes = dialog.querySelectorAll('input[name="theme"]');
  const contrast = document.getElementById("set-contrast");
  const setHard = document.getElementById("set-hard");
  const hardNote = document.getElementById("set-hard-note");
  const pageHard = document.getElementById("hard");  // the page's own hard-mode switch

  /** The dialog's controls from what is in force now. */
  function sync() {
    const theme = root.dataset.theme || "system";
    for (const input of themes) input.checked = input.value === theme;
    contrast.checked = root.dataset.contrast === "high";
    if (setHard) {
      setHard.checked = Boolean(pageHard && pageHard.checked);
      setHard.disabled = !pageHard;
      hardNote.textContent = "";
    }
  }

  dialog.addEventListener("raten:open", sync);
  for (const input of themes) {
    input.addEventListener("change", () => {
      store("raten.theme", input.value === "system" ? null : input.value);
      applyLook();
    });
  }
  contrast.addEventListener("change", () => {
    store("raten.contrast", contrast.checked ? "high" : null);
    applyLook();
  });
  if (setHard && pageHard) {
    // The page's switch does the work (and may refuse: a game's mode is fixed once it has a row).
    setHard.addEventListener("change", () => {
      const wanted = setHard.checked;
      pageHard.checked = wanted;
      pageHard.dispatchEvent(new Event("change", { bubbles: true }));
      setHard.checked = pageHard.checked;
      hardNote.textContent = setHard.checked === wanted ? "" : tr("hard_locked");
    });
    pageHard.addEventListener("change", () => { if (!dialog.open) sync(); });
  }
  // another tab changed the look
  window.addEventListener("storage", (e) => {
    if (e.key === "raten.theme" || e.key === "raten.contrast" || e.key === null) { applyLook(); sync(); }
  });
  sync();
}
