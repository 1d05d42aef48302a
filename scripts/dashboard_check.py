#!/usr/bin/env python3
"""Loads the LFG dashboard in headless Chromium, saves a screenshot, and checks that the card each
phone shows on the page (counts, rows, N More) equals GET /api/push/live-activity/state.

Talks to Chromium over --remote-debugging-pipe (the DevTools protocol as NUL-terminated JSON on fds
3 and 4), so it needs nothing beyond the Python standard library and Debian's chromium.

Usage: dashboard_check.py BASE_URL TOKEN SCREENSHOT [--login-url URL] [--wait-for-card SECONDS] [--settle SECONDS]
"""
import argparse, base64, json, os, shutil, subprocess, sys, tempfile, time, urllib.parse, urllib.request

DRAWN_CARDS = r"""
JSON.stringify([...document.querySelectorAll("section.device")].map((device) => {
  const lock = device.querySelector('[data-surface="lockScreen"]');
  const compact = device.querySelector('[data-surface="islandCompact"]');
  const number = (node) => node ? Number(node.textContent.trim()) : null;
  return {
    deviceId: device.dataset.deviceId,
    hasCard: device.dataset.hasCard === "1",
    working: lock ? number(lock.querySelector('[data-count="working"]')) : null,
    needsInput: lock ? number(lock.querySelector('[data-count="needsInput"]')) : null,
    rows: lock ? [...lock.querySelectorAll(".row[data-sid]")].map((row) => `${row.dataset.sid}:${row.dataset.state}`) : [],
    wordless: Boolean(lock && lock.querySelector(".row:not([data-sid])")),
    overflow: lock && lock.querySelector(".overflow") ? lock.querySelector(".overflow").textContent.trim() : "",
    compactTotal: compact ? number(compact.querySelector(".total-small")) : null,
    question: Boolean(lock && lock.querySelector(".card-question-line")),
    questionButtons: lock ? [...lock.querySelectorAll(".card-button")].map((b) => b.textContent.trim()) : [],
  };
}))
"""


