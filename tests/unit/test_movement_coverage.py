"""The movement, observation and spotting coverage: named tests exist, and the generated coverage
table (docs/rules/infernal-machines.md) lists every id with its status."""
from __future__ import annotations

import re

from domain.rules.coverage import STATUSES
from domain.rules.infernal_machines import movement, observation, spotting
from tests.conftest import ROOT

DOC = ROOT / "docs" / "rules" / "infernal-machines.md"


def test_every_covered_id_names_real_tests_and_a_known_status():
    bad = []
    for module in (movement, observation, spotting):
        for rule, (status, tests, *_note) in module.COVERAGE.items():
            if status not in STATUSES:
                bad.append(f"{rule}: {status}")
            for test in tests.split(";"):
                path, _, name = test.strip().partition("::")
                if not re.search(rf"def {re.escape(name)}\b", (ROOT / path).read_text()):
                    bad.append(f"{rule}: {test}")
    assert bad == []


def test_the_doc_has_one_row_per_covered_id_with_its_status():
    text = DOC.read_text(encoding="utf-8")
    for module in (movement, observation, spotting):
        for rule, (status, *_rest) in module.COVERAGE.items():
            assert f"| `{rule}` | {status} |" in text, rule
