"""The random bot, compiled with the engines: simulations of random play spend little beside the rules.

Random play is what simulations, benchmarks and RL baselines run by the million, so this
module joins the engines in the mypyc build (``hatch_build.py``); as pure Python it gives
the same choices. It never reads the game, only the legal actions it is handed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ..draws import randbelow


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Plays uniformly at random among the legal actions.

    ``needs_view`` is ``False``: ``choose`` never reads its view, so a caller that builds
    views only for bots (the simulator) may pass an empty dict instead of building one.
    """

    name = "random"
    needs_view: ClassVar[bool] = False

    def __init__(self) -> None:
        """No parameters: ``random:depth=3`` is refused with a ``TypeError``, as a spec checker expects."""

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: Any) -> Any:
        """A uniformly random legal action (the one ``rng.randrange`` would pick)."""
        return legal_actions[randbelow(rng, len(legal_actions))]
