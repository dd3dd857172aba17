// Small enhancements only: every page and form works without this file. No inline
// scripts or handlers anywhere, so a strict Content-Security-Policy can forbid them.
"use strict";

// What a page needs only later (data-later) comes after it has loaded: not in its weight.
// The service worker is registered from every page, so that the start page is kept from
// the first visit; browsers allow it on secure pages only (HTTPS, localhost).
window.addEventListener("load", () => {
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
  for (const later of document.querySelectorAll("[data-later]")) {
    document.head.append(Object.assign(document.createElement("script"), { src: later.dataset.later }));
  }
});

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

// A request that got no answer (offline) or a server error (5xx) is not swapped in by
// htmx: without this a Save could fail without a word. The form stays as it was, with
// its one-time token, so "Try again" sends the same entry and can never record it twice.
let retry = null;

function failureBox() {
  return document.getElementById("failure");
}

function retryOf(detail) {
  const trigger = detail.requestConfig && detail.requestConfig.triggeringEvent;
  // The button tapped (Save, Misdeal, ...) names the action: tap it again.
  const button = trigger && trigger.submitter;
  if (button && button.isConnected) {
    return () => button.click();
  }
  const element = detail.elt;
  return () => htmx.trigger(element, trigger ? trigger.type : "click");
}

function showFailure(event, kind) {
  const box = failureBox();
  if (!box || !event.detail.elt.isConnected) {
    return;
  }
  box.querySelector("p").textContent = box.dataset[kind];
  retry = retryOf(event.detail);
  box.hidden = false;
}

function hideFailure() {
  const box = failureBox();
  if (box) {
    box.hidden = true;
  }
  retry = null;
}

document.addEventListener("htmx:sendError", (event) => showFailure(event, "offline"));
document.addEventListener("htmx:timeout", (event) => showFailure(event, "offline"));
// A form refused as out of date (the phone signed in or out since the page was made):
// the server sends the token of the session now, which the page's forms take, so that
// "Try again" goes through (core/views.py, csrf_failure).
let renewed = false;
document.addEventListener("csrf-renewed", (event) => {
  const token = event.detail.token;
  document.body.setAttribute("hx-headers", JSON.stringify({ "X-CSRFToken": token }));
  for (const input of document.querySelectorAll("[name=csrfmiddlewaretoken]")) {
    input.value = token;
  }
  renewed = true;
});
document.addEventListener("htmx:responseError", (event) => {
  showFailure(event, renewed ? "expired" : "server");
  renewed = false;
});
document.addEventListener("htmx:afterRequest", (event) => {
  if (event.detail.successful) {
    hideFailure();
  }
});

// A part redrawn by the server at each change (data-newest-answer: the whole auction)
// draws only the answer to the newest change. Its requests queue on it (hx-sync's
// "queue last"); an answer that arrives after a newer change was made is not drawn, since
// it would undo that change, and the part is then still there for the queued request to
// be sent. (htmx:confirm comes at each change, before the queue; "replace" would abort
// the older request instead, which htmx reports in the console as an error.)
const changesMade = new Map();
const changesAsked = new WeakMap();
function newestAnswerPart(event) {
  const part = event.detail.elt;
  return part.hasAttribute("data-newest-answer") ? part.id : null;
}
document.addEventListener("htmx:confirm", (event) => {
  const part = newestAnswerPart(event);
  if (part) {
    changesMade.set(part, (changesMade.get(part) || 0) + 1);
  }
});
document.addEventListener("htmx:beforeRequest", (event) => {
  const part = newestAnswerPart(event);
  if (part) {
    changesAsked.set(event.detail.xhr, changesMade.get(part));
  }
});
document.addEventListener("htmx:beforeSwap", (event) => {
  const part = newestAnswerPart(event);
  if (part && changesAsked.get(event.detail.xhr) !== changesMade.get(part)) {
    event.detail.shouldSwap = false;
  }
});

