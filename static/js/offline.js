// The game screen with no network: a hand saved offline (or whose save got no answer)
// is kept on the phone in IndexedDB, as the exact form body with its one-time token and
// its basis (the game's revision it follows, the hand's number and dealer), and sent in
// order when the network returns. The server records a token once and refuses a hand
// whose basis the game has moved from (another phone saved, changed, deleted, undid or
// restored a hand): that conflict is shown, and the entry kept, until a person enters it
// as the next hand or discards it. Without this file (or without
// JavaScript) the form posts as it always did.
"use strict";

(() => {
  const box = document.getElementById("queue");
  if (!box || !window.indexedDB) {
    return;
  }
  // The worker keeps the app and the games this phone opened. At the site's root, so
  // that it may look after every page; browsers allow it on secure pages only (HTTPS,
  // localhost): elsewhere the game screen works as it does online.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
  const pageUrl = location.pathname;
  const game = Number(pageUrl.split("/")[2]);
  const wordsUrl = `${pageUrl}queue/`;
  let phrases = null;
  const plural = new Intl.PluralRules(document.documentElement.lang || "en");
  // The form's own fields, never carried from one entry to another.
  const OWN_FIELDS = new Set(["csrfmiddlewaretoken", "token", "revision", "expected", "entry_dealer"]);
  let queue = [];
  let loaded = false;
  let syncing = false;
  // The entry whose conflict the form shows now (the server's answer swapped in).
  let shown = null;

  // ---- IndexedDB: one store of entries, in the order they were made ----

  let opened = null;

  function database() {
    opened ??= new Promise((resolve, reject) => {
      const request = indexedDB.open("pitchkeeper", 1);
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
        store.createIndex("game", "game");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return opened;
  }

  async function store(mode, work) {
    const db = await database();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction("hands", mode);
      const request = work(transaction.objectStore("hands"));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
    });
  }

  // The box and its words in the user's language, kept by the worker with the page.
  async function words() {
    const answer = await fetch(wordsUrl, { credentials: "same-origin" });
    if (!answer.ok || answer.redirected) {
      throw new Error(`no words for the queue: ${answer.status}`);
    }
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const part = page.querySelector("[data-phrases]");
    phrases = JSON.parse(part.dataset.phrases);
    box.replaceChildren(...part.children);
  }

  async function reload() {
    const rows = await store("readonly", (hands) => hands.index("game").getAll(game));
    queue = rows.sort((a, b) => a.id - b.id);
    loaded = true;
  }

  const save = (entry) => store("readwrite", (hands) => hands.put(entry));
  const remove = (entry) => store("readwrite", (hands) => hands.delete(entry.id));

  // ---- What the screen says ----

  function phrase(name, values) {
    return Object.entries(values).reduce((text, [key, value]) => text.replace(`{${key}}`, () => value), phrases[name]);
  }

  // The engine's refusal in the page's language, as games/words.py's refusal_text words
  // it on the server: its code's words from the server's catalog, the bids, points and
  // presets it names in the game's words. "" for a refusal without words here.
  const PLACEHOLDER = /%\((\w+)\)([sdr])/g;

  function refusalText(refusal) {
    if (!refusal) {
      return "";
    }
    if (refusal.code === undefined) {
      return refusal.message || "";
    }
    const words = phrases.refusals[refusal.code];
    return words ? words.replace(PLACEHOLDER, (_all, name, kind) => paramText(name, refusal.params[name], kind)) : "";
  }

  function paramText(name, value, kind) {
    const named = phrases.params[name] || {};
    let text = value;
    if (Array.isArray(value)) {
      text = value.map((item) => paramText(name, item, "s")).join(", ");
    } else if (value !== null && typeof value === "object") {
      text = refusalText(value);
    } else if (Object.hasOwn(named, String(value))) {
      text = named[String(value)];
    }
    // %r: a text quoted, as Python's repr shows it.
    return kind === "r" && typeof text === "string" ? `'${text}'` : String(text);
  }

  function counted(count) {
    const forms = phrases.waiting;
    const form = forms[plural.select(count)] || forms.other || forms.one;
    return form.replace("{n}", count);
  }

  function entryForm() {
    return document.getElementById("entry");
  }

  function render() {
    const conflict = queue[0] && queue[0].state !== "waiting" ? queue[0] : null;
    const offline = !navigator.onLine;
    box.hidden = !queue.length && !offline;
    box.querySelector("[data-count]").textContent = queue.length
      ? counted(queue.length)
      : phrases.offline;
    box.querySelector("[data-note]").hidden = !queue.length || hasLocalTotals();
    const part = box.querySelector("[data-conflict]");
    part.hidden = !conflict;
    if (conflict) {
      part.querySelector("[data-message]").textContent = phrase("conflict", {
        n: conflict.expected,
        message: conflict.message,
      });
      part.querySelector("[data-enter]").hidden = !entryForm();
    }
  }

  // ---- The form: its next hand's number and a fresh token ----

  function freshToken() {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // The basis of the next hand: the number it gets and the game's revision it follows.
  // Each waiting hand, once recorded, is one change of the game: the next follows the
  // last one waiting by one of each; with none waiting, the server's. An entry kept
  // before revisions has none: the next says none either, and the server refuses it.
  function nextBasis(form) {
    const last = queue[queue.length - 1];
    if (!last) {
      const fields = form.elements;
      return {
        expected: Number(form.dataset.serverNext || fields.expected.value),
        revision: form.dataset.serverRevision ?? fields.revision.value,
      };
    }
    const revision = Number.isInteger(last.revision) ? last.revision + 1 : "";
    return { expected: last.expected + 1, revision };
  }

  function prepareForm() {
    const form = entryForm();
    if (!form) {
      return;
    }
    const fields = form.elements;
    const title = document.getElementById("entry-title");
    form.dataset.serverNext ??= fields.expected.value;
    form.dataset.serverRevision ??= fields.revision.value;
    form.dataset.serverDealer ??= fields.entry_dealer.value;
    form.dataset.serverTitle ??= title.textContent;
    const conflicted = queue[0] && queue[0].state !== "waiting";
    if (conflicted) {
      return;
    }
    const { expected, revision } = nextBasis(form);
    fields.expected.value = expected;
    fields.revision.value = revision;
    if (!queue.length) {
      // The last one waiting discarded: the server's hand again.
      fields.entry_dealer.value = form.dataset.serverDealer;
      title.textContent = form.dataset.serverTitle;
      return;
    }
    // The dealer after the waiting hands, as the phone's engine sees it: not the page's,
    // which deals an earlier hand. Not known, not said (the server then names no dealer).
    const dealer = localDealer();
    fields.entry_dealer.value = dealer || "";
    title.textContent = dealer ? phrase("deals", { n: expected, dealer }) : phrase("hand", { n: expected });
  }

  // ---- Totals from the phone's own engine, when it is there ----

  let local = null;

  function hasLocalTotals() {
    return Boolean(local);
  }

  function localDealer() {
    return local && local.dealer;
  }

  function gameRecord() {
    const element = document.getElementById("game-record");
    return element ? JSON.parse(element.textContent) : null;
  }

  // Whether the scoreboard shows the phone's totals rather than the page's.
  let projected = false;

  async function showLocalTotals() {
    local = null;
    const count = queue.filter((entry) => entry.state === "waiting").length;
    const record = gameRecord();
    if (!record || !(count || projected)) {
      return;
    }
    try {
      const pitch = await engine();
      await pitch.ready();
      const hands = await waitingHands(pitch);
      if (!hands) {
        return;
      }
      // With none waiting (the last one discarded), the server's own totals again.
      const result = await pitch.project(record, hands);
      pitch.showTotals(result, { pending: hands.length });
      projected = hands.length > 0;
      local = projected ? result : null;
    } catch {
      // The totals stay the server's, as of the last hand sent; the note says so.
      local = null;
    }
  }

  // The phone's engine (static/js/engine.js), fetched by app.js once the screen is idle,
  // or now when the queue needs it first; it rejects where there is none to fetch.
  function engine() {
    if (window.PitchEngine) {
      return Promise.resolve(window.PitchEngine);
    }
    return window.loadPitchEngine ? window.loadPitchEngine() : Promise.reject(new Error("no engine"));
  }

  // The waiting hands as the engine reads them, in order; null when one cannot be read
  // (the server then decides). A hand kept before the engine had started (undefined) is
  // read now from the body kept, and remembered until the queue is read again.
  async function waitingHands(pitch) {
    const hands = [];
    for (const entry of queue.filter((each) => each.state === "waiting")) {
      if (entry.hand === undefined) {
        const fields = new URLSearchParams(entry.body);
        const action = fields.get("action") || "save";
        entry.hand = await pitch.handFromForm(fields, hands, action).catch(() => null);
      }
      if (entry.hand === null) {
        return null;
      }
      hands.push(entry.hand);
    }
    return hands;
  }

  // The hand a form describes, after the waiting ones, for the engine's totals: null
  // where it cannot tell (no engine, or a waiting hand it could not read: the server
  // then decides); undefined while the engine is starting, so that a save is kept at
  // once and read later from its body; throws for an entry the server would refuse as
  // incomplete.
  async function handOf(form, action) {
    const pitch = gameRecord() && (await engine().catch(() => null));
    if (!pitch) {
      return null;
    }
    if (pitch.startup === null) {
      return undefined;
    }
    const earlier = await waitingHands(pitch);
    if (!earlier) {
      return null;
    }
    try {
      return await pitch.handFromForm(form, earlier, action);
    } catch (error) {
      if (error.refused) {
        throw error;
      }
      return null;
    }
  }

  // The conflicted entry put back in the form (after a reload the server's answer that
  // held it is gone), for a person to check: nothing is sent until they say so.
  function showKept() {
    const head = queue[0];
    const form = entryForm();
    if (!head || head.state === "waiting" || shown === head.id || !form) {
      return;
    }
    blank(form);
    carryOver([...new URLSearchParams(head.body)].filter(([name]) => !OWN_FIELDS.has(name)));
    shown = head.id;
  }

  // The count and the form's next number at once; the totals (and the next dealer) when
  // the engine has them, which may take seconds while it starts.
  async function refresh() {
    showKept();
    prepareForm();
    render();
    await showLocalTotals();
    prepareForm();
    render();
  }

  // ---- Keeping an entry ----

  // The form's own address (form.action would be its button named "action").
  function postUrl(form) {
    const url = new URL(form.getAttribute("action"), location.href);
    url.hash = "";
    return url.href;
  }

  function bodyOf(data) {
    return new URLSearchParams(data).toString();
  }

  function revisionOf(fields) {
    const value = fields.get("revision");
    return value ? Number(value) : null;
  }

  async function keep(url, body, hand) {
    const fields = new URLSearchParams(body);
    const entry = {
      game,
      url,
      body,
      token: fields.get("token"),
      expected: Number(fields.get("expected")),
      revision: revisionOf(fields),
      hand,
      state: "waiting",
      message: "",
      saved: Date.now(),
    };
    entry.id = await save(entry);
    return entry;
  }

  function failed(message) {
    const part = box.querySelector("[data-refused]");
    part.textContent = message;
    part.hidden = !message;
  }

  // Ready for the next hand. A form the server sent back with a kept entry has that
  // entry as its defaults, so the choices are cleared one by one.
  function blank(form) {
    form.reset();
    for (const field of form.querySelectorAll("input[type=radio], input[type=checkbox]")) {
      field.checked = false;
    }
    form.elements.token.value = freshToken();
  }

  let busy = false;

  async function keepSubmitted(form, submitter) {
    const data = new FormData(form, submitter);
    const head = queue[0];
    let hand;
    try {
      hand = await handOf(form, data.get("action") || "save");
    } catch (error) {
      // An entry the server would refuse: said now, in the engine's words where it has
      // them, kept in the form, nothing queued.
      const words = refusalText(error.refusal);
      failed(words ? phrase("refused", { refusal: words }) : phrases.incomplete);
      return;
    }
    failed("");
    if (head && head.state !== "waiting" && shown === head.id) {
      // The conflicted entry, shown in the form, checked by a person and saved again: it
      // takes the place of the one kept, as the next hand after the server's.
      data.set("token", freshToken());
      head.body = bodyOf(data);
      head.token = data.get("token");
      head.expected = Number(data.get("expected"));
      head.revision = revisionOf(data);
      head.hand = hand;
      head.state = "waiting";
      head.message = "";
      await save(head);
      shown = null;
    } else {
      // A page opened from the cache shows the token it was first sent with: a new
      // one, so that two hands entered offline are never taken for one.
      data.set("token", freshToken());
      const { expected, revision } = nextBasis(form);
      data.set("expected", expected);
      data.set("revision", revision);
      await keep(postUrl(form), bodyOf(data), hand);
    }
    blank(form);
    await reload();
    // Sent at once when the network is there, not after the totals are worked out.
    sync();
    const showing = refresh();
    // As after a save online: the totals, then the next hand's form, its heading read out.
    box.scrollIntoView({ block: "start" });
    document.getElementById("entry-title").focus({ preventScroll: true });
    await showing;
  }

  window.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (form !== entryForm() || !loaded || (navigator.onLine && !queue.length)) {
        return;
      }
      // Offline, or hands are waiting: this one goes after them, through the queue.
      // Taken first (the window's capture phase): htmx sends nothing, and engine.js
      // does not show a total without the waiting hands; the queue shows them all.
      event.preventDefault();
      event.stopImmediatePropagation();
      if (busy) {
        return;
      }
      busy = true;
      keepSubmitted(form, event.submitter).finally(() => {
        busy = false;
      });
    },
    true,
  );

  // A save that got no answer may or may not have reached the server: it is kept with
  // the token it was sent with, so sending it again records it at most once.
  function keepUnanswered(event) {
    const form = entryForm();
    if (!loaded || event.detail.elt !== form) {
      return;
    }
    event.stopImmediatePropagation();
    const body = bodyOf(event.detail.requestConfig.formData);
    handOf(form, new URLSearchParams(body).get("action") || "save")
      // An entry only the server can judge: it has it, with its token.
      .catch(() => null)
      .then((hand) => keep(postUrl(form), body, hand))
      .then(async () => {
        blank(form);
        await reload();
        // Soon tried again; the browser may not notice the network coming back.
        setTimeout(sync, 2_000);
        await refresh();
      });
  }

  // Before app.js's "no connection" box (capture phase): this one is not lost.
  document.addEventListener("htmx:sendError", keepUnanswered, true);
  document.addEventListener("htmx:timeout", keepUnanswered, true);

  // Offline, the auction helper cannot ask the server for the legal bids.
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!navigator.onLine && event.detail.elt.id === "auction") {
      event.preventDefault();
    }
  });

  // ---- Sending, in order, each once ----

  function csrfToken(body) {
    return new URLSearchParams(body).get("csrfmiddlewaretoken") || "";
  }

  // The server's answer in place of the table, as an htmx save puts it (and with the
  // same events, so the page settles as after any save).
  function swapTable(html) {
    const table = document.getElementById("table");
    if (table && window.htmx) {
      const eventInfo = { target: table, elt: table };
      window.htmx.swap(table, html, { swapStyle: "outerHTML" }, { select: "#table", eventInfo });
    }
  }

  function messageIn(html) {
    const page = new DOMParser().parseFromString(html, "text/html");
    const problem = page.querySelector("#table .messages .error, #table .errorlist");
    return problem ? problem.textContent.trim() : "";
  }

  async function send(entry) {
    let response;
    let html;
    try {
      response = await fetch(entry.url, {
        method: "POST",
        body: new URLSearchParams(entry.body),
        headers: { "HX-Request": "true", "X-CSRFToken": csrfToken(entry.body) },
        credentials: "same-origin",
      });
      html = await response.text();
    } catch {
      return "offline";
    }
    if (response.ok && !response.redirected) {
      // Saved now, or saved before (its token was known): the server's game either way,
      // shown once the last waiting hand is in.
      await remove(entry);
      latest = html;
      return "sent";
    }
    if (response.status === 409 || response.status === 400) {
      entry.state = response.status === 409 ? "conflict" : "refused";
      entry.message = messageIn(html);
      await save(entry);
      // The game as the server has it, and the entry kept in the form beside it.
      swapTable(html);
      shown = entry.id;
      return "held";
    }
    // A server error or a sign-in page: kept, and tried again later.
    failed(phrases.later);
    return "later";
  }

  let latest = null;

  // What a person had started to enter for the next hand while the waiting ones went:
  // put back into the server's form for that same hand, not lost with the old form.

  function typedIn(form) {
    return [...new FormData(form)].filter(([name]) => !OWN_FIELDS.has(name));
  }

  function carryOver(typed) {
    const form = entryForm();
    for (const [name, value] of form ? typed : []) {
      for (const field of form.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
        if (field.type === "radio" || field.type === "checkbox") {
          field.checked ||= field.value === value;
        } else if (field.type !== "hidden") {
          field.value = value;
        }
      }
    }
  }

  async function drain() {
    await reload();
    latest = null;
    while (navigator.onLine && queue.length && queue[0].state === "waiting") {
      const outcome = await send(queue[0]);
      await reload();
      if (outcome !== "sent") {
        break;
      }
      failed("");
    }
    if (latest && !(queue[0] && queue[0].state !== "waiting")) {
      const typed = entryForm() ? typedIn(entryForm()) : [];
      swapTable(latest);
      carryOver(typed);
    }
  }

  async function sync() {
    if (syncing || !navigator.onLine) {
      render();
      return;
    }
    syncing = true;
    try {
      // One phone's tabs send one at a time.
      if (navigator.locks) {
        await navigator.locks.request(`pitchkeeper-queue-${game}`, drain);
      } else {
        await drain();
      }
    } finally {
      syncing = false;
    }
    await refresh();
    rememberPage();
  }

  // The cached copy of the page follows what the server has, so that the game opens
  // offline as it was last seen (the service worker keeps what this fetch brings).
  let remembering = null;

  function rememberPage() {
    clearTimeout(remembering);
    remembering = setTimeout(() => {
      if (navigator.onLine && navigator.serviceWorker && navigator.serviceWorker.controller) {
        for (const url of [pageUrl, wordsUrl]) {
          fetch(url, { credentials: "same-origin" }).catch(() => {});
        }
      }
    }, 300);
  }

  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target.id === "table") {
      rememberPage();
    }
  });

  // ---- A person resolves a conflict ----

  box.addEventListener("click", async (event) => {
    const head = queue[0];
    if (!head || head.state === "waiting") {
      return;
    }
    if (event.target.closest("[data-enter]")) {
      const form = entryForm();
      const action = new URLSearchParams(head.body).get("action") || "save";
      showKept();
      const button = form && form.querySelector(`button[name=action][value="${action}"]`);
      if (button) {
        form.requestSubmit(button);
      }
    } else if (event.target.closest("[data-discard]")) {
      await remove(head);
      shown = null;
      await reload();
      const form = entryForm();
      if (form) {
        blank(form);
      }
      await refresh();
      sync();
    }
  });

  // The engine's runtime, fetched by the engine in the background, kept by the service
  // worker for a reload with no network (asked again after the worker first takes over:
  // what the engine fetched before then went past it).
  function keepEngine() {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    // Only where engine.js starts it (a hand form on the screen): never started for this.
    if (worker && entryForm()) {
      engine()
        .then((pitch) => pitch.ready())
        .then(() => worker.postMessage("keep-engine"), () => {});
    }
  }

  // On the first visit the page came before the worker: kept once the worker is in.
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      rememberPage();
      keepEngine();
    });
  }
  keepEngine();
  window.addEventListener("online", () => sync());
  window.addEventListener("offline", () => render());
  // A server that failed to answer is asked again now and then.
  setInterval(() => {
    if (queue.length && queue[0].state === "waiting") {
      sync();
    }
  }, 15_000);

  // Without its words (never opened online since the worker came) the queue stays off,
  // and a save with no network is told by the failure box, its entry kept in the form.
  words()
    .then(() =>
      reload()
        .then(refresh)
        .then(() => {
          box.dataset.ready = "";
          return sync();
        })
        .catch(() => {
          box.hidden = false;
          box.querySelector("[data-count]").textContent = phrases.nostorage;
        }),
    )
    .catch(() => {});
})();
