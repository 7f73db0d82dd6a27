#!/usr/bin/python3
"""The live interview in a real browser: headless Chromium through WebDriver drives both pages.

    interview_browser.py SERVE JUDGE INTERVIEW KIT WORK

SERVE is overlap-serve, JUDGE the exercise's judge (grad-accum), INTERVIEW overlap-interview (the
score command), KIT the kit's root, WORK a
folder of this test's own (the sessions, Chromium's profile, the screenshots). The candidate puts
the reference into the editor (CodeMirror's setValue: typing would re-indent) and grades it: the
page shows `optimal`; then the starter: `slow`. The interviewer's page shows both versions and the
diff between them, and sends hint 2, whose question (and not its answer) the candidate's page
then shows. Its score form, the predictions not asked, gives what `overlap score` gives for the
same marks; it grades the last version on the interviewer's seed, and exports the record. The
record holds both grades and the hint. Restarted with --resume, the server keeps the links and
both pages reconnect to the same state. A screenshot of each page is kept in WORK.
Waits are for the state checked, each with a deadline.
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request

import interview_server
from interview_server import fail, stop
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

serve, judge, interview, kit, work = sys.argv[1:6]
kit = pathlib.Path(kit)
work = pathlib.Path(work)
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
GRADE_DEADLINE = 300  # seconds: a first grade builds the submission on a loaded machine


def start(resume=False):
    return interview_server.start(serve, judge, interview, kit, work / "sessions",
                                  ["--resume"] if resume else [])


server, candidate, interviewer = start()


def status_of(url, data=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


options = webdriver.ChromeOptions()
options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
             "--user-data-dir=" + str(work / "profile")):
    options.add_argument(flag)
driver = None
try:
    # Tokens: a wrong or missing one learns nothing.
    base = candidate.split("/c/")[0]
    if status_of(base + "/c/" + "0" * 32 + "/") != 404 or status_of(base + "/") != 404:
        fail("a wrong or missing token was answered")
    if status_of(interviewer.replace("/i/", "/c/")) != 404:
        fail("the interviewer's token opened the candidate's page")

    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or
                                              "/usr/bin/chromedriver"), options=options)
    driver.get(candidate)
    wait = WebDriverWait(driver, 30)
    wait.until(lambda d: d.execute_script(
        "return window.overlapEditor && window.overlapEditor.getValue().includes('OVERLAP_TRAIN')"))
    if "grad-accum" not in driver.find_element(By.ID, "brief").text:
        fail("the brief is not on the candidate's page")
    candidate_tab = driver.current_window_handle

    def grade(source, tier, version):
        driver.switch_to.window(candidate_tab)
        driver.execute_script("window.overlapEditor.setValue(arguments[0])", source)
        driver.find_element(By.ID, "grade").click()
        WebDriverWait(driver, GRADE_DEADLINE).until(
            lambda d: d.find_element(By.ID, "verdict").text.startswith(f"version {version}:"))
        shown = driver.find_element(By.ID, "verdict").text
        if shown != f"version {version}: {tier}":
            fail(f"the candidate's page says '{shown}', not 'version {version}: {tier}'")

    reference = (kit / "solutions/grad-accum/train.cpp").read_text()
    starter = (kit / "exercises/grad-accum/train.cpp").read_text()
    grade(reference, "optimal", 1)
    driver.save_screenshot(str(work / "candidate.png"))
    grade(starter, "slow", 2)

    driver.switch_to.new_window("tab")
    driver.get(interviewer)
    WebDriverWait(driver, 30).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#versions li")) == 2)
    items = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#versions li")]
    if not (items[0].startswith("version 1: optimal") and items[1].startswith("version 2: slow")):
        fail(f"the interviewer's page lists {items}")
    # Version 2 shown, with its diff to version 1: lines of each side.
    added = driver.find_elements(By.CSS_SELECTOR, "#diff .added")
    removed = driver.find_elements(By.CSS_SELECTOR, "#diff .removed")
    if not added or not removed:
        fail("the interviewer's page shows no diff between the versions")
    driver.find_element(By.ID, "hint-2").click()
    WebDriverWait(driver, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, '#hints-given li[data-hint="2"]'))
    driver.save_screenshot(str(work / "interviewer.png"))

    # The score form: the predictions not asked, the rest given; the outcome as `overlap score`
    # computes it for the same marks.
    from selenium.webdriver.support.ui import Select
    selects = driver.find_elements(By.CSS_SELECTOR, '#score-form select[name="communication"]')
    Select(selects[0]).select_by_value("2")
    follow_ups = driver.find_elements(By.CSS_SELECTOR, '#score-form select[name="follow-ups"]')
    Select(follow_ups[0]).select_by_value("2")
    Select(follow_ups[1]).select_by_value("2")
    Select(follow_ups[2]).select_by_value("")
    Select(driver.find_element(By.CSS_SELECTOR, '#score-form select[name="defended"]')) \
        .select_by_value("0")
    driver.find_element(By.ID, "score").click()
    WebDriverWait(driver, GRADE_DEADLINE).until(
        lambda d: "outcome:" in d.find_element(By.ID, "outcome").text)
    shown = driver.find_element(By.ID, "outcome").text.strip()
    direct = subprocess.run(
        [interview, "score", "grad-accum", "--sessions", str(work / "sessions"), "--rule",
         str(kit / "guides/score.json"), "--judge", judge, "--format", "45-minute",
         "--predictions", "-,-", "--communication", "2", "--follow-ups", "2,2"],
        capture_output=True, text=True)
    if shown != (direct.stdout + direct.stderr).strip():
        fail(f"the score form says:\n{shown}\n"
             f"`overlap score` says:\n{direct.stdout}{direct.stderr}")
    outcome = [line for line in shown.splitlines() if line.startswith("outcome:")]
    # After the interview: the last version on the interviewer's seed (never the candidate's),
    # and the record exported for a second interviewer.
    driver.find_element(By.ID, "unseen").click()
    WebDriverWait(driver, GRADE_DEADLINE).until(
        lambda d: "graded 4 scenarios" in d.find_element(By.ID, "unseen-report").text)
    unseen = driver.find_element(By.ID, "unseen-report").text
    if "seed-1-" in unseen or not re.search(r"seed-\d+-0", unseen):
        fail("the unseen grade is not on the interviewer's seed:\n" + unseen)
    with urllib.request.urlopen(interviewer + "export", timeout=30) as r:
        exported = json.loads(r.read())
    if [e["event"] for e in exported["events"]] != ["start", "grade", "grade", "hint"]:
        fail(f"the export holds {[e['event'] for e in exported['events']]}")
    driver.save_screenshot(str(work / "interviewer.png"))

    driver.switch_to.window(candidate_tab)
    WebDriverWait(driver, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, '#hints blockquote[data-hint="2"]'))
    shown = driver.find_element(By.CSS_SELECTOR, '#hints blockquote[data-hint="2"]').text
    hints = (kit / "guides/hints/grad-accum.md").read_text()
    question = re.search(r'\*\*Hint 2:.*?\*\* "(.*?)"', hints, re.S).group(1)
    if " ".join(question.split()) not in " ".join(shown.split()):
        fail(f"the candidate's page shows '{shown}', not hint 2's question")
    if "Unlocks" in shown or "Grader then" in shown:
        fail("the candidate's page shows hint 2's answer")
    driver.save_screenshot(str(work / "candidate-hint.png"))

    # The record: both grades (tiers from this machine's judge) and the hint, in order.
    events = [json.loads(line) for f in (work / "sessions").glob("*/events.jsonl")
              for line in f.read_text().splitlines()]
    kinds = [(e["event"], e.get("verdict"), e.get("hint")) for e in events]
    if kinds != [("start", None, None), ("grade", "optimal", None), ("grade", "slow", None),
                 ("hint", None, 2)]:
        fail(f"the record holds {kinds}")
    # A restart with --resume: both pages reconnect by themselves, to the same state.
    interviewer_tab = driver.window_handles[-1]
    stop(server)
    server, again, _ = start(resume=True)
    if again != candidate:
        fail("--resume changed the candidate's link")
    for tab, hint_selector in [(candidate_tab, "#hints blockquote"),
                               (interviewer_tab, "#hints-given li")]:
        driver.switch_to.window(tab)
        WebDriverWait(driver, 60).until(
            lambda d: d.find_element(By.ID, "status").text.startswith(("connected", "version")) and
            len(d.find_elements(By.CSS_SELECTOR, hint_selector)) == 1)
    if len(driver.find_elements(By.CSS_SELECTOR, "#versions li")) != 2:
        fail("after the restart the interviewer's page does not list the 2 versions once each")
    print("both pages: 2 versions graded (optimal, slow), the diff shown, hint 2 sent and shown,"
          f" the score form as `overlap score` ({outcome[0]}), a restart reconnected; screenshots"
          f" in {work}")
finally:
    if driver:
        driver.quit()
    stop(server)
