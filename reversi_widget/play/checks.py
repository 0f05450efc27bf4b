"""What a widget accepts as a setting or an annotation, checked before anything changes.

The settings a front end may write (``SETTINGS``) are checked against their trait's type
and answered with a text the views can show; the language, the analysis settings and the
annotations Python sets (``fill``, ``marks``, ``arrows``, checked against the board) are
refused with a clear error.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import traitlets

from ..drawing.themes import THEMES as PALETTES
from ..engine import MAX_DEPTH, check_time_limit
from ..errors import InvalidMoveError, ReversiError
from ..i18n import LANGUAGES, check_language
from ..squares import parse_square, square_name
from ..winchance import WinChanceFileError, load_model
from .overlays import CONCEPTS
from .texts import Plain, Text, quote_input

__all__ = [
    "ANIMATIONS",
    "ANIMATION_STEP",
    "MAX_PIXELS",
    "MIN_PIXELS",
    "SETTINGS",
    "SHOWN_MAX",
    "THEME_NAMES",
    "Concept",
    "InvalidAnnotationError",
    "InvalidSettingError",
    "Language",
    "UnknownLanguageError",
    "analysis_depth",
    "analysis_time_limit",
    "arrows",
    "checked_concept",
    "checked_language",
    "fill",
    "marks",
    "setting_problem",
    "sort_state",
]

#: The traits a front end may write (js/PROTOCOL.md, "Settings").
SETTINGS = (
    "show_legal",
    "show_flips",
    "show_coordinates",
    "show_me",
    "practice",
    "show_scores",
    "show_explorer",
    "concept",
    "live_evaluation",
    "animation",
    "theme",
    "size",
    "shown",
)
ANIMATIONS = ("off", "slow", "normal", "fast")
#: The widget's themes: "auto" follows JupyterLab, the others are the SVG pictures' palettes.
THEME_NAMES = ("auto", *PALETTES)
MIN_PIXELS, MAX_PIXELS = 120, 4000
#: ``shown`` is a 32-bit fingerprint.
SHOWN_MAX = 2**32 - 1
#: Seconds per disc of the flip animation, as js/widget.js plays it ("off" is 0).
ANIMATION_STEP = {"off": 0.0, "slow": 0.48, "normal": 0.3, "fast": 0.18}
MAX_MARK_LENGTH = 12
MAX_FILL_LENGTH = 64


class InvalidAnnotationError(ReversiError, traitlets.TraitError):
    """A ``fill``, ``marks`` or ``arrows`` value that does not fit the board."""


class UnknownLanguageError(ReversiError, traitlets.TraitError):
    """A ``language`` the locale files do not have."""


class InvalidSettingError(ReversiError, traitlets.TraitError):
    """An analysis setting out of range (``analysis_depth``, ``analysis_time_limit``)."""


def checked_language(language: object) -> str:
    """``language`` if the locale files have it; otherwise the error says which they have."""
    try:
        return check_language(language)
    except ReversiError as error:
        raise UnknownLanguageError(str(error)) from None


class Language(traitlets.TraitType[str, str]):
    """A language of the locale files; anything else (None included) gets the clear error."""

    default_value = "en"
    info_text = "one of " + ", ".join(LANGUAGES)

    def validate(self, obj: Any, value: Any) -> str:
        return checked_language(value)


def analysis_depth(value: object) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_DEPTH):
        raise InvalidSettingError(f"analysis_depth must be an int from 1 to {MAX_DEPTH} or None, got {value!r}")
    return value


def analysis_time_limit(value: object) -> float | None:
    try:
        return check_time_limit(value)
    except ValueError as error:
        raise InvalidSettingError(f"analysis_{error}") from None


def sort_state(
    sync_data: dict[str, Any], keys: Collection[str], traits: Mapping[str, traitlets.TraitType[Any, Any]]
) -> tuple[dict[str, Any], list[str], list[Text]]:
    """A front end's write to synced traits, sorted: the valid settings to accept, the
    names whose Python value goes back to the views, and what to say about the rest."""
    accepted: dict[str, Any] = {}
    reverted: list[str] = []
    problems: list[Text] = []
    unknown = [name for name in sync_data if name not in keys]
    if unknown:
        problems.append(Text("notice_unknown_state", got=quote_input(unknown)))
    for name, value in sync_data.items():
        if name in SETTINGS:
            problem = setting_problem(traits[name], name, value)
            if problem is None:
                accepted[name] = value
                continue
            problems.append(problem)
            reverted.append(name)
        elif name in keys:
            reverted.append(name)
    read_only = [name for name in reverted if name not in SETTINGS]
    if read_only:
        problems.append(Text("notice_readonly", names=", ".join(read_only)))
    return accepted, reverted, problems


def setting_problem(trait: traitlets.TraitType[object, object], name: str, value: object) -> Text | None:
    """Why a front end's value for the setting ``name`` does not fit its trait (None: it fits)."""
    expected: Text | Plain | None
    if isinstance(trait, traitlets.Bool):
        expected = None if isinstance(value, bool) else Text("setting_expected_bool")
    elif isinstance(trait, traitlets.Enum):
        values = tuple(trait.values or ())
        choices = ", ".join(str(choice) if choice != "" else '""' for choice in values)
        expected = None if value in values else Text("setting_expected_one_of", values=choices)
        if expected is None and name == "live_evaluation" and value != "off":
            try:
                load_model(8, "classic")  # the bar reads the win-chance file: a damaged one is named
            except WinChanceFileError as error:
                expected = Plain(str(error))
    elif name == "shown":
        fits = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= SHOWN_MAX
        expected = None if fits else Text("setting_expected_whole", low=0, high=SHOWN_MAX)
    else:  # size
        fits = value is None or (
            isinstance(value, int) and not isinstance(value, bool) and MIN_PIXELS <= value <= MAX_PIXELS
        )
        expected = None if fits else Text("setting_expected_size", low=MIN_PIXELS, high=MAX_PIXELS)
    if expected is None:
        return None
    return Text("notice_setting", name=name, got=quote_input(value), error=expected)


