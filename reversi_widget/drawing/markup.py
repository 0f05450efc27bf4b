"""SVG markup by hand: escaped elements and the picture type notebooks display."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["SvgImage", "coordinate", "element", "escape"]


class SvgImage(str):
    """An SVG document as a ``str`` that notebooks display as a picture."""

    def _repr_svg_(self) -> str:
        return str(self)

    def save(self, path: Any) -> None:
        """Write the picture to ``path`` (a ``str`` or ``pathlib.Path``) as UTF-8."""
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self)


# -- escaping ---------------------------------------------------------------------------

# XML 1.0 forbids these characters even as references, so they are replaced, not escaped.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: object) -> str:
    """Text (or an attribute value) safe to put inside an SVG document."""
    clean = _FORBIDDEN.sub("\ufffd", str(text))
    return clean.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def element(tag: str, attrs: Mapping[str, object] | None = None, *children: str, text: object = None) -> str:
    """One element with escaped attributes; ``children`` are already-built markup, ``text`` is escaped."""
    parts = [tag]
    for key, value in (attrs or {}).items():
        if value is None or value is False:
            continue
        parts.append(f'{key}="{escape(coordinate(value) if isinstance(value, float) else value)}"')
    body = "".join(children) + (escape(text) if text is not None else "")
    head = " ".join(parts)
    return f"<{head}>{body}</{tag}>" if body else f"<{head}/>"


def coordinate(value: float) -> str:
    """Short coordinates: 12.0 -> "12", 12.3456 -> "12.35"."""
    return f"{value:.2f}".rstrip("0").rstrip(".")
