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
