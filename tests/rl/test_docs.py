"""docs/rl.md documents every game's action count and every observation block as the code has them."""

from __future__ import annotations

from pathlib import Path

import pytest

import boneyard
from boneyard.rl import encoding

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()


@pytest.mark.parametrize("game_id", boneyard.games())
def test_the_observation_table_matches_the_code(game_id: str) -> None:
    enc = encoding(game_id)
    section = DOC.split(f"#### {game_id}:", 1)[1].split("####", 1)[0]
    assert section.startswith(f" {enc.num_actions} actions")
    for block in enc.blocks:
        assert f"| `{block.name}` | {block.size} | {block.doc} |" in section, block.name
    assert f"| {game_id} | {enc.num_actions} |" in DOC  # the action-space table


@pytest.mark.parametrize("game_id", boneyard.games())
def test_the_history_rows_table_matches_the_code(game_id: str) -> None:
    from boneyard.rl.encoding import told_markdown

    section = DOC.split("### The history window", 1)[1].split(f"**{game_id}**", 1)[1]
    assert section.lstrip().startswith(told_markdown(encoding(game_id)))
