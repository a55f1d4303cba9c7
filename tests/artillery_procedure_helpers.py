"""Small logs of the off-map barrage procedure, for the procedure and resistance tests."""
from __future__ import annotations

from typing import Any, Optional

import domain.rules.infernal_machines  # noqa: F401  (declares the readings a test may choose)
from domain.rules.engine import FAILING, AuditReport, audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import NONE, TablePack
from tests.builders import LogBuilder

FO_HEX, LNO_HEX, INF_HEX, TARGET, TOWN = "1:1005", "1:1006", "1:1007", "1:1010", "1:1210"


class Game(LogBuilder):
    """A British FO, LNO and platoon facing a German platoon in 1:1010; two British OBMs."""

    def __init__(self, *, hexes: Optional[dict] = None, lno: bool = True, **kw):
        super().__init__(**kw)
        self.g1_pinned = False
        self.add("MapDefined", {"maps": ["1"], "hexes": {TOWN: {"terrain": "town"}, **(hexes or {})},
                                "hexsides": []})
        self.add("WeatherSet", {"weather": "fair", "terrain_state": "good"})
        self.add("ArtilleryMissionSet", {"side": "british", "mission": "destruction"})
        self.add("BarrageTypesSet", {"side": "british", "allowed": ["drumfire", "hurricane"]})
        self.unit("g-1", "german", "infantry-platoon", TARGET)
        self.unit("b-fo", "british", "forward-observer", FO_HEX)
        if lno:
            self.unit("b-lno", "british", "liaison-officer", LNO_HEX)
        self.unit("b-inf", "british", "infantry-platoon", INF_HEX)
        for element in ("obm-1", "obm-2"):
            self.add("ArtilleryElementAssigned", {"element": element, "side": "british", "firepower": 20},
                     side="british")

    # -- turn structure ------------------------------------------------------------------------
    def barrage_phase(self, turn: int, side: str = "british") -> "Game":
        if turn != self.turn:
            self.turn_start(turn)
            if self.g1_pinned:
                # The pin-removal phase lifts the pin of the German platoon before the new barrages.
                self.phase_start("pin-removal", "german")
                self.add("UnitStatusChanged", {"unit": "g-1", "status": "unpinned"}, side="german")
                self.g1_pinned = False
        self.phase_start("barrage", side)
        return self

    def fire_phase(self, side: str = "british") -> "Game":
        self.phase_start("offensive-small-arms-fire", side)
        return self

    # -- the procedure -------------------------------------------------------------------------
    def observe(self, target: str = TARGET, via: str = "forward-observer", observer: Optional[str] = "b-fo"):
        return self.add("HexObserved", {"observer": observer, "target": target, "via": via},
                        side="british")

    def declare(self, barrage: str, target: Optional[str] = TARGET, observer: Optional[str] = "b-fo",
                elements: Optional[list] = None, **data):
        body = {"barrage": barrage, "side": "british", "target": target, "elements": elements or ["obm-1"],
                "mission": "destruction", "barrage_type": "drumfire", "ammunition": "he",
                "observer": observer, "sustained": False, **data}
        return self.add("BarrageDeclared", body, side="british")

    def comm(self, barrage: str, roll: int, link: str = "fo-artillery", in_comm: Optional[bool] = None,
             die: str = "d6"):
        purpose = "IM.ART.COMM.TEST" if link == "fo-artillery" else "IM.ART.LNO.COMM"
        self.roll(purpose, roll, barrage, "british", die=die)
        return self.add("CommunicationTested", {"barrage": barrage, "link": link,
                                                "in_communication": roll >= 4 if in_comm is None else in_comm},
                        side="british")

    def fot(self, barrage: str, roll: int, column: int, granted: bool = True, modifiers: Optional[list] = None):
        self.roll("IM.ART.FOT.ROLL", roll, barrage, "british")
        return self.add("FireOrderChecked", {"barrage": barrage, "column": column, "modifiers": modifiers or [],
                                             "granted": granted}, side="british")

    def fire(self, barrage: str, target: str = TARGET, scatter: int = 1, bcrt: int = 4, scatter_test: bool = True):
        """Scatter (no scatter) and a BCRT resolution: the barrage falls on `target`."""
        if scatter_test:
            self.roll("IM.ART.SCATTER.DRUMFIRE", scatter, barrage, "british")
            self.add("ScatterTested", {"barrage": barrage, "scattered": False}, side="british")
        self.roll("IM.ART.BCRT.REVISED", bcrt, barrage, "british")
        resolved = self.add("BarrageResolved", {"barrage": barrage, "firepower": 20, "column": "20",
                                                "results": [{"location": target, "zone": "primary",
                                                             "result": "miss"}]}, side="british")
        if target == TARGET:
            # Destruction, primary zone: a "miss" pins the infantry there.
            self.add("UnitStatusChanged", {"unit": "g-1", "status": "pinned", "cause": barrage}, side="british")
            self.g1_pinned = True
        return resolved

    def cancel(self, barrage: str, reason: str):
        return self.add("BarrageCancelled", {"barrage": barrage, "reason": reason}, side="british")

    def small_arms(self, attack: str, target: str = TARGET, result: str = "no-effect",
                   firers: Optional[list] = None, unit: str = "g-1", side: str = "british", firepower: int = 4):
        for firer in firers or ["b-inf"]:
            self.roll("IM.SPOT.ROLL", 1, firer, side, die="d10")
            self.add("Spotted", {"spotter": firer, "target": target, "spotted": True}, side=side)
        self.add("SmallArmsFired", {"attack": attack, "firers": firers or ["b-inf"], "target": target,
                                    "firepower": firepower, "range": 3}, side=side)
        self.roll("LS.SACRT", 5, attack, side)
        return self.add("SmallArmsResolved", {"attack": attack, "results": [{"unit": unit, "result": result}]},
                        side=side)


def run(game: LogBuilder, tables: TablePack = NONE, **readings: str) -> AuditReport:
    interpretations = Interpretations()
    for name, reading in readings.items():
        interpretations.choose(name.replace("_", "-"), reading)
    return audit([dict(l) for l in game.lines], tables=tables, interpretations=interpretations)


def found(report: AuditReport, rule_prefix: str = "", verdict: Optional[str] = None) -> list[tuple[int, str, str]]:
    """(seq, rule, verdict) of the non-ok applications under `rule_prefix`."""
    return [(a.seq, a.rule, a.verdict.value) for a in report.findings
            if a.rule.startswith(rule_prefix) and (verdict is None or a.verdict.value == verdict)]


def failing(report: AuditReport) -> list[tuple[int, str, str, str]]:
    return [(a.seq, a.rule, a.verdict.value, a.message) for a in report.findings if a.verdict in FAILING]


def at(line: dict[str, Any]) -> int:
    return line["seq"]
