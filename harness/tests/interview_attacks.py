#!/usr/bin/python3
"""The live interview's server under attack, from the candidate's side and from nobody's.

    interview_attacks.py SERVE JUDGE INTERVIEW KIT WORK

- A crawl with the candidate's token (its page, every file the page loads, the brief, the
  header, the editor, the event stream, and paths that try to climb out) reaches no line of the
  guides, the hints' answers, the reference solution or the kit's tests, and no best known's
  recipe: no line of at least 30 characters of those appears in what it is served, unless the
  candidate is served that line anyway (the brief, the header, the starter).
- Wrong and missing tokens are refused on every route, and the interviewer's routes refuse the
  candidate's token.
- An oversized version, a client that sends half a request and holds its connection, a flood of
  versions and a hostile one (the test suite's include_solution attack, for grad-accum) leave
  the server answering both pages, at most one grade in flight and one waiting, and the record
  holding only grades this machine made.
- Killed mid-grade and restarted with --resume, the server keeps its links and grades the version
  it was grading: none is lost.
- In the clear only on loopback: another address needs a certificate (--tls) or --insecure; with
  --tls, the pages answer over HTTPS alone.
"""
import json
import ssl
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import interview_server
from interview_server import fail, stop

serve, judge, interview, kit, work = sys.argv[1:6]
kit = pathlib.Path(kit)
work = pathlib.Path(work)
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
sessions = work / "sessions"
DEADLINE = 300


def start(resume=False, more=(), folder=sessions):
    return interview_server.start(serve, judge, interview, kit, folder,
                                  (["--resume"] if resume else []) + list(more))


def fetch(url, data=None, timeout=10, headers=None, context=None):
    """(status, body) of a request; status 0 when the server closed the connection."""
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, ""


def stream(url, seconds=2):
    """What an event stream says within a few seconds."""
    host, port = re.match(r"http://([^:/]+):(\d+)", url).groups()
    path = url[url.index("/", len("http://")):]
    with socket.create_connection((host, int(port)), timeout=seconds) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        data = b""
        until = time.monotonic() + seconds
        try:
            while time.monotonic() < until:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except socket.timeout:
            pass
    return data.decode("utf-8", "replace")


def record():
    return [json.loads(line) for f in sessions.glob("*/events.jsonl")
            for line in f.read_text().splitlines()]


def wait_for(what, check, seconds=DEADLINE):
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if check():
            return
        time.sleep(0.2)
    fail("waited in vain for " + what)


