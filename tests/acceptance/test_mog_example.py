"""The Mogdonazia example of game-log-tabletop.md through `umpire audit FILE --format json`: exactly
the findings of mog-example.expected.json ("Line 13 breaks MOG.VEH.SPEED (violation) ... The rest is
legal"); and docs/rules/landships-of-mogdonazia.md lists every MOG id of the catalogue with a test
that exists."""
from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from api.cli import app
from tests.conftest import ROOT, SPEC

EXAMPLES = SPEC / "examples-tabletop"
FAILING = ("violation", "mismatch", "missing-roll")
COVERAGE_DOC = ROOT / "docs" / "rules" / "landships-of-mogdonazia.md"


def audit_json(path) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["audit", str(path), "--format", "json"])
    return result.exit_code, json.loads(result.stdout)


def matches(finding: dict, want: dict) -> bool:
    return (finding["seq"] in (want.get("accept_seq") or [want["seq"]]) and finding["rule"] == want["rule"]
            and finding["verdict"] == want["verdict"])


def test_the_example_gives_exactly_its_expected_findings():
    code, report = audit_json(EXAMPLES / "mog-example.jsonl")
    expected = json.loads((EXAMPLES / "mog-example.expected.json").read_text(encoding="utf-8"))["findings"]
    failing = [f for f in report["findings"] if f["verdict"] in FAILING]
    assert code == 1   # docs/audit.md: exit 1 with a violation
    assert all(any(matches(f, want) for f in failing) for want in expected), failing
    assert [f for f in failing if not any(matches(f, want) for want in expected)] == []
    # the page's reasons: off road, 5 dice, "half the maximum number of dice rounded up" (3)
    speed = next(f for f in failing if f["rule"] == "MOG.VEH.SPEED")
    assert (speed["expected"], speed["recorded"], speed["inputs"]["terrain"]) == (3, 5, "off-road")


def test_the_example_legal_lines_are_judged_ok():
    # "armoured-looking 5 gives class III, a breakdown roll of 3 off road holds ("Off road 5-6"), and
    # the small-arms hit's Ace is a critical": each of these is judged, and none is a finding.
    result = CliRunner().invoke(app, ["audit", str(EXAMPLES / "mog-example.jsonl"), "--format", "json", "--all"])
    applications = json.loads(result.stdout)["applications"]
    judged_ok = {(a["seq"], a["rule"]) for a in applications if a["verdict"] == "ok"}
    assert {(7, "MOG.VEH.ARMOUR"), (12, "MOG.VEH.BREAKDOWN"), (20, "MOG.FIRE.CARD")} <= judged_ok


def test_the_coverage_table_lists_every_mog_id_with_a_real_test():
    catalogue = (SPEC / "rules-catalogue.md").read_text(encoding="utf-8")
    ids = sorted(set(re.findall(r"^\*\*(MOG\.[A-Z_.]+)\*\*", catalogue, re.M)))
    assert len(ids) == 28   # rules-catalogue.md, Contents and counts: "II. Mogdonazia | MOG.* plus MOG.Z | 28"
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(MOG\.[A-Z_.]+)` \|[^|]*\|[^|]*\| (.*?) \|$",
                                                        COVERAGE_DOC.read_text(encoding="utf-8"), re.M)}
    assert sorted(set(ids) - set(rows)) == []
    for rule in ids:
        for test in re.findall(r"`(tests/[^`]+::\w+)`", rows[rule]):
            path, name = test.split("::")
            assert re.search(rf"def {name}\b", (ROOT / path).read_text(encoding="utf-8")), (rule, test)
