"""The Disputes page's house-rule readings: every reading of the game's own rule system's
interpretations, offered as the NAME=READING a RulingIssued records (docs/game-log-extensions.md)."""
from __future__ import annotations

import json

from dashboard.data import GameView
from dashboard.pages.disputes import _readings
from domain.rules.interpretations import catalogue
from tests.conftest import EXAMPLES


def view_of(path) -> GameView:
    lines = [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines()]
    return GameView(lines[0]["game"], lines)


def test_a_house_rule_chooses_among_its_rule_systems_readings():
    gv = view_of(EXAMPLES / "first-turn-barrage.jsonl")
    offered = {o["value"] for o in _readings(gv)}
    im = catalogue("infernal-machines")
    assert offered == {f"{name}={reading}" for name, item in im.items() for reading in item.readings}
    # IM, Artillery Fire Missions, Gas missions: "Gas remains effective for two turns" against "remove the
    # marker at the end of the last phase of the opposing player's turn" (AP-03)
    assert {"im-gas-duration=two-turns", "im-gas-duration=opponent-turn"} <= offered
    assert not [v for v in offered if v.startswith(("avbcw-", "mog-"))]   # another rule system's are not offered
