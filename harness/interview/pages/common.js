// What both pages of the live interview share: the page's own address (its token in it), the
// status line, and a version's report as the judge wrote it.
"use strict";

const base = location.pathname.endsWith("/") ? location.pathname : location.pathname + "/";
const $ = (id) => document.getElementById(id);

function status(text, kind) {
  $("status").textContent = text;
  $("status").className = "status " + (kind || "");
}

// The HTML report in its sandboxed frame, or the terminal report when there is none (a version
// that did not build).
function showReport(event) {
  $("report").hidden = !event.html;
  $("report-text").hidden = !!event.html;
  if (event.html) $("report").srcdoc = event.html;
  else $("report-text").textContent = event.report;
}
