"""SVG charts, checked by structure: bars and lines where the numbers say, labels escaped."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reversi_widget import BLACK, WHITE, ReversiError, charts
from reversi_widget.game import Game
from reversi_widget.records import Stats, Table

NS = {"s": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"
EVIL = "<script>alert(1)</script>"
GAME = "f5d6c3d3c4f4f6f3e6e7"


def parse(image: str) -> ET.Element:
    return ET.fromstring(image)


def element_at(element: ET.Element, path: str) -> ET.Element:
    """The first element at ``path`` under ``element``, which must be there."""
    match = element.find(path, NS)
    assert match is not None, f"no {path}"
    return match


def bars(root: ET.Element) -> list[ET.Element]:
    return root.findall(".//s:rect[@class='bar']", NS)


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_bar_heights_are_proportional_to_values() -> None:
    root = parse(charts.bar_chart(["a", "b", "c"], [10, 20, 5], title="T", ylabel="games", xlabel="kind"))
    found = bars(root)
    assert [b.attrib["data-label"] for b in found] == ["a", "b", "c"]
    heights = [float(b.attrib["height"]) for b in found]
    assert heights[1] == pytest.approx(2 * heights[0], rel=0.01)
    assert heights[0] == pytest.approx(2 * heights[2], rel=0.01)
    bottoms = {round(float(b.attrib["y"]) + float(b.attrib["height"]), 1) for b in found}
    assert len(bottoms) == 1  # all bars stand on the same baseline
    words = texts(root)
    assert {"T", "games", "kind", "a", "b", "c"} <= set(words)
    assert root.attrib["class"] == "reversi-chart bar-chart"


def test_grouped_and_stacked_series_have_a_legend() -> None:
    values = {"black": [3, 1], "white": [1, 2], "draws": [0, 1]}
    grouped = parse(charts.bar_chart(["x", "y"], values))
    assert len(bars(grouped)) == 6
    assert [g.attrib["data-series"] for g in grouped.findall(".//s:g[@class='legend-item']", NS)] == list(values)
    stacked = parse(charts.bar_chart(["x", "y"], values, stacked=True))
    black, white, _ = (b for b in bars(stacked) if b.attrib["data-label"] == "x")
    # stacked: White's segment sits right on top of Black's, three times shorter
    assert float(white.attrib["y"]) + float(white.attrib["height"]) == pytest.approx(float(black.attrib["y"]))
    assert float(black.attrib["height"]) == pytest.approx(3 * float(white.attrib["height"]), rel=0.01)
    assert float(black.attrib["x"]) == float(white.attrib["x"])


def test_horizontal_bars_have_widths_by_value() -> None:
    root = parse(charts.bar_chart(["long player name one", "two"], [30, 60], horizontal=True, percent=True))
    widths = [float(b.attrib["width"]) for b in bars(root)]
    assert widths[1] == pytest.approx(2 * widths[0], rel=0.01)
    assert any(t.endswith("%") for t in texts(root))


def test_labels_and_titles_are_escaped() -> None:
    image = charts.bar_chart([EVIL, "ok"], {EVIL: [1, 2], "b": [2, 1]}, title=EVIL, xlabel=EVIL, ylabel=EVIL)
    root = parse(image)
    assert not list(root.iter(f"{SVG}script"))
    assert "<script>" not in image
    assert texts(root).count(EVIL) >= 3


@pytest.mark.parametrize(
    ("labels", "values", "message"),
    [
        (["a"], [1, 2], "2 values for 1 labels"),
        (["a"], [float("nan")], "finite number"),
        (["a"], ["3"], "finite number"),
        (["a"], {}, "at least one series"),
        (["a"], {"s": [1], "t": [2]}, None),
    ],
)
def test_bad_bar_input(labels: list[str], values: object, message: str | None) -> None:
    if message is None:
        assert len(bars(parse(charts.bar_chart(labels, values)))) == 2  # type: ignore[arg-type]
        return
    with pytest.raises(ReversiError, match=message):
        charts.bar_chart(labels, values)  # type: ignore[arg-type]


def test_disc_count_follows_the_game() -> None:
    game = Game.from_transcript(GAME, black_player=EVIL, white_player="Bob")
    image = charts.disc_count(game)
    root = parse(image)
    series = {g.attrib["data-series"]: g for g in root.findall(".//s:g[@class='series']", NS)}
    assert set(series) == {"Black", "White"}
    counts = [(b.count(BLACK), b.count(WHITE)) for b in game.positions()]
    for name, column in (("Black", 0), ("White", 1)):
        line = element_at(series[name], "s:polyline[@class='line']")
        points = [tuple(map(float, p.split(","))) for p in line.attrib["points"].split()]
        assert len(points) == len(game) + 1
        xs = [x for x, _ in points]
        assert xs == sorted(xs)
        # higher counts are drawn higher up (smaller y)
        ys = [y for _, y in points]
        for i in range(len(ys) - 1):
            a, b = counts[i][column], counts[i + 1][column]
            if a != b:
                assert (ys[i + 1] < ys[i]) == (b > a)
    assert not list(root.iter(f"{SVG}script"))
    assert f"{EVIL} (black) vs Bob (white)" in texts(root)
    assert {"ply", "discs"} <= set(texts(root))


def test_line_chart_checks_lengths() -> None:
    with pytest.raises(ReversiError, match="2 values for 3"):
        charts.line_chart([0, 1, 2], {"s": [1, 2]})
    with pytest.raises(ReversiError, match="at least one series"):
        charts.line_chart([0, 1], {})


def test_win_rates_from_a_mapping() -> None:
    image = charts.win_rates({"Ann": (3, 1, 0), "Bob": (1, 3, 0), "Cy": (0, 0, 2), "Nobody": (0, 0, 0)})
    root = parse(image)
    found = bars(root)
    labels = [b.attrib["data-label"] for b in found if b.attrib["data-series"] == "wins"]
    assert labels == ["Ann (4)", "Bob (4)", "Cy (2)"]  # most games first, then by name; empty rows left out
    wins = {b.attrib["data-label"]: float(b.attrib["data-value"]) for b in found if b.attrib["data-series"] == "wins"}
    assert wins == {"Ann (4)": 75.0, "Bob (4)": 25.0, "Cy (2)": 0.0}
    draws = [float(b.attrib["data-value"]) for b in found if b.attrib["data-series"] == "draws"]
    assert draws == [0.0, 0.0, 100.0]


def test_win_rates_from_stats_and_limit() -> None:
    players = Table(
        "Results per player",
        ("player", "games", "wins", "losses", "draws", "win %"),
        [(f"P{i}", 10, i, 10 - i, 0, 10.0 * i) for i in range(10)],
    )
    stats = Stats(players, Table("v", ("variant",), []))
    root = parse(charts.win_rates(stats, limit=4))
    labels = {b.attrib["data-label"] for b in bars(root)}
    assert labels == {"P0 (10)", "P1 (10)", "P2 (10)", "P3 (10)"}
    with pytest.raises(ReversiError, match="win_rates needs"):
        charts.win_rates(42)
    with pytest.raises(ReversiError, match="expected"):
        charts.win_rates({"A": (1, 2)})


@given(st.floats(-1e6, 1e6), st.floats(0.001, 1e6))
def test_nice_ticks_cover_the_range(low: float, span: float) -> None:
    high = low + span
    ticks = charts.nice_ticks(low, high)
    assert ticks[0] <= low + 1e-9 and ticks[-1] >= high - 1e-9 * max(1.0, abs(high))
    steps = {round(b - a, 6) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1 and len(ticks) <= 12
