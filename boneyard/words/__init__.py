"""Events told in words: the one place where what happened at a table becomes English.

The engines record what happens as typed events (:mod:`boneyard.games.events`); every
layer that shows them to a person (the web app's log and panels, the terminal, the
replay, the coach) asks this package for the words, and nobody reads the words back.

Each game has a :class:`Words` subclass in ``boneyard/words/<id>.py`` (found by game id,
or given with :func:`register` for a game living elsewhere), with one method
``on_<kind>(event)`` per event kind returning a sentence. A sentence names the players
(``Ann``; ``you`` for the seat reading it), never a seat number, and says what a person
at the table would say. A game with no module of its own gets :class:`Words` itself,
which still says something plain for any event.

Use :func:`words` for a game's teller, then :meth:`Words.tell` for one event or
:meth:`Words.story` for a list of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..plugins import PerGame

# The number words a sentence uses for small counts.
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# A number of pips as a word ("a four"), and its suit ("fours"): blank to six.
_PIPS = ("blank", "one", "two", "three", "four", "five", "six")
_SUITS = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes")
# Third-person verbs whose second-person form is not the verb less its final -s.
_IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were"}
_ES_ENDINGS = ("sses", "shes", "ches", "xes", "zes", "oes")


class Words:
    """The English of one game's events, for one table: its players' names and the reader's seat.

    ``names`` gives each seat's name as the reader knows it; ``me`` is the reader's seat
    (spoken of as "you"), ``None`` for a spectator or a replay told to everyone; ``sides``
    the game's declared sides (``Game.sides``: who wins and loses together; every seat
    alone when not given; :func:`words` passes the game's own). The generic methods here
    serve every game; a game's subclass adds ``on_<kind>`` methods.
    """

    def __init__(
        self, names: Sequence[str], me: int | None = None, sides: Sequence[Sequence[int]] | None = None
    ) -> None:
        self.names = list(names)
        self.me = me
        self.sides = [list(s) for s in sides] if sides is not None else [[s] for s in range(len(self.names))]

    # ----- telling ---------------------------------------------------------------------

    def tell(self, event: Mapping[str, Any]) -> str:
        """One event as a sentence (its kind's ``on_<kind>`` method, else a plain fallback)."""
        kind = str(event.get("kind", ""))
        method = getattr(self, f"on_{kind}", None)
        if method is None:
            return self.fallback(event)
        return str(method(event))

    def story(self, events: Sequence[Mapping[str, Any]]) -> list[str]:
        """Each event as a sentence, in order (one per event, so that they line up)."""
        return [self.tell(e) for e in events]

    def fallback(self, event: Mapping[str, Any]) -> str:
        """A plain sentence for a kind this game's words do not know: who, what, and the tiles."""
        kind = str(event.get("kind", "something")).replace("_", " ")
        seat = event.get("seat")
        tiles = event.get("tiles") or ([event["tile"]] if isinstance(event.get("tile"), str) else [])
        what = f"{kind} {' '.join(tiles)}".strip()
        if isinstance(seat, int):
            return self.sentence(f"{self.name(seat)}: {what}")
        return self.sentence(what[:1].upper() + what[1:])

    # ----- the events every game has ---------------------------------------------------

    def on_game_over(self, e: Mapping[str, Any]) -> str:
        """The game's end: who won, and the hand limit when that is what ended it.

        Several winners who make one side won together ("Ann and Cy win"); other
        winners tied ("Ann and Bob share the win").
        """
        winners = list(e.get("winners") or [])
        limit = e.get("hand_limit")
        why = f"The hand limit of {self.count(limit, 'hand')} is reached. " if limit else ""
        if not winners:
            return self.sentence(f"{why}The game is over")
        who = self.names_of(winners, start=False)
        if len(winners) == 1:
            return self.sentence(f"{why}Game over: {self.does(winners[0], 'wins', start=False)}")
        if sorted(winners) in [sorted(side) for side in self.sides]:
            return self.sentence(f"{why}Game over: {who} win")
        if len(winners) == len(self.names):
            return self.sentence(f"{why}Game over: everyone ties and shares the win")
        return self.sentence(f"{why}Game over: {who} share the win")

    def on_dealt(self, e: Mapping[str, Any]) -> str:
        """The tiles dealt to a seat ("You are dealt 6-6, 6-4 and 5-1."): a kind every game shares."""
        return self.sentence(f"{self.does(e['seat'], 'is dealt')} {self.tiles(e['tiles'])}")

    def on_first_dealer(self, e: Mapping[str, Any]) -> str:
        """Who deals the first hand ("Ann deals first."); a game whose first deal is chosen otherwise says so."""
        return self.sentence(f"{self.does(e['seat'], 'deals')} first")

    # ----- helpers for the sentences -----------------------------------------------------

    def side_index(self, seat: int) -> int:
        """The index of the seat's side in :attr:`sides` (what per-side fields of events are ordered by)."""
        return next(i for i, side in enumerate(self.sides) if seat in side)

    def side_name(self, index: int) -> str:
        """A side named by its players, in seat order: "Ann and Cy", "Bob and you"."""
        return self.names_of(self.sides[index], start=False)

    def name(self, seat: int, start: bool = True) -> str:
        """A seat's name; "You" (or "you" when not ``start``) for the reader."""
        if seat == self.me:
            return "You" if start else "you"
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return "a player"

    def whose(self, seat: int, start: bool = False) -> str:
        """A seat's possessive: "Ann's", "your"."""
        if seat == self.me:
            return "Your" if start else "your"
        return f"{self.name(seat)}'s"

    def names_of(self, seats: Sequence[int], start: bool = True) -> str:
        """Several seats in a phrase: "Ann", "Ann and you", "Ann, Bob and Cy"."""
        named = [self.name(s, start=start and i == 0) for i, s in enumerate(seats)]
        if len(named) <= 1:
            return "".join(named) or "nobody"
        return f"{', '.join(named[:-1])} and {named[-1]}"

    def does(self, seat: int, verb: str, start: bool = True) -> str:
        """The verb as said of the seat: "Ann discards", "You discard" ("you discard" when not ``start``).

        ``verb`` is given in the third person; :meth:`verb` makes it agree with "you".
        """
        return f"{self.name(seat, start=start)} {self.verb(seat, verb)}"

    def verb(self, seat: int, verb: str) -> str:
        """A third-person verb made to agree with the seat ("discards" -> "discard" for you)."""
        if seat != self.me:
            return verb
        first, _, rest = verb.partition(" ")
        if first in _IRREGULAR:
            base = _IRREGULAR[first]
        elif first.endswith(_ES_ENDINGS):
            base = first[:-2]
        elif first.endswith("ies"):
            base = first[:-3] + "y"
        elif first.endswith("s"):
            base = first[:-1]
        else:
            base = first
        return f"{base} {rest}" if rest else base

    def listing(self, items: Sequence[tuple[int, str]]) -> str:
        """Seats each with a figure, as a score line says them: "Cy +18, you −6, Bob −6".

        A name that ends in a figure ("random bot 2") is followed by a colon, so that its
        number and the score do not run together ("random bot 2: 15").
        """
        return ", ".join(self.figure(self.name(seat, start=False), text) for seat, text in items)

    @staticmethod
    def figure(who: str, text: str) -> str:
        """A name and its figure: "Cy +18", or "random bot 2: 15" when the name ends in a figure."""
        return f"{who}: {text}" if who[-1:].isdigit() else f"{who} {text}"

    @staticmethod
    def points(n: Any, noun: str = "point", plural: str | None = None) -> str:
        """An amount in figures with its noun: "6 points", "1 point" (scores read best as figures)."""
        k = int(n)
        return f"{k} {noun if abs(k) == 1 else plural or noun + 's'}"

    @staticmethod
    def number(n: Any) -> str:
        """A number of pips as a word: "blank", "four", "six"."""
        k = int(n)
        return _PIPS[k] if 0 <= k < len(_PIPS) else str(k)

    @staticmethod
    def suit(n: Any) -> str:
        """A number's suit, as players say it: "blanks", "fours", "sixes"."""
        k = int(n)
        return _SUITS[k] if 0 <= k < len(_SUITS) else f"{k}s"

    @staticmethod
    def group(tiles: Sequence[str]) -> str:
        """Tiles laid together as one set, the way they lie: "6-4 6-4 6-4"."""
        return " ".join(tiles)

    @staticmethod
    def cardinal(n: Any) -> str:
        """A count alone, as :meth:`count` says it: "no", "three", "12" (small numbers in words)."""
        k = int(n)
        return _NUMBERS[k] if 0 <= k < len(_NUMBERS) else str(k)

    @classmethod
    def count(cls, n: Any, noun: str, plural: str | None = None) -> str:
        """A count with its noun: "one tile", "12 tiles" (small numbers in words)."""
        k = int(n)
        return f"{cls.cardinal(k)} {noun if k == 1 else plural or noun + 's'}"

    @staticmethod
    def tiles(tiles: Sequence[str]) -> str:
        """Tiles in a phrase: "6-4", "6-4 and 5-5", "6-4, 5-5 and 3-1"."""
        tiles = list(tiles)
        if len(tiles) <= 1:
            return "".join(tiles)
        return f"{', '.join(tiles[:-1])} and {tiles[-1]}"

    @staticmethod
    def signed(n: int) -> str:
        """A change of score: "+5", "−3", "0"."""
        return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"

    @staticmethod
    def sentence(text: str) -> str:
        """Text as one sentence: a capital first and a full stop last."""
        text = text.strip()
        if not text:
            return text
        text = text[0].upper() + text[1:]
        return text if text.endswith((".", "!", "?")) else text + "."


def _from_module(module: Any) -> type[Words]:
    cls = getattr(module, "WORDS", None)
    if not (isinstance(cls, type) and issubclass(cls, Words)):
        raise TypeError(f"{module.__name__} must define WORDS, a subclass of boneyard.words.Words")
    return cls


_WORDS: PerGame[type[Words]] = PerGame(__name__, _from_module, Words)


def register(game_id: str, cls: type[Words]) -> None:
    """Give a game (one living outside ``boneyard``, say) its words."""
    _WORDS.register(game_id, cls)


def unregister(game_id: str) -> None:
    """Remove what :func:`register` added (tests clean up with this)."""
    _WORDS.unregister(game_id)


def words_class(game_id: str) -> type[Words]:
    """The game's :class:`Words` subclass (registered, else its module's ``WORDS``, else :class:`Words`)."""
    return _WORDS.get(game_id)


def words(game_id: str, names: Sequence[str], me: int | None = None) -> Words:
    """A game's teller for a table whose seats are called ``names``, read by seat ``me``."""
    from ..games import game_class

    return words_class(game_id)(names, me, game_class(game_id).sides(len(names)))


def tell(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """Every event of a seat's view in words, as that seat reads them (one sentence per event)."""
    return words(str(view["game"]), names, view.get("seat")).story(view.get("events") or [])