// A part redrawn at each tick (data-keep-typed: the new game's players) keeps what was
// typed or chosen in it while the answer was on its way, such as a new player's name or
// the first dealer. The answer is drawn from the values sent: a box it draws as it was
// sent gets what the box holds now; one the answer changed (the name box emptied once
// its player is added) is left as drawn.
const typedFields = "input[id]:not([type=checkbox]):not([type=radio]):not([type=hidden]), select[id], textarea[id]";
const sentValues = new WeakMap();
const liveFields = new WeakMap();
function keptPart(event) {
  const part = event.detail.target;
  return part instanceof Element && part.hasAttribute("data-keep-typed") ? part : null;
}
function fieldsOf(part) {
  return new Map([...part.querySelectorAll(typedFields)].map((field) => [field.id, field]));
}
document.addEventListener("htmx:beforeRequest", (event) => {
  const part = keptPart(event);
  if (part) {
    const values = new Map([...fieldsOf(part)].map(([id, field]) => [id, field.value]));
    sentValues.set(event.detail.xhr, values);
  }
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (keptPart(event) && event.detail.shouldSwap) {
    liveFields.set(event.detail.xhr, fieldsOf(event.detail.target));
  }
});
document.addEventListener("htmx:afterSwap", (event) => {
  const sent = sentValues.get(event.detail.xhr);
  const live = liveFields.get(event.detail.xhr);
  if (!sent || !live) {
    return;
  }
  liveFields.delete(event.detail.xhr);
  for (const [id, was] of live) {
    const drawn = document.getElementById(id);
    const asSent = sent.get(id);
    if (!drawn || asSent === undefined || was.value === asSent || drawn.value !== asSent) {
      continue;
    }
    // A choice no longer offered (a dealer no longer at the table) is not forced in.
    if (drawn.matches("select") && ![...drawn.options].some((option) => option.value === was.value)) {
      continue;
    }
    drawn.value = was.value;
    // htmx gives the focus back to the box typed in; the caret goes back where it was.
    if (drawn === document.activeElement && typeof was.selectionStart === "number") {
      drawn.setSelectionRange(was.selectionStart, was.selectionEnd);
    }
  }
});

document.addEventListener("click", (event) => {
  if (event.target.closest("#failure [data-retry]")) {
    const again = retry;
    hideFailure();
    if (again) {
      again();
    }
  } else if (event.target.closest("#failure [data-dismiss]")) {
    hideFailure();
  }
});

// After the table is swapped in, the page is put at the same place every time: the
// table's top (totals, the hand just saved, Undo, then the next hand's form), or, when
// an entry was refused, its messages (from the first down, as many as the screen
// holds), with focus on the control the first is about. Scroll anchoring is off for
// the table in the stylesheet, or the browser would move the page during the swap.
function problems(root) {
  return root.querySelectorAll(".errorlist, .messages .error");
}

function focusTarget(problem) {
  const field = problem.closest(".field");
  return field && field.querySelector("input:not([type=hidden]):not(:disabled), select, textarea");
}

document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target.id !== "table") {
    return;
  }
  const table = document.getElementById("table");
  if (!table) {
    return;
  }
  const all = problems(table);
  const problem = all[0];
  if (!problem) {
    table.scrollIntoView({ block: "start" });
    // The tapped button is gone; the next hand's heading takes focus and is read out.
    const heading = document.getElementById("entry-title");
    if (heading) {
      heading.focus({ preventScroll: true });
    }
    return;
  }
  const control = focusTarget(problem);
  table.scrollIntoView({ block: "start" });
  if (all[all.length - 1].getBoundingClientRect().bottom > window.innerHeight) {
    problem.scrollIntoView({ block: "start" });
  }
  if (control) {
    control.focus({ preventScroll: true });
  }
});

// The earlier hands take the place of the link that loaded them: the focus goes to
// them, where the link was, not back to the top of the page.
document.addEventListener("htmx:load", (event) => {
  if (event.target.id === "earlier") {
    event.target.focus({ preventScroll: true });
  }
});

// On the new-game screen Enter in the name box adds the player and leaves the box
// ready for the next name, redrawing only the players (without this file, or before it
// has loaded, the server adds the name too, and sends the whole page back).
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || !event.target.matches("#id_new_player")) {
    return;
  }
  const add = document.getElementById("add-player");
  if (add && event.target.value.trim()) {
    event.preventDefault();
    add.click();
  }
});

// The rules engine for the phone (engine.js, docs/offline.md) is no part of a screen's
// first load: the game screen names it, and it is fetched once the screen is idle where
// hands are entered, or when another script asks for it. Resolves to window.PitchEngine.
let engineLoading = null;
// How long a first visit waits for the service worker to look after the page.
const CONTROL_WAIT_MS = 5000;

// The engine's files fetched past the service worker would be fetched again by it, to
// keep them for offline play: on a first visit the engine waits (briefly) for the page
// to be controlled, so that each file comes once and is kept as it passes.
function controlled() {
  const service = navigator.serviceWorker;
  if (!service || !window.isSecureContext || service.controller) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    service.addEventListener("controllerchange", resolve, { once: true });
    setTimeout(resolve, CONTROL_WAIT_MS);
  });
}

window.loadPitchEngine = () => {
  const named = document.querySelector('meta[name="pitch-engine"]');
  if (!named) {
    return Promise.reject(new Error("no engine on this page"));
  }
  if (!engineLoading) {
    engineLoading = controlled().then(() => new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = named.content;
      script.dataset.worker = named.dataset.worker;
      script.onload = () => resolve(window.PitchEngine);
      script.onerror = () => reject(new Error("the engine could not be fetched"));
      document.head.append(script);
    }));
  }
  return engineLoading;
};

window.addEventListener("load", () => {
  if (document.querySelector('meta[name="pitch-engine"]') && document.getElementById("entry")) {
    const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 1000));
    idle(() => window.loadPitchEngine().catch(() => {}));
  }
});
