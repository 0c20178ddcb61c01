"""Group commit: many writes share transactions, and one bad write fails only its own caller."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from boneyard.server.commits import Committer
from boneyard.server.db import Store, write_action


def action(number: int, text: str = "pass") -> Any:
    """The write of action ``number`` at table t."""
    return functools.partial(write_action, table_id="t", number=number, action=text, seat=0, is_over=False)


async def submit(committer: Committer, writes: list[Any]) -> list[BaseException | None]:
    """Queue every write at once; each caller's outcome."""
    results = await asyncio.gather(*(committer.write(w) for w in writes), return_exceptions=True)
    return [r if isinstance(r, BaseException) else None for r in results]


def test_writes_are_batched_and_a_conflict_fails_alone(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    store.add_table("t", "rounce", 2, 1, {}, ["human", "human"])
    committer = Committer(store)
    try:
        assert asyncio.run(submit(committer, [action(n) for n in range(60)])) == [None] * 60
        assert committer.writes == 60 and committer.batches < 60  # writes shared transactions
        second = [action(n) for n in range(60, 70)]
        second.insert(5, action(7, "fold"))  # number 7 is stored already: a conflict
        outcomes = asyncio.run(submit(committer, second))
    finally:
        committer.close()
    assert [type(r) for r in outcomes if r is not None] == [IntegrityError]
    assert outcomes[5] is not None
    assert [a for a, _ in store.actions("t")] == ["pass"] * 70
    with pytest.raises(RuntimeError, match="shutting down"):
        asyncio.run(committer.write(action(70)))
    store.close()
