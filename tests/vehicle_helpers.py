"""Small logs with vehicles: tanks, armoured cars, light vehicles, trains and boats, their fire and their dice."""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import TablePack
from tests.board_helpers import BoardLog, apps, failing, verdicts  # noqa: F401  (re-exported for the tests)

BRIT, GER = "british", "german"


class VehicleLog(BoardLog):
    """A game on map 5 (extra-wide trenches allowed) with unit, fire and dice helpers."""

    def __init__(self, **kw):
        kw.setdefault("permissions", ["extra-wide-trenches"])
        super().__init__(**kw)

    def unit(self, unit: str, side: str, cls: str, at: Optional[str], firepower: Optional[float] = 4,
             range_: Optional[int] = 8, morale: Optional[int] = 4, movement: Optional[float] = 6,
             facing: Optional[int] = 0, **attrs: Any) -> int:
        return self.add("UnitDeployed", {"unit": unit, "class": cls, "name": unit, "location": at, "facing": facing,
                                         "firepower": firepower, "range": range_, "morale": morale,
                                         "movement": movement, "attrs": attrs}, side=side)["seq"]

    def die(self, purpose: str, result: int, subject: str, side: Optional[str], die: str = "d6",
            mods: tuple = (), **data) -> int:
        return self.add("DieRolled", {"purpose": purpose, "die": die, "result": result, "subject": subject,
                                      "modifiers": [m if isinstance(m, dict) else {"value": m, "why": "rule"}
                                                    for m in mods], **data}, side=side)["seq"]

    def spot(self, spotter: str, target: str, side: str) -> None:
        self.die("IM.SPOT.ROLL", 1, spotter, side, die="d10")
        self.add("Spotted", {"spotter": spotter, "target": target, "spotted": True}, side=side)

    def small_arms(self, attack: str, firers: list[str], target: str, side: str, *, firepower=None,
                   roll: Optional[int] = 4, die: str = "d6", mods: tuple = (), results=(), spot: bool = True,
                   **extra) -> tuple[int, int]:
        """Spot, fire, the SACRT roll (none when `roll` is None), resolve: (seq fired, seq resolved)."""
        if spot:
            for firer in firers:
                self.spot(firer, target, side)
        data = {"attack": attack, "firers": firers, "target": target, **extra}
        if firepower is not None:
            data["firepower"] = firepower
        fired = self.add("SmallArmsFired", data, side=side)["seq"]
        if roll is not None:
            self.die("LS.SACRT", roll, attack, side, die=die, mods=mods)
        resolved = self.add("SmallArmsResolved", {"attack": attack, "results": [
            {"unit": u, "result": r} for u, r in results]}, side=side)["seq"]
        return fired, resolved

    def anti_tank(self, attack: str, firers: list[str], target: str, side: str, *, target_unit=None,
                  roll: int = 4, results=(), weapon=None, spot: bool = True, mods: tuple = ()) -> tuple[int, int]:
        if spot:
            for firer in firers:
                self.spot(firer, target, side)
        data: dict[str, Any] = {"attack": attack, "firers": firers, "target": target}
        if target_unit:
            data["target_unit"] = target_unit
        if weapon:
            data["weapon"] = weapon
        fired = self.add("AntiTankFired", data, side=side)["seq"]
        self.die("LS.ATCRT", roll, attack, side, die="d10", mods=mods)
        resolved = self.add("AntiTankResolved", {"attack": attack, "results": [
            {"unit": u, "result": r} for u, r in results]}, side=side)["seq"]
        return fired, resolved

    def audit_with(self, tables: Optional[dict] = None, **readings: str):
        """The audit with a table pack of these tables (illustrative test values)."""
        interp = Interpretations()
        for name, reading in readings.items():
            interp.choose(name.replace("__", "."), reading)
        pack = TablePack("test-pack", True, "test values", tables or {})
        return audit(self.lines, tables=pack, interpretations=interp)

