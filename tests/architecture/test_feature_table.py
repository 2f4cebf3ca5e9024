"""docs/ARCHITECTURE.md's feature table against the tree: every path it names exists, each
feature has at most one folder a layer, and every folder of ai/ and gui/ is named."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
LAYERS = ("games", "ai", "gui", "cli")


def feature_rows() -> list[list[str]]:
    """The cells of each row of the table under "Where each feature lives"."""
    section = TEXT.split("## Where each feature lives", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    header, body = rows[0], rows[2:]
    assert [cell.strip() for cell in header.strip("|").split("|")][1:] == list(LAYERS)
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in body]


def paths(cell: str) -> list[str]:
    """The backticked paths of a cell."""
    return re.findall(r"`([^`]+)`", cell)


def test_every_path_in_the_feature_table_exists() -> None:
    rows = feature_rows()
    assert len(rows) >= 10
    for feature, *cells in rows:
        for layer, cell in zip(LAYERS, cells, strict=True):
            for path in paths(cell):
                assert path.split("/")[0] == layer, (feature, path)
                if "<" in path:
                    continue  # a pattern such as games/<game>
                assert (ROOT / path).exists(), (feature, path)


SHOWN_IN_TWO_FOLDERS = {
    "students' code: agents, heuristics, exercises": "picked in set-up, compared in the explorer",
    "shared drawing and widgets": "the widgets, and the chart the views and commands share",
}
"""Features whose window part spans two folders, each with its reason."""


def test_a_feature_has_at_most_one_folder_a_layer() -> None:
    for feature, *cells in feature_rows():
        for cell in cells:
            folders = [path for path in paths(cell) if not path.endswith(".py")]
            assert len(folders) <= 1 or feature in SHOWN_IN_TWO_FOLDERS, (feature, folders)


def test_every_folder_of_ai_and_gui_is_in_the_table() -> None:
    named = {path for _, *cells in feature_rows() for cell in cells for path in paths(cell)}
    for layer in ("ai", "gui"):
        for folder in sorted((ROOT / layer).iterdir()):
            if (folder / "__init__.py").is_file():
                name = folder.relative_to(ROOT).as_posix()
                assert name in named, f"{name} is not in docs/ARCHITECTURE.md's feature table"


def test_the_path_of_a_move_names_files_that_exist() -> None:
    section = TEXT.split("## The path of one move", 1)[1].split("\n## ", 1)[0]
    for path in re.findall(r"`((?:ai|gui|games|cli)/[\w/]+\.py)`", section):
        assert (ROOT / path).is_file(), path
