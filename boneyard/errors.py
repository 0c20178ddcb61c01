"""The two errors of the public contract."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that cannot be played now, or text that is not an action.

    The message names the rule the action breaks (or the notation expected). The game
    that raised it is exactly as it was before the call.
    """


class RulesError(ValueError):
    """An unknown rules option, or a bad value for one; the message lists the options."""
