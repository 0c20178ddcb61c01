"""Eighty: scripted deals with exact outcomes for every rule, ruling and option, plus a soak.

Deals are fixed with ``deck=`` (seat 0 takes the first ten tiles, seat 1 the next ten, and
so on; the last two lie out) and ``dealer=`` (the first shuffler). Scores are per seat, the
seat's side's score, so seats 0 and 2 (and 1 and 3) always show the same number.
"""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from typing import Any

import pytest

import boneyard
from boneyard import IllegalAction
from boneyard.games.eighty.engine import COUNT, Eighty
from boneyard.tiles import Tile

# D1: every hand one block of numbers.
D1 = [
    "6-6 6-6 6-5 6-5 6-4 6-4 6-3 6-3 6-2 6-2",
    "6-1 6-1 5-5 5-5 5-4 5-4 5-3 5-3 5-2 5-2",
    "5-1 5-1 4-4 4-4 4-3 4-3 4-2 4-2 4-1 4-1",
    "3-3 3-3 3-2 3-2 3-1 3-1 2-2 2-2 2-1 2-1",
    "1-1 1-1",
]
# D2: mixed hands for trick-by-trick rules (trump 3 named by seat 0 in most tests).
D2 = [
    "6-6 6-6 6-5 6-5 6-2 5-5 5-4 5-4 5-3 4-4",
    "6-4 6-3 5-5 5-3 5-2 5-2 5-1 5-1 4-4 4-3",
    "6-4 6-3 4-3 4-2 4-2 4-1 4-1 3-3 3-3 3-2",
    "6-2 6-1 3-2 3-1 3-1 2-2 2-2 2-1 2-1 1-1",
    "6-1 1-1",
]

# D1 with seat 1 bidding and naming 5s: the whole hand, trick by trick, in play order
# (seat 1 leads). Seat 1 takes tricks 1, 2, 5-10 (56 points), seat 0 tricks 3, 4 (24).
D1_FIVES = [
    "5-5 5-1 3-3 6-5",
    "5-5 5-1 3-3 6-5",
    "6-1 4-1 3-2 6-6",  # 6-1 is no trump: suit 6, which seat 0's 6-6 heads
    "6-6 6-1 4-1 3-2",  # seat 0 leads
    "6-4 5-4 4-4 3-1",  # seat 1 cannot follow 6 and trumps
    "5-4 4-4 3-1 6-4",  # seat 1 leads
    "5-3 4-3 2-2 6-3",
    "5-3 4-3 2-2 6-3",
    "5-2 4-2 2-1 6-2",
    "5-2 4-2 2-1 6-2",
]


def deck(spec: list[str]) -> list[str]:
    """The deck of four hands plus the two tiles lying out, as written above."""
    return " ".join(spec).split()


def new(spec: list[str] = D1, dealer: int = 3, seed: int = 1, **rules: Any) -> Any:
    """A game dealt from ``spec`` with the given first shuffler and options."""
    return boneyard.new_game("eighty", seed=seed, rules=rules, deck=deck(spec), dealer=dealer)


def play(g: Any, tiles: str) -> None:
    """Play the tiles (space separated) in turn order."""
    for t in tiles.split():
        g.apply(f"play {t}")


def snapshot(g: Any) -> str:
    """Everything observable about a game, to show that a refusal changed nothing."""
    return json.dumps(
        {
            "record": g.record(),
            "views": [g.view(s) for s in (*range(4), None)],
            "legal": [str(a) for a in g.legal_actions()],
        },
        sort_keys=True,
    )


def refused(g: Any, action: str, message: str) -> None:
    """``action`` raises IllegalAction matching ``message`` and leaves the game unchanged."""
    before = snapshot(g)
    with pytest.raises(IllegalAction, match=message):
        g.apply(action)
    assert not g.is_legal(action)
    assert snapshot(g) == before


# ----- facts and dealing ------------------------------------------------------------------


