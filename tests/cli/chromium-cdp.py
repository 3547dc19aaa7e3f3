#!/usr/bin/env python3
"""Loads an HTML page in headless Chromium over the DevTools protocol (--remote-debugging-pipe) and
prints what a test asks about it as one JSON object: console messages and exceptions, every
network request that is not the page itself, the figures and the <svg> elements in the DOM, the
layout width on a desktop and on a phone-sized screen, and whether it prints (PDF). Writes a
full-page screenshot. Used by tests/cli/t0275-report-chromium.sh; nothing here reaches a network
(the page is a file:// URL and Chromium runs with its background networking off).

    chromium-cdp.py CHROMIUM PAGE.html SCREENSHOT.png [MOBILE_SCREENSHOT.png]
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--no-default-browser-check",
         "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe"]


class Browser:
    def __init__(self, exe, profile):
        r_cmd, w_cmd = os.pipe()   # we write commands; Chromium reads fd 3
        r_ev, w_ev = os.pipe()     # Chromium writes fd 4; we read
        def child():
            # through fresh descriptors: a pipe may already be 3 or 4, and dup2 onto itself would
            # keep its close-on-exec flag
            a, b = os.dup(r_cmd), os.dup(w_ev)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                     close_fds=False, preexec_fn=child,  # fds 3, 4 made in child()
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r_cmd)
        os.close(w_ev)
        self.w = os.fdopen(w_cmd, "wb", buffering=0)
        self.r = os.fdopen(r_ev, "rb", buffering=0)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self.r.fileno(), 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.w.write(json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, session, timeout=30):
        deadline = time.time() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == method and m.get("sessionId") == session:
                del self.events[i]
                return m
        while True:
            m = self._read(deadline)
            if m.get("method") == method and m.get("sessionId") == session:
                return m
            self.events.append(m)

    def drain(self, seconds):
        """Collects events for a while (late console messages)."""
        deadline = time.time() + seconds
        os.set_blocking(self.r.fileno(), False)
        try:
            while time.time() < deadline:
                try:
                    chunk = os.read(self.r.fileno(), 1 << 16)
                except BlockingIOError:
                    time.sleep(0.05)
                    continue
                if not chunk:
                    break
                self.buf += chunk
                while b"\0" in self.buf:
                    msg, self.buf = self.buf.split(b"\0", 1)
                    self.events.append(json.loads(msg))
        finally:
            os.set_blocking(self.r.fileno(), True)

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


PROBE = r"""JSON.stringify((() => {
  const figs = [...document.querySelectorAll('figure')];
  return {
    figures: figs.length,
    figures_with_svg: figs.filter(f => f.querySelector('svg') !== null).length,
    svgs: document.querySelectorAll('svg').length,
    svg_sizes: [...document.querySelectorAll('figure svg')].map(s => { const r = s.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; }),
    scroll_width: document.documentElement.scrollWidth,
    inner_width: window.innerWidth,
    height: document.documentElement.scrollHeight,
    data: (() => { try { return Object.keys(JSON.parse(document.getElementById('archscope-data').textContent)); } catch (e) { return String(e); } })(),
    title: document.title,
  };
})())"""


def load(b, session, url, width, height, mobile):
    b.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                  "mobile": mobile}, session)
    b.call("Page.navigate", {"url": url}, session)
    b.wait_event("Page.loadEventFired", session)
    b.drain(0.5)
    return json.loads(b.call("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session)["result"]["value"])


def screenshot(b, session, path, width, height):
    shot = b.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                             "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}},
                  session, timeout=60)
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    exe, page, shot = sys.argv[1:4]
    mshot = sys.argv[4] if len(sys.argv) == 5 else None
    url = "file://" + os.path.abspath(page)
    profile = tempfile.mkdtemp(prefix="archscope-chromium.")
    b = Browser(exe, profile)
    out = {}
    try:
        target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            b.call(f"{domain}.enable", {}, session)
        out["desktop"] = load(b, session, url, 1200, 900, False)
        screenshot(b, session, shot, 1200, min(out["desktop"]["height"], 16000))
        out["phone"] = load(b, session, url, 390, 844, True)
        if mshot:
            screenshot(b, session, mshot, 390, min(out["phone"]["height"], 16000))
        b.call("Emulation.setEmulatedMedia", {"media": "print"}, session)
        out["print"] = json.loads(b.call("Runtime.evaluate", {"expression": PROBE, "returnByValue": True},
                                         session)["result"]["value"])
        pdf = b.call("Page.printToPDF", {}, session, timeout=60)
        out["pdf_bytes"] = len(base64.b64decode(pdf.get("data", "")))
        b.drain(0.3)
    finally:
        events = b.events
        b.close()
        subprocess.run(["rm", "-rf", profile])
    console, exceptions, requests = [], [], []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled":
            console.append({"type": p.get("type"), "text": " ".join(str(a.get("value", a.get("description", "")))
                                                                    for a in p.get("args", []))})
        elif m == "Runtime.exceptionThrown":
            exceptions.append(p.get("exceptionDetails", {}).get("text", "exception"))
        elif m == "Log.entryAdded":
            entry = p.get("entry", {})
            console.append({"type": entry.get("level"), "text": entry.get("text", ""), "source": entry.get("source")})
        elif m == "Network.requestWillBeSent":
            u = p.get("request", {}).get("url", "")
            if u != url and not u.startswith("data:"):
                requests.append(u)
    out["console"] = console
    out["exceptions"] = exceptions
    out["requests"] = requests
    print(json.dumps(out))


if __name__ == "__main__":
    main()
