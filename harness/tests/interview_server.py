"""The live interview's server as the kit's tests run it: started on grad-accum with a sessions
folder of the test's own, its two links read from what it prints, stopped with SIGTERM."""
import re
import signal
import subprocess
import sys
import time


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def start(serve, judge, interview, kit, sessions, more=()):
    """(the server, the candidate's link, the interviewer's link)."""
    server = subprocess.Popen(
        [serve, "grad-accum", "--sessions", str(sessions), "--judge", judge, "--interview",
         interview, "--kit", str(kit), "--header", "overlap/grad_accum.hpp"] + list(more),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    links = {}
    until = time.monotonic() + 30
    while len(links) < 2 and time.monotonic() < until:
        line = server.stdout.readline()
        if not line:
            break
        found = re.match(r"\s+(candidate|interviewer):\s+(\S+)", line)
        if found:
            links[found.group(1)] = found.group(2)
    if len(links) < 2:
        server.kill()
        fail("the server printed no links")
    return server, links["candidate"], links["interviewer"]


def stop(server):
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
