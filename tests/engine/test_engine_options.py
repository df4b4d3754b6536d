"""Option declaration, coercion from text, and validation."""

from __future__ import annotations

import json

import pytest

from intrigue.engine import MAX_TURNS, InvalidOption, Option
from intrigue.engine.options import resolve_options

COUNT = Option("count", int, 3, "A count.", minimum=1)
FLAG = Option("flag", bool, False, "A flag.")
NAMES = Option("names", list, None, "Names.", choices=("ann", "bob", "cy"))
MODE = Option("mode", str, "fast", "A mode.", choices=("fast", "slow"))
FREE = Option("free", str, "", "Any text.")


def _must_be_even(value: int) -> None:
    if value % 2:
        raise InvalidOption("option even: must be even")


EVEN = Option("even", int, 2, "An even number.", check=_must_be_even)


@pytest.mark.parametrize(("given", "expected"), [("12", 12), (" 7 ", 7), (4, 4), ("-0", 0)])
def test_int_from_text_or_int(given, expected) -> None:
    assert Option("n", int, 0, "").coerce(given) == expected


@pytest.mark.parametrize("given", ["twelve", "1.5", 1.5, True, [1], ""], ids=repr)
def test_int_rejects_other_values(given) -> None:
    with pytest.raises(InvalidOption, match="count"):
        COUNT.coerce(given)


def test_int_minimum() -> None:
    assert COUNT.coerce("1") == 1
    with pytest.raises(InvalidOption, match="at least 1"):
        COUNT.coerce("0")


@pytest.mark.parametrize("text", ["1", "true", "YES", " on ", "True"])
def test_bool_true_words(text) -> None:
    assert FLAG.coerce(text) is True


@pytest.mark.parametrize("text", ["0", "false", "No", "off"])
def test_bool_false_words(text) -> None:
    assert FLAG.coerce(text) is False


@pytest.mark.parametrize("given", ["maybe", "", 1, 0, [True]], ids=repr)
def test_bool_rejects_other_values(given) -> None:
    with pytest.raises(InvalidOption, match="flag"):
        FLAG.coerce(given)


def test_bool_accepts_bools() -> None:
    assert FLAG.coerce(True) is True
    assert FLAG.coerce(False) is False


def test_list_from_comma_separated_text() -> None:
    assert NAMES.coerce("ann, bob,,cy ") == ["ann", "bob", "cy"]
    assert NAMES.coerce(("bob", "ann")) == ["bob", "ann"]
    assert Option("xs", list, None, "").coerce([1, "a"]) == ["1", "a"]


def test_list_choices_apply_to_each_element() -> None:
    with pytest.raises(InvalidOption, match="'dan' is not one of ann, bob, cy"):
        NAMES.coerce("ann,dan")


def test_list_rejects_non_lists() -> None:
    with pytest.raises(InvalidOption, match="names"):
        NAMES.coerce(5)


def test_str_choices() -> None:
    assert MODE.coerce("slow") == "slow"
    with pytest.raises(InvalidOption, match="'medium' is not one of fast, slow"):
        MODE.coerce("medium")
    with pytest.raises(InvalidOption, match="mode"):
        MODE.coerce(3)
    assert FREE.coerce("anything at all") == "anything at all"


def test_custom_check_runs_after_conversion() -> None:
    assert EVEN.coerce("4") == 4
    with pytest.raises(InvalidOption, match="even"):
        EVEN.coerce("5")


def test_none_means_unset() -> None:
    assert COUNT.coerce(None) is None
    assert NAMES.coerce(None) is None


def test_resolve_fills_defaults_and_coerces() -> None:
    resolved = resolve_options((COUNT, FLAG, MODE), {"count": "9", "flag": "yes"})
    assert resolved == {"count": 9, "flag": True, "mode": "fast"}


def test_resolve_rejects_unknown_names_and_lists_the_known_ones() -> None:
    with pytest.raises(InvalidOption) as info:
        resolve_options((COUNT, MODE), {"cuont": 3, "zzz": 1})
    message = str(info.value)
    assert "cuont" in message and "zzz" in message
    assert "count" in message.split("known options:")[1]
    assert "mode" in message.split("known options:")[1]


def test_resolve_with_no_options_declared() -> None:
    assert resolve_options((), {}) == {}
    with pytest.raises(InvalidOption, match="none"):
        resolve_options((), {"x": 1})


def test_option_metadata_is_json() -> None:
    data = json.loads(json.dumps([opt.to_json() for opt in (COUNT, FLAG, NAMES, MODE)]))
    assert data[0] == {
        "name": "count",
        "type": "int",
        "default": 3,
        "help": "A count.",
        "choices": None,
        "fixes": None,
    }
    assert data[2]["choices"] == ["ann", "bob", "cy"]


def test_max_turns_is_a_positive_optional_int() -> None:
    assert MAX_TURNS.name == "max_turns"
    assert MAX_TURNS.default is None
    assert MAX_TURNS.coerce("3") == 3
    with pytest.raises(InvalidOption):
        MAX_TURNS.coerce(0)


def test_resolve_reads_none_as_the_default() -> None:
    """A JSON null (the server's POST /api/tables) gives the default, never None itself."""
    resolved = resolve_options((MODE, COUNT, NAMES), {"mode": None, "count": None, "names": None})
    assert resolved == {"mode": "fast", "count": 3, "names": None}
