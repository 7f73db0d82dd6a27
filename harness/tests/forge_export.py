#!/usr/bin/env python3
"""A session's export written by hand, as a forger would write it (session_import.sh).

    forge_export.py OUT SPEC

SPEC is JSON: {"exercise": ..., "schema_version": 2 (1: no exported_at), "exported_at": M,
"events": [...]}, each event {"minute": M, "event": "hint", "hint": N} or {"minute": M, "event":
"grade", "file": PATH or "text": TEXT, "scenario": "", "verdict": TIER, "scenarios": [[NAME, TIER,
VIOLATION?], ...], "built": true}; the session starts two hours ago and M are minutes from its
start. Fields given as {"raw": {...}} are written over the event as they are (times, texts,
fingerprints a forger chose).
"""
import hashlib
import json
import sys
import time

out, spec = sys.argv[1], json.loads(sys.argv[2])
start = int(time.time()) - 2 * 60 * 60


def at(minute):
    return start + int(minute * 60)


events = [{"event": "start", "time": start}]
for e in spec["events"]:
    raw = e.get("raw", {})
    if e["event"] == "hint":
        event = {"event": "hint", "time": at(e["minute"]), "hint": e["hint"], "shown": False}
    else:
        text = e["text"] if "text" in e else open(e["file"]).read()
        scenario = e.get("scenario", "")
        event = {
            "event": "grade", "time": at(e["minute"]), "source": text,
            "sha256": hashlib.sha256(text.encode()).hexdigest(), "built": e.get("built", True),
            "seed": 1, "scenario": scenario, "generated": 4, "verdict": e.get("verdict", "fail"),
            "scenarios": [{"name": s[0], "verdict": s[1], "speedup": 1.0,
                           "violation": s[2] if len(s) > 2 else ""}
                          for s in e.get("scenarios", [])],
            "report": "", "full_set": scenario == ""}
    event.update(raw)
    events.append(event)
exported = {"schema": "overlap-session", "schema_version": spec.get("schema_version", 2),
            "exercise": spec.get("exercise", "pipeline"), "session": "20260101-000000",
            "events": events}
if exported["schema_version"] >= 2:
    exported["exported_at"] = at(spec.get("exported_at", 120))
exported.update(spec.get("raw", {}))
with open(out, "w") as f:
    json.dump(exported, f)
