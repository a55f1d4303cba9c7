"""A club's own rule system, as docs/rulesets.md writes it, plugs in through the RuleSet alone:
its logs import, fold to a board and audit with its own rule module. The example is read from
the page itself, so the page stays true."""
from __future__ import annotations

import json
import re

import pytest

from domain.board.state import fold
from domain.log import read_lines
from domain.rulesets import registered
from projections.audit_trail import audit_lines
from tests.conftest import ROOT


def _example_ruleset():
    page = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n# our_rules/ruleset.py\n(.*?)```", page, re.S).group(1)
    namespace: dict = {}
    exec(compile(code, "docs/rulesets.md", "exec"), namespace)  # noqa: S102  (the page's own example)
    return namespace["RULESET"]


@pytest.fixture
def our_rules():
    ruleset = _example_ruleset()
    installed = registered()
    installed[ruleset.id] = ruleset  # as its entry point would, for this test only
    yield ruleset
    installed.pop(ruleset.id)


def _log(dice: int) -> list[str]:
    lines = [
        {"type": "GameStarted", "turn": 0, "phase": "setup", "side": None, "data": {
            "ruleset": "our-rules", "scenario": "club night", "date": "1900-01",
            "sides": {"reds": {"nation": "red", "bloc": "other"}, "blues": {"nation": "blue", "bloc": "other"}}}},
        {"type": "TableDefined", "turn": 0, "phase": "setup", "side": None,
         "data": {"width": 48.0, "depth": 48.0, "features": []}},
        {"type": "UnitDeployed", "turn": 0, "phase": "setup", "side": "reds", "data": {
            "unit": "r-1", "position": {"x": 10.0, "y": 10.0}, "facing": 0, "footprint": {"w": 4.0, "d": 2.0}}},
        {"type": "TurnStarted", "turn": 1, "phase": "start", "side": None, "data": {"turn": 1}},
        {"type": "PhaseStarted", "turn": 1, "phase": "volleys", "side": None,
         "data": {"phase": "volleys", "active": None}},
        {"type": "Volley", "turn": 1, "phase": "volleys", "side": "reds", "data": {"unit": "r-1", "dice": dice}},
    ]
    return [json.dumps({"v": 1, "game": "club-1", "seq": i, **line}) for i, line in enumerate(lines, start=1)]


def test_a_rule_system_of_its_own_imports_folds_and_audits(our_rules):
    lines = read_lines(_log(dice=8))
    board = fold(lines).public()
    assert board["geometry"] == "tabletop" and board["units"]["r-1"]["position"] == {"x": 10.0, "y": 10.0}
    report = audit_lines(lines)
    assert [(f.seq, f.rule, f.verdict.value) for f in report.findings] == [(6, "OUR.VOLLEY", "violation")]
    assert audit_lines(read_lines(_log(dice=6))).findings == []


def test_its_events_and_phases_are_its_own(our_rules):
    from domain.log import LogError
    texts = _log(dice=3)
    texts[4] = texts[4].replace('"volleys"', '"barrage"')
    with pytest.raises(LogError, match="unknown phase 'barrage'"):
        read_lines(texts)


def test_its_games_are_drawn_by_the_renderer_it_names(our_rules, monkeypatch):
    import dataclasses

    from dashboard import renderers
    from dashboard.data import GameView

    lines = read_lines(_log(dice=6))
    # a tabletop rule system that names no renderer is drawn by its geometry's: to scale in inches
    view = GameView("club-1", lines)
    assert view.renderer == "tabletop" and renderers.renderer_for(view) is renderers.TABLETOP
    figure = renderers.renderer_for(view).figure(view, 6, False)
    assert figure.layout.xaxis.range[1] == 48.0
    # one that names a renderer a package registers (the `umpire.renderers` group) gets it
    club = renderers.Renderer("club-board", renderers.TABLETOP.figure, renderers.TABLETOP.static_traces,
                              renderers.TABLETOP.moving)
    monkeypatch.setitem(registered(), "our-rules", dataclasses.replace(our_rules, renderer="club-board"))
    monkeypatch.setitem(renderers.BUILT_IN, "club-board", club)   # as its entry point would
    assert renderers.renderer_for(GameView("club-1", lines)) is club
    # a name nothing registers falls back to the geometry's renderer rather than failing the page
    monkeypatch.setitem(registered(), "our-rules", dataclasses.replace(our_rules, renderer="nowhere"))
    renderers.installed.cache_clear()
    assert renderers.renderer_for(GameView("club-1", lines)) is renderers.TABLETOP
    renderers.installed.cache_clear()
