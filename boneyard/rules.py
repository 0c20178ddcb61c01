"""Rules options: one frozen dataclass per game, validated from a plain dict.

A game declares its options as fields made with :func:`option`::

    @dataclass(frozen=True)
    class RounceRules(Rules):
        start: int = option(15, label="Starting points", minimum=1, maximum=99,
                            doc="points each player starts with")

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
    label: str,
    doc: str,
    allowed: Sequence[Any] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
) -> Any:
    """Declare a rules option with its default, its wording for people and its valid values.

    ``label`` is the short name a player reads (a form label, a column head) and ``doc``
    the one-line help that explains it, so that the lobby, the terminal and the rules pages
    never show an identifier. ``allowed`` lists the only valid values; ``minimum`` and
    ``maximum`` bound a number (both inclusive). Every number needs both bounds: an
    unbounded target would let a game run for ever. The option's type is the default's
    type (an int option also takes whole floats such as ``150.0``).
    """
    number = isinstance(default, int | float) and not isinstance(default, bool)
    if number and allowed is None and (minimum is None or maximum is None):
        raise TypeError(f"a number option needs a minimum and a maximum (label {label!r})")
    meta = {
        "label": label,
        "doc": doc,
        "allowed": tuple(allowed) if allowed is not None else None,
        "minimum": minimum,
        "maximum": maximum,
    }
    return dataclasses.field(default=default, metadata=meta)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclasses.dataclass(frozen=True)
class Rules:
    """Base class of every game's options (compiled with the engines; plug-ins subclass it too).

    ``max_hands`` is common to every game: in each of them some hands can end with
    nothing moving toward the game's end (a blocked hand nobody scores, four passes and a
    redeal, a dealer who keeps winning), so without a limit a game has no bound on its
    length, and analysts, bots and RL need one. No ordinary game comes near the default.
    """

    max_hands: int = option(
        100,
        label="Hand limit",
        minimum=1,
        maximum=1000,
        doc="the game also ends after this many hands; the best score then wins",
    )

    @classmethod
    def _fields(cls) -> list[dataclasses.Field[Any]]:
        """The options, each game's own first and the common ones (declared here) last."""
        common = {f.name for f in dataclasses.fields(Rules)}
        fields = dataclasses.fields(cls)
        return [f for f in fields if f.name not in common] + [f for f in fields if f.name in common]

    @classmethod
    def describe(cls) -> dict[str, dict[str, Any]]:
        """Each option's label, help, default, type and valid values, JSON-ready.

        ``label`` and ``help`` are for people; ``doc`` repeats ``help`` for older callers.
        """
        out: dict[str, dict[str, Any]] = {}
        for f in cls._fields():
            meta = f.metadata
            entry: dict[str, Any] = {
                "label": meta.get("label") or f.name.replace("_", " ").capitalize(),
                "help": meta.get("doc", ""),
                "default": f.default,
                "type": type(f.default).__name__,
                "doc": meta.get("doc", ""),
            }
            if meta.get("allowed") is not None:
                entry["allowed"] = list(meta["allowed"])
            elif isinstance(f.default, bool):
                entry["allowed"] = [False, True]
            for bound in ("minimum", "maximum"):
                if meta.get(bound) is not None:
                    entry[bound] = meta[bound]
            out[f.name] = entry
        return out

    @classmethod
    def valid_options(cls) -> str:
        """A one-line summary of the valid options, for error messages."""
        parts = []
        for name, d in cls.describe().items():
            if "allowed" in d:
                values = "|".join(_show(v) for v in d["allowed"])
            elif "minimum" in d and "maximum" in d:
                values = f"{d['type']} {_show(d['minimum'])}..{_show(d['maximum'])}"
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
        fields = _fields_by_name(cls)
        values: dict[str, Any] = {}
        for name, value in given.items():
            if name not in fields:
                raise RulesError(f"unknown rules option {_quote(name)}; valid options: {cls.valid_options()}")
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

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its options, made again by :meth:`from_dict`.

        A compiled frozen class cannot be restored field by field, and engines, RL states
        and sampled worlds are pickled (OpenSpiel's serialisation, worker processes).
        """
        return (type(self).from_dict, (self.to_dict(),))

    def to_dict(self) -> dict[str, Any]:
        """All options with their values, JSON-ready.

        Every view carries the rules, so this runs once per view: the option names are
        worked out once per class (``dataclasses.fields`` is slow) and kept in ``_NAMES``.
        """
        cls = type(self)
        names = _NAMES.get(cls)
        if names is None:
            names = _NAMES[cls] = tuple(f.name for f in cls._fields())
        return {name: getattr(self, name) for name in names}


# The option names of each Rules class, in ``_fields`` order (a class's fields never change).
_NAMES: dict[type, tuple[str, ...]] = {}
# Each Rules class's fields by name, for ``from_dict`` (run by every new game).
_BY_NAME: dict[type, dict[str, dataclasses.Field[Any]]] = {}


def _fields_by_name(cls: type[Rules]) -> dict[str, dataclasses.Field[Any]]:
    """``cls``'s dataclass fields by name, worked out once per class (``dataclasses.fields`` is slow)."""
    found = _BY_NAME.get(cls)
    if found is None:
        found = _BY_NAME[cls] = {f.name: f for f in dataclasses.fields(cls)}
    return found


def _quote(value: Any, limit: int = 200) -> str:
    """``repr(value)`` cut to ``limit`` characters, so an error never echoes a flood back."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_value(name: str, value: Any, field: dataclasses.Field[Any], cls: type[Rules]) -> Any:
    """The value in the option's type, or ``RulesError`` naming the option and listing the valid ones.

    Every new game parses its rules (a simulation, thousands of times a run), so the
    message, which describes every option, is written only when a value is bad.
    """
    ok, converted = _converted(value, field)
    if not ok:
        raise RulesError(f"bad value {_quote(value)} for rules option {name!r}; valid options: {cls.valid_options()}")
    return converted


def _converted(value: Any, field: dataclasses.Field[Any]) -> tuple[bool, Any]:
    """(whether ``value`` is valid for ``field``, the value in the option's type)."""
    default = field.default
    meta = field.metadata
    if isinstance(default, bool):
        if not isinstance(value, bool):
            return False, value
    elif isinstance(default, int):
        if isinstance(value, bool):
            return False, value
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, int):
            return False, value
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False, value
        value = float(value)
    elif isinstance(default, str) and not isinstance(value, str):
        return False, value
    allowed = meta.get("allowed")
    if allowed is not None and value not in allowed:
        return False, value
    minimum = meta.get("minimum")
    if minimum is not None and value < minimum:
        return False, value
    maximum = meta.get("maximum")
    if maximum is not None and value > maximum:
        return False, value
    return True, value
