"""What a rule module reads from a typed event (docs/rulesets.md, Rule modules read typed events):
what a line gave as against a schema's default, fields beside the schema's, and numbers as the
log wrote them."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from domain.events import given, validate_data
from domain.rulesets import find

IM = find("infernal-machines")
DECLARED = {"barrage": "b-1", "side": "british", "target": "5:6613", "elements": ["obm-1"],
            "mission": "destruction", "barrage_type": "drumfire", "ammunition": "he"}


def test_a_schema_default_is_not_what_the_line_gave():
    # game-log.md, BarrageDeclared: `sustained` is optional; a line without it recorded nothing
    declared = validate_data("BarrageDeclared", DECLARED, IM)
    assert declared.sustained is False and given(declared, "sustained") is None
    restated = validate_data("BarrageDeclared", {**DECLARED, "sustained": False}, IM)
    assert given(restated, "sustained") is False


def test_a_field_beside_the_schemas_is_read_as_given():
    # game-log.md: "code may add event types and optional fields"; IM, flares: a barrage a flare calls
    declared = validate_data("BarrageDeclared", {**DECLARED, "flare": True}, IM)
    assert given(declared, "flare") is True and getattr(declared, "flare", None) is True
    assert given(declared, "objective") is None


@pytest.mark.parametrize("written", [40, 40.5])
def test_a_firepower_is_kept_as_the_log_wrote_it(written):
    # game-log.md, SmallArmsFired {..., `firepower`}: 40 is shown as 40 in a finding, not 40.0
    fire = validate_data("SmallArmsFired", {"attack": "a-1", "firers": ["r-1"], "target": "5:6613",
                                            "firepower": written}, IM)
    assert fire.firepower == written and type(fire.firepower) is type(written)


def test_a_firepower_that_is_no_number_is_refused_as_before():
    # domain/events.py: "a value of the wrong JSON type ... is refused, never coerced"
    with pytest.raises(ValidationError, match="Input should be a valid number"):
        validate_data("SmallArmsFired", {"attack": "a-1", "firers": ["r-1"], "target": "5:6613",
                                         "firepower": "40"}, IM)
