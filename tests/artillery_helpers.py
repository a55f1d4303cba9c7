"""Building artillery logs in tests: a game with maps, weather, AFMT/BTT results and elements,
then barrages step by step, and the audit's findings by rule id."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from domain.rules.engine import audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import TablePack, resolve
from tests.builders import LogBuilder

ARTY_FAILING = ("violation", "mismatch", "missing-roll")
# Rules of the barrage procedure (observation, communication, fire orders), judged elsewhere.
PROCEDURE = ("IM.ART.FOT", "IM.ART.FO.", "IM.ART.COMM", "IM.ART.AUTOOBS", "IM.ART.FIRSTTURN", "IM.ART.RESTRICT",
             "IM.ART.AIR", "IM.ART.BALLOON", "IM.ART.LNO", "IM.ART.SUSTAINED", "IM.ART.RESIST", "IM.SPOT")


class ArtyLog(LogBuilder):
    def __init__(self, date: str = "1917-04", tables: str = "none", options: Optional[list] = None,
                 permissions: Optional[list] = None, missions: Optional[dict] = None,
                 allowed: Iterable[str] = ("drumfire", "hurricane"), hexes: Optional[dict] = None,
                 weather: Optional[str] = "fair", terrain_state: str = "good", maps: Optional[list] = None):
        super().__init__(date=date, tables=tables, options=options, permissions=permissions)
        self.add("MapDefined", {"maps": maps or ["1"], "hexes": hexes or {}, "hexsides": []})
        if weather:
            self.add("WeatherSet", {"weather": weather, "terrain_state": terrain_state})
        # forward observers, so that barrages rest on an observation (IM.ART.FO.REQUIRED)
        self.unit("b-fo", "british", "forward-observer", "1:1004")
        self.unit("g-fo", "german", "forward-observer", "1:1016")
        for side, mission in (missions or {"british": "destruction", "german": "destruction"}).items():
            self.add("ArtilleryMissionSet", {"side": side, "mission": mission})
            self.add("BarrageTypesSet", {"side": side, "allowed": list(allowed)})

    def element(self, element: str, side: str = "british", firepower: int = 20, points: Optional[int] = None):
        self.add("ArtilleryElementAssigned", {"element": element, "side": side, "firepower": firepower,
                                              "artillery_points": points}, side=side)

    def barrage_phase(self, turn: int, side: str = "british") -> None:
        if turn != self.turn:
            self.turn_start(turn)
        self.phase_start("barrage", side)

    def declare(self, barrage: str, elements: list[str], target: Optional[str] = "1:1010",
                mission: str = "destruction", bat: str = "drumfire", ammo: str = "he",
                side: str = "british", observe: bool = True, **extra) -> dict:
        observer = None
        if observe and target and self.phase == "barrage":
            observer = "b-fo" if side == "british" else "g-fo"
            self.add("HexObserved", {"observer": observer, "target": target, "via": "forward-observer"}, side=side)
        return self.add("BarrageDeclared", {"barrage": barrage, "side": side, "target": target,
                                            "elements": elements, "mission": mission, "barrage_type": bat,
                                            "ammunition": ammo, "observer": observer, "sustained": False, **extra},
                        side=side)

    def scatter(self, barrage: str, natural: int, scattered: bool, new_target: Optional[str] = None,
                direction: Optional[int] = None, element: Optional[str] = None, side: str = "british",
                kind: str = "DRUMFIRE", modifiers: Optional[list] = None, subject: Optional[str] = None) -> None:
        data: dict[str, Any] = {}
        if modifiers:
            data["modifiers"] = [{"value": v, "why": "test"} for v in modifiers]
        self.roll(f"IM.ART.SCATTER.{kind}", natural, subject or barrage, side, **data)
        if direction is not None:
            self.roll(f"IM.ART.SCATTER.{kind}", direction, subject or barrage, side, note="direction")
        out: dict[str, Any] = {"barrage": barrage, "scattered": scattered}
        if new_target:
            out["new_target"] = new_target
        if element:
            out["element"] = element
        self.add("ScatterTested", out, side=side)

    def resolve(self, barrage: str, natural: Optional[int], firepower: int, column: str,
                results: list[tuple[str, str, str]], element: Optional[str] = None,
                modifiers: Optional[list] = None, side: str = "british") -> dict:
        if natural is not None:
            data: dict[str, Any] = {}
            if modifiers:
                data["modifiers"] = [{"value": v, "why": "test"} for v in modifiers]
            self.roll("IM.ART.BCRT.REVISED", natural, barrage, side, **data)
        out: dict[str, Any] = {"barrage": barrage, "firepower": firepower, "column": column,
                               "results": [{"location": loc, "zone": zone, "result": res} for loc, zone, res in results]}
        if element:
            out["element"] = element
        return self.add("BarrageResolved", out, side=side)

    def status(self, unit: str, status: str, cause: Optional[str] = None, side: str = "british", **data):
        self.add("UnitStatusChanged", {"unit": unit, "status": status, "cause": cause, **data}, side=side)

    def audit(self, tables: Optional[str] = None, interpretations: Iterable[str] = ()):
        pack: TablePack = resolve(tables or self.lines[0]["data"]["tables"])
        return audit(self.lines, tables=pack, interpretations=Interpretations.from_pairs(interpretations))


def found(report, rule_prefix: str = "", verdicts: Iterable[str] = ARTY_FAILING) -> list:
    """Findings whose rule starts with `rule_prefix` and whose verdict is one of `verdicts`."""
    return [a for a in report.applications if a.rule.startswith(rule_prefix) and a.verdict.value in verdicts]


def verdicts(report, rule_prefix: str, exact: bool = False) -> set[str]:
    return {a.verdict.value for a in report.applications
            if (a.rule == rule_prefix if exact else a.rule.startswith(rule_prefix))}


def failing(report) -> list:
    return [f"{a.seq} {a.rule} {a.verdict.value}: {a.message}" for a in report.applications
            if a.verdict.value in ARTY_FAILING and not a.rule.startswith(PROCEDURE)]
