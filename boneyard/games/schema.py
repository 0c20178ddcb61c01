"""The events' contract, made from each game's declarations: JSON Schema, and tables for readers.

A game declares its event kinds in ``events.py`` beside its engine (see
:mod:`boneyard.games.events`). From those declarations this module makes

- :func:`schema`: a JSON Schema (draft 2020-12) of one game's events, built by pydantic
  from the ``TypedDict`` declarations, with each field's meaning and who may see it, and
  no field but the declared ones. The five games' schemas ship in the package as
  ``boneyard/games/<id>/events.schema.json``; tests validate every event a game emits
  against its schema, and check that the shipped files match the declarations;
- :func:`markdown`: the tables of ``docs/api.md`` ("Events"), one per game.

``python -m boneyard.games.schema`` writes the shipped schema files and the tables in
``docs/api.md`` again from the declarations (``--check`` only says whether they are
current).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

from typing_extensions import is_typeddict  # the declarations' TypedDict is typing_extensions'

from . import game_class
from .events import COMMON_EVENTS, PRIVATE, Only

#: The schema's version: raised when a change could break a reader of the events.
VERSION = 1
DOCS_START = "<!-- events: made by python -m boneyard.games.schema; do not edit by hand -->"
DOCS_END = "<!-- events: end -->"


def events_module(game_id: str) -> types.ModuleType:
    """The module declaring ``game_id``'s events: ``events`` beside the engine's module.

    ``ValueError`` names the game when it declares none.
    """
    cls = game_class(game_id)
    package = cls.__module__.rpartition(".")[0]
    name = f"{package}.events" if package else "events"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        raise ValueError(f"game {game_id!r} declares no events: {name} is missing") from err
    if not hasattr(module, "EVENTS"):
        raise ValueError(f"game {game_id!r}: {name} has no EVENTS tuple")
    return module


def declared(game_id: str) -> dict[str, type]:
    """The game's event kinds, in its declaration order, each with its ``TypedDict`` (``game_over`` last)."""
    out: dict[str, type] = {}
    for td in (*events_module(game_id).EVENTS, *COMMON_EVENTS):
        out[_kind_of(td)] = td
    return out


def is_private(td: type) -> bool:
    """Whether only the event's own seat ever sees events of this kind (its docstring says so)."""
    return (td.__doc__ or "").startswith(PRIVATE)


def secret_fields(td: type) -> list[str]:
    """The fields of a kind present only in the views of the seats the declaration names."""
    return [name for name, (_, _, only) in _fields(td).items() if only is not None]


def schema(game_id: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) one event of ``game_id`` validates against."""
    import pydantic  # here, not at import: only schema makers and tests need it

    kinds = declared(game_id)
    # A union made at run time from the declared kinds (hence Any: mypy cannot see it).
    union: Any = typing.Annotated[Union[tuple(kinds.values())], pydantic.Field(discriminator="kind")]  # noqa: UP007
    made = pydantic.TypeAdapter(union).json_schema(ref_template="#/$defs/{model}")
    by_name = {td.__name__: td for td in _reachable(kinds.values())}
    for name, sub in made.get("$defs", {}).items():
        td = by_name.get(name)
        if td is not None:
            _describe(sub, td)
    name = game_class(game_id).name
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"boneyard:{game_id}:events:v{VERSION}",
        "title": f"{name}: one event",
        "description": (
            f"An entry of view(seat)['events'] in {name}: a JSON object whose 'kind' names it. "
            "Fields marked 'Only in the view of ...' are absent from the views of every other seat."
        ),
        "version": VERSION,
        **made,
    }


def markdown(game_id: str) -> str:
    """The Markdown table of ``game_id``'s event kinds and fields (a section of ``docs/api.md``)."""
    cls = game_class(game_id)
    lines = [f"#### {cls.name} (`{game_id}`)", "", "| kind | fields | meaning |", "| --- | --- | --- |"]
    for kind, td in declared(game_id).items():
        doc = (td.__doc__ or "").strip().replace("\n", " ")
        fields = []
        for name, (tp, text, only) in _fields(td).items():
            if name == "kind":
                continue
            fields.append(f"`{name}` ({_type_words(tp)}{', ' + only.who + ' only' if only else ''}): {text}")
        lines.append(f"| `{kind}` | {'<br>'.join(fields) or '—'} | {doc} |")
    kinds = declared(game_id).values()
    nested = [td for td in _reachable(kinds) if td not in kinds]
    if nested:
        lines += ["", "Parts of events:", ""]
        for td in nested:
            parts = ", ".join(f"`{n}` ({_type_words(tp)}): {text}" for n, (tp, text, _) in _fields(td).items())
            lines.append(f"- `{td.__name__}`: {parts}.")
    return "\n".join(lines) + "\n"