def test_facts_and_tiles() -> None:
    info = boneyard.game_info("eighty")
    assert info["players"] == {"min": 4, "max": 4, "default": 4}
    assert info["teams"] is True
    assert set(info["options"]) == {"nello", "doubles_suit", "marks", "target", "marks_target", "max_hands"}
    assert info["options"]["target"]["default"] == 250
    assert info["options"]["nello"]["default"] is False
    full = Eighty.full_set(Eighty.Rules())
    assert len(full) == 42
    assert all(t.low >= 1 for t in full)
    assert Counter(full)[Tile(6, 4)] == 2
    assert sum(COUNT[t] for t in full if t in COUNT) == 60


def test_deal_from_a_given_deck() -> None:
    g = new(D1, dealer=3)
    v = g.view(1)
    assert v["hand"] == D1[1].split()
    assert g.view(0)["hand"] == D1[0].split()
    assert v["hand_sizes"] == [10, 10, 10, 10]
    assert v["lying_out"] == 2
    assert sorted(map(str, g.tile_locations()["lying out"])) == ["1-1", "1-1"]
    assert v["shuffler"] == 3 and v["hand_number"] == 1
    assert g.current_player == 0  # left of the shuffler bids first
    assert g.phase == "bid"


def test_first_shuffler_is_seeded_and_rotates() -> None:
    firsts = {boneyard.new_game("eighty", seed=s).view(None)["shuffler"] for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    a = boneyard.new_game("eighty", seed=12)
    b = boneyard.new_game("eighty", seed=12)
    assert a.view(0) == b.view(0)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        boneyard.new_game("eighty", players=3)
    with pytest.raises(boneyard.RulesError, match="valid options"):
        boneyard.new_game("eighty", rules={"target": 0})
    with pytest.raises(ValueError, match="deck"):
        boneyard.new_game("eighty", deck=[*deck(D1)[:-1], "0-0"])


# ----- bidding -----------------------------------------------------------------------------


def test_bidding_runs_once_round_from_the_shuffler_left() -> None:
    g = new(D1, dealer=1)
    assert g.current_player == 2
    assert [str(a) for a in g.legal_actions()] == ["pass"] + [f"bid {n}" for n in range(50, 81)]
    g.apply("bid 55")
    assert g.current_player == 3
    assert [str(a) for a in g.legal_actions()][:3] == ["pass", "bid 56", "bid 57"]
    g.apply("pass")
    g.apply("bid 56")  # seat 0 overbids
    assert g.current_player == 1
    g.apply("bid 60")  # the shuffler bids last
    v = g.view(None)
    assert v["bids"] == [56, 60, 55, "pass"]
    assert v["bidder"] == 1 and v["high_bid"] == 60
    assert g.phase == "trump" and g.current_player == 1
    assert [str(a) for a in g.legal_actions()] == [f"trump {n}" for n in range(1, 7)]


def test_a_partner_may_overbid_his_partner() -> None:
    g = new(D1, dealer=3)
    g.apply("bid 50")
    g.apply("pass")
    g.apply("bid 51")
    g.apply("pass")
    assert g.view(None)["bidder"] == 2


def test_bid_of_80_ends_the_bidding() -> None:
    g = new(D1, dealer=3, nello=True)
    g.apply("bid 80")
    assert g.phase == "trump" and g.current_player == 0
    assert g.view(None)["bids"] == [80, None, None, None]
    assert g.view(None)["events"][-1] == {"kind": "bid_won", "seat": 0, "bid": 80, "early": True}


def test_illegal_bids_name_the_rule() -> None:
    g = new(D1, dealer=3)
    refused(g, "bid 45", "from 50 to 80")
    refused(g, "bid 81", "from 50 to 80")
    refused(g, "bid nel-o", "option 'nello' is off")
    refused(g, "trump 5", "bidding is not over")
    refused(g, "play 6-6", "bidding is not over")
    g.apply("bid 60")
    refused(g, "bid 60", "higher than the current bid of 60")
    refused(g, "bid 59", "higher than the current bid of 60")


def test_malformed_actions_name_the_notation() -> None:
    g = new(D1, dealer=3)
    for text in ("", "bid", "bid fifty", "bid 5 5", "play 6", "play 6-7", "trump x", "PASS", "Bid 55", "discard 6-4"):
        refused(g, text, "not an Eighty action")
    for obj in (None, 42, ("bid", 55)):
        before = snapshot(g)
        with pytest.raises(IllegalAction, match="not an Eighty action"):
            g.apply(obj)
        assert snapshot(g) == before


def test_all_pass_redeal_by_the_next_shuffler() -> None:
    g = new(D1, dealer=1, seed=5)
    for _ in range(4):
        g.apply("pass")
    v = g.view(None)
    assert v["hand_number"] == 2 and v["shuffler"] == 2
    assert g.current_player == 3 and g.phase == "bid"
    assert v["bids"] == [None] * 4 and v["scores"] == [0, 0, 0, 0]
    assert v["last_result"] is None
    assert {"kind": "thrown_in", "hand": 1, "dealer": 2} in v["events"]
    kinds = [e["kind"] for e in v["events"]]
    assert kinds[:3] == ["pass", "thrown_in", "deal"], "the last pass and the thrown-in hand's end lead the view"
    # the redeal is a seeded shuffle, not the given deck again, and the same seed repeats it
    hands = [g.view(s)["hand"] for s in range(4)]
    assert hands != [D1[s].split() for s in range(4)]
    again = new(D1, dealer=1, seed=5)
    for _ in range(4):
        again.apply("pass")
    assert [again.view(s)["hand"] for s in range(4)] == hands
    assert Counter(t for h in hands for t in h) + Counter(map(str, g.tile_locations()["lying out"])) == Counter(
        deck(D1)
    )


# ----- trumps and tricks ---------------------------------------------------------------------


def d2_trumps_3(**rules: Any) -> Any:
    """D2 with seat 0 the bidder (60) and 3s trumps; seat 0 to lead."""
    g = new(D2, dealer=3, **rules)
    for a in ("bid 60", "pass", "pass", "pass", "trump 3"):
        g.apply(a)
    assert g.phase == "play" and g.current_player == 0
    return g


def test_trump_call_errors() -> None:
    g = new(D2, dealer=3)
    for a in ("bid 60", "pass", "pass", "pass"):
        g.apply(a)
    refused(g, "trump 0", "from 1 to 6")
    refused(g, "trump 7", "from 1 to 6")
    refused(g, "pass", "must now name trumps")
    refused(g, "bid 61", "must now name trumps")
    refused(g, "play 6-6", "must now name trumps")
    g.apply("trump 3")
    v = g.view(None)
    assert v["trump"] == 3 and v["leader"] == 0
    refused(g, "bid 61", "bidding is over")
    refused(g, "trump 4", "bidding is over")
    refused(g, "play 1-1", "you do not hold 1-1")


def test_identical_tiles_first_played_ranks_higher() -> None:
    g = d2_trumps_3()
    play(g, "6-2")
    assert [str(a) for a in g.legal_actions()] == ["play 6-4"]  # 6-3 is a trump, not a 6
    refused(g, "play 6-3", "must follow suit 6: play a tile holding 6 that is not a trump")
    play(g, "6-4 6-4")
    assert [str(a) for a in g.legal_actions()] == ["play 6-2", "play 6-1"]
    play(g, "6-1")
    v = g.view(None)
    assert v["tricks"][0] == {
        "leader": 0,
        "plays": [
            {"seat": 0, "tile": "6-2"},
            {"seat": 1, "tile": "6-4"},
            {"seat": 2, "tile": "6-4"},
            {"seat": 3, "tile": "6-1"},
        ],
        "winner": 1,
        "points": 22,
    }
    assert v["sides"][1]["taken"] == 22 and v["sides"][1]["count"] == 20 and v["sides"][1]["tricks"] == 1
    assert g.current_player == 1 and v["leader"] == 1


def test_trump_lead_must_be_followed_and_the_trump_double_ranks_first() -> None:
    g = d2_trumps_3()
    play(g, "5-3")
    assert g.view(None)["led_suit"] == "trump"
    assert [str(a) for a in g.legal_actions()] == ["play 6-3", "play 5-3", "play 4-3"]
    refused(g, "play 5-5", "must follow the trump lead with a trump")
    play(g, "6-3 3-3")
    assert [str(a) for a in g.legal_actions()] == ["play 3-2", "play 3-1"]
    play(g, "3-1")
    assert g.view(None)["tricks"][0]["winner"] == 2
    assert g.current_player == 2


def test_suit_is_the_higher_end_and_any_trump_beats_it() -> None:
    g = d2_trumps_3()
    play(g, "5-4")  # suit 5, not 4
    assert g.view(None)["led_suit"] == "5"
    # 5-3 is a trump; 5-5 follows 5 (doubles are not a suit by default); 4-4 and 4-3 do not
    assert [str(a) for a in g.legal_actions()] == ["play 5-5", "play 5-2", "play 5-1"]
    refused(g, "play 4-4", "must follow suit 5")
    play(g, "5-1")
    assert len(g.legal_actions()) == 7  # seat 2 holds no 5: any of its 7 different tiles
    play(g, "3-2 3-1")  # two trumps: the higher other end wins
    t = g.view(None)["tricks"][0]
    assert t["winner"] == 2 and t["points"] == 7


def test_a_non_trump_double_heads_its_suit() -> None:
    g = d2_trumps_3()
    play(g, "5-4 5-1 4-1 2-2")  # seat 0's 5-4 wins: the only 5s are 5-4, 5-1
    assert g.view(None)["tricks"][0]["winner"] == 0
    play(g, "4-4")  # seat 0 leads 4-4: suit 4, top of it
    assert [str(a) for a in g.legal_actions()] == ["play 6-4", "play 4-4"]
    play(g, "6-4 4-2")
    assert len(g.legal_actions()) == 7  # seat 3 holds no 4: anything
    play(g, "2-1")
    t = g.view(None)["tricks"][1]
    assert t["winner"] == 0 and t["points"] == 12


# ----- whole hands: a made bid, a set bid ------------------------------------------------------


def d1_fives(bid: int, **rules: Any) -> Any:
    """D1, shuffler 0, seat 1 wins the bidding at ``bid`` and plays 5s trumps to the end."""
    g = new(D1, dealer=0, **rules)
    for a in (f"bid {bid}", "pass", "pass", "pass", "trump 5"):
        g.apply(a)
    assert g.current_player == 1
    for number, trick in enumerate(D1_FIVES, 1):
        if number == 10:
            last = g.view(None)
            assert last["sides"][0]["tricks"] == 2 and last["sides"][1]["tricks"] == 7
        play(g, trick)
    return g


def test_made_bid_scores_what_each_side_took() -> None:
    g = d1_fives(55)
    v = g.view(None)
    r = v["last_result"]
    assert r["made"] is True and r["bidder"] == 1 and r["bid"] == 55 and r["trump"] == 5
    assert r["taken"] == [24, 56] and r["tricks"] == [2, 8]
    assert r["gains"] == [24, 56]
    assert g.scores == [24, 56, 24, 56]
    assert v["hand_number"] == 2 and v["shuffler"] == 1 and g.current_player == 2
    end = next(e for e in v["events"] if e["kind"] == "hand_end")
    assert end["made"] is True and end["bid"] == 55 and end["gains"] == [24, 56] and end["points"] == [24, 56, 24, 56]
    assert end["totals"] == [24, 56, 24, 56] and len(end["played"]) == 10


def test_set_bid_gives_the_bid_to_the_defenders() -> None:
    g = d1_fives(60)
    r = g.view(None)["last_result"]
    assert r["made"] is False
    assert r["taken"] == [24, 56]
    assert r["gains"] == [84, 0]  # the bid 60 plus the 24 they took; the bidders nothing
    assert g.scores == [84, 0, 84, 0]


def test_bid_exactly_reached_is_made() -> None:
    assert d1_fives(56).scores == [24, 56, 24, 56]
    assert d1_fives(57).scores == [81, 0, 81, 0]


def test_every_trick_and_count_to_one_side() -> None:
    g = new(D1, dealer=0)
    for a in ("bid 50", "pass", "pass", "bid 70", "trump 6"):
        g.apply(a)
    for _ in range(10):  # seat 0 leads its trumps; the others play their first legal tile
        for _ in range(4):
            g.apply(g.legal_actions()[0])
    r = g.view(None)["last_result"]
    assert r["tricks"] == [10, 0] and r["taken"] == [80, 0] and r["gains"] == [80, 0]
    assert g.scores == [80, 0, 80, 0]


# ----- Nel-O ------------------------------------------------------------------------------------


def test_nello_made() -> None:
    g = new(D1, dealer=2, nello=True)
    assert "bid nel-o" in [str(a) for a in g.legal_actions()]
    g.apply("bid nel-o")  # seat 3: ends the bidding at once
    v = g.view(None)
    assert v["nello"] is True and v["bidder"] == 3 and v["sitting_out"] == 1 and v["trump"] is None
    assert v["bids"] == [None, None, None, "nel-o"]
    assert g.phase == "play" and g.current_player == 3
    play(g, "2-1")
    assert g.current_player == 0
    assert [str(a) for a in g.legal_actions()] == ["play 6-2"]  # no trumps: 6-2 follows 2
    play(g, "6-2")
    assert g.current_player == 2  # seat 1 sits out
    play(g, "4-2")
    assert g.view(None)["tricks"][0]["winner"] == 0
    while g.view(None)["hand_number"] == 1:
        g.apply(g.legal_actions()[0])
    r = g.view(None)["last_result"]
    assert r["made"] is True and r["bid"] == "nel-o"
    assert r["gains"] == [0, 80]
    assert g.scores == [0, 80, 0, 80]


def test_nello_set_ends_the_hand_at_the_bidders_first_trick() -> None:
    g = new(D1, dealer=2, nello=True)
    g.apply("bid nel-o")
    play(g, "3-3")
    assert [str(a) for a in g.legal_actions()] == ["play 6-3"]
    play(g, "6-3 4-3")  # 3-3 heads suit 3: the bidder takes the trick
    v = g.view(None)
    assert v["hand_number"] == 2
    r = v["last_result"]
    assert r["made"] is False and r["gains"] == [80, 0] and r["taken"] == [0, 2]
    assert g.scores == [80, 0, 80, 0]
    assert any(e["kind"] == "nel_o_set" for e in v["events"])


def test_nello_outranks_numbers_but_not_after_80() -> None:
    g = new(D1, dealer=3, nello=True)
    g.apply("bid 79")
    g.apply("bid nel-o")
    v = g.view(None)
    assert v["bidder"] == 1 and v["sitting_out"] == 3 and g.current_player == 1
    play(g, "6-1")
    assert g.current_player == 2
    play(g, "5-1")
    assert g.current_player == 0  # seat 3 sits out
    g2 = new(D1, dealer=3, nello=True)
    g2.apply("bid 80")
    assert g2.phase == "trump"


# ----- doubles as a suit ---------------------------------------------------------------------------


def test_doubles_suit_lead_must_be_followed_by_a_double() -> None:
    g = d2_trumps_3(doubles_suit=True)
    play(g, "6-6")
    assert g.view(None)["led_suit"] == "doubles"
    assert [str(a) for a in g.legal_actions()] == ["play 5-5", "play 4-4"]
    refused(g, "play 6-4", "must follow the lead of a double with a double")
    play(g, "5-5")
    assert len(g.legal_actions()) == 7  # seat 2's only double 3-3 is a trump: anything
    play(g, "4-1 1-1")
    t = g.view(None)["tricks"][0]
    assert t["winner"] == 0 and t["points"] == 17


def test_doubles_suit_ranks_by_number_and_the_trump_double_stays_trump() -> None:
    g = d2_trumps_3(doubles_suit=True)
    play(g, "4-4 5-5 4-2 2-2")
    assert g.view(None)["tricks"][0]["winner"] == 1  # 5-5 over 4-4
    g = d2_trumps_3(doubles_suit=True)
    play(g, "6-6 4-4 3-3 2-2")
    assert g.view(None)["tricks"][0]["winner"] == 2  # 3-3 is a trump


def test_doubles_suit_a_double_does_not_follow_its_number() -> None:
    g = d2_trumps_3(doubles_suit=True)
    play(g, "5-4")
    assert [str(a) for a in g.legal_actions()] == ["play 5-2", "play 5-1"]
    refused(g, "play 5-5", "not a trump .* and not a double")


# ----- the game's end: target, the tie rule, marks ----------------------------------------------


def test_first_side_to_the_target_wins() -> None:
    g = d1_fives(55, target=50)
    assert g.is_over and g.winners == [1, 3] and g.current_player is None
    assert g.phase == "over" and g.legal_actions() == ()
    refused(g, "pass", "game is over")
    assert not d1_fives(55, target=57).is_over


def test_both_sides_past_the_target_the_bidding_side_wins() -> None:
    g = new(D1, dealer=0)
    g.points = [240, 200]  # as if from earlier hands: seats 0+2 ahead
    for a in ("bid 55", "pass", "pass", "pass", "trump 5"):
        g.apply(a)
    for trick in D1_FIVES:
        play(g, trick)
    assert g.scores == [264, 256, 264, 256]
    assert g.is_over and g.winners == [1, 3]  # the bidders, though behind
    assert g.view(None)["events"][-1] == {"kind": "game_over", "winners": [1, 3]}


def test_marks_one_per_hand_won() -> None:
    made = d1_fives(55, marks=True)
    assert made.scores == [0, 1, 0, 1]  # the bidders made it
    assert made.view(None)["points"] == [24, 56]
    set_ = d1_fives(60, marks=True)
    assert set_.scores == [1, 0, 1, 0]  # the defenders set it
    assert not set_.is_over
    done = d1_fives(60, marks=True, marks_target=1)
    assert done.is_over and done.winners == [0, 2]
    huge = d1_fives(55, marks=True, target=1)  # points do not end a marks game
    assert not huge.is_over


def test_nello_marks() -> None:
    g = new(D1, dealer=2, nello=True, marks=True)
    g.apply("bid nel-o")
    play(g, "3-3 6-3 4-3")
    assert g.scores == [1, 0, 1, 0]


# ----- views, records, sampling ------------------------------------------------------------------


def test_views_show_only_the_own_hand() -> None:
    g = d2_trumps_3()
    play(g, "6-2")
    for seat in range(4):
        v = g.view(seat)
        assert v["hand"] == [t for t in D2[seat].split() if not (seat == 0 and t == "6-2")]
        text = json.dumps({k: x for k, x in v.items() if k not in ("hand", "events")})
        others = {t for s in range(4) if s != seat for t in D2[s].split()} - {"6-2"} - set(D2[seat].split())
        assert not any(f'"{t}"' in text for t in others)
    spectator = g.view(None)
    assert spectator["hand"] is None
    assert not any(e["kind"] == "dealt" for e in spectator["events"])
    assert g.view(2)["events"].count({"kind": "dealt", "seat": 2, "tiles": D2[2].split()}) == 1
    assert json.loads(json.dumps(spectator)) == spectator
    for key in ("bids", "trump", "trick", "tricks", "sides", "scores", "last_result", "points", "marks"):
        assert key in spectator


def test_record_and_replay() -> None:
    g = d1_fives(60)
    rec = json.loads(json.dumps(g.record()))
    assert rec["deck"] == deck(D1) and rec["dealer"] == 0
    again = boneyard.replay(rec)
    assert snapshot(again) == snapshot(g)


def test_sampling_keeps_the_view_and_proven_voids() -> None:
    g = d2_trumps_3()
    play(g, "5-4 5-1 3-2")  # seat 2 showed it holds no 5 that is not a trump
    view = g.view(3)
    for i in range(30):
        s = boneyard.sample_game(view, random.Random(i))
        assert s.view(3) == view
        assert not any(t.has(5) and not t.has(3) for t in s.hands[2])
        assert [str(a) for a in s.legal_actions()] == [str(a) for a in g.legal_actions()]
    spectator = g.view(None)
    s = boneyard.sample_game(spectator, random.Random(3))
    assert s.view(None) == spectator
    c = g.clone()
    play(c, "3-1")
    assert len(g.view(None)["trick"]) == 3


def test_sampling_in_nello_leaves_the_partner_his_tiles() -> None:
    g = new(D1, dealer=2, nello=True)
    g.apply("bid nel-o")
    play(g, "2-1 6-2")
    for seat in (0, 1, 2, 3, None):
        view = g.view(seat)
        s = boneyard.sample_game(view, random.Random(7))
        assert s.view(seat) == view
        assert len(s.hands[1]) == 10


# ----- soak ------------------------------------------------------------------------------------------


def test_random_soak_invariants() -> None:
    rng = random.Random(2024)
    hands = 0
    configs = [{}, {"nello": True}, {"doubles_suit": True, "nello": True}, {"marks": True, "marks_target": 3}]
    game_no = 0
    while hands < 3000:
        rules = configs[game_no % len(configs)]
        g = boneyard.new_game("eighty", seed=game_no, rules=rules)
        game_no += 1
        steps = 0
        while not g.is_over:
            number = g.hand_number
            out = list(g.out)
            before_points, before_marks = list(g.points), list(g.marks)
            nello, bidder, high = g.nello, g.bidder, g.high
            legal = g.legal_actions()
            assert legal and len({str(a) for a in legal}) == len(legal)
            if steps % 97 == 0:
                seat = rng.choice([0, 1, 2, 3, None])
                view = g.view(seat)
                s = boneyard.sample_game(view, random.Random(steps))
                assert s.view(seat) == view
                for who, void in enumerate(g._voids()):  # the voids hold for the true hands too
                    assert not any(g._tables.member[suit][t.key] for suit in void for t in g.hands[who])
            g.apply(rng.choice(legal))
            steps += 1
            found = Counter(t for ts in g.tile_locations().values() for t in ts)
            assert found == Counter(Eighty.full_set(g.rules))
            if g.hand_number != number or g.is_over:
                r = g.last_result
                if r is None or r["hand"] != number:
                    assert bidder is None  # an all-pass redeal
                    continue
                hands += 1
                gains = [p - q for p, q in zip(g.points, before_points, strict=True)]
                assert gains == r["gains"]
                side = bidder & 1
                if nello:
                    assert sorted(gains) == [0, 80]
                    assert (gains[side] == 80) == r["made"]
                else:
                    assert sum(r["taken"]) == 80 - sum(COUNT.get(t, 0) for t in out)
                    assert r["made"] == (r["taken"][side] >= high)
                    if r["made"]:
                        assert gains == [r["taken"][0], r["taken"][1]]
                    else:
                        assert gains[side] == 0 and gains[1 - side] == high + r["taken"][1 - side]
                won = side if r["made"] else 1 - side
                assert g.marks[won] == before_marks[won] + 1
        assert g.winners in ([0, 2], [1, 3])
        win = g.winners[0]
        if g.rules.marks:
            assert g.marks[win] >= g.rules.marks_target
        else:
            assert g.points[win] >= g.rules.target


# ----- terminal renderer --------------------------------------------------------------------------


def rendered(view: dict[str, Any]) -> str:
    """The terminal renderer's output for a view, as plain text."""
    from rich.console import Console

    from boneyard.cli.views.eighty import render

    console = Console(width=120, record=True, file=io.StringIO())
    console.print(render(view))
    return console.export_text()


def test_renderer_shows_bidding_trick_totals_and_own_hand() -> None:
    g = d2_trumps_3()
    play(g, "5-4 5-1")
    text = rendered(g.view(2))
    assert "contract: 60 by Ann" in text and "trumps: 3s" in text
    assert "Ann [5-4]" in text and "Bob [5-1]" in text and "(led: 5s)" in text
    assert "Your hand: [6-4] [6-3] [4-3]" in text
    assert "0 / 250" in text
    assert "[6-6]" not in text  # seat 0's tiles stay hidden
    spectator = rendered(g.view(None))
    assert "Your hand" not in spectator
    done = d1_fives(60, marks=True, marks_target=1)
    text = rendered(done.view(0))
    assert "1 / 1" in text and "Game over: you and Cy win." in text
    assert "Bob and Dee are set, taking 56 points against their bid of 60" in text
    nello = new(D1, dealer=2, nello=True)
    nello.apply("bid nel-o")
    assert "you sit out" in rendered(nello.view(1))
    assert "Nel-O" in rendered(nello.view(None))
