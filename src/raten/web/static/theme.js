/* raten: the saved look, applied in <head> before the first paint (so a dark page never flashes
   white). localStorage["raten.theme"] is "light" or "dark" (absent: the system's choice, by CSS);
   localStorage["raten.contrast"] is "high" for the orange and blue palette. They become
   <html data-theme> and <html data-contrast="high">, which the CSS and the share text read. */
"use strict";
(function applyLook() {
  const root = document.documentElement;
  let theme = null;
  let contrast = null;
  try {
    theme = localStorage.getItem("raten.theme");
    contrast = localStorage.getItem("raten.contrast");
  } catch (e) { /* storage refused (privacy mode): the defaults */ }
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  else delete root.dataset.theme;
  if (contrast === "high") root.dataset.contrast = "high";
  else delete root.dataset.contrast;
})();