def fill(value: object, size: int) -> dict[str, str]:
    """``{square: CSS colour}``, squares spelt as the board spells them."""
    out: dict[str, str] = {}
    for square, colour in _items("fill", value, size):
        if not isinstance(colour, str) or len(colour) > MAX_FILL_LENGTH:
            raise InvalidAnnotationError(f"fill[{square!r}] must be a CSS colour string, got {quote_input(colour)}")
        out[square] = colour
    return out


def marks(value: object, size: int) -> dict[str, str]:
    """``{square: short text}``; numbers become their shortest text."""
    out: dict[str, str] = {}
    for square, mark in _items("marks", value, size):
        if isinstance(mark, bool) or not isinstance(mark, (str, int, float)):
            raise InvalidAnnotationError(f"marks[{square!r}] must be a short text or a number, got {quote_input(mark)}")
        label = mark if isinstance(mark, str) else f"{mark:g}"
        if len(label) > MAX_MARK_LENGTH:
            raise InvalidAnnotationError(f"marks[{square!r}] = {label!r} is longer than {MAX_MARK_LENGTH} characters")
        out[square] = label
    return out


def arrows(value: object, size: int) -> list[list[str]]:
    """``[[from, to], ...]`` pairs of squares."""
    if not isinstance(value, (list, tuple)):
        raise InvalidAnnotationError(f"arrows must be a list of [from, to] pairs, got {quote_input(value)}")
    out: list[list[str]] = []
    for pair in value:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise InvalidAnnotationError(f"each arrow must be a [from, to] pair of squares, got {quote_input(pair)}")
        out.append([_square("arrows", square, size) for square in pair])
    return out


def _items(name: str, value: object, size: int) -> list[tuple[str, object]]:
    if not isinstance(value, dict):
        raise InvalidAnnotationError(f"{name} must map square names to values, got {quote_input(value)}")
    return [(_square(name, square, size), item) for square, item in value.items()]


def _square(name: str, square: object, size: int) -> str:
    try:
        if isinstance(square, str):
            return square_name(parse_square(square, size), size)
        if isinstance(square, int) and not isinstance(square, bool):
            return square_name(square, size)
    except InvalidMoveError as error:
        raise InvalidAnnotationError(f"{name}: {error}") from None
    raise InvalidAnnotationError(f"{name}: expected a square name like 'd3', got {quote_input(square)}")


def checked_concept(value: object) -> str:
    """``value`` if it names a concept of ``CONCEPTS``; otherwise the error names it and the choices."""
    if isinstance(value, str) and value in CONCEPTS:
        return value
    choices = ", ".join(CONCEPTS[1:])
    raise InvalidSettingError(f'concept must be "" (no overlay) or one of {choices}, got {quote_input(value)}')


class Concept(traitlets.Enum[str]):
    """The ``concept`` setting: an ``Enum`` of ``CONCEPTS`` (so a front end's write is checked
    as the other choices are) whose error names the bad value and the choices."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(CONCEPTS, default_value="", **kwargs)

    def validate(self, obj: Any, value: Any) -> str:
        return checked_concept(value)
