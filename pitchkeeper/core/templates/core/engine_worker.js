{# The comments are the template's, so that none is sent: the worker counts in the engine's 350 KB. #}
{# The rules engine's worker: Brython runs pitchkeeper/rules, the server's own engine, #}
{# here on the phone. static/js/engine.js sends {id, record, extra} (JSON text: the #}
{# game's record, the hands to play after it) and gets {id, out} (JSON text: #}
{# pitchkeeper.rules.projection.project_json's answer) or {id, error}; with fields and #}
{# action too (the entry form's posted fields as JSON text, its button), out is #}
{# project_form_json's answer: the hand the form describes after those; with offer set #}
{# too, offer_json's: what the form's whole-auction fields offer after those. #}
"use strict";
const started = performance.now();
{# The bundle's hash (of the rules, the standard library they need and the runtime): #}
{# what Brython compiled of it is kept under it in IndexedDB, so that a later start runs #}
{# the compiled modules instead of compiling them again, and a new version of the rules #}
{# or of the runtime, a new hash, is compiled afresh and never served stale. #}
const BUNDLE = "{{ digest|escapejs }}";
const KEPT = "compiled";

function failed(error) {
  postMessage({ failed: String(error && error.message ? error.message : error) });
}

{# The database of compiled modules, or null where the browser keeps none (then the #}
{# engine compiles at every start, as it must the first time). #}
function database() {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.open("pitchkeeper-engine", 1);
      request.onupgradeneeded = () => request.result.createObjectStore(KEPT, { keyPath: "bundle" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

function kept(db) {
  return new Promise((resolve) => {
    const request = db.transaction(KEPT).objectStore(KEPT).get(BUNDLE);
    request.onsuccess = () => resolve(request.result ? request.result.modules : null);
    request.onerror = () => resolve(null);
  });
}

{# What this start compiled, kept for the next in place of any other version's. #}
function keep(db) {
  const modules = {};
  for (const name of Object.keys(__BRYTHON__.VFS)) {
    if (__BRYTHON__.precompiled.hasOwnProperty(name)) {
      modules[name] = __BRYTHON__.precompiled[name];
    }
  }
  const transaction = db.transaction(KEPT, "readwrite");
  transaction.objectStore(KEPT).clear();
  transaction.objectStore(KEPT).put({ bundle: BUNDLE, modules });
  transaction.oncomplete = () => postMessage({ kept: true });
}

async function start() {
  importScripts("{{ runtime|escapejs }}", "{{ bundle|escapejs }}");
  const db = await database();
  const compiled = db && (await kept(db));
  if (compiled) {
    Object.assign(__BRYTHON__.precompiled, compiled);
  }
  __BRYTHON__.runPythonSource(
    "from browser import self as worker\n" +
      "from pitchkeeper.rules.projection import offer_json, project_form_json, project_json\n" +
      "worker.project_json = project_json\n" +
      "worker.project_form_json = project_form_json\n" +
      "worker.offer_json = offer_json\n",
    { id: "pitchkeeper_engine" },
  );
  postMessage({ ready: performance.now() - started, warm: Boolean(compiled) });
  if (db && !compiled) {
    keep(db);
  }
}

start().catch(failed);

onmessage = (event) => {
  const { id, record, extra, fields, action, offer } = event.data;
  try {
    let out;
    if (fields === undefined) {
      out = self.project_json(record, extra);
    } else if (offer) {
      out = self.offer_json(record, extra, fields);
    } else {
      out = self.project_form_json(record, extra, fields, action);
    }
    postMessage({ id, out });
  } catch (error) {
    postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
