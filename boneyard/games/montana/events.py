"""Montana Domino Rummy's events: what happens at a Montana table, as data (see :mod:`boneyard.games.events`)."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from typing_extensions import TypedDict  # the one pydantic reads on Python 3.11

from ..events import SEAT_ONLY, Dealt

#: What a seat answered when offered a discard.
Claim = Literal["pass", "triple", "quad", "run", "out"]


class FirstDealer(TypedDict):
    """The first dealer is chosen (by a roll of the die unless the table named him)."""

    kind: Literal["first_dealer"]
    seat: Annotated[int, "the seat that deals the first hand"]
    roller: NotRequired[Annotated[int, "the seat that rolled the die"]]
    roll: NotRequired[Annotated[int, "the number rolled, counted round from the roller"]]


class Deal(TypedDict):
    """A hand is dealt: ten tiles to each seat (and to the dead hands of empty seats)."""

    kind: Literal["deal"]
    hand: Annotated[int, "the hand's number, 1 for the first"]
    dealer: Annotated[int, "the dealer"]



class Pull(TypedDict):
    """A player pulls a tile from the woodpile (the engine pulls for him)."""

    kind: Literal["pull"]
    seat: Annotated[int, "the player pulling"]
    tile: NotRequired[Annotated[str, SEAT_ONLY, "the tile pulled"]]


class WoodpileEmpty(TypedDict):
    """A player must pull but the woodpile is empty: the hand is drawn."""

    kind: Literal["woodpile_empty"]
    seat: Annotated[int, "the player who should have pulled"]


class Discard(TypedDict):
    """A player discards a tile face up, possibly declaring his hand ready."""

    kind: Literal["discard"]
    seat: Annotated[int, "the player"]
    tile: Annotated[str, "the tile discarded"]
    ready: Annotated[bool, "whether he declares ready with it (his hand is then fixed; he stakes 4 chips)"]


class ReadyDiscard(TypedDict):
    """A ready player's pull does not make his hand: it is discarded for him."""

    kind: Literal["ready_discard"]
    seat: Annotated[int, "the ready player"]
    tile: Annotated[str, "the tile pulled and discarded"]


class Quad(TypedDict):
    """A player lays down a concealed quad (four of a tile from his hand) and pulls a replacement."""

    kind: Literal["quad"]
    seat: Annotated[int, "the player"]
    tile: Annotated[str, "the tile of the quad"]


class Add(TypedDict):
    """A player adds the fourth tile, just pulled, to his exposed triple and pulls a replacement."""

    kind: Literal["add"]
    seat: Annotated[int, "the player"]
    tile: Annotated[str, "the tile added"]


class Replacement(TypedDict):
    """A player pulls a replacement tile after a quad."""

    kind: Literal["replacement"]
    seat: Annotated[int, "the player"]
    tile: NotRequired[Annotated[str, SEAT_ONLY, "the tile pulled"]]


class Answer(TypedDict):
    """A player offered a discard answers; what he answered stays hidden until everyone has."""

    kind: Literal["answer"]
    seat: Annotated[int, "the player answering"]
    tile: Annotated[str, "the discard he is asked about"]
    claim: NotRequired[Annotated[Claim, SEAT_ONLY, "his answer: pass, or the set he claims for"]]
    tiles: NotRequired[Annotated[list[str], SEAT_ONLY, "for a run, the two hand tiles it uses"]]


class Answered(TypedDict):
    """One seat's answer, as the claim window's result shows it."""

    seat: Annotated[int, "the player"]
    claim: Annotated[Claim, "his answer"]
    tiles: NotRequired[Annotated[list[str], "for a run, the two hand tiles it uses"]]
    completes: NotRequired[
        Annotated[Literal["pair", "run", "triple", "quad"], "for out, the set the discard completes (what it ranks as)"]
    ]


class Answers(TypedDict):
    """Every asked seat has answered: the answers are shown and the best claim wins the discard."""

    kind: Literal["answers"]
    tile: Annotated[str, "the discard offered"]
    discarder: Annotated[int, "who discarded it"]
    answers: Annotated[list[Answered], "each asked seat's answer, in turn order after the discarder"]
    winner: Annotated[int | None, "the seat whose claim wins (the highest set; ties to the first in turn), else null"]


class Claimed(TypedDict):
    """A player takes the discard for a set (to go out, the set is part of his winning hand)."""

    kind: Literal["claimed"]
    seat: Annotated[int, "the player"]
    tile: Annotated[str, "the discard"]
    discarder: Annotated[int, "who discarded it"]
    set: Annotated[Literal["triple", "quad", "run", "out"], "what he claimed it for"]
    tiles: Annotated[list[str], "the set laid open (for out: nothing, the whole hand is laid at the hand's end)"]


class Out(TypedDict):
    """A player goes out: his whole hand is laid open in sets."""

    kind: Literal["out"]
    seat: Annotated[int, "the player"]
    how: Annotated[Literal["pull", "claim"], "on a tile he pulled, or on a discard"]
    tile: Annotated[str, "the tile that made his hand"]
    discarder: Annotated[int | None, "who discarded that tile, when claimed"]
    value: Annotated[int, "the hand's value in points (0 in shootout)"]


class MeldSet(TypedDict):
    """A set laid on the table."""

    kind: Annotated[str, "pair, run, triple or quad"]
    tiles: Annotated[list[str], "its tiles"]
    concealed: Annotated[bool, "whether it was made in the hand (not with a claimed tile)"]
    points: Annotated[int, "what it scores"]


class HandEnd(TypedDict):
    """The hand is over: someone went out, or the woodpile ran out (a drawn hand)."""

    kind: Literal["hand_end"]
    hand: Annotated[int, "the hand's number"]
    dealer: Annotated[int, "its dealer"]
    winner: Annotated[int | None, "who went out (null: drawn)"]
    how: Annotated[Literal["pull", "claim"] | None, "went out on a pull or on a discard (null: drawn)"]
    tile: Annotated[str | None, "the tile that made the winning hand"]
    discarder: Annotated[int | None, "who discarded it, when claimed (he pays alone, three times)"]
    sets: Annotated[list[MeldSet], "the winning hand's sets"]
    breakdown: Annotated[list[tuple[str, int]], "the winning hand's value, item by item: [label, points]"]
    value: Annotated[int, "the winning hand's value (0 in shootout)"]
    stakes: Annotated[list[int], "each seat's ready stake on the table (won by the winner, returned if drawn)"]
    exposed: Annotated[list[list[MeldSet]], "each seat's sets on the table at the end (the winner's whole hand)"]
    discards: Annotated[list[tuple[int, str]], "the discards left on the table: [seat, tile]"]
    points: Annotated[list[int], "each seat's chips won or lost this hand (shootout: the out won)"]
    totals: Annotated[list[int], "each seat's score after it: chips (shootout: outs)"]


class DealsAgain(TypedDict):
    """The dealer went out, so he deals again."""

    kind: Literal["deals_again"]
    seat: Annotated[int, "the dealer"]


EVENTS: tuple[type, ...] = (
    FirstDealer, Deal, Dealt, Pull, WoodpileEmpty, Discard, ReadyDiscard, Quad, Add, Replacement, Answer, Answers,
    Claimed, Out, HandEnd, DealsAgain,
)
