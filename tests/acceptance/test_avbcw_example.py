"""game-log-tabletop.md, Examples: the Dux Bellorum AVBCW log gives exactly the findings the page
states, through `umpire audit FILE --format json`. "Line 20 breaks AVBCW.VEH.FACING (violation):
the car moves 8.0 + 2.0 = 10.0" and turns from 180 to 240, 60° ... The rest is legal"."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli import app
from tests.conftest import SPEC

EXAMPLE = SPEC / "examples-tabletop" / "avbcw-example.jsonl"
EXPECTED = SPEC / "examples-tabletop" / "avbcw-example.expected.json"
FAILING = ("violation", "mismatch", "missing-roll")


def audited(*extra: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["audit", str(EXAMPLE), "--format", "json", *extra])
    return result.exit_code, json.loads(result.stdout)


def test_the_example_gives_exactly_its_expected_findings():
    code, report = audited()
    expected = json.loads(EXPECTED.read_text())["findings"]
    failing = [f for f in report["findings"] if f["verdict"] in FAILING]
    assert [(f["seq"], f["rule"], f["verdict"]) for f in failing] == \
        [(e["seq"], e["rule"], e["verdict"]) for e in expected]
    assert all(f["seq"] in e["accept_seq"] for f, e in zip(failing, expected))
    assert code == 1     # a violation fails the audit


def test_the_legal_rest_is_judged_not_skipped():
    # "the shot's three 1s beat its two hits", "2 COH from shooting suppress the militia", "the
    # car stays on gg-1": each is judged ok at its line
    _, report = audited("--all")
    judged = {(a["seq"], a["rule"]): a["verdict"] for a in report["applications"]}
    assert judged[(15, "AVBCW.AMMO.LOW")] == "ok"
    assert judged[(16, "AVBCW.SUPP.TRIGGER")] == "ok"
    assert judged[(20, "AVBCW.VEH.WHEELED")] == "ok"
    assert judged[(11, "AVBCW.LOS")] == "ok"
    assert judged[(20, "AVBCW.VEH.FACING")] == "violation"
