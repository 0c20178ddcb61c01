"""The words of a notice that reaches a player away from the table (Web Push and e-mail).

A notice is told from facts the server hands over (the kind, the game's name, the
players' names, who acted, the chat line, the winners), never from another sentence:
the push payload carries those facts as data beside the title and body made here, so
that nothing downstream reads the words back. Players are named, never numbered.
"""

from __future__ import annotations

from collections.abc import Sequence

# The kinds of notice a player may ask for, in the order the settings panel lists them.
KINDS = ("turn", "join", "chat", "end")

# How the settings panel names each kind.
KIND_LABELS = {
    "turn": "It is my turn",
    "join": "Someone joins my table",
    "chat": "A chat message at my table",
    "end": "A game of mine ends",
}

CHAT_SHOWN = 200  # characters of a chat line a notice repeats


def listed(names: Sequence[str]) -> str:
    """Names as a person lists them: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    names = [n for n in names if n]
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def with_others(you: str, names: Sequence[str]) -> str:
    """The other players at the table, for "in Rounce with Ann and Bob"."""
    others = [n for n in names if n != you]
    return listed(others) if others else "nobody else yet"


def turn_words(game: str, you: str, names: Sequence[str], actor: str | None) -> tuple[str, str]:
    """Title and body of "your turn": the game, who moved last and whom you play with."""
    title = f"Your turn in {game}"
    before = f"{actor} has played. " if actor and actor != you else ""
    return title, f"{before}It is your turn, {you}, in {game} with {with_others(you, names)}."


def join_words(game: str, you: str, names: Sequence[str], joiner: str) -> tuple[str, str]:
    """Title and body of "someone joined your table"."""
    others = [n for n in names if n not in (you, joiner)]
    rest = f" Also at the table: {listed(others)}." if others else ""
    return f"{joiner} joined your table", f"{joiner} took a seat at your {game} table, {you}.{rest}"


def chat_words(game: str, you: str, speaker: str, text: str) -> tuple[str, str]:
    """Title and body of a chat line said at the player's table (cut to :data:`CHAT_SHOWN` characters)."""
    shown = text if len(text) <= CHAT_SHOWN else text[: CHAT_SHOWN - 1] + "…"
    return f"{speaker} wrote at your {game} table", f"{speaker}: {shown}"


def end_words(game: str, you: str, names: Sequence[str], winners: Sequence[str]) -> tuple[str, str]:
    """Title and body of a finished game: who won, in names ("you" for the reader)."""
    title = f"Your {game} game is over"
    where = f"The game of {game} with {with_others(you, names)} is over"
    if not winners:
        return title, where + "."
    said = ["you" if w == you else w for w in winners]
    verb = "win" if len(said) > 1 or said[0] == "you" else "wins"
    return title, f"{where}: {listed(said)} {verb}."
