"""Where WTHOR files are found: the shipped year, a folder by argument or by $REVERSI_WTHOR."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reversi_widget.errors import ReversiError
from reversi_widget.wthor import read_wthor
from reversi_widget.wthor_data import SAMPLE, WTHOR_ENV, WTHOR_SOURCE, WthorFolderError, wthor_folder, wthor_years


@pytest.fixture(autouse=True)
def no_folder_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WTHOR_ENV, raising=False)


def test_the_shipped_year_is_found_with_its_names() -> None:
    assert wthor_folder() == SAMPLE
    assert list(wthor_years()) == [2021]
    games = list(read_wthor(wthor_years()[2021]))
    assert len(games) == 320 == (wthor_years()[2021].stat().st_size - 16) // 68
    # the name files ship too: every player and tournament has its name, not a number
    assert not [g for g in games if g.black_player.startswith("player ") or g.tournament.startswith("tournament ")]


def test_the_package_data_is_in_the_wheel_spec() -> None:
    """The sample lives inside the package folder, which the wheel takes whole."""
    assert SAMPLE.is_relative_to(Path(__file__).resolve().parent.parent / "reversi_widget")
    assert {p.name for p in SAMPLE.iterdir()} == {"WTH_2021.wtb", "WTHOR.JOU", "WTHOR.TRN"}


def own_folder(tmp_path: Path, *years: int) -> Path:
    folder = tmp_path / "my wthor"
    folder.mkdir()
    for year in years:
        shutil.copy(SAMPLE / "WTH_2021.wtb", folder / f"WTH_{year}.wtb")
    shutil.copy(SAMPLE / "WTHOR.JOU", folder / "WTHOR.JOU")
    return folder


def test_a_folder_by_argument_or_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = own_folder(tmp_path, 2021, 1999)
    assert wthor_folder(folder) == folder and list(wthor_years(folder)) == [1999, 2021]
    assert wthor_years(str(folder))[1999] == folder / "WTH_1999.wtb"
    monkeypatch.setenv(WTHOR_ENV, str(folder))
    assert wthor_folder() == folder and list(wthor_years()) == [1999, 2021]
    assert wthor_folder(SAMPLE) == SAMPLE  # an argument wins over the environment
    monkeypatch.setenv(WTHOR_ENV, "")
    assert wthor_folder() == SAMPLE  # set but empty: as if unset


def test_a_missing_or_empty_folder_is_refused_saying_where_the_data_comes_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(WthorFolderError, match=r"no WTHOR folder at .*nowhere") as missing:
        wthor_folder(tmp_path / "nowhere")
    assert WTHOR_SOURCE in str(missing.value) and isinstance(missing.value, ReversiError)
    empty = own_folder(tmp_path)  # names, but no year
    with pytest.raises(WthorFolderError, match=r"holds no WTH_<year>\.wtb file"):
        wthor_years(empty)
    monkeypatch.setenv(WTHOR_ENV, str(tmp_path / "typo"))
    with pytest.raises(WthorFolderError, match=rf"typo' \(from \${WTHOR_ENV}\)"):
        wthor_years()
