"""An army list checked before a game (`umpire army check`, `POST /api/army/check`): what an
`ArmyListed` event's data holds, judged by its rule system's army check (`RuleSet.army_check`),
and where in a JSON file a field named by an error stands."""
from __future__ import annotations

import json
from typing import Any, Iterable, Optional

from pydantic import BaseModel, ConfigDict, computed_field

from domain.rules.interpretations import Interpretations
from domain.rulesets import ruleset

DEFAULT_RULESET = "dux-bellorum-avbcw"


class ArmyListError(ValueError):
    """Data that is not an army list, or a rule system without army lists: the field and why."""

    def __init__(self, field: str, message: str):
        self.field, self.message = field, message
        super().__init__(f"{field}: {message}")


class ArmyError(BaseModel):
    """One breach of a rule system's army-list rules: the unit (None for the army), the rule id,
    what the list has against what the text allows, and the rulebook's words."""
    model_config = ConfigDict(frozen=True)
    unit: Optional[str]
    rule: str
    count: Any
    limit: Any
    words: str
    message: str
    verdict: str = "violation"   # or "ambiguous": the text leaves it open

    @computed_field
    @property
    def line(self) -> str:
        who = self.unit or "army"
        return f"{who}: {self.rule}: {self.message} ({self.count} against {self.limit}): \"{self.words}\""


def check_list(data: Any, ruleset_id: str = DEFAULT_RULESET, pairs: Iterable[str] = ()) -> dict[str, Any]:
    """The list's verdict: `legal` (no violation), each error (an ArmyError's fields and its
    line) and the points by the text. UnknownRuleSet, InterpretationError, or
    ArmyListError naming the field."""
    rules = ruleset(ruleset_id)
    if rules.army_check is None:
        raise ArmyListError("--ruleset", f"{ruleset_id} has no army lists to check")
    chosen = Interpretations()
    chosen.for_ruleset(ruleset_id)
    for pair in pairs:
        name, _, reading = pair.partition("=")
        chosen.choose(name.strip(), reading.strip())
    try:
        report = rules.army_check()(data, chosen.chosen)
    except ValueError as err:
        raise ArmyListError(getattr(err, "field", "(data)"), getattr(err, "message", str(err))) from None
    errors = [e.model_dump() for e in report.errors]
    return {"legal": not any(e["verdict"] == "violation" for e in errors), "errors": errors,
            "costs": report.costs, "total": report.total}


def field_line(text: str, path: str) -> Optional[int]:
    """The line of `text` (a JSON document) where the value at `path` ("units.0.figures")
    starts, or where the closest enclosing value that exists starts; None if `text` is not JSON."""
    decoder = json.JSONDecoder()
    try:
        value, _ = decoder.raw_decode(text, _skip(text, 0))
    except json.JSONDecodeError:
        return None
    pos = _skip(text, 0)
    for part in [p for p in path.split(".") if p]:
        found = _child(decoder, text, pos, part)
        if found is None:
            break
        pos = found
    return text.count("\n", 0, pos) + 1


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _child(decoder: json.JSONDecoder, text: str, pos: int, part: str) -> Optional[int]:
    """Where the member `part` (a key, or an index of a list) of the value at `pos` starts."""
    opening = text[pos:pos + 1]
    if opening not in ("{", "["):
        return None
    pos, index = _skip(text, pos + 1), 0
    while pos < len(text) and text[pos] not in "}]":
        key = None
        if opening == "{":
            key, pos = decoder.raw_decode(text, pos)
            pos = _skip(text, _skip(text, pos) + 1)          # past the colon
        if (key if opening == "{" else str(index)) == part:
            return pos
        _, pos = decoder.raw_decode(text, pos)
        pos = _skip(text, pos)
        if text[pos:pos + 1] == ",":
            pos = _skip(text, pos + 1)
        index += 1
    return None
