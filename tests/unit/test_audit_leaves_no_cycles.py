"""An audit frees what it built once its report is made: its context, typed events and the facts
its modules kept are freed by reference counting, not left in reference cycles for the cyclic
collector (whose walk of them the caller paid when the collector came back on: 3-9 ms of a 50 ms
AVBCW audit). A shot's Aim, kept for its board moment, holds the context that holds it; the
Infernal Machines artillery procedure's trackers held the procedure that holds them."""
from __future__ import annotations

import gc

import pytest

from domain.log import read_lines
from projections.audit_trail import audit_lines
from tests.conftest import FIXTURE_GAMES, SPEC

# the tabletop examples fire shots (the Aim that held the context), move and test bravery
TABLETOP_EXAMPLES = ["avbcw-example.jsonl", "mog-example.jsonl"]


def unreachable_after_audit(lines) -> int:
    audit_lines(lines)                  # the rule system imported, its lazy tables read
    gc.collect()
    gc.disable()
    try:
        report = audit_lines(lines)
        assert report.applications      # a real audit, kept alive through the collection below
        return gc.collect()
    finally:
        gc.enable()


@pytest.mark.parametrize("name", TABLETOP_EXAMPLES)
def test_a_tabletop_audit_leaves_nothing_for_the_cyclic_collector(name):
    lines = read_lines((SPEC / "examples-tabletop" / name).read_text(encoding="utf-8").splitlines())
    assert unreachable_after_audit(lines) == 0


def test_an_infernal_machines_audit_leaves_nothing_for_the_cyclic_collector():
    # the Arras raid declares barrages: the artillery procedure and its sustained-fire, fire-order
    # and flare trackers are all made
    lines = read_lines((FIXTURE_GAMES / "arras-1917-raid.jsonl").read_text(encoding="utf-8").splitlines())
    assert unreachable_after_audit(lines) == 0