class DevTools:
    """A minimal DevTools-protocol client over Chromium's pipe."""

    def __init__(self, chromium, profile):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def wire_pipes():
            # Copy both ends out of the way first: either may already sit on fd 3 or 4.
            reading, writing = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(reading, 3)  # dup2 makes them inheritable across exec
            os.dup2(writing, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"],
            preexec_fn=wire_pipes, close_fds=False, stdout=subprocess.DEVNULL, stderr=None if os.environ.get("LFG_CHECK_DEBUG") else subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.session = None

    def call(self, method, params=None, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self.next_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        raise RuntimeError(f"{method}: no answer within {timeout} s")

    def evaluate(self, expression, await_promise=False):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": await_promise})
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails'].get('text')}")
        return result.get("result", {}).get("value")

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def get_state(base, token):
    request = urllib.request.Request(base + "/api/push/live-activity/state",
                                     headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def expected_cards(state):
    """What each device's drawn lock-screen card must show, from the state endpoint alone."""
    cards = {}
    for device in state["devices"]:
        content = (device.get("card") or {}).get("contentState")
        if content is None:
            cards[device["deviceId"]] = {"hasCard": False}
            continue
        rows = [f"{row['sid']}:{row['state']}" for row in content.get("rows", [])]
        # A question takes its line's room (and its buttons' on the Lock Screen) from the three rows.
        question = content.get("question")
        buttons = (question or {}).get("buttons", [])
        budget = 3 - ((2 if buttons else 1) if question else 0)
        more = content.get("more", 0) + max(0, len(rows) - budget)
        # A privacy device's pushed state carries no titles: its card draws "N sessions" and where to go
        # instead of rows (FleetCore.WordlessCard: shown rows present, none with a title).
        shown = content.get("rows", [])[:budget]
        wordless = bool(shown) and all(not row.get("title") for row in shown)
        cards[device["deviceId"]] = {
            "hasCard": True, "working": content.get("working", 0), "needsInput": content.get("needsInput", 0),
            "rows": [] if wordless else rows[:budget], "wordless": wordless,
            "overflow": f"{more} More" if more > 0 else "",
            "compactTotal": content.get("working", 0) + content.get("needsInput", 0),
            "question": question is not None, "questionButtons": buttons,
        }
    return cards


def drawn_cards(page):
    cards = {}
    for card in json.loads(page.evaluate(DRAWN_CARDS)):
        device = card.pop("deviceId")
        cards[device] = card if card["hasCard"] else {"hasCard": False}
    return cards


ANSWER_FIRST_QUESTION = r"""
(() => {
  const question = document.querySelector(".question");
  if (!question) return "";
  const input = question.querySelector("input.answer-text");
  if (input) input.value = "Answered from the dashboard check";
  question.querySelector("button.answer").click();
  return question.dataset.questionId;
})()
"""


def get_question(base, token, question_id):
    request = urllib.request.Request(base + "/api/questions/" + urllib.parse.quote(question_id, safe=""),
                                     headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def answer_from_page(browser, base, token, required):
    """Clicks the first pending question's first answer in the page (cookie session + CSRF header, as a
    person would) and checks the server took it from the device `dashboard`, or says who was first."""
    browser.evaluate("refresh()", await_promise=True)
    question_id = browser.evaluate(ANSWER_FIRST_QUESTION)
    if not question_id:
        if required:
            sys.exit("dashboard-check: the page lists no pending question to answer")
        return "no question was pending to answer"
    status_js = ("(document.querySelector(`.question[data-question-id=\"%s\"] .question-status`) || {}).textContent || ''"
                 % question_id.replace('"', '\\"'))
    deadline = time.time() + 10
    status = ""
    while time.time() < deadline:
        status = browser.evaluate(status_js)
        if status and status != "Sending…":
            break
        time.sleep(0.1)
    question = get_question(base, token, question_id)
    if question["state"] == "pending":
        sys.exit(f"dashboard-check: the page's answer to {question_id} did not land (status: {status!r})")
    if question.get("answeredBy") == "dashboard":
        if not status.startswith("Answered"):
            sys.exit(f"dashboard-check: {question_id} was answered but the page said {status!r}")
        return f"question {question_id} answered from the page as device dashboard ({question['answer']})"
    if not status.startswith("Already"):
        sys.exit(f"dashboard-check: {question_id} was settled elsewhere but the page said {status!r}")
    return f"question {question_id} was settled elsewhere first; the page said so"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("token")
    parser.add_argument("screenshot")
    parser.add_argument("--login-url")
    parser.add_argument("--wait-for-card", type=float, default=60)
    parser.add_argument("--settle", type=float, default=0, help="seconds to let the demo play before comparing")
    parser.add_argument("--answer-required", action="store_true", help="fail when no question is pending to answer")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not chromium:
        sys.exit("dashboard-check: chromium is not installed (scripts/setup.sh installs Debian's chromium)")

    with tempfile.TemporaryDirectory() as profile:
        browser = DevTools(chromium, profile)
        try:
            target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            browser.session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            browser.call("Page.enable")
            browser.call("Emulation.setDeviceMetricsOverride",
                         {"width": 1440, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
            if args.login_url:
                url = args.login_url  # the one-time login link sets the cookie and redirects to /
            else:
                browser.call("Network.setCookie", {"name": "lfg_auth", "value": args.token, "url": args.base + "/"})
                url = args.base + "/"
            browser.call("Page.navigate", {"url": url})

            deadline = time.time() + 20
            while browser.evaluate("document.body ? document.body.dataset.ready : ''") != "1":
                if time.time() > deadline:
                    sys.exit("dashboard-check: the page never drew a snapshot (is the login or token right?)")
                time.sleep(0.2)

            # Wait (bounded) until some phone shows a card, so the screenshot shows one.
            deadline = time.time() + args.wait_for_card
            while not any(card["hasCard"] for card in drawn_cards(browser).values()) and time.time() < deadline:
                browser.evaluate("refresh()", await_promise=True)
                time.sleep(1)

            time.sleep(args.settle)
            height = browser.evaluate("document.documentElement.scrollHeight")
            browser.call("Emulation.setDeviceMetricsOverride",
                         {"width": 1440, "height": int(height), "deviceScaleFactor": 1, "mobile": False})

            # The demo keeps changing; compare only when the state held still around the page's redraw.
            for attempt in range(30):
                before = get_state(args.base, args.token)
                browser.evaluate("refresh()", await_promise=True)
                drawn = drawn_cards(browser)
                after = get_state(args.base, args.token)
                if expected_cards(before) != expected_cards(after):
                    time.sleep(0.3)
                    continue
                expected = expected_cards(after)
                if drawn != expected:
                    print("dashboard-check: the page does not match the state endpoint", file=sys.stderr)
                    print("  drawn:   " + json.dumps(drawn, sort_keys=True), file=sys.stderr)
                    print("  expected: " + json.dumps(expected, sort_keys=True), file=sys.stderr)
                    sys.exit(1)
                break
            else:
                sys.exit("dashboard-check: the state never held still long enough to compare")

            # The picture is taken right after the comparison, so it shows the card that was checked.
            image = browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
            with open(args.screenshot, "wb") as out:
                out.write(base64.b64decode(image))
            cards = sum(1 for card in drawn.values() if card["hasCard"])
            answered = answer_from_page(browser, args.base, args.token, args.answer_required)
            print(f"dashboard-check: OK: {len(drawn)} devices, {cards} cards drawn, every count and row equals "
                  f"/api/push/live-activity/state; {answered}; screenshot {args.screenshot}")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
