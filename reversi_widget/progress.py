"""Progress reporting for long searches: a plain callback, or a bar in a notebook.

``solve`` and ``analyse`` take ``progress(fraction, message)``; with ``show_progress=True``
in a running Jupyter kernel they build that callback from an ipywidgets progress bar, so a
long solve shows it is alive. Outside a kernel ``show_progress`` does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["BAR_STEPS", "NotebookProgress", "Progress", "in_kernel", "notebook_progress"]

Progress = Callable[[float, str], None]

#: Steps of the notebook bar (an ``IntProgress`` counts in integers).
BAR_STEPS = 100


class NotebookProgress:
    """An ``IntProgress`` bar with an ``HTML`` label, updated by calling the object."""

    def __init__(self, title: str) -> None:
        import ipywidgets  # type: ignore[import-untyped]  # imported late: scripts need no front end

        self.title = title
        self.bar = ipywidgets.IntProgress(value=0, min=0, max=BAR_STEPS, description=title)
        self.label = ipywidgets.HTML(value="")
        self.widget = ipywidgets.HBox([self.bar, self.label])

    def __call__(self, fraction: float, message: str) -> None:
        from html import escape

        fraction = min(1.0, max(0.0, fraction))
        self.bar.value = round(fraction * BAR_STEPS)
        self.label.value = escape(message)
        if fraction >= 1.0:
            self.bar.bar_style = "success"


def in_kernel() -> bool:
    """True inside a running IPython kernel (a notebook), False in a script or a terminal."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell: Any = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def notebook_progress(title: str) -> Progress | None:
    """A displayed progress bar's callback when in a notebook with ipywidgets, else ``None``."""
    if not in_kernel():
        return None
    try:
        indicator = NotebookProgress(title)
    except ImportError:
        return None
    from IPython.display import display

    display(indicator.widget)  # type: ignore[no-untyped-call]
    return indicator
