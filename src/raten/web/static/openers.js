/* raten openers page: one word list at a time, behind ARIA tabs (issue 12 item 9). Arrow keys,
   Home and End move between the tabs and show the list at once; the URL keeps the list shown. */
import "./common.js";
import { langLinks } from "./ui.js";

const tabs = Array.from(document.querySelectorAll('#opener-tabs [role="tab"]'));

function select(tab, focus) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute("aria-selected", on ? "true" : "false");
    t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute("aria-controls")).hidden = !on;
  }
  if (focus) tab.focus();
  const q = new URLSearchParams(location.search);
  q.set("list", tab.dataset.list);
  history.replaceState(null, "", location.pathname + "?" + q.toString());
  langLinks(q);  // the language switch shows the same list
}

for (const tab of tabs) {
  tab.addEventListener("click", () => select(tab, false));
  tab.addEventListener("keydown", (e) => {
    const i = tabs.indexOf(tab);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    select(tabs[(to + tabs.length) % tabs.length], true);
  });
}
