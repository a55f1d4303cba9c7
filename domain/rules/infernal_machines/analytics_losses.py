"""Vehicle losses by cause, for the analytics (`im-loss` rows): a vehicle is lost once, at the first line
that knocks it out or removes it, and the cause is read from the log, in this order:

1. a result that says so outright: `AntiTankResolved.results[].result` `destroyed`/`eliminated`
   (anti-tank fire: "any 'hit' on a tank caused by an anti-tank weapon simply destroys it",
   IM.TANK.NOARMOUR), `SmallArmsResolved` `eliminated` (small arms; artillery when every firer is an
   on-map gun firing directly), `CloseCombatResolved` `eliminated`/`captured` (close combat), a
   Tadpole's `IM.VEH.TADPOLE.AMMO_HIT` of 1-2 ("disables the tank": small arms at its crew);
2. else, for a `UnitStatusChanged` eliminated: its `cause` when it names an attack, a barrage or a close
   combat of the log (or says mine, breakdown or abandoned), then the last blow on the vehicle this turn
   (an anti-tank or small arms hit, a barrage result other than a miss in its hex, a `LS.MINEFIELD`
   roll about it), then its breakdown when it is broken down and not repaired (Landships! 6.16:
   `breakdown`), else `other`.

Causes: anti-tank, artillery, small-arms, close-combat, mines, breakdown, other.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

LOSS = "im-loss"
MISSES = ("miss", "no-effect", "-", "none")
OUT = {"AntiTankResolved": ("destroyed", "eliminated"), "SmallArmsResolved": ("eliminated",),
       "CloseCombatResolved": ("eliminated", "captured")}
WORDS = (("mine", "mines"), ("break", "breakdown"), ("abandon", "breakdown"), ("close", "close-combat"),
         ("barrage", "artillery"), ("artillery", "artillery"), ("anti-tank", "anti-tank"))


@dataclass
class LossTracker:
    attacks: dict[str, list] = field(default_factory=dict)    # attack, barrage or combat id -> [cause, weapon]
    blows: dict[str, list] = field(default_factory=dict)      # unit -> [cause, weapon, what, seq, turn]
    broken: dict[str, int] = field(default_factory=dict)      # unit -> seq of its breakdown, until repaired
    lost: list[str] = field(default_factory=list)
    guns: list[str] = field(default_factory=list)             # on-map artillery guns (direct fire is artillery)

    def to_json(self) -> dict[str, Any]:
        return {"attacks": self.attacks, "blows": self.blows, "broken": self.broken, "lost": self.lost,
                "guns": self.guns}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "LossTracker":
        return cls(**data)

    def take(self, line: dict[str, Any], vehicles: dict[str, dict]) -> list[tuple[str, dict[str, Any]]]:
        handler = _HANDLERS.get(line["type"])
        return (handler(self, line, vehicles) or []) if handler is not None else []

    def _turn(self, line, vehicles) -> None:
        # what a turn's events name is not looked up in later turns
        self.blows.clear()
        self.attacks.clear()

    def _deployed(self, line, vehicles) -> None:
        if line["data"].get("class") == "artillery-gun":
            self.guns.append(line["data"]["unit"])

    def _fired(self, line, vehicles) -> None:
        data = line["data"]
        if line["type"] == "AntiTankFired":
            self.attacks[data["attack"]] = ["anti-tank", data.get("weapon")]
        elif line["type"] == "SmallArmsFired":
            guns = bool(data.get("firers")) and all(f in self.guns for f in data["firers"])
            self.attacks[data["attack"]] = ["artillery" if guns else "small-arms", None]
        elif line["type"] == "CloseCombatFought":
            self.attacks[data["combat"]] = ["close-combat", None]
        else:
            self.attacks[data["barrage"]] = ["artillery", data.get("mission")]

    def _loss(self, line, vehicles, unit: str, cause: str, weapon: Optional[str], decided_by: str,
              decided_seq: int) -> list[tuple[str, dict[str, Any]]]:
        if unit in self.lost or unit not in vehicles:
            return []
        self.lost.append(unit)
        v = vehicles[unit]
        return [(LOSS, {"game": line["game"], "seq": line["seq"], "turn": line["turn"], "unit": unit,
                        "side": v.get("side"), "type": v.get("type"), "class": v.get("class"), "tank": v.get("tank"),
                        "cause": cause, "weapon": weapon, "decided_by": decided_by, "decided_seq": decided_seq})]

    def _results(self, line, vehicles) -> list:
        kind, data = line["type"], line["data"]
        key = data.get("combat") if kind == "CloseCombatResolved" else data.get("attack")
        cause, weapon = self.attacks.get(key) or [_DEFAULT[kind], None]
        out = []
        for result in data.get("results") or []:
            unit, said = result.get("unit"), result.get("result")
            if unit not in vehicles:
                continue
            if said in OUT[kind]:
                out += self._loss(line, vehicles, unit, cause, weapon, f"{kind}.results[].result {said}", line["seq"])
            elif said not in MISSES:
                self.blows[unit] = [cause, weapon, f"{kind}.results[].result {said}", line["seq"]]
        return out

    def _barrage(self, line, vehicles) -> None:
        data = line["data"]
        mission = (self.attacks.get(data["barrage"]) or [None, None])[1]
        hit = {r.get("location") for r in data.get("results") or [] if str(r.get("result", "miss")) not in MISSES}
        for unit, v in vehicles.items():
            if v.get("location") in hit:
                self.blows[unit] = ["artillery", mission, f"BarrageResolved {data['barrage']} in {v['location']}",
                                    line["seq"]]

    def _die(self, line, vehicles) -> list:
        data = line["data"]
        purpose, unit = data.get("purpose") or "", data.get("subject") or ""
        if unit not in vehicles:
            return []
        if "MINEFIELD" in purpose.upper():
            self.blows[unit] = ["mines", None, f"DieRolled {purpose}", line["seq"]]
        elif purpose == "IM.VEH.TADPOLE.AMMO_HIT" and data.get("result", 6) <= 2:
            # "On a 1 or 2 ... the tank is disabled": small arms fire at its crew from the rear.
            return self._loss(line, vehicles, unit, "small-arms", None, "DieRolled IM.VEH.TADPOLE.AMMO_HIT 1-2",
                              line["seq"])
        return []

    def _status(self, line, vehicles) -> list:
        data = line["data"]
        unit, status = data["unit"], data["status"]
        if status == "broken-down":
            self.broken[unit] = line["seq"]
        elif status == "repaired":
            self.broken.pop(unit, None)
        if status != "eliminated" or unit not in vehicles or unit in self.lost:
            return []
        named = self._named(data.get("cause"))
        if named is not None:
            return self._loss(line, vehicles, unit, *named, "UnitStatusChanged.cause", line["seq"])
        blow = self.blows.get(unit)
        if blow is not None:
            return self._loss(line, vehicles, unit, blow[0], blow[1], blow[2], blow[3])
        if unit in self.broken:
            return self._loss(line, vehicles, unit, "breakdown", None, "UnitStatusChanged broken-down, not repaired",
                              self.broken[unit])
        return self._loss(line, vehicles, unit, "other", None, "UnitStatusChanged eliminated (no cause in the log)",
                          line["seq"])

    def _named(self, cause: Optional[str]) -> Optional[tuple[str, Optional[str]]]:
        if not cause:
            return None
        if cause in self.attacks:
            return tuple(self.attacks[cause])
        text = str(cause).lower()
        return next(((found, None) for word, found in WORDS if word in text), None)


_DEFAULT = {"AntiTankResolved": "anti-tank", "SmallArmsResolved": "small-arms", "CloseCombatResolved": "close-combat"}
_HANDLERS = {"TurnStarted": LossTracker._turn, "UnitDeployed": LossTracker._deployed,
             **{kind: LossTracker._fired for kind in ("AntiTankFired", "SmallArmsFired", "CloseCombatFought",
                                                       "BarrageDeclared")},
             **{kind: LossTracker._results for kind in OUT},
             "BarrageResolved": LossTracker._barrage, "DieRolled": LossTracker._die, "UnitStatusChanged": LossTracker._status}
