// The rules engine's worker: Brython runs pitchkeeper/rules, the server's own engine,
// here on the phone. static/js/engine.js sends {id, record, extra} (JSON text: the
// game's record, the hands to play after it) and gets {id, out} (JSON text:
// pitchkeeper.rules.projection.project_json's answer) or {id, error}.
"use strict";
const started = performance.now();
try {
  importScripts("{{ runtime|escapejs }}", "{{ bundle|escapejs }}");
  __BRYTHON__.brython_path = "{{ runtime_path|escapejs }}";
  __BRYTHON__.runPythonSource(
    "from browser import self as worker\n" +
      "from pitchkeeper.rules.projection import project_json\n" +
      "worker.project_json = project_json\n",
    { id: "pitchkeeper_engine" },
  );
  postMessage({ ready: performance.now() - started });
} catch (error) {
  postMessage({ failed: String(error && error.message ? error.message : error) });
}

onmessage = (event) => {
  const { id, record, extra } = event.data;
  try {
    postMessage({ id, out: self.project_json(record, extra) });
  } catch (error) {
    postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
