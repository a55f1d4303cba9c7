"""The auditor never crashes on a valid log: artillery events of the fixture games, the spec's
examples and the acceptance cases are dropped, duplicated, reordered, moved, stripped of a field or
altered (seq renumbered, turn and phase kept consistent); each mutant the log schema still accepts
is audited to the end."""
from __future__ import annotations

import random

import pytest

from domain.log import read_lines
from projections.audit_trail import audit_lines
from tests.acceptance.artillery_fuzz import SOURCES, load, mutate, valid
from tests.acceptance.test_cases import CASES, NAMES

BATCHES = 6
PER_BATCH = 40


def sources():
    return [load(p) for p in SOURCES] + [read_lines((CASES / f"{n}.jsonl").read_text(encoding="utf-8").splitlines())
                                         for n in NAMES[::7]]


@pytest.mark.parametrize("batch", range(BATCHES))
def test_audit_completes_on_mutated_logs(batch):
    logs, audited = sources(), 0
    for k in range(PER_BATCH):
        rng = random.Random(batch * 1000 + k)
        mutant = valid(mutate(logs[k % len(logs)], rng, rng.randint(1, 6)))
        if mutant is None:
            continue
        report = audit_lines(mutant)          # must not raise
        assert report.to_json()["events"] == len(mutant)
        audited += 1
    assert audited >= PER_BATCH // 3          # the mutations mostly keep the log valid
