"""Names that end in a figure ("random bot 2") never run into the score that follows them."""

from __future__ import annotations

from boneyard.words import words


def test_a_score_after_a_name_ending_in_a_figure_gets_a_colon() -> None:
    teller = words("rounce", ["Ann", "random bot 1", "random bot 2"], 0)
    assert teller.listing([(0, "14"), (1, "15"), (2, "12")]) == "you 14, random bot 1: 15, random bot 2: 12"
    end = {
        "kind": "hand_end", "hand": 1, "dealer": 1, "trump": 6, "calls": ["pass", "fold", "pass"],
        "tricks": [2, 0, 3], "rounced": [], "walkover": None, "played": [], "points": [-2, 0, -3],
        "totals": [13, 15, 12],
    }
    assert teller.tell(end).endswith("points left: you 13, random bot 1: 15, random bot 2: 12.")


def test_the_board_names_the_suits_as_the_sentences_do() -> None:
    """The board's suit labels (core/board.js) are the words' suits: "threes are trumps" on both, never "treys"."""
    import json
    import re
    from pathlib import Path

    from boneyard.words import Words

    board = Path(__file__).resolve().parents[2] / "boneyard" / "server" / "static" / "core" / "board.js"
    found = re.search(r"PIPNAMES = (\[[^\]]*\])", board.read_text(encoding="utf-8"))
    assert found is not None
    assert json.loads(found.group(1)) == [Words.suit(k) for k in range(7)]
