/* raten: what every page has, wired once: the header's list switch (a change reloads the page for
   that list), its language switch (keeping every parameter of the URL), its statistics button,
   and the dialogs with the settings. The one module of a page without a script of its own
   (templates/base.html); every page's module imports it. */
import { wireDialogs, wireSettings } from "./settings.js";
import { openStats } from "./stats.js";
import { langLinks } from "./ui.js";

const select = document.getElementById("list-select");
if (select) select.addEventListener("change", () => select.form.submit());
const stats = document.getElementById("stats-open");
if (stats) stats.addEventListener("click", (e) => openStats({ pointer: e.detail > 0 }));
langLinks(new URLSearchParams(location.search));  // a page that changes its URL calls it again
wireDialogs();
wireSettings();
