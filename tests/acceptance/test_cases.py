"""Acceptance cases for the artillery auditor (tests/acceptance/cases, written from the rulebook by
artillery_cases.py): each expected finding is reported (seq among accept_seq, rule under one of the
prefixes, same verdict) and nothing else is a violation, mismatch or missing roll."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.log import read_lines
from projections.audit_trail import audit_lines

CASES = Path(__file__).resolve().parent / "cases"
NAMES = sorted(p.name[:-len(".jsonl")] for p in CASES.glob("*.jsonl"))
FAILING = ("violation", "mismatch", "missing-roll")


def audit_case(name: str) -> dict:
    lines = read_lines((CASES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
    return json.loads(json.dumps(audit_lines(lines).to_json()))


def matches(finding: dict, want: dict) -> bool:
    prefixes = want["rule"] if isinstance(want["rule"], list) else [want["rule"]]
    return (finding["seq"] in (want.get("accept_seq") or [want["seq"]]) and finding["verdict"] == want["verdict"]
            and any(finding["rule"].startswith(p) for p in prefixes))


def test_there_are_cases():
    assert len(NAMES) >= 40


@pytest.mark.parametrize("name", NAMES)
def test_case_gives_expected_findings(name):
    report = audit_case(name)
    expected = json.loads((CASES / f"{name}.expected.json").read_text(encoding="utf-8"))["findings"]
    findings = report["findings"]
    brief = [(f["seq"], f["rule"], f["verdict"], f["message"]) for f in findings]
    for want in expected:
        assert any(matches(f, want) for f in findings), (want, brief)
    unexpected = [(f["seq"], f["rule"], f["verdict"], f["message"]) for f in findings
                  if f["verdict"] in FAILING and not any(matches(f, want) for want in expected)]
    assert unexpected == []
