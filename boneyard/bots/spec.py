"""Bot specs as written on command lines: ``name`` or ``name:key=value:key=value``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import Bot, bot, bots


@dataclass(frozen=True)
class BotSpec:
    """A bot by name plus parameters, e.g. ``ismcts:iterations=100:ms=200``."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        """The spec as written: ``name[:key=value...]``."""
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.params)])

    def make(self) -> Bot:
        """A fresh bot of this spec (``ValueError``/``TypeError`` on a bad name or parameter)."""
        return bot(self.name, **dict(self.params))


def refusal(made: Any, game: str, players: int) -> str | None:
    """Why the bot ``made`` cannot play ``game`` with ``players`` seats, where it says so (``None``: it can).

    Most bots play every game. One that needs a learned network (``policy``, and ``ismcts``
    with ``favourite=learned`` or ``rollout=learned``) answers through its
    ``refuses(game, players)`` method, so that the arena, the simulator, the terminal
    game and the server refuse it in words before the first deal instead of failing
    at its first decision.
    """
    refuses = getattr(made, "refuses", None)
    return refuses(game, players) if callable(refuses) else None


def parse_value(text: str) -> Any:
    """A parameter's text as an int, a float, a bool (``true``/``false``) or the text itself."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    return text


def parse_bot_spec(text: str) -> BotSpec:
    """``"ismcts:iterations=100:ms=200"`` to a checked :class:`BotSpec`; ``ValueError`` naming the problem."""
    parts = [p.strip() for p in str(text).strip().split(":")]
    name = parts[0]
    if name not in bots():
        raise ValueError(f"unknown bot {name!r}; available bots: {', '.join(bots())}")
    params = []
    for part in parts[1:]:
        if "=" not in part:
            raise ValueError(f"bot parameters are written name:key=value, got {part!r} in {text!r}")
        key, raw = part.split("=", 1)
        params.append((key.strip(), parse_value(raw.strip())))
    spec = BotSpec(name, tuple(params))
    try:
        spec.make()
    except TypeError as err:
        raise ValueError(f"bad parameters for bot {name!r} in {text!r}: {err}") from None
    return spec
