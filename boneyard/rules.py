"""Rules options: one frozen dataclass per game, validated from a plain dict.

A game declares its options as fields made with :func:`option`::

    @dataclass(frozen=True)
    class RounceRules(Rules):
        start: int = option(15, minimum=1, doc="points each player starts with")

``RounceRules.from_dict({"start": 10})`` validates names and values and raises
:class:`~boneyard.errors.RulesError` listing the valid options on any mistake.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Self

from mypy_extensions import mypyc_attr

from .errors import RulesError


def option(
    default: Any,
    *,
    doc: str,
    allowed: Sequence[Any] | None = None,
    minimum: float | None = None,
) -> Any:
    """Declare a rules option with its default, its documentation and its valid values.

    ``allowed`` lists the only valid values; ``minimum`` bounds a number from below
    (exclusive of nothing: the minimum itself is valid). The option's type is the
    default's type (an int option also takes whole floats such as ``150.0``).
    """
    meta = {"doc": doc, "allowed": tuple(allowed) if allowed is not None else None, "minimum": minimum}
    return dataclasses.field(default=default, metadata=meta)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclasses.dataclass(frozen=True)
class Rules:
    """Base class of every game's options (compiled with the engines; plug-ins subclass it too)."""

    @classmethod
    def describe(cls) -> dict[str, dict[str, Any]]:
        """Each option's default, type, valid values and documentation, JSON-ready."""
        out: dict[str, dict[str, Any]] = {}
        for f in dataclasses.fields(cls):
            meta = f.metadata
            entry: dict[str, Any] = {
                "default": f.default,
                "type": type(f.default).__name__,
                "doc": meta.get("doc", ""),
            }
            if meta.get("allowed") is not None:
                entry["allowed"] = list(meta["allowed"])
            elif isinstance(f.default, bool):
                entry["allowed"] = [False, True]
            if meta.get("minimum") is not None:
                entry["minimum"] = meta["minimum"]
            out[f.name] = entry
        return out

    @classmethod
    def valid_options(cls) -> str:
        """A one-line summary of the valid options, for error messages."""
        parts = []
        for name, d in cls.describe().items():
            if "allowed" in d:
                values = "|".join(_show(v) for v in d["allowed"])
            elif "minimum" in d:
                values = f"{d['type']} >= {_show(d['minimum'])}"
            else:
                values = d["type"]
            parts.append(f"{name}={values} (default {_show(d['default'])})")
        return "; ".join(parts) if parts else "none"

    @classmethod
    def from_dict(cls, given: Any) -> Self:
        """Build validated options from a dict (``None`` or ``{}``: all defaults)."""
        if given is None:
            return cls()
        if isinstance(given, cls):
            return given
        if not isinstance(given, Mapping):
            raise RulesError(f"rules must be a mapping of option names to values; valid options: {cls.valid_options()}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for name, value in given.items():
            if name not in fields:
                raise RulesError(f"unknown rules option {name!r}; valid options: {cls.valid_options()}")
            values[name] = _check_value(name, value, fields[name], cls)
        return cls(**values)

    @classmethod
    def parse_value(cls, name: str, text: str) -> Any:
        """Turn the text of a value (from a command line) into the option's type."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        if name not in fields:
            raise RulesError(f"unknown rules option {name!r}; valid options: {cls.valid_options()}")
        default = fields[name].default
        t = text.strip()
        value: Any = t
        if isinstance(default, bool):
            low = t.lower()
            if low in ("true", "yes", "on", "1"):
                value = True
            elif low in ("false", "no", "off", "0"):
                value = False
        elif isinstance(default, int | float):
            try:
                value = int(t)
            except ValueError:
                try:
                    value = float(t)
                except ValueError:
                    value = t
        return _check_value(name, value, fields[name], cls)

    def to_dict(self) -> dict[str, Any]:
        """All options with their values, JSON-ready."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_value(name: str, value: Any, field: dataclasses.Field[Any], cls: type[Rules]) -> Any:
    default = field.default
    meta = field.metadata
    bad = RulesError(f"bad value {value!r} for rules option {name!r}; valid options: {cls.valid_options()}")
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise bad
    elif isinstance(default, int):
        if isinstance(value, bool):
            raise bad
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, int):
            raise bad
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad
        value = float(value)
    elif isinstance(default, str) and not isinstance(value, str):
        raise bad
    allowed = meta.get("allowed")
    if allowed is not None and value not in allowed:
        raise bad
    minimum = meta.get("minimum")
    if minimum is not None and value < minimum:
        raise bad
    return value
