"""The plain checks derived from the rule systems' own event models (domain/plain.py): what a
plain check accepts its model accepts, for every event type of every installed rule system and
of the core that has one, on the data of every recorded game and on that data changed field by
field; whatever a plain check doubts the model decides, naming the field."""
from __future__ import annotations

import copy
import itertools
import json
from typing import Annotated, Any, Literal, Optional

import pytest
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from domain.events import CORE_EVENTS, STRICT, Data
from domain.log import LogError, check_line
from domain.plain import plain_check
from domain.rulesets import registered
from tests.conftest import ROOT, SPEC
from tests.unit.test_plain_data import started

LOGS = sorted((ROOT / "fixtures" / "games").glob("*.jsonl")) + sorted(SPEC.glob("examples*/*.jsonl")) \
    + sorted((ROOT / "tests" / "acceptance").glob("cases*/**/*.jsonl"))
# Values a field may be given instead of its own: every JSON type, the edges of the plain types,
# hexes and points, and words the rule systems' literals hold.
VALUES = [None, 0, 1, -1, 359, 360, 2 ** 63, -(2 ** 63) - 1, True, False, 1.0, 0.5, "", "x", "1:0203", "1:02034",
          "1:0203\n", "normal", "run", "pinned", "eliminated", "british", [], [1], ["x"], ["1:0203"],
          ["1:0203", "1:0204"], [None], [[]], {}, {"x": 1.0, "y": 2.0}, {"1:0203": {"terrain": "clear"}}, {"a": 1},
          {1: "x"}]


def schemas() -> dict[str, type[BaseModel]]:
    found = {f"core.{name}": schema for name, schema in CORE_EVENTS.items()}
    for ruleset in registered().values():
        found.update({f"{ruleset.id}.{name}": schema for name, schema in ruleset.events.items()})
    return {name: schema for name, schema in found.items() if plain_check(schema) is not None}


def recorded_data() -> dict[str, list[dict[str, Any]]]:
    """Up to 30 different data of each event type, from every fixture, example and acceptance log."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in LOGS:
        lines = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines() if text.strip()]
        ruleset = lines[0]["data"].get("ruleset") if lines and lines[0]["type"] == "GameStarted" else None
        for line in lines:
            for key in (f"core.{line['type']}", f"{ruleset}.{line['type']}"):
                kept = found.setdefault(key, [])
                if len(kept) < 30 and line["data"] not in kept:
                    kept.append(line["data"])
    return found


SCHEMAS, RECORDED = schemas(), recorded_data()


def accepted(schema: type[BaseModel], data: Any) -> bool:
    try:
        schema.__pydantic_validator__.validate_python(data)
    except ValidationError:
        return False
    return True


def changed(data: dict[str, Any], fields: list[str]) -> Any:
    """The data with each field (its own and the schema's) given each value, or taken out, and
    with each list's first item given each value."""
    for name in fields:
        for value in VALUES:
            yield {**data, name: value}
        yield {k: v for k, v in data.items() if k != name}
        if isinstance(data.get(name), list) and data[name]:
            for value in VALUES:
                yield {**data, name: [value, *data[name][1:]]}
    yield {**data, "extra": {"any": [1.5]}}


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_what_a_derived_plain_check_accepts_its_model_accepts(name):
    schema, check = SCHEMAS[name], plain_check(SCHEMAS[name])
    fields = [info.alias or field for field, info in schema.model_fields.items()]
    samples = RECORDED.get(name, []) + [{}]
    for data in itertools.chain(samples, *(changed(d, sorted(set(fields) | set(d))) for d in samples)):
        before = copy.deepcopy(data)
        if check(data):
            assert accepted(schema, data), (name, data)
        assert data == before  # a validator is called with the line's own value: it must not change it
    for data in RECORDED.get(name, []):  # and it takes the recorded data the model takes
        assert check(data) == accepted(schema, data), (name, data)


def test_the_infernal_machines_moves_and_statuses_are_checked_plainly():
    events = registered()["infernal-machines"].events
    for name in ("UnitMoved", "UnitStatusChanged", "MoraleChecked"):
        assert plain_check(events[name]) is not None
    moved = plain_check(events["UnitMoved"])
    assert moved({"unit": "g-1", "path": ["1:1210", "1:1211"], "mode": "run"})
    for bad in ({"unit": "g-1", "path": []}, {"unit": "g-1", "path": ["1:121"]}, {"unit": 1, "path": ["1:1210"]},
                {"unit": "g-1", "path": ["1:1210"], "mode": "fly"}, {"path": ["1:1210"]}):
        assert not moved(bad)


def test_a_move_the_plain_check_doubts_is_refused_by_the_model_naming_the_field():
    cursor, start = started("german", "central")
    deploy = {**start, "seq": 2, "type": "UnitDeployed", "side": "german",
              "data": {"unit": "g-1", "class": "infantry-platoon", "location": "1:1210"}}
    cursor.advance(check_line(deploy, 2, cursor))
    move = {**deploy, "seq": 3, "type": "UnitMoved", "data": {"unit": "g-1", "path": ["1:1210", "1:12"]}}
    with pytest.raises(LogError) as err:
        check_line(move, 3, cursor)
    assert (err.value.line, err.value.field) == (3, "data (UnitMoved).path")


# -- what is and is not understood, on made-up schemas ------------------------------------------
def _even(value: int) -> int:
    if value % 2:
        raise ValueError("odd")
    return value


class Inner(BaseModel):
    model_config = STRICT
    n: Annotated[int, Field(ge=0, le=9)]


class Understood(Data):
    word: Literal["a", "b"]
    count: Annotated[int, AfterValidator(_even)] = 0
    items: list[Inner] = Field(default_factory=list, max_length=2)
    maybe: Optional[Annotated[int, Field(gt=0)]] = None
    table: dict[str, bool] = Field(default_factory=dict)

    @field_validator("word")
    @classmethod
    def _not_b(cls, value):
        if value == "b":
            raise ValueError("not b")
        return value


class Lax(BaseModel):
    n: int


class WithFloat(Data):
    x: float


class WithPattern(Data):
    s: str = Field(pattern="^a$")


class Forbidding(Data):
    model_config = ConfigDict(extra="forbid", strict=True)
    n: int


@pytest.mark.parametrize("schema", [Lax, WithFloat, WithPattern, Forbidding])
def test_a_schema_with_a_part_not_understood_has_no_plain_check(schema):
    assert plain_check(schema) is None


def test_a_made_up_schema_is_checked_as_its_model_checks_it():
    check = plain_check(Understood)
    base = {"word": "a", "count": 2, "items": [{"n": 3}], "maybe": 1, "table": {"k": True}}
    assert check(base) and check({"word": "a"})
    for data in changed(base, sorted(base)):
        if check(data):
            assert accepted(Understood, data), data
    for bad in ({**base, "word": "b"}, {**base, "count": 3}, {**base, "items": [{"n": 10}]},
                {**base, "items": [{"n": 1}] * 3}, {**base, "maybe": 0}, {**base, "table": {"k": 1}}):
        assert not check(bad) and not accepted(Understood, bad)
    assert not check({**base, "maybe": None}) or accepted(Understood, {**base, "maybe": None})
