"""Check every internal link of a built site: each relative ``href`` and ``src`` of each HTML
page must name a file of the site, and each ``#fragment`` an id on the page it names.

    python docs/check_links.py SITE [--pages docs] [--unbuilt lite]

Links with a scheme (``https:``, ``mailto:``, ``data:``) are external and not checked (the
build is offline). A link may leave the docs' own folder for the folders beside it in SITE (the
"Try it" links go to the JupyterLite site in ``lite/``); ``--unbuilt NAME`` names such a folder
that is not there in this build, whose links are then counted but not checked. Prints each
broken link as ``page: link (why)`` and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

LINKING = {"a": "href", "link": "href", "img": "src", "script": "src", "iframe": "src", "source": "src"}


class _Page(HTMLParser):
    """The links of one page and the ids it defines."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if values.get(key):
                self.ids.add(str(values[key]))
        wanted = LINKING.get(tag)
        link = values.get(wanted) if wanted else None
        if link:
            self.links.append(link)


def parse(page: Path, cache: dict[Path, _Page]) -> _Page:
    if page not in cache:
        parser = _Page()
        parser.feed(page.read_text(encoding="utf-8", errors="replace"))
        cache[page] = parser
    return cache[page]


def html_pages(folder: Path) -> list[Path]:
    """The HTML pages under ``folder``, following linked folders."""
    return sorted(Path(d, f) for d, _, files in os.walk(folder, followlinks=True) for f in files if f.endswith(".html"))


def broken_links(site: Path, pages: str = "docs", unbuilt: tuple[str, ...] = ()) -> Iterator[str]:
    """``page: link (why)`` for every broken internal link of the HTML pages under
    ``site/pages``; their links may lead anywhere in ``site``."""
    site = Path(os.path.abspath(site))  # not resolved: the folders beside may be links to where they were built
    cache: dict[Path, _Page] = {}

    def ids_of(page: Path) -> set[str]:
        return parse(page, cache).ids

    for page in html_pages(site / pages):
        name = page.relative_to(site).as_posix()
        for link in parse(page, cache).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue  # external: not checked offline
            if parts.path.startswith("/"):
                yield f"{name}: {link} (an absolute path: the site must work from any folder)"
                continue
            target = Path(os.path.normpath(page.parent / unquote(parts.path))) if parts.path else page
            if not target.is_relative_to(site):
                yield f"{name}: {link} (leaves the site)"
                continue
            top = target.relative_to(site).parts[:1]
            if top and top[0] in unbuilt and not (site / top[0]).exists():
                continue  # a folder built elsewhere, not beside the docs this time
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                yield f"{name}: {link} (no such file)"
            elif (
                target.suffix == ".html" and parts.fragment and unquote(parts.fragment) not in parse(target, cache).ids
            ):
                yield f"{name}: {link} (no id {parts.fragment!r} on {target.relative_to(site).as_posix()})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--pages", default="docs", help="the folder of SITE whose pages are checked")
    parser.add_argument("--unbuilt", action="append", default=[], help="a folder beside the docs not built this time")
    args = parser.parse_args(argv)
    if not args.site.is_dir():
        print(f"check_links: {args.site} is not a folder", file=sys.stderr)
        return 1
    broken = list(broken_links(args.site, args.pages, tuple(args.unbuilt)))
    for line in broken:
        print(f"check_links: {line}", file=sys.stderr)
    pages = len(html_pages(args.site / args.pages))
    print(f"check_links: {pages} pages, {len(broken)} broken internal links")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
