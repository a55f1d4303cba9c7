"""The hand-written artillery logs of artillery_text_cases.py: each gives exactly the findings the
rulebook passage it cites demands (seq in its window, rule prefix, verdict) and no other
violation, mismatch or missing roll."""
from __future__ import annotations

import json

import pytest

from projections.audit_trail import audit_lines
from tests.acceptance.artillery_text_cases import TEXT_CASES
from tests.acceptance.test_cases import FAILING, matches


@pytest.mark.parametrize("name", sorted(TEXT_CASES))
def test_hand_written_case(name):
    game = TEXT_CASES[name]()
    findings = json.loads(json.dumps(audit_lines([dict(line) for line in game.lines]).to_json()))["findings"]
    brief = [(f["seq"], f["rule"], f["verdict"], f["message"]) for f in findings if f["verdict"] in FAILING]
    for want in game.findings:
        assert any(matches(f, want) for f in findings), (want, brief)
    assert [b for b, f in zip(brief, [f for f in findings if f["verdict"] in FAILING])
            if not any(matches(f, want) for want in game.findings)] == []
