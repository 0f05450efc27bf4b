"""Driving real JupyterLab from a test: write a notebook, open and run it, run code in a cell.

Shared by the browser tests that need a real Jupyter server and kernel (the server itself is
``tests.support.jupyter_lab``).
"""

from __future__ import annotations

import http.cookiejar
import json
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

from tests.support import KERNEL_IDLE


@dataclass
class Server:
    url: str
    root: Path


#: The flags that let a test reach ``window.jupyterapp`` in JupyterLab and Notebook 7.
EXPOSE_APP = ["--LabApp.expose_app_in_browser=True", "--JupyterNotebookApp.expose_app_in_browser=True"]


def shut_down_kernels(server: Server) -> None:
    """Shut down every kernel of the server (a test's notebooks do not outlive it). The
    server wants its XSRF cookie back in a header, as JupyterLab sends it."""
    cookies = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
    with opener.open(f"{server.url}/lab", timeout=30):  # a page sets the cookie
        pass
    with opener.open(f"{server.url}/api/kernels", timeout=30) as response:
        kernels = json.load(response)
    xsrf = next((cookie.value or "" for cookie in cookies if cookie.name == "_xsrf"), "")
    for kernel in kernels:
        url = f"{server.url}/api/kernels/{kernel['id']}"
        with opener.open(urllib.request.Request(url, method="DELETE", headers={"X-XSRFToken": xsrf}), timeout=30):
            pass


def write_notebook(server: Server, name: str, *sources: str) -> str:
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(src) for src in sources],
        metadata={"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    )
    nbformat.write(nb, server.root / name)
    return name


def open_and_run(page: Any, url: str) -> str:
    """Open a notebook, wait for its kernel, run every cell; return a CSS selector for the
    notebook's panel (JupyterLab may restore other tabs)."""
    page.goto(url)
    page.wait_for_function(KERNEL_IDLE, timeout=300_000)
    panel = page.evaluate("() => window.jupyterapp.shell.currentWidget.id")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    return f"#{panel}"


def view(panel: str, cell: int) -> str:
    """The widget drawn in the output of cell ``cell`` (1-based)."""
    return f"{panel} .jp-Cell:nth-child({cell}) .reversi-widget"


def run_code(page: Any, index: int, code: str) -> str:
    """Put ``code`` in cell ``index`` (0-based), run that cell, and return what it printed
    up to its ``END``."""
    page.evaluate(
        """([i, code]) => {
            const panel = window.jupyterapp.shell.currentWidget;
            const cell = panel.content.widgets[i];
            cell.model.sharedModel.setSource(code);
            cell.model.outputs.clear();
            panel.content.activeCellIndex = i;
            return window.jupyterapp.commands.execute('notebook:run-cell');
        }""",
        [index, code],
    )
    handle = page.wait_for_function(
        """(i) => {
            const cell = window.jupyterapp.shell.currentWidget.content.widgets[i];
            const outs = cell.model.outputs.toJSON();
            const text = outs.map(o => o.text || (o.data && o.data['text/plain']) || o.evalue || '').join('');
            return text.includes('END') || outs.some(o => o.output_type === 'error') ? text : null;
        }""",
        arg=index,
    )
    return str(handle.json_value())


def settled_output(page: Any, index: int, code: str, expected: str, tries: int = 20) -> str:
    """Run ``code`` in cell ``index`` until it prints ``expected`` (stripped), at most
    ``tries`` times a quarter second apart; return the last output. A change made in a view
    reaches the kernel over the widget's own channel, which a loaded machine can deliver
    after the cell that asks for it."""
    printed = run_code(page, index, code)
    for _ in range(tries - 1):
        if printed.strip() == expected:
            break
        page.wait_for_timeout(250)
        printed = run_code(page, index, code)
    return printed
