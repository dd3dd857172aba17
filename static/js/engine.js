// The rules engine on the phone: pitchkeeper/rules itself, run by Brython in a Web
// Worker, so a Save shows its totals before the server answers, or with no network
// (docs/offline.md). No rule is known here; the server's answer has the last word.
"use strict";

(() => {
  const script = document.currentScript;
  const workerUrl = script && script.dataset.worker;
  let starting = null;
  let worker = null;
  let asked = 0;
  const waiting = new Map();

  function start() {
    return new Promise((resolve, reject) => {
      worker = new Worker(workerUrl);
      worker.onerror = (event) => {
        event.preventDefault();
        reject(new Error(event.message || "the engine did not start"));
      };
      worker.onmessage = (event) => {
        const message = event.data;
        if ("ready" in message) {
          PitchEngine.startup = message.ready;
          resolve();
        } else if ("failed" in message) {
          reject(new Error(message.failed));
        } else {
          const [done, fail] = waiting.get(message.id);
          waiting.delete(message.id);
          if (message.error !== undefined) {
            fail(new Error(message.error));
            return;
          }
          const out = JSON.parse(message.out);
          if (out.error !== undefined) {
            fail(new Error(out.error));
          } else {
            done(out);
          }
        }
      };
    });
  }

  function recordText(record) {
    return typeof record === "string" ? record : JSON.stringify(record);
  }

  function pageRecord() {
    const element = document.getElementById("game-record");
    return element ? element.textContent : null;
  }

  function bidValue(text) {
    return /^\d+$/.test(text) ? Number(text) : text;
  }

  function fieldNames(form) {
    return new Set(Array.from(form.elements, (element) => element.name).filter(Boolean));
  }

  // The sides in the order of the form's count fields: the scoreboard's.
  function sides() {
    return Array.from(document.querySelectorAll(".scoreboard [data-side]"), (li) => li.dataset.side);
  }

  const PitchEngine = {
    startup: null,
    // The last Save's times (tap, totals written, the frame drawing them), measured.
    lastInstant: null,

    ready() {
      if (!workerUrl) {
        return Promise.reject(new Error("no engine on this page"));
      }
      if (!starting) {
        starting = start();
        starting.catch(() => {
          starting = null;
          if (worker) {
            worker.terminate();
          }
        });
      }
      return starting;
    },

    async project(record, extraHands) {
      await PitchEngine.ready();
      asked += 1;
      const id = asked;
      return new Promise((resolve, reject) => {
        waiting.set(id, [resolve, reject]);
        worker.postMessage({ id, record: recordText(record), extra: JSON.stringify(extraHands || []) });
      });
    },

    // The form's hand in the record format; throws for an entry the form refuses,
    // null where only the server can tell (a whole auction, "All passed").
    handFromForm(form, record, action = "save") {
      if (action === "misdeal") {
        return { misdeal: true };
      }
      if (action !== "save") {
        return null;
      }
      const data = new FormData(form);
      const names = fieldNames(form);
      if ([...names].some((name) => name.startsWith("auction_") && data.get(name))) {
        return null;
      }
      const hand = {};
      if (names.has("contract") || names.has("pitcher")) {
        let pitcher = data.get("pitcher");
        let bid = data.get("bid");
        const contract = data.get("contract");
        if (contract) {
          const colon = contract.lastIndexOf(":");
          pitcher = contract.slice(0, colon);
          bid = contract.slice(colon + 1);
        }
        if (!pitcher || !bid) {
          throw new Error("no pitcher and bid");
        }
        hand.pitcher = pitcher;
        hand.bid = bidValue(bid);
      }
      if (names.has("partner")) {
        const partner = data.get("partner");
        if (!partner) {
          throw new Error("no partner");
        }
        if (partner !== "alone") {
          hand.partner = partner;
        }
      }
      const points = {};
      const order = sides();
      for (const name of names) {
        const count = /^count_(.+)_(\d+)$/.exec(name);
        if (name.startsWith("point_")) {
          const value = data.get(name);
          if (!value) {
            throw new Error(`no ${name}`);
          }
          points[name.slice(6)] = value === "nobody" ? null : value;
        } else if (count) {
          const text = String(data.get(name) || "0").trim() || "0";
          if (!/^\d+$/.test(text)) {
            throw new Error(`bad ${name}`);
          }
          points[count[1]] = points[count[1]] || {};
          points[count[1]][order[Number(count[2])]] = Number(text);
        }
      }
      hand.points = points;
      for (const list of ["revoked", "forced"]) {
        const chosen = data.getAll(list);
        if (chosen.length) {
          hand[list] = chosen;
        }
      }
      if (data.get("all_tricks")) {
        hand.all_tricks = true;
      }
      return hand;
    },

    // The totals on the scoreboard, marked as the phone's own while hands are pending.
    showTotals(result, { pending = 0 } = {}) {
      const board = document.querySelector(".scoreboard");
      if (!board) {
        return;
      }
      for (const li of board.querySelectorAll("[data-side]")) {
        const side = li.dataset.side;
        if (!(side in result.scores)) {
          continue;
        }
        const total = li.querySelector("[data-total]");
        total.textContent = String(result.scores[side]);
        total.removeAttribute("aria-label");
        li.classList.toggle("hole", result.in_hole.includes(side));
        li.classList.toggle("winner", result.winner === side);
      }
      board.classList.toggle("unconfirmed", pending > 0);
      board.querySelector("[data-instant-pending]").hidden = !(pending > 0);
      const line = board.querySelector("[data-instant-winner]");
      line.textContent = result.winner ? line.dataset.wins.replace("{winner}", result.winner) : "";
      line.hidden = !result.winner;
    },
  };
  window.PitchEngine = PitchEngine;

  // Instant totals: the hand is projected while the form is filled in, so the tap on
  // Save finds the totals ready and writes them before the next frame.
  let guess = null;
  // The Save out now, with the scoreboard before it: put back if no answer comes.
  let instant = null;

  function entryForm(target) {
    return target && target.closest && target.closest("form#entry");
  }

  function guessFor(form, action) {
    const record = pageRecord();
    let hand;
    try {
      hand = PitchEngine.handFromForm(form, record, action);
    } catch {
      return null;
    }
    return hand && { record, key: record + JSON.stringify(hand), hand };
  }

  function project(form, action) {
    const wanted = guessFor(form, action);
    if (!wanted || !starting) {
      return;
    }
    if (guess && guess.key === wanted.key) {
      return;
    }
    guess = wanted;
    PitchEngine.project(wanted.record, [wanted.hand]).then(
      (result) => {
        if (guess === wanted) {
          wanted.result = result;
        }
      },
      () => {},
    );
  }

  document.addEventListener("change", (event) => {
    const form = entryForm(event.target);
    if (form) {
      project(form, "save");
    }
  });

  function show(current, result) {
    if (instant !== current) {
      return;
    }
    PitchEngine.showTotals(result, { pending: 1 });
    const shown = performance.now();
    PitchEngine.lastInstant = { tap: current.tap, shown, frame: null, scores: result.scores };
    const measured = PitchEngine.lastInstant;
    requestAnimationFrame((frame) => {
      measured.frame = frame;
    });
  }

  // Capture: before htmx's own listener sends the form.
  document.addEventListener(
    "submit",
    (event) => {
      const form = entryForm(event.target);
      // A second tap while the save is out is dropped by htmx; the first one's
      // scoreboard stays the one to put back.
      if (!form || !starting || instant) {
        return;
      }
      const action = event.submitter ? event.submitter.value : "save";
      const wanted = guessFor(form, action);
      if (!wanted) {
        return;
      }
      const board = document.querySelector(".scoreboard");
      const current = { tap: event.timeStamp, board: board && board.cloneNode(true) };
      instant = current;
      if (guess && guess.key === wanted.key && guess.result) {
        show(current, guess.result);
        return;
      }
      PitchEngine.project(wanted.record, [wanted.hand]).then(
        (result) => show(current, result),
        () => {},
      );
    },
    true,
  );

  // The server's table (or its refusal, the entry kept) has replaced the guess.
  document.addEventListener("htmx:afterSwap", () => {
    instant = null;
    guess = null;
  });

  function rollBack() {
    const current = instant;
    instant = null;
    const board = document.querySelector(".scoreboard");
    if (current && current.board && board) {
      board.replaceWith(current.board);
    }
  }
  for (const name of ["htmx:sendError", "htmx:timeout", "htmx:responseError"]) {
    document.addEventListener(name, rollBack);
  }

  // Fetched once the screen is idle (app.js): start at once, where hands are entered,
  // and replay the record, ready for the first Save.
  const record = pageRecord();
  if (record && document.getElementById("entry")) {
    PitchEngine.project(record, []).catch(() => {});
  }
})();
