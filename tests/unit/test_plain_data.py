"""The plain checks of the core event types most lines are: a data they accept the model
accepts, and whatever they doubt the model decides, naming the field."""
import itertools

import pytest

from domain.events import CORE_EVENTS, _PLAIN_DATA
from domain.log import LogCursor, LogError, check_line

VALUES = [None, 0, 1, -1, 2**70, True, 1.0, "x", "d6", "2d6", "d7", "setup", "start", "first-foot-movement",
          "table", "service", [], [1], {}]
FIELDS = {"DieRolled": ["purpose", "die", "result", "results", "subject", "modifiers", "source"],
          "TurnStarted": ["turn"], "PhaseStarted": ["phase", "active"]}


@pytest.mark.parametrize("event_type", sorted(_PLAIN_DATA))
def test_what_a_plain_check_accepts_its_model_accepts(event_type):
    validator, plain, accepted = CORE_EVENTS[event_type].__pydantic_validator__, _PLAIN_DATA[event_type], 0
    names = FIELDS[event_type] + ["extra"]
    for i, values in enumerate(itertools.product(VALUES, repeat=min(len(names), 3))):
        data = {name: value for name, value in zip(names[i % len(names):] + names, values)}
        if plain(data):
            validator.validate_python(data)  # raises if the plain check was wrong
            accepted += 1
    assert accepted > 0


def started(side: str, bloc: str) -> tuple[LogCursor, dict]:
    """A cursor past an Infernal Machines game's GameStarted with one side, and that line."""
    cursor = LogCursor()
    start = {"v": 1, "game": "g", "seq": 1, "turn": 0, "phase": "setup", "side": None, "type": "GameStarted",
             "data": {"ruleset": "infernal-machines", "scenario": "s", "date": "1917-04",
                      "sides": {side: {"nation": side, "bloc": bloc}}}}
    cursor.advance(check_line(start, 1, cursor))
    return cursor, start


def test_a_die_the_plain_check_refuses_is_named_by_the_model():
    cursor, start = started("british", "allied")
    roll = {**start, "seq": 2, "type": "DieRolled", "data": {"purpose": "LS.MORALE", "die": "d7", "result": 3}}
    with pytest.raises(LogError) as err:
        check_line(roll, 2, cursor)
    assert (err.value.line, err.value.field) == (2, "data (DieRolled).die")


def test_an_envelope_name_found_valid_once_does_not_pass_a_different_one():
    from domain.events import plain_envelope
    line = {"v": 1, "game": "g", "seq": 2, "turn": 1, "phase": "start", "side": None, "type": "TurnStarted",
            "data": {"turn": 1}}
    assert plain_envelope(line) is not None
    assert plain_envelope(line) is not None  # the names now remembered
    for field, bad in (("game", "G"), ("phase", "Start"), ("type", "turnStarted")):
        assert plain_envelope({**line, field: bad}) is None  # the Envelope model decides and names it


@pytest.mark.parametrize("prev", ["0" * 64, "0123456789abcdef" * 4, "0" * 63, "0" * 65, "A" * 64, "g" * 64,
                                  "0" * 63 + "\n", "\u0663" * 64, "0" * 62 + "Ff", "", " " + "0" * 63])
def test_a_prev_the_plain_envelope_accepts_the_envelope_model_accepts(prev):
    # game-log.md, Envelope: `prev` is the SHA-256 of the line before, 64 lowercase hex digits.
    from pydantic import ValidationError

    from domain.events import Envelope, plain_envelope
    line = {"v": 1, "game": "g", "seq": 2, "turn": 1, "phase": "start", "side": None, "type": "TurnStarted",
            "data": {"turn": 1}, "prev": prev}
    try:
        Envelope.model_validate(line)
        valid = True
    except ValidationError:
        valid = False
    assert (plain_envelope(line) is not None) == valid
