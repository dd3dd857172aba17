// The rules engine's worker: Brython runs pitchkeeper/rules, the server's own engine,
// here on the phone. static/js/engine.js sends {id, record, extra} (JSON text: the
// game's record, the hands to play after it) and gets {id, out} (JSON text:
// pitchkeeper.rules.projection.project_json's answer) or {id, error}; with fields and
// action too (the entry form's posted fields as JSON text, its button), out is
// project_form_json's answer: the hand the form describes after those.
"use strict";
const started = performance.now();
const runtimePath = "{{ runtime_path|escapejs }}";
// Brython's Unicode table (unicodedata, which the record format uses), fetched with the
// runtime rather than by Brython's own synchronous request in the middle of start-up:
// all the engine's downloads are over before it starts compiling.
const unicodeTable = fetch(`${runtimePath}unicode.txt`).then((answer) => {
  if (!answer.ok) {
    throw new Error(`unicode.txt: ${answer.status}`);
  }
  return answer.text();
});

function failed(error) {
  postMessage({ failed: String(error && error.message ? error.message : error) });
}

try {
  importScripts("{{ runtime|escapejs }}", "{{ bundle|escapejs }}");
  __BRYTHON__.brython_path = runtimePath;
  unicodeTable.then((table) => {
    __BRYTHON__.unicodedb = table;
    __BRYTHON__.runPythonSource(
      "from browser import self as worker\n" +
        "from pitchkeeper.rules.projection import project_form_json, project_json\n" +
        "worker.project_json = project_json\n" +
        "worker.project_form_json = project_form_json\n",
      { id: "pitchkeeper_engine" },
    );
    postMessage({ ready: performance.now() - started });
  }).catch(failed);
} catch (error) {
  failed(error);
}

onmessage = (event) => {
  const { id, record, extra, fields, action } = event.data;
  try {
    const out =
      fields === undefined
        ? self.project_json(record, extra)
        : self.project_form_json(record, extra, fields, action);
    postMessage({ id, out });
  } catch (error) {
    postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
