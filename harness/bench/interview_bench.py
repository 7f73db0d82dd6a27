#!/usr/bin/python3
"""Live interviews at once on this machine, in figures (printed; no test times them).

    interview_bench.py SERVE JUDGE INTERVIEW KIT WORK [--interviews 4] [--every 15] [--minutes 5]

Starts INTERVIEWS servers of grad-accum (overlap-serve), each with its own session, and in each a
candidate who sends a new version (the reference with a line of its own) every EVERY seconds for
MINUTES minutes (the candidates' first versions spread over the first interval), reading the
room's event stream. Prints: versions sent, versions never recorded
(must be 0: each was either graded and recorded, or replaced while it waited), versions replaced
before their grade, and the median and worst time from Grade to the verdict on the page, which it
records (figures.sh: interview.at-once.median and .worst, for the default arguments only).
"""
import argparse
import json
import pathlib
import re
import shutil
import signal
import socket
import statistics
import subprocess
import threading
import time
import urllib.request

parser = argparse.ArgumentParser()
for name in ("serve", "judge", "interview", "kit", "work"):
    parser.add_argument(name)
parser.add_argument("--interviews", type=int, default=4)
parser.add_argument("--every", type=float, default=15)
parser.add_argument("--minutes", type=float, default=5)
args = parser.parse_args()
kit, work = pathlib.Path(args.kit), pathlib.Path(args.work)
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
reference = (kit / "solutions/grad-accum/train.cpp").read_bytes()


def start(n):
    folder = work / f"interview-{n}"
    server = subprocess.Popen(
        [args.serve, "grad-accum", "--sessions", str(folder), "--judge", args.judge,
         "--interview", args.interview, "--kit", str(kit), "--header", "overlap/grad_accum.hpp"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    links = {}
    while len(links) < 2:
        found = re.match(r"\s+(candidate|interviewer):\s+(\S+)", server.stdout.readline())
        if found:
            links[found.group(1)] = found.group(2)
    return server, folder, links["candidate"]


def events(url, seen, stop):
    """Every event of the candidate's stream, as (time it arrived, event), until `stop`."""
    host, port = re.match(r"http://([^:/]+):(\d+)", url).groups()
    with socket.create_connection((host, int(port))) as s:
        s.settimeout(1)
        s.sendall(f"GET {url.split(port, 1)[1]}events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        pending = b""
        while not stop.is_set():
            try:
                chunk = s.recv(1 << 20)
            except socket.timeout:
                continue
            if not chunk:
                return
            pending += chunk
            while b"\n\n" in pending:
                block, pending = pending.split(b"\n\n", 1)
                for line in block.decode().splitlines():
                    if line.startswith("data: "):
                        seen.append((time.monotonic(), json.loads(line[6:])))


def candidate(url, sent, stop_at, offset):
    time.sleep(offset)  # candidates do not grade in step: spread over the interval
    i = 0
    while time.monotonic() < stop_at:
        version = reference + f"\n// version {i + 1}\n".encode()
        sent.append(time.monotonic())
        urllib.request.urlopen(urllib.request.Request(url + "grade", data=version), timeout=30)
        i += 1
        time.sleep(max(0.0, sent[-1] + args.every - time.monotonic()))


rooms = [start(n) for n in range(args.interviews)]
stop = threading.Event()
seen = [[] for _ in rooms]
sent = [[] for _ in rooms]
readers = [threading.Thread(target=events, args=(url, seen[n], stop), daemon=True)
           for n, (_, _, url) in enumerate(rooms)]
for r in readers:
    r.start()
stop_at = time.monotonic() + 60 * args.minutes
candidates = [threading.Thread(target=candidate,
                               args=(url, sent[n], stop_at, n * args.every / len(rooms)))
              for n, (_, _, url) in enumerate(rooms)]
for c in candidates:
    c.start()
for c in candidates:
    c.join()
# The last versions' grades.
until = time.monotonic() + 300
while time.monotonic() < until and any(
        sum(e["kind"] in ("graded", "replaced", "grader-error") for _, e in s) < len(t)
        for s, t in zip(seen, sent)):
    time.sleep(0.5)
stop.set()

waits, replaced, lost, total = [], 0, 0, 0
for (server, folder, _), s, t in zip(rooms, seen, sent):
    total += len(t)
    graded = {e["version"]: at for at, e in s if e["kind"] == "graded"}
    gone = {e["version"] for _, e in s if e["kind"] == "replaced"}
    replaced += len(gone)
    recorded = {json.loads(line)["source"].rsplit("// version ", 1)[-1].strip()
                for f in folder.glob("*/events.jsonl") for line in f.read_text().splitlines()
                if json.loads(line)["event"] == "grade"}
    for v, at in enumerate(t, start=1):
        if v in graded:
            waits.append(graded[v] - at)
        if v not in gone and str(v) not in recorded:
            lost += 1
    server.send_signal(signal.SIGTERM)
    server.wait()
print(f"{args.interviews} interviews at once, a version every {args.every:g} s for "
      f"{args.minutes:g} min each: {total} versions sent, {lost} never recorded, {replaced} "
      f"replaced before their grade; Grade to verdict median {statistics.median(waits):.1f} s, "
      f"worst {max(waits):.1f} s")
if all(getattr(args, a) == parser.get_default(a) for a in ("interviews", "every", "minutes")):
    for name, seconds in (("median", statistics.median(waits)), ("worst", max(waits))):
        subprocess.run([kit / "harness/bench/figures.sh", "record", "interview_bench.py",
                        f"interview.at-once.{name}", f"{seconds:.1f} s"], check=True,
                       stdout=subprocess.DEVNULL)
