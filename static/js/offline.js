// The game screen with no network: a hand saved offline (or whose save got no answer)
// is kept on the phone in IndexedDB, as the exact form body with its one-time token and
// its basis (the game's revision it follows, the hand's number and dealer), and sent in
// order when the network returns. The server records a token once and refuses a hand
// whose basis the game has moved from (another phone saved, changed, deleted, undid or
// restored a hand): that conflict is shown, and the entry kept, until a person enters it
// as the next hand or discards it. A kept hand belongs to the member who entered it: it
// is sent (with the CSRF token current then) only while that member is signed in, and
// counted in no other member's totals. Without this file (or without JavaScript) the
// form posts as it always did.
"use strict";

(() => {
  const box = document.getElementById("queue");
  if (!box || !window.indexedDB) {
    return;
  }
  // The box sticks to the top: what is scrolled into view comes out below it.
  function clearOfBox() {
    document.documentElement.style.scrollPaddingTop = box.hidden ? "" : `${box.offsetHeight}px`;
  }
  new ResizeObserver(clearOfBox).observe(box);
  const pageUrl = location.pathname;
  const game = Number(pageUrl.split("/")[2]);
  const wordsUrl = `${pageUrl}queue/`;
  let phrases = null;
  const plural = new Intl.PluralRules(document.documentElement.lang || "en");
  // The form's own fields, never carried from one entry to another (nor the button
  // tapped, "action", whose value would be written into every button of that name).
  const OWN_FIELDS = new Set(["csrfmiddlewaretoken", "token", "revision", "expected", "entry_dealer", "action"]);
  // This member's entries (the ones counted, sent and corrected here), and those another
  // member entered on this phone, which wait for that member.
  let queue = [];
  let foreign = [];
  // Who is signed in (from the box's words), and the CSRF token current with it.
  let member = null;
  let csrf = "";
  // The last sync found no session: the waiting hands wait for a sign-in.
  let signedOut = false;
  // The server did not take the waiting hands just now (an error): "Send now".
  let later = false;
  // The game, page and engine not all kept yet: it could not be played offline.
  let unready = Boolean(navigator.serviceWorker && window.isSecureContext);
  // The entry the person is asked to confirm discarding.
  let discarding = null;
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
    const answer = await fetch(wordsUrl, { credentials: "same-origin", redirect: "manual" });
    if (!answer.ok) {
      throw new Error(`no words for the queue: ${answer.status}`);
    }
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const part = page.querySelector("[data-phrases]");
    phrases = JSON.parse(part.dataset.phrases);
    signIn(part);
    box.replaceChildren(...part.children);
  }

  function signIn(part) {
    member = { id: part.dataset.member, name: part.dataset.memberName };
    csrf = part.dataset.csrf;
    chipValue = part.dataset.chipValue ? Number(part.dataset.chipValue) : null;
  }

  let chipValue = null;

  const FORBIDDEN = "forbidden";

  // Who is signed in now, asked of the server (never of the kept copy): null when nobody
  // is (the session ended); throws with no network.
  async function whoIsHere() {
    // The way to the sign-in page is not followed: that page would set a CSRF cookie of
    // its own, under the one of a sign-in page the person may be opening meanwhile.
    const answer = await fetch(`${wordsUrl}?now`, { credentials: "same-origin", cache: "no-store", redirect: "manual" });
    if (answer.type === "opaqueredirect") {
      return null;
    }
    if (answer.status === 403) {
      // Signed in, but no longer a scorer here: the sends are refused, and held.
      return FORBIDDEN;
    }
    if (!answer.ok) {
      throw new Error(`no answer: ${answer.status}`);
    }
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    return page.querySelector("[data-phrases]");
  }

  // An entry kept before entries had a member is the signed-in member's.
  const ownEntry = (entry) => !entry.member || entry.member.id === member.id;

  async function reload() {
    const rows = (await store("readonly", (hands) => hands.index("game").getAll(game))).sort((a, b) => a.id - b.id);
    queue = rows.filter(ownEntry);
    foreign = rows.filter((entry) => !ownEntry(entry));
    loaded = true;
  }

  const save = (entry) => store("readwrite", (hands) => hands.put(entry));
  const remove = (entry) => store("readwrite", (hands) => hands.delete(entry.id));

  // ---- What the screen says ----

  function phrase(name, values, words = phrases[name]) {
    return Object.entries(values).reduce((text, [key, value]) => text.replaceAll(`{${key}}`, () => value), words);
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

  const held = () => (queue[0] && queue[0].state !== "waiting" ? queue[0] : null);

  // The entry the box asks a person about, what it says of it, and the ways forward it
  // offers: every state has at least one (send, sign in, enter as next hand, discard).
  function question() {
    const head = held();
    const form = Boolean(entryForm());
    if (head && head.state === "forbidden") {
      return { entry: head, text: phrase("forbidden", { n: head.expected }), enter: form };
    }
    if (head) {
      const undo = head.kind === "undo";
      const words = phrase(undo ? "undo" : "conflict", { n: head.expected, message: head.message });
      return { entry: head, text: words, enter: form && !undo };
    }
    if (signedOut && queue.length) {
      return { entry: queue[0], text: phrase("signedout", { member: member.name }), signIn: true };
    }
    if (later && queue.length && navigator.onLine) {
      return { entry: queue[0], text: phrases.later, send: true };
    }
    if (!queue.length && foreign.length) {
      const entry = foreign[0];
      const text = phrase("member", { n: entry.expected, member: entry.member.name });
      return { entry, text, enter: form && entry.kind !== "undo" };
    }
    return null;
  }

  function render() {
    const asked = question();
    const offline = !navigator.onLine;
    // Hands waiting, this member's and another's; an undo kept here is no hand.
    const hands = [...queue, ...foreign].filter((entry) => entry.kind !== "undo").length;
    // "Not ready offline yet" alone does not open the box: online with nothing waiting
    // the table keeps its place on the screen; the note is there as soon as the network
    // goes or a hand waits.
    box.hidden = !queue.length && !foreign.length && !offline && !over;
    const count = box.querySelector("[data-count]");
    count.textContent = hands ? counted(hands) : offline ? phrases.offline : "";
    count.hidden = !count.textContent;
    box.querySelector("[data-note]").hidden = !queue.length || hasLocalTotals();
    box.querySelector("[data-unready]").hidden = !unready;
    renderOver();
    const part = box.querySelector("[data-conflict]");
    part.hidden = !asked;
    if (discarding && (!asked || asked.entry.id !== discarding.id)) {
      discarding = null;
    }
    if (asked) {
      part.querySelector("[data-message]").textContent = asked.text;
      part.querySelector("[data-send]").hidden = !asked.send;
      part.querySelector("[data-sign-in]").hidden = !asked.signIn;
      part.querySelector("[data-enter]").hidden = !asked.enter;
      part.querySelector("[data-choices]").hidden = Boolean(discarding);
      part.querySelector("[data-confirm]").hidden = !discarding;
      if (discarding) {
        part.querySelector("[data-confirm-text]").textContent = phrase("discard", { n: discarding.expected });
      }
    }
  }

  // ---- A game won by a hand kept on the phone: over here too, with its settlement ----

  let over = null;

  function renderOver() {
    const part = box.querySelector("[data-over]");
    part.hidden = !over;
    const form = entryForm();
    if (form) {
      // No hand after the last one: the server would refuse it.
      form.hidden = Boolean(over);
    }
    if (!over) {
      return;
    }
    part.querySelector("[data-reason]").textContent = over.winner
      ? phrase("over", { winner: over.winner })
      : phrases.drawn;
    const money = new Intl.NumberFormat(document.documentElement.lang || "en", {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    const payments = (over.payments || []).map(([payer, payee, chips]) => {
      const forms = phrases.pays;
      const form = forms[plural.select(chips)] || forms.other;
      let text = phrase("pays", { payer, payee, n: chips }, form);
      if (chipValue !== null) {
        text += ` (${money.format(chips * chipValue)})`;
      }
      return Object.assign(document.createElement("li"), { textContent: text });
    });
    part.querySelector("[data-settlement]").hidden = !payments.length;
    part.querySelector("[data-payments]").replaceChildren(...payments);
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
    // After an undo kept here the undone hand's number is the next one again.
    return { expected: last.kind === "undo" ? last.expected : last.expected + 1, revision };
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
      showOrder(form, JSON.parse(document.getElementById("entry-order").textContent));
      return;
    }
    // The dealer after the waiting hands, as the phone's engine sees it: not the page's,
    // which deals an earlier hand. Not known, not said (the server then names no dealer).
    const dealer = localDealer();
    fields.entry_dealer.value = dealer || "";
    title.textContent = dealer ? phrase("deals", { n: expected, dealer }) : phrase("hand", { n: expected });
    if (dealer) {
      showOrder(form, local.order);
    }
  }

  // ---- Who deals and who bids first, where the screen shows them ----

  const ownName = (element) => element.firstChild.textContent.trim();

  // The next hand's order, as the engine gives it: the badges move to the dealer's and
  // the first bidder's rows (the grid's, and the tiles' where the sides are the
  // players), the whole auction's turns take its names, and screen readers are told.
  function showOrder(form, order) {
    if (!order || !order.length) {
      return;
    }
    const dealer = order[order.length - 1];
    const first = order[0];
    const roles = (rows, nameOf) => {
      const byName = new Map(rows.map((row) => [nameOf(row), row]));
      if (!byName.has(dealer) || !byName.has(first)) {
        return null;
      }
      return { dealerRow: byName.get(dealer), firstRow: byName.get(first) };
    };
    const grid = roles([...form.querySelectorAll(".bid-grid .who")], ownName);
    if (grid) {
      const dealsTag = form.querySelector(".bid-grid .tag.role.deals");
      const firstTag = form.querySelector(".bid-grid .tag.role:not(.deals)");
      grid.dealerRow.append(" ", dealsTag);
      if (firstTag && dealer !== first) {
        grid.firstRow.append(" ", firstTag);
      }
    }
    const sides = [...document.querySelectorAll(".scores > .side")];
    const tiles = roles(sides, (side) => side.dataset.side);
    const dealsTile = sides.find((side) => side.classList.contains("deals"));
    if (tiles && dealsTile) {
      const dealsTag = dealsTile.querySelector(".tag.role");
      const firstTag = sides
        .filter((side) => side !== dealsTile)
        .map((side) => side.querySelector(".tag.role"))
        .find(Boolean);
      for (const side of sides) {
        side.classList.toggle("deals", side === tiles.dealerRow);
      }
      tiles.dealerRow.querySelector(".name").after(dealsTag);
      if (firstTag && dealer !== first) {
        tiles.firstRow.querySelector(".name").after(firstTag);
      }
    }
    for (const legend of form.querySelectorAll(".auction fieldset > legend")) {
      const turn = legend.parentElement.querySelector('input[name^="auction_"]');
      if (turn) {
        legend.textContent = order[Number(turn.name.slice("auction_".length)) % order.length];
      }
    }
    const said = document.querySelector(".scoreboard .target .visually-hidden");
    if (said) {
      said.textContent = phrase("roles", { dealer, first });
    }
  }

  // ---- The whole auction, as the rules offer it after the waiting hands ----

  // Online the server redraws the auction's fields at each change (#auction's hx-post).
  // Through the queue its form is that of an earlier hand, so the phone's engine says,
  // with the server's own code (rules.entry.auction_offer), who bids at each turn, what
  // they may bid and how many turns are shown. ``offering`` counts the asks: only the
  // latest answer is drawn, and #auction is busy until then.
  let offering = 0;
  let offered = false;

  async function showOffer() {
    const form = entryForm();
    const auction = form && form.querySelector("#auction");
    if (!auction) {
      return;
    }
    offering += 1;
    const turn = offering;
    auction.setAttribute("aria-busy", "true");
    try {
      const pitch = await engine();
      await pitch.ready();
      const hands = await waitingHands(pitch);
      const offer = hands && (await pitch.offer(localRecord(), hands, form));
      if (offer && turn === offering && auction.isConnected) {
        drawOffer(auction, offer);
        offered = true;
      }
    } catch {
      // No engine, or a waiting hand it cannot read: the form stays as it is drawn,
      // and the server checks the auction when the hand is sent.
    } finally {
      if (turn === offering) {
        auction.removeAttribute("aria-busy");
      }
    }
  }

  function drawOffer(auction, offer) {
    const turns = new Map(offer.turns.map(([index, player, allowed]) => [index, { player, allowed }]));
    for (const holder of auction.querySelectorAll(".turn")) {
      const inputs = [...holder.querySelectorAll('input[name^="auction_"]')];
      const index = Number(inputs[0].name.slice("auction_".length));
      const turn = turns.get(index);
      holder.hidden = index >= offer.shown;
      if (turn) {
        holder.querySelector("legend").textContent = turn.player;
      }
      for (const input of inputs) {
        input.disabled = Boolean(turn) && !turn.allowed.includes(input.value);
      }
    }
  }

  // ---- Totals from the phone's own engine, when it is there ----

  let local = null;

  function hasLocalTotals() {
    return Boolean(local);
  }

  function localDealer() {
    return local && local.dealer;
  }

  function recordText() {
    const element = document.getElementById("game-record");
    return element ? element.textContent : null;
  }

  function gameRecord() {
    const text = recordText();
    return text === null ? null : JSON.parse(text);
  }

  // Whether the scoreboard shows the phone's totals rather than the page's.
  let projected = false;

  // How many times the totals were asked for: only the latest answer is drawn.
  let drawing = 0;

  async function showLocalTotals() {
    local = null;
    over = null;
    const count = waitingCount();
    const record = localRecord();
    if (!record || !(count || projected)) {
      return;
    }
    const asked = recordText();
    drawing += 1;
    const turn = drawing;
    try {
      const pitch = await engine();
      await pitch.ready();
      const hands = await waitingHands(pitch);
      if (!hands) {
        return;
      }
      // With none waiting (the last one discarded), the server's own totals again.
      const result = await pitch.project(record, hands);
      if (recordText() !== asked || turn !== drawing) {
        // The server's page came in meanwhile with its own totals, or the queue changed
        // and its totals are being worked out: these are older.
        return;
      }
      const pending = count;
      pitch.showTotals(result, { pending });
      projected = pending > 0;
      local = projected ? result : null;
      // Won (or drawn) by a hand still on the phone: the server's page says so itself.
      over = projected && result.won_by ? result : null;
    } catch {
      // The totals stay the server's, as of the last hand sent; the note says so.
      local = null;
    }
  }

  // The server's record without the hands undone on the phone and not yet sent (an
  // undo kept here always comes before any hand kept after it).
  function localRecord() {
    const record = gameRecord();
    const undone = queue.filter((entry) => entry.kind === "undo" && entry.state === "waiting").length;
    if (record && undone) {
      record.hands = record.hands.slice(0, Math.max(0, record.hands.length - undone));
    }
    return record;
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
    for (const entry of queue.filter((each) => each.state === "waiting" && each.kind !== "undo")) {
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
    const read = await readEntry(form, action);
    return read ? read.hand : read;
  }

  // The same, with the totals once it is played: {hand, result}.
  async function readEntry(form, action) {
    if (queue.some((entry) => entry.kind === "undo")) {
      // The engine reads a hand after the page's record, which still has the hand undone
      // here: the server reads this one when it is sent.
      return null;
    }
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
      return await pitch.readForm(form, earlier, action);
    } catch (error) {
      if (error.refused) {
        throw error;
      }
      return null;
    }
  }

  // Instant totals while hands go through the queue, as engine.js shows them online:
  // each change of the form reads its hand and plays it after the waiting ones, so that
  // the Save tap shows the totals at once, before anything is written to IndexedDB.
  let ahead = null;

  function aheadKey(form) {
    const fields = [...new FormData(form)].filter(([name]) => !OWN_FIELDS.has(name));
    return JSON.stringify([fields, queue.map((entry) => [entry.id, entry.state]), recordText()]);
  }

  function readAhead(form) {
    const key = aheadKey(form);
    if (ahead && ahead.key === key) {
      return;
    }
    const current = { key, read: null };
    ahead = current;
    readEntry(form, "save").then(
      (read) => {
        current.read = read;
      },
      () => {},
    );
  }

  // The hand read ahead for the form as it is now, if it is ready.
  function readAlready(form, action) {
    return action === "save" && ahead && ahead.read && ahead.key === aheadKey(form) ? ahead.read : null;
  }

  // The conflicted entry put back in the form (after a reload the server's answer that
  // held it is gone), for a person to check: nothing is sent until they say so.
  function showKept() {
    const head = queue[0];
    const form = entryForm();
    if (!head || head.state === "waiting" || head.kind === "undo" || shown === head.id || !form) {
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
    // Once the phone has redrawn the auction, it redraws it for every hand after, the
    // server's next one too when the last waiting hand is discarded. Not waited for: the
    // form is free again meanwhile (the auction says it is busy until it is drawn).
    if (queue.length || offered) {
      showOffer();
    }
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

  // ``kind``: "save" (a hand), or "undo" (of the hand numbered ``expected``).
  async function keep(url, body, hand, kind = "save") {
    const fields = new URLSearchParams(body);
    const entry = {
      game,
      kind,
      url,
      body,
      token: fields.get("token"),
      expected: Number(fields.get(kind === "undo" ? "number" : "expected")),
      revision: revisionOf(fields),
      hand,
      state: "waiting",
      message: "",
      saved: Date.now(),
      member,
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

  async function keepSubmitted(form, submitter, read) {
    const data = new FormData(form, submitter);
    const head = queue[0];
    let hand;
    try {
      hand = read ? read.hand : await handOf(form, data.get("action") || "save");
    } catch (error) {
      // An entry the server would refuse: said now, in the engine's words where it has
      // them, kept in the form, nothing queued.
      // Every missing part at once, as the server names them.
      const parts = (error.refusal && error.refusal.each) || [error.refusal];
      const words = parts.map(refusalText);
      failed(words.every(Boolean) ? phrase("refused", { refusal: words.join(" ") }) : phrases.incomplete);
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
      if (foreign[0] && shown === foreign[0].id) {
        // Another member's hand, checked and entered by this one: now this one's.
        await remove(foreign[0]);
        shown = null;
      }
    }
    blank(form);
    await reload();
    // Sent at once when the network is there, not after the totals are worked out.
    sync();
    const showing = refresh();
    // As after a save online: the totals, then the next hand's form, its heading read out.
    clearOfBox();
    document.getElementById("table").scrollIntoView({ block: "start" });
    document.getElementById("entry-title").focus({ preventScroll: true });
    await showing;
  }

  // Offline, or hands are waiting: what is entered goes after them, through the queue.
  function throughQueue() {
    return loaded && (!navigator.onLine || queue.length > 0);
  }

  // The hands waiting to be sent (not held by a conflict).
  function waitingCount() {
    return queue.filter((entry) => entry.state === "waiting").length;
  }

  window.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (undoForm(form) && throughQueue()) {
        event.preventDefault();
        event.stopImmediatePropagation();
        undoOnPhone(form);
        return;
      }
      if (form !== entryForm() || !throughQueue()) {
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
      // The hand read ahead: its totals at once (not for an entry held by a conflict,
      // which goes back to its own place among the waiting ones).
      const read = shown === null ? readAlready(form, event.submitter ? event.submitter.value : "save") : null;
      if (read) {
        window.PitchEngine.showInstant(event.timeStamp, read.result, waitingCount() + 1);
      }
      // Nothing can be tapped while the phone's engine checks the hand and keeps it: a
      // tap then would be cleared with the form, or a second Save lost.
      busy = true;
      form.inert = true;
      form.setAttribute("aria-busy", "true");
      keepSubmitted(form, event.submitter, read)
        .catch((error) => {
          // Not kept (the phone's storage refused it): the totals go back to what is.
          refresh();
          throw error;
        })
        .finally(() => {
          busy = false;
          form.inert = false;
          form.removeAttribute("aria-busy");
        });
    },
    true,
  );

  document.addEventListener("change", (event) => {
    const form = entryForm();
    if (form && form.contains(event.target) && throughQueue()) {
      readAhead(form);
      showOffer();
    }
  });

  // ---- Undo, with no network or while hands wait ----

  function undoForm(form) {
    return form instanceof HTMLFormElement && /\/undo\/$/.test(form.getAttribute("hx-post") || "");
  }

  // The last hand kept here is taken back from the queue and put into the form, to be
  // changed and saved again (or the form cleared); with none kept, the server's last
  // hand is undone when the network returns, as the Undo button does online.
  async function undoOnPhone(form) {
    const last = queue[queue.length - 1];
    if (last && last.kind !== "undo") {
      await remove(last);
      await reload();
      if (shown === last.id) {
        shown = null;
      }
      const entry = entryForm();
      if (entry) {
        blank(entry);
        carryOver([...new URLSearchParams(last.body)].filter(([name]) => !OWN_FIELDS.has(name)));
      }
    } else {
      const data = new FormData(form);
      // After an undo kept here, the hand before it, in whatever version it has then.
      const number = last ? last.expected - 1 : Number(data.get("number"));
      if (number < 1) {
        return;
      }
      if (last) {
        data.set("number", number);
        data.set("version", "");
      }
      const entry = entryForm();
      if (entry) {
        data.set("revision", nextBasis(entry).revision);
      }
      await keep(postUrl(form), bodyOf(data), null, "undo");
      await reload();
    }
    await refresh();
    sync();
  }

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

  // Through the queue the phone's engine redraws the auction (showOffer): the server
  // cannot be asked offline, and with hands waiting its form deals an earlier hand.
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt.id === "auction" && (!navigator.onLine || throughQueue())) {
      event.preventDefault();
    }
  });

  // ---- Sending, in order, each once ----

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

  // The hands the server's game has, in the answer it gave.
  function handsIn(html) {
    const record = new DOMParser().parseFromString(html, "text/html").getElementById("game-record");
    return record ? JSON.parse(record.textContent).hands.length : null;
  }

  async function send(entry) {
    let response;
    let html;
    // With the CSRF token of the session signed in now: the one kept with the entry is
    // that of the page it was entered on, and a sign-in since has replaced it. The
    // entry's one-time token keeps the send safe.
    const body = new URLSearchParams(entry.body);
    body.set("csrfmiddlewaretoken", csrf);
    try {
      response = await fetch(entry.url, {
        method: "POST",
        body,
        headers: { "HX-Request": "true", "X-CSRFToken": csrf },
        credentials: "same-origin",
        // Not followed to the sign-in page (see whoIsHere).
        redirect: "manual",
      });
      html = await response.text();
    } catch {
      return "offline";
    }
    if (response.type === "opaqueredirect") {
      // Signed out meanwhile: kept until the member signs in again.
      signedOut = true;
      return "later";
    }
    // An undo sent before whose answer was lost: its hand is gone, as asked.
    const undone = entry.kind === "undo" && response.status === 409 && handsIn(html) < entry.expected;
    if (response.ok || undone) {
      // Saved now, or saved before (its token was known): the server's game either way,
      // shown once the last waiting hand is in.
      await remove(entry);
      latest = html;
      return "sent";
    }
    if (response.status === 403) {
      // Not allowed (no longer a scorer of this game): held, for a person to settle.
      entry.state = "forbidden";
      await save(entry);
      return "held";
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
    // A server error: kept, and tried again later (or now, by a person).
    later = true;
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
    if (!queue.length) {
      return;
    }
    // Who is signed in now, and the token that goes with it. Only that member's hands go.
    const here = await whoIsHere().catch(() => undefined);
    if (here === undefined) {
      return;
    }
    signedOut = here === null;
    if (here && here !== FORBIDDEN) {
      signIn(here);
      await reload();
    }
    while (navigator.onLine && !signedOut && queue.length && queue[0].state === "waiting") {
      const outcome = await send(queue[0]);
      await reload();
      if (outcome !== "sent") {
        break;
      }
      later = false;
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
  // Nor is the way to the sign-in page followed (see whoIsHere).
  let remembering = null;

  function rememberPage() {
    clearTimeout(remembering);
    remembering = setTimeout(() => {
      if (navigator.onLine && navigator.serviceWorker && navigator.serviceWorker.controller) {
        for (const url of [pageUrl, wordsUrl]) {
          fetch(url, { credentials: "same-origin", redirect: "manual" }).catch(() => {});
        }
      }
    }, 300);
  }

  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target.id === "table") {
      // The server's own form, for the hand it deals next.
      offered = false;
      rememberPage();
    }
  });

  // ---- A person resolves a conflict ----

  box.addEventListener("click", async (event) => {
    const asked = question();
    if (!asked) {
      return;
    }
    const entry = asked.entry;
    if (event.target.closest("[data-send]")) {
      later = false;
      render();
      sync();
    } else if (event.target.closest("[data-enter]")) {
      const form = entryForm();
      const action = new URLSearchParams(entry.body).get("action") || "save";
      if (entry !== queue[0]) {
        // Another member's hand: into the form, to be saved as this member's own.
        blank(form);
        carryOver([...new URLSearchParams(entry.body)].filter(([name]) => !OWN_FIELDS.has(name)));
        shown = entry.id;
      }
      showKept();
      const button = form && form.querySelector(`button[name=action][value="${action}"]`);
      if (button) {
        form.requestSubmit(button);
      }
    } else if (event.target.closest("[data-discard]")) {
      // Asked first: the hand is on this phone only.
      discarding = entry;
      render();
      box.querySelector("[data-discard-no]").focus();
    } else if (event.target.closest("[data-discard-no]")) {
      discarding = null;
      render();
    } else if (event.target.closest("[data-discard-yes]") && discarding) {
      await remove(discarding);
      discarding = null;
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
  // Until the worker says the engine, this page and its words are all kept, the box says
  // that the game is not ready to be played offline yet.
  function keepEngine() {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    // Only where engine.js starts it (a hand form on the screen): never started for this.
    if (worker && entryForm()) {
      engine()
        .then((pitch) => pitch.ready())
        .then(() => kept(worker), () => {});
    }
  }

  // ``how``: "keep" what is missing, or only "check".
  function kept(worker, how = "keep") {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => {
      unready = !event.data.ready;
      // Said on the box too, for a test (or a person's inspector) to see with the box shut.
      box.toggleAttribute("data-kept", !unready);
      if (phrases) {
        render();
      }
    };
    worker.postMessage({ [how]: [pageUrl, wordsUrl] }, [channel.port2]);
  }

  // On the first visit the page came before the worker: kept once the worker is in.
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      rememberPage();
      keepEngine();
    });
  }
  if (!entryForm()) {
    unready = false;
  } else if (navigator.serviceWorker && navigator.serviceWorker.controller) {
    kept(navigator.serviceWorker.controller, "check");
  }
  keepEngine();
  window.addEventListener("online", () => {
    sync();
    // What could not be kept with the network gone (the worker fetches nothing then).
    keepEngine();
  });
  // The box's words come with the queue: the network may go before they are here.
  window.addEventListener("offline", () => phrases && render());
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
