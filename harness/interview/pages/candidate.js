// The candidate's page: the brief and the header to read, the editor, Grade (and Ctrl-Enter), and
// what the interviewer's machine says back: each version's state, its report, and each hint's
// question as the interviewer sends it. Everything comes from the room's event stream.
"use strict";

const editor = CodeMirror.fromTextArea($("source"), {
  mode: "text/x-c++src",
  lineNumbers: true,
  indentUnit: 2,
  tabSize: 2,
  extraKeys: { "Ctrl-Enter": () => grade(), "Cmd-Enter": () => grade() },
});
window.overlapEditor = editor;  // for the kit's browser test: setValue, as a paste would

function tab(name) {
  for (const pane of ["brief", "header", "hints"]) {
    $(pane).hidden = pane !== name;
    $("show-" + pane).classList.toggle("on", pane === name);
  }
}
for (const pane of ["brief", "header", "hints"]) $("show-" + pane).onclick = () => tab(pane);

async function load(path) {
  const response = await fetch(base + path, { cache: "no-store" });
  if (!response.ok) throw new Error(path + ": " + response.status);
  return response.text();
}

async function grade() {
  $("grade").disabled = true;
  try {
    const response = await fetch(base + "grade", { method: "POST", body: editor.getValue() });
    if (!response.ok) status("not sent: " + (await response.text()), "bad");
  } catch (e) {
    status("not sent: the interviewer's machine did not answer", "bad");
  } finally {
    $("grade").disabled = false;
  }
}
$("grade").onclick = grade;

function showVerdict(event) {
  const verdict = $("verdict");
  verdict.textContent = "version " + event.version + ": " + event.verdict;
  verdict.className = "verdict tier-" + String(event.verdict).replace(/ /g, "-");
  showReport(event);
}

let hints = 0;
function showHint(event) {
  if (hints === 0) $("hints").textContent = "";
  hints += 1;
  $("hint-count").textContent = "(" + hints + ")";
  const item = document.createElement("blockquote");
  item.className = "hint";
  item.dataset.hint = event.hint;
  item.textContent = event.question.replace(/\*\*/g, "");
  $("hints").appendChild(item);
  tab("hints");
}

function onEvent(event) {
  switch (event.kind) {
    case "reset":  // the server restarted: the whole log follows
      hints = 0;
      $("hints").textContent = "";
      $("hint-count").textContent = "";
      break;
    case "grading": status("grading version " + event.version + "…", "busy"); break;
    case "waiting": status("version " + event.version + " waits for the one being graded", "busy"); break;
    case "replaced": status("version " + event.version + " was replaced by version " + event.by + " before its grade", "busy"); break;
    case "graded": status("version " + event.version + " graded: " + event.verdict, ""); showVerdict(event); break;
    case "grader-error": status("the judge failed on version " + event.version + ": not your code", "bad"); break;
    case "hint": showHint(event); break;
  }
}

function listen() {
  const stream = new EventSource(base + "events");
  stream.onopen = () => { if ($("status").textContent === "connecting…") status("connected", ""); };
  stream.onmessage = (message) => onEvent(JSON.parse(message.data));
  stream.onerror = () => status("reconnecting…", "bad");  // EventSource retries by itself
}

(async () => {
  try {
    $("brief").innerHTML = await load("brief");  // the kit's own brief, rendered on the server
    $("header").textContent = await load("header");
    editor.setValue(await load("editor"));
  } catch (e) {
    status("could not load the page: " + e.message, "bad");
  }
  listen();
})();
