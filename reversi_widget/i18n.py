"""Translations: every word the package shows comes from ``locales/<language>.json``.

A locale file has three sections: ``meta`` (the language's own name), ``widget`` (the
flat strings the widget shows: buttons, status, notices, aria words) and ``explain``
(the phrases of rule explanations). A text is either a ``str.format`` template or, when
it depends on a number, a dict of CLDR plural categories chosen by the ``count``
parameter (``{"one": ..., "few": ..., "many": ..., "other": ...}``). Keys are one flat
namespace across sections, so ``translate`` needs only the key.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType

from .errors import ReversiError

#: The languages of every text: English, Catalan, Polish, Ukrainian.
LANGUAGES: tuple[str, ...] = ("en", "ca", "pl", "uk")
SECTIONS: tuple[str, ...] = ("widget", "explain")

#: The CLDR plural categories each language uses for numbers (integers and decimals).
PLURAL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "ca": ("one", "other"),
    "pl": ("one", "few", "many", "other"),
    "uk": ("one", "few", "many", "other"),
}

#: A text of a locale file: a template, or its plural forms by CLDR category.
Template = str | Mapping[str, str]

__all__ = [
    "LANGUAGES",
    "PLURAL_CATEGORIES",
    "catalog",
    "check_language",
    "language_name",
    "placeholders",
    "plural_category",
    "strings_for",
    "translate",
    "widget_keys",
]


def check_language(language: object) -> str:
    """Return ``language`` if it is one of ``LANGUAGES``, else raise a clear error."""
    if not isinstance(language, str) or language not in LANGUAGES:
        raise ReversiError(f"unknown language {language!r}: expected one of {', '.join(LANGUAGES)}")
    return language


def plural_category(language: str, count: object) -> str:
    """The CLDR plural category of ``count`` in ``language`` ("one", "few", "many" or "other").

    Integers follow the CLDR integer rules; any other number (a decimal, with visible
    fraction digits) is "other" in all four languages.
    """
    check_language(language)
    if isinstance(count, bool) or not isinstance(count, (int, float)):
        raise ReversiError(f"a plural count must be a number, got {count!r}")
    if not isinstance(count, int):
        return "other"
    i = abs(count)
    if language in ("en", "ca"):
        return "one" if i == 1 else "other"
    last, last_two = i % 10, i % 100
    if language == "pl":
        if i == 1:
            return "one"
        if 2 <= last <= 4 and not 12 <= last_two <= 14:
            return "few"
        return "many"
    # uk
    if last == 1 and last_two != 11:
        return "one"
    if 2 <= last <= 4 and not 12 <= last_two <= 14:
        return "few"
    return "many"


def placeholders(template: str) -> set[str]:
    """The ``{field}`` names of a ``str.format`` template (``{{`` escapes excluded)."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None:
            names.add(field)
    return names


@cache
def _load(language: str) -> dict[str, dict[str, Template]]:
    """Read and check one locale file (once); the sections keep their keys apart."""
    source = resources.files("reversi_widget").joinpath(f"locales/{language}.json")
    data = json.loads(source.read_text(encoding="utf-8"))
    where = f"locales/{language}.json"
    if not isinstance(data, dict) or set(data) != {"meta", *SECTIONS}:
        raise ReversiError(f"{where} must hold exactly the sections meta, {', '.join(SECTIONS)}")
    categories = set(PLURAL_CATEGORIES[language])
    for section in SECTIONS:
        for key, value in data[section].items():
            if isinstance(value, dict):
                if section == "widget":
                    raise ReversiError(f"{where}: widget text {key!r} must be a plain string")
                if set(value) != categories:
                    raise ReversiError(
                        f"{where}: plural text {key!r} has forms {sorted(value)}, expected {sorted(categories)}"
                    )
            elif not isinstance(value, str):
                raise ReversiError(f"{where}: text {key!r} must be a string or a dict of plural forms")
    clash = set(data["widget"]) & set(data["explain"])
    if clash:
        raise ReversiError(f"{where}: keys {sorted(clash)} appear in two sections")
    return {section: data[section] for section in ("meta", *SECTIONS)}


def catalog(language: str) -> Mapping[str, Template]:
    """Every text of a language, keyed flat across sections (read-only)."""
    return _catalog(check_language(language))


@cache
def _catalog(language: str) -> Mapping[str, Template]:
    data = _load(language)
    merged: dict[str, Template] = {}
    for section in SECTIONS:
        for key, value in data[section].items():
            merged[key] = MappingProxyType(dict(value)) if isinstance(value, dict) else value
    return MappingProxyType(merged)


def language_name(language: str) -> str:
    """The language's name in itself ("Català", "Polski", "Українська")."""
    name = _load(check_language(language))["meta"]["name"]
    assert isinstance(name, str)
    return name


def widget_keys() -> tuple[str, ...]:
    """The keys of the widget section, in file order (the same in every language)."""
    return tuple(_load("en")["widget"])


def strings_for(language: str = "en") -> dict[str, str]:
    """The flat widget strings of one language, ``{placeholders}`` intact (a fresh dict)."""
    widget = _load(check_language(language))["widget"]
    return {key: value for key, value in widget.items() if isinstance(value, str)}


def translate(key: str, language: str = "en", **params: object) -> str:
    """The text for ``key`` in ``language`` with its ``{placeholders}`` filled from ``params``.

    A plural text picks its form from ``params["count"]``.
    """
    texts = catalog(language)
    if not isinstance(key, str) or key not in texts:
        raise ReversiError(f"no text {key!r} in language {language!r}")
    template = texts[key]
    if not isinstance(template, str):
        if "count" not in params:
            raise ReversiError(f"text {key!r} depends on a number: pass count=")
        template = template[plural_category(language, params["count"])]
    try:
        return template.format(**params)
    except (KeyError, IndexError) as error:
        needed = ", ".join(sorted(placeholders(template)))
        raise ReversiError(f"text {key!r} needs the parameters {needed}; missing {error}") from None
