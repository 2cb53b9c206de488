"""Renders a healthetl HTML report in headless Chromium and reports what a person would see.

    python check_report.py REPORT.html SCREENSHOT.png

Chromium is driven through the DevTools protocol. The page is opened from its file, in light
and in dark mode and for print. Printed as one JSON object:
  requests         every network request the page attempted (the report must make none)
  console_errors   console errors, exceptions and log errors (a blocked request is one)
  charted          [metric, day, value] of every charted day ([data-metric][data-day])
  nights           [night, asleep seconds] of every charted sleep night
  sections         the ids of the report's sections, in order
  screenshot       size, distinct colours and the share of pixels that are not background
  backgrounds      the page background in light, dark and print
  pdf_pages        pages of the printed PDF
"""

import base64
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket
from PIL import Image

BROWSERS = ["chromium", "chromium-browser", "google-chrome"]
COLLECT = """JSON.stringify({
  charted: [...document.querySelectorAll('[data-metric][data-day]')].map(e => [e.dataset.metric, e.dataset.day, Number(e.dataset.value)]),
  nights: [...document.querySelectorAll('[data-night]')].map(e => [e.dataset.night, Number(e.dataset.asleep)]),
  sections: [...document.querySelectorAll('section')].map(s => s.id),
})"""


class DevTools:
    def __init__(self, url):
        self.socket = websocket.create_connection(url, timeout=120, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        # wait_for and drain shorten the socket's timeout; a call may take long on a loaded machine.
        self.socket.settimeout(120)
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, event, seconds=120):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if any(e.get("method") == event for e in self.events):
                return
            self.socket.settimeout(max(deadline - time.time(), 0.1))
            self.events.append(json.loads(self.socket.recv()))
        raise TimeoutError(f"no {event} within {seconds} s")

    def drain(self, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            self.socket.settimeout(max(deadline - time.time(), 0.05))
            try:
                self.events.append(json.loads(self.socket.recv()))
            except websocket.WebSocketTimeoutException:
                return


def start_browser(profile):
    browser = next((shutil.which(name) for name in BROWSERS if shutil.which(name)), None)
    if browser is None:
        sys.exit("check_report: no Chromium found; `make test` installs Debian's chromium")
    process = subprocess.Popen(
        [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.time() + 60
    while not os.path.exists(port_file) or not open(port_file).read().strip():
        if time.time() > deadline or process.poll() is not None:
            process.kill()
            sys.exit("check_report: Chromium did not start")
        time.sleep(0.1)
    port = open(port_file).read().split()[0]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as response:
        pages = [t for t in json.load(response) if t["type"] == "page"]
    return process, pages[0]["webSocketDebuggerUrl"]


def screenshot_facts(png):
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((image.width // 4, image.height // 4))
    colours = small.getcolors(maxcolors=1 << 20) or []
    background = max(colours)[1] if colours else None
    other = sum(count for count, colour in colours if colour != background)
    return {
        "width": image.width, "height": image.height, "distinct_colours": len(colours),
        "non_background_share": other / max(small.width * small.height, 1),
    }


def main():
    report, screenshot = os.path.abspath(sys.argv[1]), sys.argv[2]
    profile = tempfile.mkdtemp(prefix="healthetl-chromium-")
    process, url = start_browser(profile)
    try:
        tools = DevTools(url)
        for domain in ["Page", "Network", "Runtime", "Log"]:
            tools.call(f"{domain}.enable")
        tools.call("Emulation.setDeviceMetricsOverride", width=1100, height=1800, deviceScaleFactor=1, mobile=False)
        tools.call("Page.navigate", url="file://" + report)
        tools.wait_for("Page.loadEventFired")
        tools.drain(0.5)
        collected = json.loads(tools.call("Runtime.evaluate", expression=COLLECT, returnByValue=True)["result"]["value"])
        png = base64.b64decode(tools.call("Page.captureScreenshot", format="png")["data"])
        with open(screenshot, "wb") as file:
            file.write(png)
        backgrounds = {}
        for name, features, media in [("light", "light", ""), ("dark", "dark", ""), ("print", "light", "print")]:
            tools.call("Emulation.setEmulatedMedia", media=media,
                       features=[{"name": "prefers-color-scheme", "value": features}])
            backgrounds[name] = tools.call(
                "Runtime.evaluate", expression="getComputedStyle(document.body).backgroundColor",
                returnByValue=True)["result"]["value"]
        pdf = base64.b64decode(tools.call("Page.printToPDF", printBackground=False)["data"])
        tools.drain(0.3)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(profile, ignore_errors=True)

    own = "file://" + report
    requests = [e["params"]["request"]["url"] for e in tools.events if e.get("method") == "Network.requestWillBeSent"
                and e["params"]["request"]["url"] != own and not e["params"]["request"]["url"].startswith("data:")]
    errors = []
    for event in tools.events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            errors.append(params["exceptionDetails"].get("text", "exception"))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            errors.append(params["entry"].get("text", ""))
    print(json.dumps({
        "requests": requests, "console_errors": errors, **collected, "screenshot": screenshot_facts(png),
        "backgrounds": backgrounds, "pdf_pages": len(re.findall(rb"/Type\s*/Page[^s]", pdf)),
    }))


if __name__ == "__main__":
    main()
