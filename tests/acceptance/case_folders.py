"""A folder of acceptance logs, each `NAME.jsonl` beside its `NAME.expected.json`: audited by the same
path as `umpire audit FILE` (domain.log.read_lines, then projections.audit_trail.audit_lines with the
game's own table pack). Every expected finding (`seq` within `accept_seq`, rule under one of the listed
prefixes, same verdict) is present, and no other violation, mismatch or missing-roll is reported."""
from __future__ import annotations

import json
from pathlib import Path

from domain.log import read_lines
from domain.rules.engine import FAILING
from projections.audit_trail import audit_lines


def case_names(cases: Path) -> list[str]:
    return sorted(p.stem for p in cases.glob("*.jsonl"))


def audit_case(cases: Path, name: str):
    lines = read_lines((cases / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
    return audit_lines(lines)


def matches(finding, expected: dict) -> bool:
    prefixes = expected["rule"] if isinstance(expected["rule"], list) else [expected["rule"]]
    seqs = expected.get("accept_seq") or [expected["seq"]]
    return (finding.seq in seqs and finding.verdict.value == expected["verdict"]
            and any(finding.rule.startswith(p) for p in prefixes))


def check_expectations_exist(cases: Path, at_least: int) -> None:
    names = case_names(cases)
    assert len(names) >= at_least
    assert all((cases / f"{name}.expected.json").exists() for name in names)


def check_case(cases: Path, name: str) -> None:
    report = audit_case(cases, name)
    expected = json.loads((cases / f"{name}.expected.json").read_text(encoding="utf-8"))["findings"]
    for want in expected:
        assert any(matches(f, want) for f in report.findings), (
            want, [(f.seq, f.rule, f.verdict.value, f.message) for f in report.findings])
    unexpected = [(f.seq, f.rule, f.verdict.value, f.message) for f in report.findings
                  if f.verdict in FAILING and not any(matches(f, want) for want in expected)]
    assert unexpected == []
