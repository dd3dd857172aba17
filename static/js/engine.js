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
          PitchEngine.warm = message.warm;
          resolve();
        } else if ("kept" in message) {
          PitchEngine.kept = true;
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
            // The engine's refusal, as against its failing to answer.
            fail(refusedError(out.error, out.refusal));
          } else {
            done(out);
          }
        }
      };
    });
  }

  // A refusal of the engine: its English words, and its code and parameters
  // (``refusal``), which the page puts into its own language.
  function refusedError(words, refusal) {
    return Object.assign(new Error(words), { refused: true, refusal });
  }

  function recordText(record) {
    return typeof record === "string" ? record : JSON.stringify(record);
  }

  function pageRecord() {
    const element = document.getElementById("game-record");
    return element ? element.textContent : null;
  }

  // The form's fields as it would post them (or as a body kept posts them), {name:
  // [values]}: what they mean is the rules' to read (pitchkeeper/rules/entry.py), here as
  // on the server.
  function formFields(form) {
    const fields = {};
    for (const [name, value] of form instanceof HTMLFormElement ? new FormData(form) : form) {
      (fields[name] ||= []).push(String(value));
    }
    return fields;
  }

  async function ask(message) {
    await PitchEngine.ready();
    asked += 1;
    const id = asked;
    return new Promise((resolve, reject) => {
      waiting.set(id, [resolve, reject]);
      worker.postMessage({ id, ...message });
    });
  }

  // The hand the form's fields describe after the record's hands and ``hands``, with
  // the totals it makes or the engine's refusal to play it: {hand, result} or
  // {hand, refused}. Rejects, the error marked ``refused``, for an entry the form refuses.
  function readHand(record, hands, fields, action) {
    return ask({
      record: recordText(record),
      extra: JSON.stringify(hands),
      fields: JSON.stringify(fields),
      action,
    });
  }

  const PitchEngine = {
    startup: null,
    // Whether the worker started from the modules it compiled on an earlier visit, and
    // whether what it compiled this time is kept (a page closed before then loses it).
    warm: null,
    kept: false,
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

    project(record, extraHands) {
      return ask({ record: recordText(record), extra: JSON.stringify(extraHands || []) });
    },

    // The hand the form describes (``action``: the button pressed) after the page's
    // record and ``hands`` (those waiting to be sent), in the record format. ``form``:
    // the form, or the fields it posted (URLSearchParams, FormData). Rejects, the error
    // marked ``refused``, for an entry the form refuses or a hand the rules do not play.
    async handFromForm(form, hands = [], action = "save") {
      return (await PitchEngine.readForm(form, hands, action)).hand;
    },

    // The same, with the totals once it is played: {hand, result}.
    async readForm(form, hands = [], action = "save") {
      const answer = await readHand(pageRecord(), hands, formFields(form), action);
      if (answer.refused !== undefined) {
        throw refusedError(answer.refused, answer.refusal);
      }
      return answer;
    },

    // What the form's whole-auction fields offer (who bids at each turn, the entries
    // the rules allow them, how many turns are shown) as the hand after ``record`` and
    // ``hands``, read from the form's entries so far: {turns: [[index, player, [entry,
    // ...]]], over, shown}.
    offer(record, hands, form) {
      return ask({
        record: recordText(record),
        extra: JSON.stringify(hands),
        fields: JSON.stringify(formFields(form)),
        offer: true,
      });
    },

    // A Save's totals, shown at once and measured from the tap (an event's timeStamp).
    showInstant(tap, result, pending) {
      PitchEngine.showTotals(result, { pending });
      const measured = { tap, shown: performance.now(), frame: null, scores: result.scores };
      PitchEngine.lastInstant = measured;
      requestAnimationFrame((frame) => {
        measured.frame = frame;
      });
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

  // What a Save of the form would send, keyed so that a guess made for the same
  // fields is found without asking the engine again.
  function guessFor(form, action) {
    const record = pageRecord();
    if (!record) {
      return null;
    }
    const fields = formFields(form);
    return { record, fields, action, key: `${action}\n${JSON.stringify(fields)}\n${record}` };
  }

  // One question to the worker: the hand read and played at once.
  async function totalsFor(wanted) {
    const answer = await readHand(wanted.record, [], wanted.fields, wanted.action);
    if (answer.refused !== undefined) {
      throw new Error(answer.refused);
    }
    return answer.result;
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
    wanted.answer = totalsFor(wanted);
    wanted.answer.then(
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
    if (instant === current) {
      PitchEngine.showInstant(current.tap, result, 1);
    }
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
      // The guess still being worked out is waited for, not asked again.
      const answer = guess && guess.key === wanted.key ? guess.answer : totalsFor(wanted);
      answer.then(
        (result) => show(current, result),
        () => {
          // An entry refused, by the form or the rules: the server says so, with no total.
          if (instant === current) {
            instant = null;
          }
        },
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
