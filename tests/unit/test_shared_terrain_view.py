"""The audit's one terrain view (board_view): shared by every module, kept while only units move,
roll and fire, and built again as soon as the terrain may differ: a marker placed or removed, or a
marker's lifetime ending with no event about the marker itself."""
from __future__ import annotations

from domain.log import read_lines
from domain.rules.engine import RuleModule, audit
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.interpretations import Interpretations
from domain.rules.tables import resolve
from tests.builders import LogBuilder

SMOKE_AT = "1:0203"


def _views(b: LogBuilder) -> list[tuple[int, bool, int]]:
    seen = []

    class Probe(RuleModule):
        def before(self, line):
            view = board_view(self.ctx)
            seen.append((line["seq"], view.smoke(SMOKE_AT), id(view)))
            return ()

    audit(read_lines(b.texts()), tables=resolve("none"), interpretations=Interpretations(), rule_modules=[Probe])
    return seen


def test_the_view_follows_a_smoke_marker_from_placing_to_its_lifetimes_end():
    b = LogBuilder()
    b.add("MapDefined", {"maps": ["1"], "hexes": {}})
    b.turn_start(1)
    b.phase_start("first-foot-movement", "british")
    b.add("MarkerPlaced", {"marker": "smoke", "location": SMOKE_AT}, side="british")    # seq 5
    b.roll("IM.SPOT.ROLL", 4, "b-1", "british", die="d10")                              # seq 6
    b.roll("IM.SPOT.ROLL", 5, "b-1", "british", die="d10")                              # seq 7
    b.turn_start(2)                                                                     # seq 8
    # IM, Smoke: removed in the opposing player's pin-removal phase
    b.phase_start("pin-removal", "german")                                              # seq 9
    b.roll("IM.SPOT.ROLL", 6, "g-1", "german", die="d10")                               # seq 10
    b.phase_start("barrage", "german")                                                  # seq 11
    b.roll("IM.SPOT.ROLL", 6, "g-1", "german", die="d10")                               # seq 12
    seen = {seq: (smoke, view) for seq, smoke, view in _views(b)}
    assert [seq for seq in seen if seen[seq][0]] == [6, 7, 8, 9, 10, 11]
    assert seen[6][1] == seen[7][1]           # rolls change no terrain: the same view
    assert seen[12][0] is False               # the smoke lapsed with the pin-removal phase's end


def test_a_removed_marker_leaves_the_view_at_once():
    b = LogBuilder()
    b.add("MapDefined", {"maps": ["1"], "hexes": {}})
    b.turn_start(1)
    b.phase_start("first-foot-movement", "british")
    b.add("MarkerPlaced", {"marker": "smoke", "location": SMOKE_AT}, side="british")    # seq 5
    b.roll("IM.SPOT.ROLL", 4, "b-1", "british", die="d10")                              # seq 6
    b.add("MarkerRemoved", {"marker": "smoke", "location": SMOKE_AT}, side="british")   # seq 7
    b.roll("IM.SPOT.ROLL", 4, "b-1", "british", die="d10")                              # seq 8
    seen = {seq: smoke for seq, smoke, _ in _views(b)}
    assert (seen[6], seen[7], seen[8]) == (True, True, False)