server, candidate, interviewer = start()
base = candidate.split("/c/")[0]
try:
    # The crawl: everything the candidate's token reaches.
    served = []
    status, page = fetch(candidate)
    if status != 200:
        fail(f"the candidate's page answered {status}")
    served.append(page)
    for asset in re.findall(r'(?:src|href)="([^"]+)"', page):
        status, body = fetch(urllib.request.urljoin(candidate, asset))
        if status != 200:
            fail(f"the candidate's page loads {asset}, answered {status}")
        served.append(body)
    for path in ("brief", "header", "editor"):
        status, body = fetch(candidate + path)
        if status != 200:
            fail(f"{path} answered {status}")
        served.append(body)
    served.append(stream(candidate + "events"))
    climbs = ["../i/", "..%2f..%2fsolutions/grad-accum/train.cpp", "brief/../../i/",
              "%2e%2e/%2e%2e/guides/grad-accum.md"]
    for climb in climbs:
        status, body = fetch(candidate + climb)
        served.append(body)
        if status == 200:
            fail(f"{candidate}{climb} was answered")
    for asset in ("../guides/grad-accum.md", "..%2f..%2fsolutions%2fgrad-accum%2ftrain.cpp",
                  "page.css/../../../solutions/grad-accum/train.cpp", "hints"):
        status, body = fetch(base + "/assets/" + asset)
        served.append(body)
        if status == 200:
            fail(f"/assets/{asset} was answered")
    text = "\n".join(served)
    # What the candidate is served anyway.
    allowed = "\n".join(f.read_text() for f in [
        kit / "exercises/grad-accum/README.md", kit / "exercises/grad-accum/train.cpp",
        kit / "harness/include/overlap/grad_accum.hpp"])
    secret = [kit / "guides/grad-accum.md", kit / "guides/README.md",
              kit / "guides/hints/grad-accum.md", kit / "solutions/grad-accum/train.cpp"]
    secret += sorted((kit / "harness/tests/grad-accum").rglob("*.cpp"))
    leaks = []
    for f in secret:
        for line in f.read_text().splitlines():
            line = line.strip()
            if len(line) >= 30 and line not in allowed and line in text:
                leaks.append(f"{f.relative_to(kit)}: {line}")
    # Nor any recipe of a best known (the interviewer's detail).
    status, detail = fetch(interviewer + "detail", timeout=120)
    recipes = [line.split("best known", 1)[1].strip() for line in detail.splitlines()
               if line.strip().startswith("best known ")]
    if status != 200 or not recipes:
        fail(f"the interviewer's detail answered {status} with no recipe")
    leaks += [f"recipe: {r}" for r in recipes if len(r) >= 30 and r in text]
    if leaks:
        fail("the candidate's token reached:\n  " + "\n  ".join(leaks[:10]))

    # Tokens: wrong, missing, or the other page's.
    wrong = base + "/c/" + "f" * 32 + "/"
    for url, data in [(wrong, None), (wrong + "brief", None), (wrong + "grade", b"x"),
                      (base + "/c//grade", b"x"), (base + "/i/" + "0" * 32 + "/hint/1", b""),
                      (interviewer.replace("/i/", "/c/") + "grade", b"x"),
                      (candidate.replace("/c/", "/i/") + "hint/1", b""),
                      (candidate.replace("/c/", "/i/") + "hints", None),
                      (candidate.replace("/c/", "/i/") + "export", None),
                      (candidate.replace("/c/", "/i/") + "unseen", b""),
                      (candidate.replace("/c/", "/i/") + "score", b"{}"),
                      (candidate.replace("/c/", "/i/") + "detail", None),
                      (candidate + "score", b"{}"), (candidate + "hint/1", b""),
                      (candidate + "detail", None), (candidate + "export", None)]:
        status, _ = fetch(url, data)
        if status != 404:
            fail(f"{url} answered {status}, not 404")
    said = stream(wrong + "events")
    if not said.startswith("HTTP/1.1 404") or re.search(r"^data: ", said, re.M):
        fail("a wrong token's event stream said something: " + said[:200])

    # A client that sends half a request and holds on: the pages still answer meanwhile.
    held = socket.create_connection(re.match(r"http://([^:/]+):(\d+)", base).groups())
    held.sendall(b"POST " + candidate.split(base)[1].encode() + b"grade HTTP/1.1\r\nHost: x\r\n")
    if fetch(candidate)[0] != 200 or fetch(interviewer)[0] != 200:
        fail("a held connection kept the pages from answering")

    # A version over the source cap: refused, never recorded.
    status, _ = fetch(candidate + "grade", b"x" * (17 << 20), timeout=60)
    if status not in (0, 413):
        fail(f"a 17 MiB version answered {status}")

    # A flood of versions: one graded at a time, one waiting, the rest replaced.
    reference = (kit / "solutions/grad-accum/train.cpp").read_bytes()
    for i in range(30):
        status, body = fetch(candidate + "grade", reference + f"\n// {i}\n".encode())
        if status != 202 or json.loads(body)["pending"] > 2:
            fail(f"version {i} of the flood answered {status} {body}")
    if fetch(candidate)[0] != 200 or fetch(interviewer + "hints")[0] != 200:
        fail("the flood kept the pages from answering")
    # The hostile version, last: it waits, then is graded (refused before it is built).
    attack = (kit / "harness/tests/adversarial/pipeline/include_solution.cpp").read_bytes()
    attack = attack.replace(b"pipeline", b"grad-accum")
    fetch(candidate + "grade", attack)
    wait_for("the hostile version's grade",
             lambda: any(e["event"] == "grade" and not e["built"] for e in record()))
    grades = [e for e in record() if e["event"] == "grade"]
    if len(grades) > 3:
        fail(f"{len(grades)} grades recorded for a flood: the waiting version was not replaced")
    if grades[0]["verdict"] != "optimal" or grades[-1]["built"]:
        fail(f"the record holds {[(g['verdict'], g['built']) for g in grades]}")
    held.close()

    # Killed mid-grade, resumed: the same links, and the version being graded is graded.
    before = len([e for e in record() if e["event"] == "grade"])
    fetch(candidate + "grade", reference + b"\n// the last one\n")
    time.sleep(0.5)  # the grade has started (the judge takes seconds)
    server.kill()
    server.wait()
    server, again_candidate, again_interviewer = start(resume=True)
    if (again_candidate, again_interviewer) != (candidate, interviewer):
        fail("--resume changed the links")
    wait_for("the interrupted version's grade",
             lambda: len([e for e in record() if e["event"] == "grade"]) == before + 1)
    last = [e for e in record() if e["event"] == "grade"][-1]
    if not last["source"].endswith("// the last one\n") or last["verdict"] != "optimal":
        fail("the version graded after the restart is not the one interrupted")
    print(f"crawled {len(text)} characters with the candidate's token: no guide, answer, solution "
          "or test line; tokens refused; a held connection, a 17 MiB version, a flood of 30 and a "
          f"hostile version survived ({len(grades)} grades recorded); killed mid-grade and "
          "resumed, no version lost")
finally:
    stop(server)

# In the clear only on loopback; with a certificate, HTTPS alone.
refused = subprocess.run([serve, "grad-accum", "--sessions", str(work / "tls-sessions"), "--judge",
                          judge, "--interview", interview, "--kit", str(kit), "--header",
                          "overlap/grad_accum.hpp", "--listen", "0.0.0.0:0"],
                         capture_output=True, text=True, timeout=30)
if refused.returncode != 2 or "--tls" not in refused.stderr:
    fail(f"another address in the clear exited {refused.returncode}: {refused.stderr}")
cert, key = work / "cert.pem", work / "key.pem"
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                "-out", str(cert), "-days", "2", "-subj", "/CN=localhost", "-addext",
                "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
server, candidate, interviewer = start(more=["--tls", str(cert), str(key)],
                                       folder=work / "tls-sessions")
try:
    trusted = ssl.create_default_context(cafile=str(cert))
    if not candidate.startswith("https://") or fetch(candidate, context=trusted)[0] != 200:
        fail("the candidate's page does not answer over HTTPS")
    if fetch(interviewer + "hints", context=trusted)[0] != 200:
        fail("the interviewer's page does not answer over HTTPS")
    if fetch(candidate.replace("https://", "http://"))[0] != 0:
        fail("a TLS server answered in the clear")
    print("in the clear only on loopback; with --tls, HTTPS alone")
finally:
    stop(server)
