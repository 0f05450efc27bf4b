"""Where the WTHOR game database is found: a folder you name, ``$REVERSI_WTHOR``, or the sample.

WTHOR is the French Othello Federation's public database of tournament games, one file per
year (``WTH_1977.wtb`` ... ) with the player and tournament names (``WTHOR.JOU``,
``WTHOR.TRN``), free to download from ``WTHOR_SOURCE``. The package ships one year of it,
2021 (320 games, with both name files), so the examples and tests run from a clone alone;
point the functions here at the whole database once you have it, by argument or with the
``REVERSI_WTHOR`` environment variable.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .errors import ReversiError

__all__ = ["SAMPLE", "WTHOR_ENV", "WTHOR_SOURCE", "WthorFolderError", "wthor_folder", "wthor_years"]

#: The public database: the French Othello Federation's download page.
WTHOR_SOURCE = "https://www.ffothello.org/informatique/la-base-wthor/"
#: The environment variable naming a folder of WTHOR files.
WTHOR_ENV = "REVERSI_WTHOR"
#: The year shipped with the package, with its name files.
SAMPLE = Path(__file__).parent / "data" / "wthor"

_YEAR_FILE = re.compile(r"WTH_(\d{4})\.wtb", re.IGNORECASE)


class WthorFolderError(ReversiError):
    """The folder named for the WTHOR files is not there or holds no yearly file."""


def wthor_folder(folder: str | os.PathLike[str] | None = None) -> Path:
    """The folder to read WTHOR files from: ``folder`` if given, else ``$REVERSI_WTHOR`` if
    set, else the one-year sample shipped with the package. A folder that is missing or has
    no ``WTH_<year>.wtb`` file is refused, saying where the database comes from."""
    named = folder if folder is not None else os.environ.get(WTHOR_ENV) or None
    if named is None:
        return SAMPLE
    path = Path(named).expanduser()
    origin = "" if folder is not None else f" (from ${WTHOR_ENV})"
    if not path.is_dir():
        raise WthorFolderError(
            f"no WTHOR folder at {str(path)!r}{origin}: download the yearly WTH_<year>.wtb files "
            f"and WTHOR.JOU/WTHOR.TRN from {WTHOR_SOURCE} into one folder"
        )
    if not _year_files(path):
        raise WthorFolderError(
            f"{str(path)!r}{origin} holds no WTH_<year>.wtb file: the yearly files of {WTHOR_SOURCE} go there"
        )
    return path


def wthor_years(folder: str | os.PathLike[str] | None = None) -> dict[int, Path]:
    """The yearly game files of the folder ``wthor_folder(folder)`` chooses, by year, oldest first."""
    return _year_files(wthor_folder(folder))


def _year_files(path: Path) -> dict[int, Path]:
    found = {}
    for entry in path.iterdir():
        match = _YEAR_FILE.fullmatch(entry.name)
        if match and entry.is_file():
            found[int(match.group(1))] = entry
    return dict(sorted(found.items()))
