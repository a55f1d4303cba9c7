"""Direct-fire acceptance logs (spotting, small arms, anti-tank fire, support weapons, morale, optional combat, cavalry): each gives exactly its expected findings.

The logs in tests/acceptance/cases_im_fire/ (written by build_cases.py from the rulebook; each
case names its passage) go through the same path as `umpire audit FILE`: domain.log.read_lines,
then projections.audit_trail.audit_lines with the game's own table pack. Every expected finding
(`seq` within `accept_seq`, rule under one of the listed prefixes, same verdict) is present, and
no other violation, mismatch or missing-roll is reported.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.log import read_lines
from domain.rules.engine import FAILING
from projections.audit_trail import audit_lines

CASES = Path(__file__).resolve().parent / "cases_im_fire"
NAMES = sorted(p.stem for p in CASES.glob("*.jsonl"))


def audit_case(name: str):
    lines = read_lines((CASES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
    return audit_lines(lines)


def matches(finding, expected: dict) -> bool:
    prefixes = expected["rule"] if isinstance(expected["rule"], list) else [expected["rule"]]
    seqs = expected.get("accept_seq") or [expected["seq"]]
    return (finding.seq in seqs and finding.verdict.value == expected["verdict"]
            and any(finding.rule.startswith(p) for p in prefixes))


def test_every_case_has_its_expectations():
    assert len(NAMES) >= 15
    assert all((CASES / f"{name}.expected.json").exists() for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_case_gives_expected_findings(name):
    report = audit_case(name)
    expected = json.loads((CASES / f"{name}.expected.json").read_text(encoding="utf-8"))["findings"]
    for want in expected:
        assert any(matches(f, want) for f in report.findings), (
            want, [(f.seq, f.rule, f.verdict.value, f.message) for f in report.findings])
    unexpected = [(f.seq, f.rule, f.verdict.value, f.message) for f in report.findings
                  if f.verdict in FAILING and not any(matches(f, want) for want in expected)]
    assert unexpected == []
