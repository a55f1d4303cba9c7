"""Acceptance logs of the two miniatures rule systems: each gives exactly its expected findings.

The logs in tests/acceptance/cases_avbcw/ and cases_mog/ are written by hand from the rulebooks
(`../shared/seeds/dux-bellorum-avbcw.txt`, `landships-of-mogdonazia.txt`) in the format of
game-log-tabletop.md; each case's `.expected.json` says which passage it tests (`passage`) and
what the auditor must find. They go through the same path as `umpire audit FILE`:
domain.log.read_lines, then projections.audit_trail.audit_lines with the game's own table pack.
Every expected finding (`seq` within `accept_seq`, rule under one of the listed prefixes, same
verdict) is present, and no other violation, mismatch or missing-roll is reported; a case may
also list `ok` applications it must contain (`judged`: seq and rule), so that a clean log is
shown to be judged, not passed over.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.log import read_lines
from projections.audit_trail import audit_lines

HERE = Path(__file__).resolve().parent
FOLDERS = ("cases_avbcw", "cases_mog")
CASES = sorted((folder, p.stem) for folder in FOLDERS for p in (HERE / folder).glob("*.jsonl"))
FAILING = ("violation", "mismatch", "missing-roll")


def _audit(folder: str, name: str) -> dict:
    lines = read_lines((HERE / folder / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
    return json.loads(json.dumps(audit_lines(lines).to_json(all_applications=True)))


def _matches(found: dict, want: dict) -> bool:
    prefixes = want["rule"] if isinstance(want["rule"], list) else [want["rule"]]
    return (found["seq"] in (want.get("accept_seq") or [want["seq"]])
            and found["verdict"] == want.get("verdict", "ok")
            and any(found["rule"].startswith(p) for p in prefixes))


def test_there_are_cases_for_both_rule_systems():
    assert {folder for folder, _ in CASES} == set(FOLDERS)


@pytest.mark.parametrize("folder,name", CASES, ids=[f"{f}/{n}" for f, n in CASES])
def test_case_gives_exactly_its_expected_findings(folder, name):
    report = _audit(folder, name)
    expected = json.loads((HERE / folder / f"{name}.expected.json").read_text(encoding="utf-8"))
    assert expected.get("passage"), "each case names the rulebook passage it tests"
    findings = report["findings"]
    brief = [(f["seq"], f["rule"], f["verdict"], f["message"]) for f in findings]
    for want in expected["findings"]:
        assert any(_matches(f, want) for f in findings), (want, brief)
    unexpected = [b for f, b in zip(findings, brief)
                  if f["verdict"] in FAILING and not any(_matches(f, want) for want in expected["findings"])]
    assert unexpected == []
    for want in expected.get("judged", []):
        assert any(_matches(a, {"verdict": "ok", **want}) for a in report["applications"]), want
