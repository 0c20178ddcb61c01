"""Group commit: many writes share transactions, and one bad write fails only its own caller."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from boneyard.server import commits as commits_module
from boneyard.server.commits import Committer
from boneyard.server.db import ActionWrite, Store, write_action, write_seat


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


def test_actions_share_one_insert_with_other_writes_and_a_failed_connection_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    store.add_table("t", "rounce", 2, 1, {}, ["human", "human"])
    committer = Committer(store)
    inserts: list[int] = []
    real = commits_module.write_actions

    def counted(conn: Any, writes: list[ActionWrite]) -> None:
        inserts.append(len(writes))
        real(conn, writes)

    monkeypatch.setattr(commits_module, "write_actions", counted)
    try:
        writes: list[Any] = [ActionWrite("t", n, "pass", 0, False, result=n) for n in range(40)]
        writes.insert(10, functools.partial(write_seat, table_id="t", seat=1, name="Bob", token="x"))

        async def run(ws: list[Any]) -> list[Any]:
            return await asyncio.gather(*(committer.write(w) for w in ws))

        results = asyncio.run(run(writes))
        assert results[:10] == list(range(10)) and results[11:] == list(range(10, 40))  # each gets its own result
        assert sum(inserts) == 40 and len(inserts) < 40  # actions went in multi-row inserts
        first = committer._conn
        assert first is not None

        def down(conn: Any, writes: list[ActionWrite]) -> None:
            raise OperationalError("INSERT", {}, Exception("server closed the connection"))

        monkeypatch.setattr(commits_module, "write_actions", down)
        with pytest.raises(OperationalError):
            asyncio.run(committer.write(ActionWrite("t", 40, "pass", 0, False)))
        monkeypatch.setattr(commits_module, "write_actions", real)
        assert asyncio.run(committer.write(ActionWrite("t", 40, "pass", 0, True, result="ok"))) == "ok"
        assert committer._conn is not None and committer._conn is not first  # a fresh connection after the failure
    finally:
        committer.close()
    assert [a for a, _ in store.actions("t")] == ["pass"] * 41
    assert [s.name for s in store.seats("t")] == ["Bob"]
    row = store.table("t")
    assert row is not None and row.is_over
    store.close()
