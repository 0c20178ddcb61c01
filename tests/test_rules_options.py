"""Rules options: validation, descriptions and command-line parsing."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from boneyard import RulesError
from boneyard.rules import Rules, option


@dataclass(frozen=True)
class Demo(Rules):
    mode: str = option("dealer", label="Scoring", allowed=("dealer", "shootout"), doc="how the game is scored")
    target: int = option(150, label="Target", minimum=1, maximum=1000, doc="points to win")
    cutthroat: bool = option(False, label="Cutthroat", doc="steal points by stacking")


def test_defaults_and_valid_values() -> None:
    assert Demo.from_dict(None) == Demo() == Demo.from_dict({})
    r = Demo.from_dict({"mode": "shootout", "target": 200.0, "cutthroat": True})
    assert (r.mode, r.target, r.cutthroat) == ("shootout", 200, True)
    assert isinstance(r.target, int)
    assert r.to_dict() == {"mode": "shootout", "target": 200, "cutthroat": True, "max_hands": 100}


@pytest.mark.parametrize(
    "given",
    [
        {"nope": 1},
        {"mode": "fast"},
        {"target": 0},
        {"target": 1001},
        {"max_hands": 0},
        {"target": "150"},
        {"target": 1.5},
        {"cutthroat": 1},
        {"cutthroat": "yes"},
        {"target": True},
    ],
)
def test_bad_options_list_the_valid_ones(given: dict[str, object]) -> None:
    with pytest.raises(RulesError) as err:
        Demo.from_dict(given)
    message = str(err.value)
    assert "valid options" in message
    assert "mode=dealer|shootout (default dealer)" in message
    assert "target=int 1..1000 (default 150)" in message
    assert message.index("cutthroat=") < message.index("max_hands="), "the common options come last"
    assert "cutthroat=false|true (default false)" in message


def test_rules_must_be_a_mapping() -> None:
    with pytest.raises(RulesError, match="mapping"):
        Demo.from_dict(["mode"])  # type: ignore[arg-type]


def test_describe_is_json_ready() -> None:
    d = Demo.describe()
    assert d["mode"] == {
        "label": "Scoring",
        "help": "how the game is scored",
        "default": "dealer",
        "type": "str",
        "doc": "how the game is scored",
        "allowed": ["dealer", "shootout"],
    }
    assert d["target"]["minimum"] == 1 and d["target"]["maximum"] == 1000 and "allowed" not in d["target"]
    assert d["cutthroat"]["allowed"] == [False, True]


def test_parse_value_from_the_command_line() -> None:
    assert Demo.parse_value("cutthroat", "true") is True
    assert Demo.parse_value("cutthroat", "off") is False
    assert Demo.parse_value("target", "100") == 100
    assert Demo.parse_value("mode", "shootout") == "shootout"
    with pytest.raises(RulesError):
        Demo.parse_value("target", "lots")
    with pytest.raises(RulesError, match="unknown rules option"):
        Demo.parse_value("speed", "1")


def test_a_number_option_needs_both_bounds() -> None:
    with pytest.raises(TypeError, match="minimum and a maximum"):
        option(10, label="Target", minimum=1, doc="unbounded above")


def test_a_flood_is_not_echoed_back() -> None:
    with pytest.raises(RulesError) as err:
        Demo.from_dict({"mode": "x" * 1_000_000})
    assert len(str(err.value)) < 1000 and "1000002 characters" in str(err.value)
