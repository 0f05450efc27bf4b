"""Sphinx configuration of the documentation site (built by scripts/docs.sh).

Why Sphinx, with MyST and myst-nb: the libraries this package's users know document
themselves with it (python-chess, ipywidgets), so its API pages read as theirs do; autodoc and
autosummary write the reference from the docstrings, with a page for every public name; MyST
lets the pages be Markdown, like the README they came from, and myst-nb renders the example
notebooks with their outputs; and with ``-W -n`` every warning and every cross-reference that
does not resolve fails the build. furo is a well-kept theme with a light and a dark mode.
The notebooks are not executed here: docs/notebooks.py runs them first (see there why).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the package of this clone, whatever is installed

project = "reversi-widget"
author = "the reversi-widget authors"
copyright = "the reversi-widget authors, MIT licence"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
]

exclude_patterns = ["_build", "**.ipynb_checkpoints"]
templates_path = ["_templates"]
html_theme = "furo"
html_title = "reversi-widget"
html_static_path = ["_static"]
html_css_files = ["docs.css"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# The notebooks start their sections at "##" under the title cell's "#": their own layout.
suppress_warnings = ["myst.header"]

# The tutorials are notebooks executed beforehand by docs/notebooks.py, outputs included.
nb_execution_mode = "off"
nb_output_stderr = "remove"

autosummary_generate = True
autosummary_imported_members = True
autosummary_ignore_module_all = False  # a module page documents its __all__
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented"
autodoc_default_options = {"members": True, "show-inheritance": True}

# Offline, other projects' inventories are not fetched: names from the standard library and
# from the packages this one builds on are left as text. Every name of this package resolves.
STANDARD_MODULES = "|".join(
    (
        *("datetime", "logging", "typing", "typing_extensions", "collections", "collections\\.abc"),
        *("pathlib", "os", "enum", "concurrent", "sqlite3", "threading"),
    )
)
nitpick_ignore_regex = [
    (r"py:.*", rf"({STANDARD_MODULES})\..*"),
    (r"py:.*", r"(traitlets|ipywidgets|anywidget|numpy)\..*"),
    (r"py:class", r"(str|int|float|bool|bytes|object|list|dict|tuple|set|frozenset|type|None|Exception|ValueError)"),
]


def constant_doc(app: Any, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """A constant of ``reversi_widget`` is documented by its ``#:`` comment in the module that
    defines it (autodoc would look in ``__init__.py``, where it is only imported, and fall back
    to the docstring of its type: ``int``'s, ``dict``'s)."""
    if what != "data" or not name.startswith("reversi_widget."):
        return
    from sphinx.pycode import ModuleAnalyzer

    short = name.rsplit(".", 1)[1]
    for module in sorted(m for m in sys.modules if m.startswith("reversi_widget")):
        if getattr(sys.modules[module], short, object()) is not obj:
            continue
        comment = ModuleAnalyzer.for_module(module).find_attr_docs().get(("", short))
        if comment:
            lines[:] = list(comment)
            return
    own = (type(obj).__doc__ or "").strip().splitlines()
    if own and lines and lines[0].strip() == own[0].strip():
        lines[:] = []  # no comment anywhere: its value says enough, its type's docstring nothing


def documented_elsewhere(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """A reference to a class by the module that defines it (``reversi_widget.board.Board``,
    as type hints and base classes name it) goes to the page of the public name it has
    (``reversi_widget.Board``). One to an object of the package that has no page (a private
    base class) stays text. Anything else is left unresolved: with ``-n`` the build fails on it."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if not target.startswith("reversi_widget."):
        return None
    parts = target.split(".")
    found: object = None
    for split in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        try:
            for attribute in parts[split:]:
                found = getattr(found, attribute)
        except AttributeError:
            return None
        break
    else:
        return None
    domain = env.get_domain("py")
    for public, entry in domain.objects.items():
        if entry.objtype in ("class", "exception", "function", "data") and public.startswith("reversi_widget."):
            module, _, attribute = public.rpartition(".")
            if getattr(sys.modules.get(module), attribute, None) is found:
                return domain.resolve_xref(env, node["refdoc"], app.builder, "obj", public, node, contnode)
    return contnode


def setup(app: Any) -> None:
    app.connect("autodoc-process-docstring", constant_doc)
    app.connect("missing-reference", documented_elsewhere)
