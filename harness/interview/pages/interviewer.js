// The interviewer's page: each version as the candidate grades it, its diff to the version before
// and its report, the tier over time (full grades only), the clock from the interview's start,
// and the hints, each sent with one button. Everything comes from the room's event stream.
"use strict";

const versions = new Map();  // version number -> its last graded event
let started = 0;

function tick() {
  if (!started) return;
  const seconds = Math.max(0, Math.floor(Date.now() / 1000 - started));
  $("clock").textContent = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
}
setInterval(tick, 1000);

// A line diff (longest common subsequence): "  " kept, "- " removed, "+ " added.
function diff(before, after) {
  const a = before.split("\n"), b = after.split("\n");
  const n = a.length, m = b.length;
  if (n * m > 4e6) return [["~", "the versions are too long to compare here"]];
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { out.push([" ", a[i]]); i++; j++; }
    else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) { out.push(["+", b[j]]); j++; }
    else { out.push(["-", a[i]]); i++; }
  }
  return out;
}

function show(version) {
  const event = versions.get(version);
  if (!event) return;
  $("detail-title").textContent = "Version " + version + ": " + event.verdict + " (minute " + event.minute + ")";
  const before = versions.get(version - 1);
  const pre = $("diff");
  pre.textContent = "";
  for (const [mark, line] of diff(before ? before.source : "", event.source)) {
    const span = document.createElement("span");
    span.className = mark === "+" ? "added" : mark === "-" ? "removed" : "kept";
    span.textContent = mark + " " + line + "\n";
    pre.appendChild(span);
  }
  showReport(event);
  for (const item of document.querySelectorAll("#versions li")) {
    item.classList.toggle("on", Number(item.dataset.version) === version);
  }
}

function versionItem(version) {
  let item = document.querySelector('#versions li[data-version="' + version + '"]');
  if (!item) {
    item = document.createElement("li");
    item.dataset.version = version;
    item.onclick = () => show(version);
    $("versions").appendChild(item);
  }
  return item;
}

function onEvent(event) {
  switch (event.kind) {
    case "reset":  // the server restarted: the whole log follows
      versions.clear();
      for (const list of ["versions", "tiers", "hints-given"]) $(list).textContent = "";
      break;
    case "grading":
    case "waiting":
      versionItem(event.version).textContent = "version " + event.version + ": " + event.kind + " (minute " + (event.minute ?? "") + ")";
      break;
    case "replaced":
      versionItem(event.version).textContent = "version " + event.version + ": replaced by version " + event.by + " before its grade";
      break;
    case "graded": {
      versions.set(event.version, event);
      versionItem(event.version).textContent = "version " + event.version + ": " + event.verdict + " (minute " + event.minute + ")";
      const tier = document.createElement("li");
      tier.textContent = "minute " + event.minute + ": version " + event.version + " " + event.verdict;
      tier.className = "tier-" + String(event.verdict).replace(/ /g, "-");
      $("tiers").appendChild(tier);
      show(event.version);
      break;
    }
    case "grader-error":
      versionItem(event.version).textContent = "version " + event.version + ": the judge failed (exit " + event.exit + "): " + event.messages;
      break;
    case "hint": {
      const item = document.createElement("li");
      item.textContent = "minute " + event.minute + ": hint " + event.hint;
      item.dataset.hint = event.hint;
      $("hints-given").appendChild(item);
      break;
    }
  }
}

// The score sheet's marks for the format, each "-" (not asked) until given: the same options
// `overlap score` takes, computed by it on the server.
const MARKS = {
  "45-minute": [["predictions", 2], ["communication", 1], ["follow-ups", 3], ["defended", 1, "flag"],
                ["gap-explained", 1, "check"]],
  "15-minute": [["approach", 1], ["debrief", 1], ["defended", 1, "flag"]],
};

function scoreForm(format) {
  const form = $("score-form");
  for (const [name, count, kind] of MARKS[format] || []) {
    const row = document.createElement("label");
    row.textContent = name + " ";
    for (let i = 0; i < count; i++) {
      if (kind === "check") {
        const box = document.createElement("input");
        box.type = "checkbox";
        box.name = name;
        row.appendChild(box);
        continue;
      }
      const select = document.createElement("select");
      select.name = name;
      const choices = kind === "flag" ? [["-", "not asked"], ["0", "no"], ["1", "yes"]]
                                      : [["-", "not asked"], ["0", "0"], ["1", "1"], ["2", "2"]];
      if (name === "follow-ups" && i === 2) choices.unshift(["", "no third"]);
      for (const [value, label] of choices) {
        const option = document.createElement("option");
        option.value = value;
        option.textContent = label;
        select.appendChild(option);
      }
      row.appendChild(select);
    }
    form.appendChild(row);
  }
}

async function score() {
  const marks = {};
  for (const [name, count, kind] of MARKS[about.format] || []) {
    const fields = [...document.querySelectorAll('#score-form [name="' + name + '"]')];
    if (kind === "check") marks[name] = fields[0].checked;
    else marks[name] = fields.map((f) => f.value).filter((v) => v !== "").join(",");
  }
  $("outcome").textContent = "scoring…";
  const response = await fetch(base + "score", { method: "POST", body: JSON.stringify(marks) });
  $("outcome").textContent = await response.text();
}

// The last version on the interviewer's seed: a `fail` there caps the code score (the score
// form reads it from now on).
async function gradeUnseen() {
  $("unseen-report").hidden = false;
  $("unseen-report").textContent = "grading the last version on your seed…";
  const response = await fetch(base + "unseen", { method: "POST" });
  $("unseen-report").textContent = await response.text();
}

async function sendHint(n) {
  const response = await fetch(base + "hint/" + n, { method: "POST" });
  if (!response.ok) status("hint " + n + " not sent: " + (await response.text()), "bad");
}

let about = {};
(async () => {
  about = await (await fetch(base + "hints", { cache: "no-store" })).json();
  scoreForm(about.format);
  $("score").onclick = score;
  $("unseen").onclick = gradeUnseen;
  $("detail-box").addEventListener("toggle", async () => {
    if ($("detail").textContent !== "loading…") return;
    $("detail").textContent = await (await fetch(base + "detail", { cache: "no-store" })).text();
  });
  started = about.started;
  $("title").textContent = about.exercise + " (" + about.format + ")";
  for (let n = 1; n <= about.hints; n++) {
    const button = document.createElement("button");
    button.textContent = "Send hint " + n;
    button.id = "hint-" + n;
    button.onclick = () => sendHint(n);
    $("hint-buttons").appendChild(button);
  }
  tick();
  const stream = new EventSource(base + "events");
  stream.onopen = () => status("connected", "");
  stream.onmessage = (message) => onEvent(JSON.parse(message.data));
  stream.onerror = () => status("reconnecting…", "bad");
})();
