"""The shared spec's example logs: each audit gives exactly the expected failing findings.

For every `examples/NAME.jsonl` beside `NAME.expected.json`: each expected finding (its `seq` one of
`accept_seq`, its rule under one of the listed prefixes, the same verdict) is present, and no other
violation, mismatch or missing-roll is reported.
"""
from __future__ import annotations

import json

import pytest

from domain.log import read_lines
from domain.rules.engine import FAILING, audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import resolve

from tests.conftest import EXAMPLES  # noqa: E402
NAMES = sorted(p.stem for p in EXAMPLES.glob("*.jsonl") if (EXAMPLES / f"{p.stem}.expected.json").exists())


def audit_example(name: str):
    lines = read_lines((EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
    started = next(l for l in lines if l["type"] == "GameStarted")
    return audit(lines, tables=resolve(started["data"].get("tables")), interpretations=Interpretations())


def matches(finding, expected: dict) -> bool:
    prefixes = expected["rule"] if isinstance(expected["rule"], list) else [expected["rule"]]
    seqs = expected.get("accept_seq") or [expected["seq"]]
    return (finding.seq in seqs and finding.verdict.value == expected["verdict"]
            and any(finding.rule.startswith(p) for p in prefixes))


def test_the_examples_are_there():
    assert {"first-turn-barrage", "resistance-turns"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_example_gives_expected_findings(name):
    report = audit_example(name)
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))["findings"]
    failing = [f for f in report.findings if f.verdict in FAILING]
    for want in expected:
        assert any(matches(f, want) for f in failing), (want, [(f.seq, f.rule, f.verdict.value) for f in failing])
    unexpected = [(f.seq, f.rule, f.verdict.value, f.message) for f in failing
                  if not any(matches(f, want) for want in expected)]
    assert unexpected == []
