// The game screen's later helpers, fetched after the page has loaded (data-later): the
// screen kept on while the game is open, and the result shared at game over. Where the
// browser has neither API, nothing happens and nothing is shown.
"use strict";

(() => {
  // The Screen Wake Lock API: the phone does not sleep between hands. The browser
  // releases the lock when the page is hidden; it is asked for again on coming back.
  let lock = null;

  async function keepAwake() {
    if (!("wakeLock" in navigator) || lock || document.visibilityState !== "visible") {
      return;
    }
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => {
        lock = null;
      });
    } catch {
      // Refused (battery saver, no permission): the screen sleeps as it would anyway.
      lock = null;
    }
  }

  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();

  // "Share": the phone's share sheet with the server's words for the result; without
  // one, the words go to the clipboard and the page says so.
  function canShare() {
    return Boolean(navigator.share || navigator.clipboard);
  }

  function showShareButtons(root) {
    if (!canShare()) {
      return;
    }
    for (const button of root.querySelectorAll("button[data-share][hidden]")) {
      button.hidden = false;
    }
  }

  document.addEventListener("htmx:load", (event) => showShareButtons(event.target));
  showShareButtons(document);

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-share]");
    if (!button) {
      return;
    }
    const text = button.dataset.share;
    const status = document.getElementById(button.dataset.status);
    if (navigator.share) {
      try {
        await navigator.share({ text });
        return;
      } catch (error) {
        if (error.name === "AbortError") {
          return; // closed by the person sharing
        }
      }
    }
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = button.dataset.copied;
    } catch {
      status.textContent = button.dataset.failed;
    }
  });
})();
