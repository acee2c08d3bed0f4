"""A small Chrome DevTools protocol client over Python's standard library only: starts headless
Chromium, speaks the WebSocket protocol (RFC 6455) to it, opens a page, and records what a page
must not do (console errors, uncaught exceptions, network requests other than its own file).

Used by tests/browser/check_*.py; no package from outside Debian is needed."""

import base64
import json
import os
import re
import select
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse


class Failure(Exception):
    pass


def run(main):
    """Runs a check's main: a Failure is a message naming the script and its first argument, and
    exit status 1."""
    try:
        main()
    except Failure as failure:
        script = os.path.basename(sys.argv[0])
        print(f"{script}: {sys.argv[1] if len(sys.argv) > 1 else ''}: {failure}", file=sys.stderr)
        sys.exit(1)


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class WebSocket:
    """The client side of RFC 6455: text frames out (masked), frames in, pings answered."""

    def __init__(self, url):
        parts = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
                   f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise Failure("the browser closed the connection during the handshake")
            response += chunk
        head, self.buffer = response.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise Failure("WebSocket handshake refused: " + head.decode(errors="replace"))

    def send(self, text):
        payload = text.encode()
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise Failure("the browser closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def receive(self):
        """The next text message (fragments joined)."""
        message = b""
        while True:
            first, second = self._read(2)
            opcode = first & 0x0F
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            if second & 0x80:
                mask = self._read(4)
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(self._read(length)))
            else:
                data = self._read(length)
            if opcode == 0x9:  # ping
                self.sock.sendall(bytes([0x8A, 0x80 | len(data)]) + b"\0\0\0\0" + data)
                continue
            if opcode == 0x8:
                raise Failure("the browser closed the WebSocket")
            message += data
            if first & 0x80:
                return message.decode()


