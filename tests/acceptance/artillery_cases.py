"""Acceptance logs for the Infernal Machines artillery auditor, written from the rulebook.

Each case is a complete game log in the interchange format (envelope as in the shared spec's
examples) plus the findings the rulebook demands. `python -m tests.acceptance.artillery_cases`
rewrites tests/acceptance/cases/NAME.jsonl and NAME.expected.json from the definitions below.
Sections quoted in comments are those of the Infernal Machines rulebook.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Optional

from domain.log import chain

CASES_DIR = Path(__file__).resolve().parent / "cases"
CASES: dict[str, Callable[[], "Game"]] = {}


def case(fn: Callable[[], "Game"]) -> Callable[[], "Game"]:
    CASES[fn.__name__.replace("_", "-")] = fn
    return fn


class Game:
    """A British attack on German-held hexes of map 1 (FO at 1005, target 1010), with findings."""

    def __init__(self, date: str = "1917-04", tables: str = "none", options=(), permissions=(),
                 missions: Optional[dict] = None, allowed=("drumfire", "hurricane"),
                 hexes: Optional[dict] = None, elements: int = 1, points: Optional[int] = None,
                 german_elements: int = 0, weather: str = "fair", observers: bool = True,
                 german_at: str = "1:1010"):
        self.lines: list[dict[str, Any]] = []
        self.turn, self.phase = 0, "setup"
        self.findings: list[dict[str, Any]] = []
        self.pinned: set[str] = set()
        self.add("GameStarted", {"ruleset": "infernal-machines", "scenario": "acceptance", "date": date,
                                 "sides": {"british": {"nation": "british", "bloc": "allied"},
                                           "german": {"nation": "german", "bloc": "central"}},
                                 "options": list(options), "permissions": list(permissions), "tables": tables})
        self.add("MapDefined", {"maps": ["1"], "hexes": hexes or {"1:1010": {"terrain": "clear"}}, "hexsides": []})
        self.add("WeatherSet", {"weather": weather, "terrain_state": "good"})
        for side, mission in (missions or {"british": "destruction", "german": "destruction"}).items():
            self.add("ArtilleryMissionSet", {"side": side, "mission": mission})
            self.add("BarrageTypesSet", {"side": side, "allowed": list(allowed)})
        self.unit("g-1", "german", "infantry-platoon", german_at)
        if observers:
            self.unit("b-fo", "british", "forward-observer", "1:1005", firepower=0, range=0)
        self.unit("b-inf", "british", "infantry-platoon", "1:1007")
        for i in range(1, elements + 1):
            self.element(f"obm-{i}", "british", 20, points)
        for i in range(1, german_elements + 1):
            self.element(f"gobm-{i}", "german", 20, points)

    # -- envelope ---------------------------------------------------------------------------
    def add(self, type_: str, data: dict, side: Optional[str] = None) -> int:
        seq = len(self.lines) + 1
        self.lines.append({"v": 1, "game": "g", "seq": seq, "turn": self.turn, "phase": self.phase,
                           "side": side, "type": type_, "data": data})
        return seq

    def unit(self, unit: str, side: str, cls: str, loc: str, **extra) -> int:
        data = {"unit": unit, "class": cls, "name": unit, "location": loc, "facing": 1, "morale": 4,
                "firepower": 4, "range": 6, "movement": 2, "attrs": {}}
        data.update(extra)
        return self.add("UnitDeployed", data, side)

    def element(self, element: str, side: str, firepower: int, points: Optional[int] = None) -> int:
        data: dict[str, Any] = {"element": element, "side": side, "firepower": firepower}
        if points is not None:
            data["artillery_points"] = points
        return self.add("ArtilleryElementAssigned", data, side)

    def new_turn(self, turn: int) -> None:
        if self.pinned:   # the German player turn: its pinned units recover in its pin-removal phase
            self.phase_start("pin-removal", "german")
            for unit in sorted(self.pinned):
                self.add("UnitStatusChanged", {"unit": unit, "status": "unpinned"}, "german")
            self.pinned.clear()
        self.turn, self.phase = turn, "start"
        self.add("TurnStarted", {"turn": turn})

    def phase_start(self, phase: str, active: Optional[str] = "british") -> None:
        self.phase = phase
        self.add("PhaseStarted", {"phase": phase, "active": active})

    def roll(self, purpose: str, result: int, subject: str, side: str = "british", die: str = "d6",
             **extra) -> int:
        return self.add("DieRolled", {"purpose": purpose, "die": die, "result": result, "subject": subject,
                                      **extra}, side)

    def expect(self, seq: int, rule, verdict: str, accept=None) -> None:
        self.findings.append({"seq": seq, "rule": rule, "verdict": verdict,
                              "accept_seq": list(accept) if accept else [seq]})

    # -- barrage procedure --------------------------------------------------------------------
    def observe(self, target: str = "1:1010", observer: Optional[str] = "b-fo", via: str = "forward-observer",
                side: str = "british") -> int:
        return self.add("HexObserved", {"observer": observer, "target": target, "via": via}, side)

    def declare(self, barrage: str, elements=("obm-1",), target: Optional[str] = "1:1010",
                mission: str = "destruction", bat: str = "drumfire", ammo: str = "he",
                observer: Optional[str] = "b-fo", sustained: bool = False, side: str = "british", **extra) -> int:
        return self.add("BarrageDeclared", {"barrage": barrage, "side": side, "target": target,
                                            "elements": list(elements), "mission": mission, "barrage_type": bat,
                                            "ammunition": ammo, "observer": observer, "sustained": sustained,
                                            **extra}, side)

    def comm(self, barrage: str, natural: int, ok: Optional[bool] = None, link: str = "fo-artillery",
             die: str = "d6", side: str = "british") -> int:
        purpose = "IM.ART.COMM.TEST" if link == "fo-artillery" else "IM.ART.LNO.COMM"
        self.roll(purpose, natural, barrage, side, die=die)
        return self.add("CommunicationTested", {"barrage": barrage, "link": link,
                                                "in_communication": natural >= 4 if ok is None else ok}, side)

    def fot(self, barrage: str, natural: int, column: int, granted: bool = True, modifiers=(),
            side: str = "british", roll: bool = True) -> int:
        mods = [{"value": v, "why": why} for v, why in modifiers]
        if roll:
            self.roll("IM.ART.FOT.ROLL", natural, barrage, side, **({"modifiers": mods} if mods else {}))
        return self.add("FireOrderChecked", {"barrage": barrage, "column": column, "modifiers": mods,
                                             "granted": granted}, side)

    def scatter(self, barrage: str, natural: Optional[int], scattered: bool, new_target: Optional[str] = None,
                kind: str = "DRUMFIRE", direction: Optional[int] = None, element: Optional[str] = None,
                modifiers=(), side: str = "british") -> int:
        if natural is not None:
            mods = [{"value": v, "why": why} for v, why in modifiers]
            self.roll(f"IM.ART.SCATTER.{kind}", natural, barrage, side, **({"modifiers": mods} if mods else {}))
            if scattered:
                self.roll(f"IM.ART.SCATTER.{kind}", direction or 2, barrage, side, note="direction")
        data: dict[str, Any] = {"barrage": barrage, "scattered": scattered}
        if new_target:
            data["new_target"] = new_target
        if element:
            data["element"] = element
        return self.add("ScatterTested", data, side)

    def resolve(self, barrage: str, natural: Optional[int], firepower: int, column: str,
                results=(("1:1010", "primary", "miss"),), element: Optional[str] = None, modifiers=(),
                side: str = "british") -> int:
        if natural is not None:
            mods = [{"value": v, "why": why} for v, why in modifiers]
            self.roll("IM.ART.BCRT.REVISED", natural, barrage, side, **({"modifiers": mods} if mods else {}))
        data: dict[str, Any] = {"barrage": barrage, "firepower": firepower, "column": column,
                                "results": [{"location": l, "zone": z, "result": r} for l, z, r in results]}
        if element:
            data["element"] = element
        return self.add("BarrageResolved", data, side)

    def status(self, unit: str, status: str, cause: str, side: str = "british", **extra) -> int:
        if status == "pinned":
            self.pinned.add(unit)
        return self.add("UnitStatusChanged", {"unit": unit, "status": status, "cause": cause, **extra}, side)

    def small_arms(self, attack: str, result: str, target: str = "1:1010", unit: str = "g-1") -> None:
        """British infantry fire at the German-held hex, after spotting it."""
        self.roll("IM.SPOT.ROLL", 3, "b-inf", die="d10")
        self.add("Spotted", {"spotter": "b-inf", "target": target, "spotted": True}, "british")
        self.add("SmallArmsFired", {"attack": attack, "firers": ["b-inf"], "target": target, "firepower": 4,
                                    "range": 3}, "british")
        self.roll("LS.SACRT", 5, attack)
        self.add("SmallArmsResolved", {"attack": attack, "results": [{"unit": unit, "result": result}]}, "british")

    # -- whole barrages -------------------------------------------------------------------------
    def first_turn_fo_barrage(self, barrage: str = "b-1", result: str = "miss", pin: bool = True,
                              ammo: str = "he") -> int:
        """Turn 1: FO observes, no communication test, no FOT (IM, First-turn barrages)."""
        self.observe()
        self.declare(barrage, ammo=ammo)
        self.scatter(barrage, 2, False)
        seq = self.resolve(barrage, 5, 20, "20", (("1:1010", "primary", result),))
        if pin and result == "miss":
            self.status("g-1", "pinned", barrage)
        return seq

    def full_fo_barrage(self, barrage: str, column: int, comm_natural: int = 5, fot_natural: int = 2,
                        scatter_natural: int = 3, bcrt_natural: int = 5, pin: bool = False) -> dict[str, int]:
        seqs = {"observe": self.observe(), "declare": self.declare(barrage)}
        seqs["comm"] = self.comm(barrage, comm_natural)
        seqs["fot"] = self.fot(barrage, fot_natural, column)
        seqs["scatter"] = self.scatter(barrage, scatter_natural, False)
        seqs["resolve"] = self.resolve(barrage, bcrt_natural, 20, "20")
        if pin:
            seqs["effect"] = self.status("g-1", "pinned", barrage)
        return seqs

    def full_fo_barrage_pinning(self, barrage: str, column: int) -> dict[str, int]:
        """A full FO barrage whose miss pins the (unpinned) target, as D/HE gives in the primary zone."""
        seqs = self.full_fo_barrage(barrage, column)
        seqs["effect"] = self.status("g-1", "pinned", barrage)
        return seqs

    # -- output ---------------------------------------------------------------------------------
    def write(self, name: str, directory: Path = CASES_DIR) -> None:
        for line in self.lines:
            line["game"] = name[:64]
        (directory / f"{name}.jsonl").write_text("\n".join(chain(self.lines)) + "\n", encoding="utf-8")
        (directory / f"{name}.expected.json").write_text(
            json.dumps({"findings": self.findings}, indent=1) + "\n", encoding="utf-8")


def write_all(directory: Path = CASES_DIR) -> list[str]:
    from tests.acceptance import artillery_case_defs  # (registers the cases)
    from tests.acceptance.artillery_cases import CASES as registered  # the module, not __main__
    assert artillery_case_defs
    directory.mkdir(parents=True, exist_ok=True)
    for name, build in registered.items():
        build().write(name, directory)
    return sorted(registered)


if __name__ == "__main__":
    print(len(write_all()), "cases written")
