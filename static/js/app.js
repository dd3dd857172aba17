// Small enhancements only: every page and form works without this file. No inline
// scripts or handlers anywhere, so a strict Content-Security-Policy can forbid them.
"use strict";

// A read-only link field selects all of itself when focused, ready to copy.
document.addEventListener("focusin", (event) => {
  if (event.target.matches("input[data-select-all]")) {
    event.target.select();
  }
});

// "Copy" buttons start hidden and appear only where the clipboard can be written
// (secure pages); data-copy names the field to copy, and a status region says so.
function showCopyButtons(root) {
  if (!navigator.clipboard) {
    return;
  }
  for (const button of root.querySelectorAll("button[data-copy][hidden]")) {
    button.hidden = false;
  }
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) {
    return;
  }
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.copyStatus);
  try {
    await navigator.clipboard.writeText(field.value);
    status.textContent = button.dataset.copied;
  } catch {
    field.focus();
  }
});

document.addEventListener("DOMContentLoaded", () => showCopyButtons(document));
document.addEventListener("htmx:load", (event) => showCopyButtons(event.target));