class Chromium:
    """One headless Chromium process and its DevTools WebSocket. Each Browser is a page (a
    target) in it: run_checks.py starts one for all the checks of a suite (a start costs about
    2 s of CPU on the test machines), a check run alone starts its own."""

    def __init__(self):
        path = find_chromium()
        if path is None:
            raise Failure("no chromium on PATH (Debian package chromium)")
        self.profile_dir = tempfile.mkdtemp(prefix="proftools-browser-")
        self.process = subprocess.Popen(
            [path, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--mute-audio",
             "--window-size=1280,900", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile_dir}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        url = None
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                url = match.group(1)
                break
        if url is None:
            self.close()
            raise Failure("chromium did not start its DevTools endpoint")
        self.ws = WebSocket(url)
        self.next_id = 0
        # Events by the page (session) they belong to; events of no open page are dropped.
        self.pages = {}

    def close(self):
        try:
            self.process.kill()
            self.process.wait(timeout=10)
        except Exception:
            pass
        shutil.rmtree(self.profile_dir, ignore_errors=True)


# Resolves after the tasks queued before it and the next frame painted (or after %d ms).
SETTLE = """new Promise(resolve => {
  const timer = setTimeout(resolve, %d);
  requestAnimationFrame(() => setTimeout(() => { clearTimeout(timer); resolve(); }, 0));
})"""

# The Chromium that every Browser opens its page in, when run_checks.py shares one.
shared_chromium = None


class Browser:
    """A page of headless Chromium, driven over the DevTools protocol: in the shared Chromium
    when there is one, else in one of its own."""

    def __init__(self, width=1280, height=900):
        self.own = shared_chromium is None
        self.chromium = Chromium() if self.own else shared_chromium
        self.ws = self.chromium.ws
        self.events = []
        self.session = None
        self.target = None
        try:
            self.target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = self.call("Target.attachToTarget",
                                {"targetId": self.target, "flatten": True})["sessionId"]
            self.chromium.pages[session] = self
            self.session = session
            for domain in ("Page", "Runtime", "Network", "Log"):
                self.call(domain + ".enable")
            self.call("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        except Exception:
            self.close()
            raise
        self.dialog_answer = None

    def close(self):
        if self.own:
            self.chromium.close()
            return
        self.chromium.pages.pop(self.session, None)
        if self.target is not None:
            try:
                self.session = None
                self.call("Target.closeTarget", {"targetId": self.target})
            except Exception:
                pass

    def _record(self, message):
        if message.get("method") == "Page.javascriptDialogOpening":
            answer = self.dialog_answer
            self.dialog_answer = None
            self.send("Page.handleJavaScriptDialog",
                      {"accept": answer is not None, "promptText": answer or ""})
        self.events.append(message)

    def _dispatch(self, message):
        """An event goes to the page it came from (another page's, in a shared Chromium, is
        that page's to judge)."""
        page = self.chromium.pages.get(message.get("sessionId"))
        if page is not None:
            page._record(message)

    def send(self, method, params=None):
        self.chromium.next_id += 1
        message = {"id": self.chromium.next_id, "method": method, "params": params or {}}
        if self.session is not None:
            message["sessionId"] = self.session
        self.ws.send(json.dumps(message))
        return self.chromium.next_id

    def call(self, method, params=None):
        wanted = self.send(method, params)
        while True:
            message = json.loads(self.ws.receive())
            if message.get("id") == wanted:
                if "error" in message:
                    raise Failure(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self._dispatch(message)

    def _collect(self, seconds):
        """Collects events for `seconds`, and those already arrived (all of them with 0)."""
        deadline = time.time() + seconds
        while True:
            left = max(0.0, deadline - time.time())
            if not self.ws.buffer and not select.select([self.ws.sock], [], [], left)[0]:
                return
            message = json.loads(self.ws.receive())
            if "method" in message:
                self._dispatch(message)

    def pump(self, seconds):
        """Lets the page finish what it was asked to do, and collects its events: waits for the
        tasks queued so far (a hashchange, a change event's handler) and the next frame painted,
        for `seconds` at most (a page that never paints is slow, not stuck)."""
        self.call("Runtime.evaluate", {"expression": SETTLE % int(seconds * 1000),
                                       "awaitPromise": True})
        # What arrived with the answer (events come in order: the page's, then the answer).
        self._collect(0)

    def open(self, path):
        """Loads a file and waits for its load event; returns the seconds it took."""
        self.url = "file://" + os.path.abspath(path)
        start = time.time()
        self.events.clear()
        self.call("Page.navigate", {"url": self.url})
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            if time.time() - start > 60:
                raise Failure(f"{path}: no load event in 60 s")
            self._collect(0.2)
        return time.time() - start

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise Failure(f"evaluating {expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def mouse(self, kind, x, y):
        params = {"type": kind, "x": x, "y": y, "button": "left" if kind != "mouseMoved" else "none"}
        if kind != "mouseMoved":
            params["clickCount"] = 1
        self.call("Input.dispatchMouseEvent", params)

    def click(self, x, y):
        self.mouse("mouseMoved", x, y)
        self.mouse("mousePressed", x, y)
        self.mouse("mouseReleased", x, y)
        self.pump(0.1)

    def click_element(self, selector_expression):
        """Clicks the centre of the element an expression returns."""
        box = self.evaluate(f"(() => {{ const e = ({selector_expression}); "
                            "e.scrollIntoView({block: 'center', inline: 'center'}); "
                            "const r = e.getBoundingClientRect();"
                            " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        self.click(box[0], box[1])

    def screenshot(self, path, clip=None):
        """A PNG of the viewport, or of `clip` ({x, y, width, height, scale}), when
        BROWSER_SCREENSHOTS=1 asks for them (make check-browser does): no check reads them, and
        the suite's 93 cost a fifth of its CPU (25 of 125 s, Chromium's processes included)."""
        if os.environ.get("BROWSER_SCREENSHOTS") != "1":
            return
        params = {"format": "png"}
        if clip:
            params["clip"] = clip
        data = self.call("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def problems(self):
        """Console errors, uncaught exceptions, and requests for anything but the page itself."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append("exception: " + json.dumps(params.get("exceptionDetails"))[:400])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append("console error: " + json.dumps(params.get("args"))[:400])
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append("log error: " + params["entry"].get("text", "")[:400])
            elif method == "Network.requestWillBeSent":
                url = params.get("request", {}).get("url", "")
                if url != self.url and not url.startswith("data:"):
                    found.append("network request: " + url)
        return found


def read_scrolled(browser, rows_expression, take, what):
    """Reads every row of a list that draws only the rows in view: `rows_expression % "true"`
    returns [rows drawn, whether scrolling by half a page moved the list] and scrolls it,
    `% "false"` the rows only; take(rows) is called with the rows drawn at each place. The list
    redraws on a timer after a scroll: each step waits (5 s at most) for other rows."""
    drawn, more = browser.evaluate(rows_expression % "true")
    for _ in range(1000):
        take(drawn)
        if not more:
            return
        deadline = time.time() + 5
        while time.time() < deadline:
            browser.pump(0.2)
            if browser.evaluate(rows_expression % "false") != drawn:
                break
        drawn, more = browser.evaluate(rows_expression % "true")
    raise Failure(f"{what} kept scrolling")
