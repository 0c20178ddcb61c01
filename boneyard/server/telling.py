"""The words of a table's events, as each reader reads them: the web app's log.

Every state the server sends carries, beside its view, one sentence per event of that
view (``state["log"][i]`` tells ``state["view"]["events"][i]``), made by the game's
teller in :mod:`boneyard.words` with the table's names as the page shows them. The pages
show these sentences and never read them back: what they draw comes from the events.

A table's events are shared, read-only dicts that stay in its views for the rest of
their hand, so each sentence is made once per reader and remembered while its event is
still shown (:class:`Teller`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.words import Words, words


def reader_names(seats: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each seat's name as the table page shows it, from the seats' public facts.

    A seat nobody has joined yet is "open seat N"; two seats with one name (three random
    bots) are told apart by their seat number, as the page's player list does. The
    reader's own seat keeps its name here: the words say "you" for it.
    """
    names = [str(info.get("name") or f"open seat {s}") for s, info in enumerate(seats)]
    return [f"{name} {s}" if names.count(name) > 1 and seats[s].get("name") else name
            for s, name in enumerate(names)]


class Teller:
    """One table's sentences for each reader, remembered while their events are shown.

    A sentence depends only on its event, the names and the reader, so it is made the
    first time a reader's state holds the event and reused for later states; the memory
    keeps only the events of the latest states told (the rest were cut from the views),
    and a change of names (a join) starts it afresh.
    """

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._names: list[str] = []
        self._tellers: dict[int | None, Words] = {}
        # per reader: id(event) -> (event, sentence); the event is kept so that its id stays its own
        self._told: dict[int | None, dict[int, tuple[Mapping[str, Any], str]]] = {}

    def log(self, names: list[str], seat: int | None, events: Sequence[Mapping[str, Any]]) -> list[str]:
        """One sentence per event of ``seat``'s view, in order, as ``seat`` reads them (None: a spectator)."""
        if names != self._names:
            self._names, self._tellers, self._told = list(names), {}, {}
        teller = self._tellers.get(seat)
        if teller is None:
            teller = self._tellers[seat] = words(self.game_id, names, seat)
        known = self._told.get(seat, {})
        told: dict[int, tuple[Mapping[str, Any], str]] = {}
        out = []
        for event in events:
            hit = known.get(id(event))
            if hit is None or hit[0] is not event:
                hit = (event, teller.tell(event))
            told[id(event)] = hit
            out.append(hit[1])
        self._told[seat] = told
        return out


def tell(game_id: str, names: list[str], seat: int | None, events: Sequence[Mapping[str, Any]]) -> list[str]:
    """The sentences of ``events`` as ``seat`` reads them, made afresh (replays and one-off states)."""
    return words(game_id, names, seat).story(events)
