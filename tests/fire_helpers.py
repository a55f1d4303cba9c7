"""Small logs of direct fire for the direct-fire, support-weapon, mortar, anti-tank and morale tests."""
from __future__ import annotations

from typing import Any, Optional

from tests.board_helpers import BoardLog, apps, failing, verdicts  # noqa: F401  (re-exported for the tests)

BRIT, GER = "british", "german"


class FireLog(BoardLog):
    """A game on map 5 whose units have firepower, range and morale, and a shot helper."""

    def unit(self, unit: str, side: str, cls: str, at: Optional[str], firepower: Optional[float] = 4,
             range_: Optional[int] = 6, morale: Optional[int] = 4, movement: Optional[float] = 4, **attrs: Any) -> int:
        return self.add("UnitDeployed", {"unit": unit, "class": cls, "name": unit, "location": at,
                                         "firepower": firepower, "range": range_, "morale": morale,
                                         "movement": movement, "attrs": attrs}, side=side)["seq"]

    def spot(self, spotter: str, target: str, side: str, roll: int = 1) -> int:
        self.roll("IM.SPOT.ROLL", roll, spotter, side, die="d10")
        return self.add("Spotted", {"spotter": spotter, "target": target, "spotted": True}, side=side)["seq"]

    def fire(self, attack: str, firers: list[str], target: str, side: str = BRIT, *, firepower=None, rng=None,
             sacrt: Optional[int] = 4, mods=(), results=(), spot: bool = True, before_sacrt=(), **extra) -> tuple[int, int]:
        """Spot (each firer), fire, any rolls `before_sacrt` [(purpose, result)], the SACRT d6, resolve."""
        if spot:
            for firer in firers:
                self.spot(firer, target, side)
        data = {"attack": attack, "firers": firers, "target": target, **extra}
        if firepower is not None:
            data["firepower"] = firepower
        if rng is not None:
            data["range"] = rng
        fired = self.add("SmallArmsFired", data, side=side)["seq"]
        for purpose, result in before_sacrt:
            self.roll(purpose, result, attack, side)
        if sacrt is not None:
            self.roll("LS.SACRT", sacrt, attack, side, modifiers=[{"value": v, "why": "rule"} for v in mods])
        resolved = self.add("SmallArmsResolved", {"attack": attack, "results": [
            {"unit": u, "result": r} for u, r in results]}, side=side)["seq"]
        return fired, resolved


def fire_game(**kw) -> FireLog:
    """British infantry in 5:0502 facing German infantry in 5:0505 (three hexes), turn 1, British
    offensive small arms fire phase."""
    g = FireLog(**kw)
    g.unit("b1", BRIT, "infantry-platoon", "5:0502")
    g.unit("g1", GER, "infantry-platoon", "5:0505")
    return g


def rules_at(report, seq: int, prefix: str) -> dict[str, list[str]]:
    """{rule: [verdicts]} of the applications at `seq` under `prefix`."""
    out: dict[str, list[str]] = {}
    for a in apps(report, seq=seq):
        if a.rule.startswith(prefix):
            out.setdefault(a.rule, []).append(a.verdict.value)
    return out
