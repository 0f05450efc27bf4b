"""The JupyterLite site as a student meets it: built by scripts/lite.sh, served from
127.0.0.1, opened in Debian's Chromium. Shared by tests/test_lite.py and benchmarks/lite.py.

Every request the site makes to an address other than 127.0.0.1 is recorded twice over: by
Playwright, and by a proxy that the browser profile must use for anything not on this machine
(workers and service workers included), which refuses them all. Chromium's own traffic
is not the site's: its updater uses no profile, and its autofill queries are turned off.
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support import CHROMIUM, CHROMIUM_ARGS, KERNEL_IDLE, MissingBrowser, wait_for_early_build

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "lite" / "_output"
#: Chromium asks its autofill server about every form on a page, whoever made the page.
QUIET_BROWSER = ["--disable-features=AutofillServerCommunication"]
#: scripts/lite.sh's exit status when a tool it needs (Python 3.12+, npm) is missing.
TOOL_MISSING = 3
#: Set by scripts/test.sh, which starts scripts/lite.sh before the tests: the build's log.
#: Its exit status is written to the same path with ``.status`` added when it ends.
EARLY_BUILD_ENV = "REVERSI_LITE_BUILD_LOG"


class BuildFailed(RuntimeError):
    """scripts/lite.sh failed; ``missing_tool`` when this machine lacks what it needs."""

    def __init__(self, output: str, missing_tool: bool) -> None:
        super().__init__(output)
        self.missing_tool = missing_tool


def build_site() -> Path:
    """Build lite/_output/ from this clone with scripts/lite.sh and return it. Where
    scripts/test.sh started that build before the tests (``EARLY_BUILD_ENV``), wait for it
    instead: the same script on the same clone, begun while the packages were installing."""
    log = os.environ.get(EARLY_BUILD_ENV)
    if log:
        status, output = wait_for_build(Path(log))
    else:
        done = subprocess.run(["bash", str(ROOT / "scripts" / "lite.sh")], capture_output=True, text=True, check=False)
        status, output = done.returncode, done.stdout + done.stderr
    if status != 0:
        raise BuildFailed(output[-4000:], missing_tool=status == TOOL_MISSING)
    return SITE


def wait_for_build(log: Path) -> tuple[int, str]:
    """(exit status, output) of the scripts/lite.sh build that writes ``log``, once it has ended."""
    return wait_for_early_build(log, "scripts/lite.sh")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    served: list[tuple[str, int]] | None = None

    def copyfile(self, source: Any, outputfile: Any) -> None:
        if self.served is not None:
            self.served.append((self.path, os.fstat(source.fileno()).st_size))
        super().copyfile(source, outputfile)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve(site: Path, served: list[tuple[str, int]] | None = None) -> Iterator[str]:
    """Serve ``site`` as a static host would, from 127.0.0.1; yields its base URL. Each file
    sent is added to ``served`` as (path, bytes) when a list is given."""
    handler = functools.partial(type("Handler", (_Quiet,), {"served": served}), directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


class _RefusingProxy(http.server.BaseHTTPRequestHandler):
    """Records the target of every request sent to it and refuses it."""

    seen: list[str]

    def _refuse(self) -> None:
        self.seen.append(f"{self.command} {self.path}")
        self.send_error(403, "this test allows no request outside 127.0.0.1")

    do_GET = do_POST = do_HEAD = do_PUT = do_OPTIONS = do_CONNECT = _refuse

    def log_message(self, format: str, *args: Any) -> None:
        pass


@dataclass
class Outside:
    """What the browser asked for outside 127.0.0.1."""

    requested: list[str] = field(default_factory=list)  # URLs, seen by Playwright
    proxied: list[str] = field(default_factory=list)  # request lines, seen by the proxy

    def __bool__(self) -> bool:
        return bool(self.requested or self.proxied)


@contextmanager
def lite_browser() -> Iterator[tuple[Any, Outside, str]]:
    """Headless Chromium, what the pages open in it ask of any address off this machine, and
    the address of a proxy that refuses and records it (for ``open_notebook``)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise MissingBrowser("playwright is not installed") from None
    if not Path(CHROMIUM).exists():
        raise MissingBrowser(f"Chromium not found at {CHROMIUM}")
    outside = Outside()
    handler = type("Proxy", (_RefusingProxy,), {"seen": outside.proxied})
    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=proxy.serve_forever, daemon=True)
    thread.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, *QUIET_BROWSER])
            try:
                yield browser, outside, f"http://127.0.0.1:{proxy.server_address[1]}"
            finally:
                browser.close()
    finally:
        proxy.shutdown()
        proxy.server_close()


def open_notebook(
    browser: Any, base: str, outside: Outside, proxy: str, notebook: str, *, wait_kernel: bool = True
) -> Any:
    """A fresh browser profile on the site with ``notebook`` open (its kernel idle unless
    ``wait_kernel`` is false). All its requests off 127.0.0.1 go to ``proxy``. The app object
    is exposed to the page for driving it: the served configuration is changed in flight only
    for that."""
    context = browser.new_context(
        viewport={"width": 1300, "height": 1000}, proxy={"server": proxy, "bypass": "127.0.0.1"}
    )

    def record(request: Any) -> None:
        if not request.url.startswith((base, "blob:", "data:")):
            outside.requested.append(request.url)

    context.on("request", record)

    def expose(route: Any) -> None:
        response = route.fetch()
        config = response.json()
        config["jupyter-config-data"]["exposeAppInBrowser"] = True
        route.fulfill(response=response, json=config)

    context.route("**/jupyter-lite.json", expose)
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{base}/lab/index.html?path={notebook}")
    if wait_kernel:
        page.wait_for_function(KERNEL_IDLE, timeout=180_000)
    return page


def run_cell(page: Any, code: str) -> str:
    """Append a code cell holding ``code`` to the open notebook, run it, and return what it
    printed once the output holds ``END`` (or an error, as ``Name: message``)."""
    index = page.evaluate(
        """(code) => {
            const panel = window.jupyterapp.shell.currentWidget;
            const n = panel.content.widgets.length;
            panel.content.model.sharedModel.insertCell(n, {cell_type: 'code', source: code});
            panel.content.activeCellIndex = n;
            window.jupyterapp.commands.execute('notebook:run-cell');
            return n;
        }""",
        code,
    )
    handle = page.wait_for_function(
        """(i) => {
            const outputs = window.jupyterapp.shell.currentWidget.content.widgets[i].model.outputs.toJSON();
            const text = outputs.map(o => o.text || (o.data && o.data['text/plain'])
                || (o.ename ? o.ename + ': ' + o.evalue : '')).join('');
            return text.includes('END') || outputs.some(o => o.output_type === 'error') ? text : null;
        }""",
        arg=index,
    )
    return str(handle.json_value())


def site_size(site: Path) -> tuple[int, int]:
    """(bytes, files) of the built site."""
    files = [p for p in site.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)
