"""The `txt-*` logs in cases_movement/ are exactly what movement_text_cases.py builds from the text.

test_cases_movement.py audits every log in that directory against its expected findings; this
test keeps the files and their builder (where each expectation cites its rulebook sentence) in step,
and that every case is either clean or expects a finding it names.
"""
from __future__ import annotations

import json

import pytest

from domain.log import chain
from tests.acceptance.cases_movement.build_cases import HERE
from tests.acceptance.movement_text_cases import build

GAMES = build()


def test_case_names_are_unique_and_prefixed():
    names = [g.name for g in GAMES]
    assert len(names) == len(set(names)) and all(n.startswith("txt-") for n in names)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_written_case_matches_its_builder(game):
    assert (HERE / f"{game.name}.jsonl").read_text(encoding="utf-8") == "\n".join(chain(game.lines)) + "\n"
    on_disk = json.loads((HERE / f"{game.name}.expected.json").read_text(encoding="utf-8"))
    assert on_disk == {"findings": game.expected}
