"""Every IM.ART id of the rules catalogue is judged, or documented as needing a chart or as
ambiguous, with a test that exists; and docs/rules/ says the same as the code."""
from __future__ import annotations

import re

from api.commands.rules import render
from domain.rules.coverage import STATUSES, catalogue_ids, merged
from tests.conftest import ROOT, SPEC

CATALOGUE = SPEC / "rules-catalogue.md"


def test_the_catalogue_lists_the_130_artillery_ids():
    # rules-catalogue.md, Contents and counts: ART (130)
    assert len(catalogue_ids(CATALOGUE.read_text(), "IM.ART.")) == 130


def test_every_artillery_id_is_covered_with_a_real_test():
    coverage = merged()
    missing, bad = [], []
    for rule in catalogue_ids(CATALOGUE.read_text(), "IM.ART."):
        if rule not in coverage:
            missing.append(rule)
            continue
        status, tests = coverage[rule]
        if status not in STATUSES:
            bad.append(f"{rule}: status {status!r}")
        for test in (t.strip() for t in tests.split(";")):
            path, _, name = test.partition("::")
            file = ROOT / path
            if not name or not file.exists() or not re.search(rf"def {re.escape(name.split('[')[0])}\b", file.read_text()):
                bad.append(f"{rule}: no test {test!r}")
    assert missing == [] and bad == []


def test_the_coverage_doc_is_up_to_date():
    for path, text in render(CATALOGUE).items():
        assert (ROOT / path).read_text(encoding="utf-8") == text, f"run `umpire rules coverage --write` ({path})"


def test_the_interpretations_doc_is_up_to_date():
    from api.commands.rules import interpretations_table
    text = interpretations_table()
    assert (ROOT / "docs/rules/interpretations.md").read_text(encoding="utf-8") == text, \
        "run `umpire rules interpretations --write`"
    assert "IM.CORE.MINMOVE" in text and "fot-die" in text
