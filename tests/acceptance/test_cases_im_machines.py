"""The machines' acceptance logs (tests/acceptance/cases_im_machines/, written from the rulebook by its
build_cases.py): each goes through the path of `umpire audit FILE` (domain.log.read_lines, then
projections.audit_trail.audit_lines with the game's pack); every expected finding is reported (seq among
accept_seq, rule under one of the prefixes, same verdict) and nothing else is a violation, mismatch or
missing roll."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.log import read_lines
from domain.rules.engine import FAILING
from projections.audit_trail import audit_lines

CASES = Path(__file__).resolve().parent / "cases_im_machines"
NAMES = sorted(p.stem for p in CASES.glob("*.jsonl"))


def matches(finding, want: dict) -> bool:
    prefixes = want["rule"] if isinstance(want["rule"], list) else [want["rule"]]
    return (finding.seq in (want.get("accept_seq") or [want["seq"]]) and finding.verdict.value == want["verdict"]
            and any(finding.rule.startswith(p) for p in prefixes))


def test_every_case_has_its_expectations():
    assert len(NAMES) >= 10
    assert all((CASES / f"{name}.expected.json").exists() for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_case_gives_expected_findings(name):
    report = audit_lines(read_lines((CASES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()))
    expected = json.loads((CASES / f"{name}.expected.json").read_text(encoding="utf-8"))["findings"]
    brief = [(f.seq, f.rule, f.verdict.value, f.message) for f in report.findings]
    for want in expected:
        assert any(matches(f, want) for f in report.findings), (want, brief)
    unexpected = [b for f, b in zip(report.findings, brief) if f.verdict in FAILING
                  and not any(matches(f, want) for want in expected)]
    assert unexpected == []
