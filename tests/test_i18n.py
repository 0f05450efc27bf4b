"""The locale files: complete in every language, placeholders kept, plural rules right, widget covered."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

import pytest

from reversi_widget import ReversiError
from reversi_widget.i18n import (
    LANGUAGES,
    PLURAL_CATEGORIES,
    catalog,
    language_name,
    plural_category,
    strings_for,
    translate,
    widget_keys,
)

ROOT = Path(__file__).resolve().parent.parent

# Texts that may read the same as in English: pure formatting and words the languages share.
SAME_AS_ENGLISH = {
    ("ca", "animation_normal"),  # "Normal"
    ("ca", "level_expert"),  # "expert": the Catalan adjective is spelt the same
}


def _raw(language: str) -> dict[str, object]:
    """A locale file parsed with duplicate keys refused (json.loads would keep the last silently)."""

    def no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
        keys = [key for key, _ in pairs]
        duplicates = {key for key in keys if keys.count(key) > 1}
        assert not duplicates, f"{language}.json repeats {sorted(duplicates)}"
        return dict(pairs)

    text = resources.files("reversi_widget").joinpath(f"locales/{language}.json").read_text(encoding="utf-8")
    data: dict[str, object] = json.loads(text, object_pairs_hook=no_duplicates)
    return data


def _fields(template: str) -> set[tuple[str, str | None, str | None]]:
    """Each ``{field!conversion:spec}`` of a template: a translation must keep them all, exactly."""
    return {
        (name, conversion, spec) for _, name, spec, conversion in string.Formatter().parse(template) if name is not None
    }


def _forms(text: object) -> list[str]:
    return list(text.values()) if isinstance(text, Mapping) else [str(text)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_file_has_the_same_sections_and_keys_as_english(language: str) -> None:
    english, other = _raw("en"), _raw(language)
    assert set(other) == {"meta", "widget", "explain"}
    for section in ("widget", "explain"):
        en_section, section_texts = english[section], other[section]
        assert isinstance(en_section, dict) and isinstance(section_texts, dict)
        assert list(section_texts) == list(en_section), f"{language}: {section} keys differ from English"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_placeholder_is_lost_or_added_in_any_form(language: str) -> None:
    english = catalog("en")
    for key, text in catalog(language).items():
        expected = _fields(_forms(english[key])[-1])
        for form in _forms(text):
            assert _fields(form) == expected, f"{language} {key!r}: {form!r} has {_fields(form)}, English {expected}"
    # English itself: all plural forms of a key take the same parameters
    for key, text in english.items():
        assert len({frozenset(_fields(form)) for form in _forms(text)}) == 1, key


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_texts_have_exactly_the_languages_categories(language: str) -> None:
    plurals = {key: text for key, text in catalog(language).items() if not isinstance(text, str)}
    assert "explain_flips_count" in plurals
    for key, forms in plurals.items():
        assert tuple(sorted(forms)) == tuple(sorted(PLURAL_CATEGORIES[language])), key


@pytest.mark.parametrize("language", ["ca", "pl", "uk"])
def test_translations_are_not_left_in_english(language: str) -> None:
    english = catalog("en")
    left = [
        key
        for key, text in catalog(language).items()
        if text == english[key]
        and (language, key) not in SAME_AS_ENGLISH
        and re.search(r"[A-Za-z]{3}", re.sub(r"\{[^}]*\}", "", _forms(text)[0]))
    ]
    assert not left, f"{language}: still English: {left}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_is_empty_or_padded(language: str) -> None:
    for key, text in catalog(language).items():
        for form in _forms(text):
            if key in ("explain_list_separator", "explain_clause_separator"):
                assert form.strip() in (",", ";"), key
                continue
            assert form and form == form.strip(), f"{language} {key!r}: {form!r}"


# -- plural rules ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, "1 pionek"),
        (2, "2 pionki"),
        (4, "4 pionki"),
        (5, "5 pionków"),
        (12, "12 pionków"),
        (22, "22 pionki"),
        (21, "21 pionków"),
        (0, "0 pionków"),
        (112, "112 pionków"),
        (124, "124 pionki"),
    ],
)
def test_polish_flip_counts(count: int, expected: str) -> None:
    assert translate("explain_flips_count", "pl", count=count) == f"odwraca {expected}"


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, "1 фішку"),
        (2, "2 фішки"),
        (5, "5 фішок"),
        (21, "21 фішку"),
        (22, "22 фішки"),
        (25, "25 фішок"),
        (11, "11 фішок"),
        (12, "12 фішок"),
        (13, "13 фішок"),
        (14, "14 фішок"),
        (111, "111 фішок"),
        (0, "0 фішок"),
    ],
)
def test_ukrainian_flip_counts(count: int, expected: str) -> None:
    assert translate("explain_flips_count", "uk", count=count) == f"перевертає {expected}"


@pytest.mark.parametrize(
    ("language", "one", "two", "five"),
    [("en", "1 disc", "2 discs", "5 discs"), ("ca", "1 peça", "2 peces", "5 peces")],
)
def test_two_form_languages(language: str, one: str, two: str, five: str) -> None:
    texts = [translate("explain_flips_count", language, count=n) for n in (1, 2, 5)]
    assert [t.endswith(form) for t, form in zip(texts, (one, two, five), strict=True)] == [True, True, True], texts


def test_plural_categories_follow_cldr() -> None:
    pl = {n: plural_category("pl", n) for n in (0, 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 102, 112)}
    assert pl == {
        0: "many",
        1: "one",
        2: "few",
        3: "few",
        4: "few",
        5: "many",
        11: "many",
        12: "many",
        14: "many",
        21: "many",
        22: "few",
        25: "many",
        102: "few",
        112: "many",
    }
    uk = {n: plural_category("uk", n) for n in (0, 1, 2, 5, 11, 12, 13, 14, 21, 22, 25, 101, 111)}
    assert uk == {
        0: "many",
        1: "one",
        2: "few",
        5: "many",
        11: "many",
        12: "many",
        13: "many",
        14: "many",
        21: "one",
        22: "few",
        25: "many",
        101: "one",
        111: "many",
    }
    assert [plural_category("en", n) for n in (0, 1, 2, 21)] == ["other", "one", "other", "other"]
    assert [plural_category(lang, 1.5) for lang in LANGUAGES] == ["other"] * 4


# -- the API ---------------------------------------------------------------------------------


def test_translate_fills_placeholders() -> None:
    assert translate("status_to_move", "en", color="Black") == "Black to move"
    assert translate("status_to_move", "uk", color="Темні") == "Темні ходять"
    assert translate("status_to_move", color="White") == "White to move"  # English by default
    assert translate("black", "pl") == "Czarne" and translate("white", "ca") == "Blanques"


def test_unknown_language_is_refused_clearly() -> None:
    message = "unknown language 'de': expected one of en, ca, pl, uk"
    for call in (
        lambda: translate("black", "de"),
        lambda: strings_for("de"),
        lambda: catalog("de"),
        lambda: plural_category("de", 1),
    ):
        with pytest.raises(ReversiError, match=re.escape(message)):
            call()
    with pytest.raises(ValueError, match="unknown language None"):
        translate("black", None)  # type: ignore[arg-type]


def test_missing_key_or_parameter_is_refused_clearly() -> None:
    with pytest.raises(ReversiError, match="no text 'no_such_key' in language 'pl'"):
        translate("no_such_key", "pl")
    with pytest.raises(ReversiError, match=r"'status_to_move' needs the parameters color"):
        translate("status_to_move", "ca")
    with pytest.raises(ReversiError, match="pass count="):
        translate("explain_flips_count", "en")
    with pytest.raises(ReversiError, match="must be a number, got 'two'"):
        translate("explain_flips_count", "en", count="two")


def test_strings_for_gives_the_flat_widget_table() -> None:
    keys = widget_keys()
    for language in LANGUAGES:
        table = strings_for(language)
        assert tuple(table) == keys
        assert all(isinstance(text, str) and text for text in table.values())
        assert not any(key.startswith("explain_") for key in table)
    assert strings_for("pl")["status_to_move"] == "{color} mają ruch"  # placeholders intact
    table = strings_for("uk")
    table["black"] = "changed"
    assert strings_for("uk")["black"] == "Темні"  # each call gives a fresh dict


def test_language_names() -> None:
    assert [language_name(lang) for lang in LANGUAGES] == ["English", "Català", "Polski", "Українська"]


def test_catalog_is_read_only() -> None:
    texts = catalog("ca")
    with pytest.raises(TypeError):
        texts["black"] = "x"  # type: ignore[index]


def test_seed_words_are_used() -> None:
    """The colour and disc words of the rules texts in each language (seeds 000-003)."""
    assert (strings_for("uk")["black"], strings_for("uk")["white"]) == ("Темні", "Світлі")
    assert (strings_for("pl")["black"], strings_for("pl")["white"]) == ("Czarne", "Białe")
    assert (strings_for("ca")["black"], strings_for("ca")["white"]) == ("Negres", "Blanques")
    assert "pionek" in translate("explain_occupied_black", "pl")
    assert "фішка" in translate("explain_occupied_black", "uk")
    assert "peça negra" in translate("explain_occupied_black", "ca")


#: Each language's word for a ply, one player's move, as the move list counts its moves in pairs.
PLY_WORDS = {"en": r"\bpl(y|ies)\b", "ca": r"\bmit(ja|ges) jugad", "pl": r"\bpółruch", "uk": r"\bнапівход|\bнапівхід"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_number_of_plies_is_never_called_moves(language: str) -> None:
    """A count of plies (a message's ply, a jump's target, the explorer's depth) says ply in
    every language: the move list numbers moves in pairs, so "move 42" reads as its 42."""
    english = catalog("en")
    counted = {key for key, text in english.items() if any(re.search(PLY_WORDS["en"], f) for f in _forms(text))}
    assert {"notice_refused_stale", "notice_refused_jump", "explorer_beyond", "explorer_summary"} <= counted
    texts = catalog(language)
    wrong = [key for key in sorted(counted) if not all(re.search(PLY_WORDS[language], f) for f in _forms(texts[key]))]
    assert not wrong, f"{language}: a ply is not called a ply in {wrong}"
    assert "moves" not in english["notice_refused_jump"]


# -- the widget's strings are all here ------------------------------------------------------


def test_every_python_widget_string_is_translated() -> None:
    from reversi_widget.play import strings

    english = strings_for("en")
    missing = set(strings.ENGLISH) - set(english)
    assert not missing, f"widget strings missing from the locale files: {sorted(missing)}"
    changed = {key for key in strings.ENGLISH if english[key] != strings.ENGLISH[key]}
    assert not changed, f"en.json differs from strings.ENGLISH for {sorted(changed)}"


def test_every_key_the_front_end_names_is_sent_in_every_language() -> None:
    """js/widget.js shows only texts of the ``strings`` trait: each key it names literally must
    be one Python sends (``FRONT_END_KEYS``), and every language must have all of those."""
    from reversi_widget.play.strings import FRONT_END_KEYS

    source = (ROOT / "js" / "widget.js").read_text(encoding="utf-8")
    named = set(re.findall(r"\bS\(\"(\w+)\"\)", source))
    named |= set(re.findall(r"\), \"(\w+)\"(?:, \"[\w-]+\")?\)", source))  # L(node, "key"[, "attribute"])
    named |= set(re.findall(r"\bL\(\w+, \"(\w+)\"", source))
    named |= set(re.findall(r"\bbutton\(\"(\w+)\"(?:, \{[^}]*\})?\)", source))  # labelled by their action
    named |= {key for pair in re.findall(r"S\((\w+) \? \"(\w+)\" : \"(\w+)\"\)", source) for key in pair[1:]}
    assert len(named) > 10, f"too few keys found in js/widget.js: {sorted(named)}"
    assert named <= set(FRONT_END_KEYS), f"front-end keys Python does not send: {sorted(named - set(FRONT_END_KEYS))}"
    for language in LANGUAGES:
        missing = set(FRONT_END_KEYS) - set(strings_for(language))
        assert not missing, f"{language} lacks front-end keys {sorted(missing)}"
