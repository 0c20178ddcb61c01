"""Montana Domino Rummy's events in words: pulls, discards, claims and who won them, payouts in chips.

The vocabulary is the rules page's (``docs/rules/montana.md``): the woodpile, pulling,
claiming a discard for a set, declaring ready, chips. A claim window is told twice: each
seat's own answer privately as it is given, then every answer and who takes the tile,
with the reason a claim beat another (quad before triple before pair before run).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import Words

# What a claim is for, after "claims the 6-4".
_FOR = {"triple": "for a triple", "quad": "for a quad", "run": "for a run", "out": "to go out"}
# A claim as a noun: "your run loses to Bob's triple".
_NOUN = {"triple": "triple", "quad": "quad", "run": "run", "out": "claim to go out"}
# How claims rank against each other (an out claim ranks as the set it completes).
_RANK = {"quad": 4, "triple": 3, "pair": 2, "run": 1}


def _ranks_as(answer: Mapping[str, Any]) -> str | None:
    """The set a claim ranks as: its own, or for a claim to go out the set the discard completes."""
    return answer.get("completes") if answer["claim"] == "out" else answer["claim"]


class MontanaWords(Words):
    """Montana's sentences: one ``on_<kind>`` per event kind of ``boneyard/games/montana/events.py``."""

    def on_first_dealer(self, e: Mapping[str, Any]) -> str:
        """Who deals first, and the roll that chose him when the die was rolled."""
        seat = e["seat"]
        deals = f"{self.does(seat, 'deals', start=False)} first"
        if "roller" in e and "roll" in e:
            roller = e["roller"]
            rolled = f"{self.does(roller, 'rolls')} a {e['roll']} and {self.verb(roller, 'counts')} round"
            return self.sentence(f"{rolled}: {deals}")
        return self.sentence(deals)

    def on_deal(self, e: Mapping[str, Any]) -> str:
        """A new hand and its dealer."""
        return self.sentence(f"Hand {e['hand']}: {self.does(e['dealer'], 'deals', start=False)}")

    def on_pull(self, e: Mapping[str, Any]) -> str:
        """A pull from the woodpile: the tile for the seat that pulled it, "a tile" for the others."""
        tile = e.get("tile")
        return self.sentence(f"{self.does(e['seat'], 'pulls')} {tile if tile else 'a tile'}")

    def on_woodpile_empty(self, e: Mapping[str, Any]) -> str:
        """The pull that could not be made, which draws the hand."""
        return self.sentence(f"{self.name(e['seat'])} must pull, but the woodpile is empty")

    def on_discard(self, e: Mapping[str, Any]) -> str:
        """A discard, and a declaration of ready with it."""
        said = f"{self.does(e['seat'], 'discards')} {e['tile']}"
        if e["ready"]:
            said += f" and {self.verb(e['seat'], 'declares')} ready"
        return self.sentence(said)

    def on_ready_discard(self, e: Mapping[str, Any]) -> str:
        """A ready player's pull that does not make his hand, thrown for him."""
        return self.sentence(f"{self.does(e['seat'], 'is')} ready, so the pulled {e['tile']} is discarded")

    def on_quad(self, e: Mapping[str, Any]) -> str:
        """A concealed quad laid down from the hand."""
        tile = e["tile"]
        return self.sentence(f"{self.does(e['seat'], 'lays')} down a concealed quad: {self.group([tile] * 4)}")

    def on_add(self, e: Mapping[str, Any]) -> str:
        """The pulled fourth tile added to an exposed triple."""
        return self.sentence(f"{self.does(e['seat'], 'adds')} the fourth {e['tile']} to the exposed triple: a quad")

    def on_replacement(self, e: Mapping[str, Any]) -> str:
        """The replacement pull after a quad: the tile for its seat only."""
        tile = e.get("tile")
        if tile:
            return self.sentence(f"{self.does(e['seat'], 'pulls')} {tile} as a replacement")
        return self.sentence(f"{self.does(e['seat'], 'pulls')} a replacement tile")

    def on_answer(self, e: Mapping[str, Any]) -> str:
        """One seat's answer to a discard: what it was for that seat, only that it came for the others."""
        seat = e["seat"]
        claim = e.get("claim")
        if claim is None:
            return self.sentence(f"{self.does(seat, 'has')} answered about the {e['tile']}")
        if claim == "pass":
            return self.sentence(f"{self.does(seat, 'passes')} on the {e['tile']}")
        said = f"{self.does(seat, 'claims')} the {e['tile']} {_FOR[claim]}"
        if claim == "run" and e.get("tiles"):
            said += f" with {self.tiles(e['tiles'])}"
        return self.sentence(said)

    def on_answers(self, e: Mapping[str, Any]) -> str:
        """Every answer shown: the claims made, who takes the tile and why (or that everyone passed)."""
        offered = f"{self.whose(e['discarder'])} {e['tile']}"
        answers: Sequence[Mapping[str, Any]] = e["answers"]
        claims = [a for a in answers if a["claim"] != "pass"]
        winner = e["winner"]
        if not claims or winner is None:
            if len(answers) == 1:
                return self.sentence(f"{self.does(answers[0]['seat'], 'passes')} on {offered}")
            return self.sentence(f"Everyone passes on {offered}" if answers else f"Nobody claims {offered}")
        said = self._claims(claims, offered)
        if len(claims) == 1:
            return self.sentence(said)
        won = next(a for a in claims if a["seat"] == winner)
        losers = [a for a in claims if a["seat"] != winner]
        mine = next((a for a in losers if a["seat"] == self.me), None)
        if mine is not None:
            beaten = mine
            outcome = f"your {_NOUN[mine['claim']]} loses to {self.whose(winner)} {_NOUN[won['claim']]}"
        else:
            beaten = max(losers, key=lambda a: _RANK.get(_ranks_as(a) or "", 0))
            outcome = f"{self.does(winner, 'takes', start=False)} it"
        why = self._why(won, beaten)
        return self.sentence(f"{said}: {outcome}{f' ({why})' if why else ''}")

    def _claims(self, claims: Sequence[Mapping[str, Any]], offered: str) -> str:
        """The claims made, in turn order: "Bob claims Ann's 6-4 for a triple and you claim it for a run"."""
        parts = []
        for i, a in enumerate(claims):
            seat = a["seat"]
            what = offered if i == 0 else "it"
            parts.append(f"{self.does(seat, 'claims', start=False)} {what} {_FOR[a['claim']]}")
        if len(parts) == 1:
            return parts[0]
        return f"{', '.join(parts[:-1])} and {parts[-1]}"

    @staticmethod
    def _why(won: Mapping[str, Any], beaten: Mapping[str, Any]) -> str:
        """Why one claim beat another: the higher set ("a triple comes before a run").

        A claim to go out ranks as the set the discard completes in that hand (the
        answers' ``completes``); between claims of the same rank the first in turn after
        the discarder wins.
        """
        a, b = _ranks_as(won), _ranks_as(beaten)
        if a is None or b is None:
            return ""
        if _RANK.get(a) == _RANK.get(b):
            return "they rank alike, and the first in turn after the discarder wins"
        return f"a {a} comes before a {b}"

    def on_claimed(self, e: Mapping[str, Any]) -> str:
        """The discard taken, and the set it is laid in."""
        taken = f"{self.does(e['seat'], 'takes')} {self.whose(e['discarder'])} {e['tile']}"
        if e["set"] == "out":
            return self.sentence(f"{taken} to go out")
        return self.sentence(f"{taken} and {self.verb(e['seat'], 'lays')} the {e['set']} {self.group(e['tiles'])}")

    def on_out(self, e: Mapping[str, Any]) -> str:
        """Going out: on which tile (pulled, or whose discard) and for how many points."""
        seat = e["seat"]
        if e["how"] == "claim" and e["discarder"] is not None:
            on = f"on {self.whose(e['discarder'])} {e['tile']}"
        else:
            on = f"on a pull, the {e['tile']}"
        value = f": {self.points(e['value'])}" if e["value"] else ""
        return self.sentence(f"{self.does(seat, 'goes')} out {on}{value}")

    def on_hand_end(self, e: Mapping[str, Any]) -> str:
        """The hand's end: who won, how and for what, then each seat's chips won or lost (or the outs)."""
        winner = e["winner"]
        if winner is None:
            stakes = [s for s, v in enumerate(e["stakes"]) if v]
            back = f"; ready stakes go back to {self.names_of(stakes, start=False)}" if stakes else ""
            return self.sentence(f"Hand {e['hand']} is drawn: the woodpile ran out{back}")
        if e["how"] == "claim" and e["discarder"] is not None:
            how = f"went out on {self.whose(e['discarder'])} {e['tile']}"
        else:
            how = "went out on a pull"
        first = f"Hand {e['hand']} is over: {self.name(winner, start=False)} {how}"
        if not e["value"]:  # the shootout: no chips, the outs are the score
            outs = self.listing([(s, str(v)) for s, v in enumerate(e["totals"])])
            return f"{self.sentence(first)} {self.sentence(f'Outs: {outs}')}"
        first += f" for {self.points(e['value'])}"
        if e["how"] == "claim" and e["discarder"] is not None:
            first += f" ({self.does(e['discarder'], 'pays', start=False)} alone, three times)"
        staked = [s for s, v in enumerate(e["stakes"]) if v and s != winner]
        if staked:
            won = (
                f"{self.whose(staked[0])} ready stake" if len(staked) == 1
                else f"the ready stakes of {self.names_of(staked, start=False)}"
            )
            first += f"; {self.does(winner, 'takes', start=False)} {won}"
        order = [winner, *(s for s in range(len(e["points"])) if s != winner)]
        chips = self.listing([(s, self.signed(e["points"][s])) for s in order])
        return f"{self.sentence(first)} {self.sentence(f'Chips this hand: {chips}')}"

    def on_deals_again(self, e: Mapping[str, Any]) -> str:
        """The dealer won the hand and keeps the deal."""
        return self.sentence(f"{self.does(e['seat'], 'wins')} as dealer and {self.verb(e['seat'], 'deals')} again")


WORDS = MontanaWords