def docs_block(game_ids: list[str]) -> str:
    """The whole generated block of ``docs/api.md``: every game's table, between the markers."""
    return "\n".join([DOCS_START, "", *(markdown(g) for g in game_ids), DOCS_END])


# ----- reading the declarations ------------------------------------------------------------


def _kind_of(td: type) -> str:
    hint = typing.get_type_hints(td)["kind"]
    args = get_args(hint)
    if get_origin(hint) is not Literal or len(args) != 1:
        raise ValueError(f"{td.__name__}: 'kind' must be declared as one Literal string")
    return str(args[0])


def _fields(td: type) -> dict[str, tuple[Any, str, Only | None]]:
    """Each field of a ``TypedDict``: its bare type, its meaning, and who alone may see it."""
    out: dict[str, tuple[Any, str, Only | None]] = {}
    for name, hint in typing.get_type_hints(td, include_extras=True).items():
        while get_origin(hint) in (NotRequired, Required):
            hint = get_args(hint)[0]
        text, only = "", None
        if get_origin(hint) is typing.Annotated:
            base, *meta = get_args(hint)
            for m in meta:
                if isinstance(m, str):
                    text = m
                elif isinstance(m, Only):
                    only = m
            hint = base
        out[name] = (hint, text, only)
    return out


def _reachable(roots: Any) -> list[type]:
    """The ``TypedDict`` classes named by ``roots`` and by their fields, each once, roots first."""
    seen: list[type] = []

    def visit(tp: Any) -> None:
        if is_typeddict(tp):
            if tp in seen:
                return
            seen.append(tp)
            for hint, _, _ in _fields(tp).values():
                visit(hint)
            return
        for arg in get_args(tp):
            visit(arg)

    for td in roots:
        visit(td)
    return seen


def _describe(sub: dict[str, Any], td: type) -> None:
    """Give a generated object schema its fields' meanings, and refuse undeclared fields."""
    sub["additionalProperties"] = False
    sub.pop("title", None)
    for name, (_, text, only) in _fields(td).items():
        prop = sub.get("properties", {}).get(name)
        if prop is None:
            continue
        prop.pop("title", None)
        words = text
        if only is not None:
            words = f"Only in the view of {only.who}: {text}"
        if words:
            prop["description"] = words


def _type_words(tp: Any) -> str:
    """A field's type as a reader says it: int, tile list, int or null..."""
    origin = get_origin(tp)
    if tp is int:
        return "int"
    if tp is str:
        return "str"
    if tp is bool:
        return "bool"
    if tp is type(None):
        return "null"
    if origin is Literal:
        return " or ".join(json.dumps(a) for a in get_args(tp))
    if origin in (Union, types.UnionType):
        return " or ".join(_type_words(a) for a in get_args(tp))
    if origin is list:
        return f"list of {_type_words(get_args(tp)[0])}"
    if origin is tuple:
        return "[" + ", ".join(_type_words(a) for a in get_args(tp)) + "]"
    if is_typeddict(tp):
        return f"`{tp.__name__}`"
    return getattr(tp, "__name__", str(tp))


# ----- writing the shipped files ---------------------------------------------------------------


def schema_path(game_id: str) -> Path:
    """Where a built-in game's schema ships: beside its ``events.py``."""
    module = events_module(game_id)
    assert module.__file__ is not None
    return Path(module.__file__).with_name("events.schema.json")


def schema_text(game_id: str) -> str:
    """The shipped file's text for a game's schema (stable: sorted keys, one indent)."""
    return json.dumps(schema(game_id), indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or ``--check``) the five games' schema files and the events tables of ``docs/api.md``."""
    from .. import api

    parser = argparse.ArgumentParser(prog="python -m boneyard.games.schema", description=main.__doc__)
    parser.add_argument("--check", action="store_true", help="only say whether the files are current")
    parser.add_argument("--docs", type=Path, default=Path("docs/api.md"), help="the API page holding the tables")
    args = parser.parse_args(argv)
    games = [g for g in api.games() if game_class(g).__module__.startswith("boneyard.games.")]
    stale = []
    for g in games:
        path = schema_path(g)
        text = schema_text(g)
        if not path.exists() or path.read_text() != text:
            stale.append(str(path))
            if not args.check:
                path.write_text(text)
    page = args.docs.read_text()
    start, end = page.find(DOCS_START), page.find(DOCS_END)
    if start < 0 or end < start:
        print(f"{args.docs}: the markers of the events tables are missing", file=sys.stderr)
        return 1
    block = docs_block(games)
    if page[start : end + len(DOCS_END)] != block:
        stale.append(str(args.docs))
        if not args.check:
            args.docs.write_text(page[:start] + block + page[end + len(DOCS_END) :])
    if args.check and stale:
        print("out of date (run python -m boneyard.games.schema): " + ", ".join(stale), file=sys.stderr)
        return 1
    print(("checked: " if args.check else "written: ") + (", ".join(stale) if stale else "all current"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
