"""A seeded corpus of valid Infernal Machines logs for the scale benchmark.

Each game is a British attack on a German line over `turns` turns: every turn the British call
barrages (observation, declaration, ammunition spent, communication test, Fire Order Table,
scatter, resolution or cancellation) and fire small arms at the German hexes; the Germans
shuffle their reserves. The logs follow game-log.md (they import without error); the FOT
column is the writer's own resistance count, recorded wrong now and then, as at a real table.
`LogWriter` is also the builder the analytics tests use to write small logs by hand.
"""
from __future__ import annotations

import random
from typing import Any, Iterator, Optional

from domain.log import chain

SIDES = {"british": {"nation": "british", "bloc": "allied"}, "german": {"nation": "german", "bloc": "central"}}


class LogWriter:
    """Writes the lines of one game in order, keeping seq, turn and phase in step."""

    def __init__(self, game: str, *, options: tuple[str, ...] = ("IM.ART.AMMO",)):
        self.game, self.seq, self.turn, self.phase = game, 0, 0, "setup"
        self.lines: list[dict[str, Any]] = []
        self.emit("GameStarted", {"ruleset": "infernal-machines", "scenario": "bench", "date": "1917-04",
                                  "sides": SIDES, "options": list(options), "permissions": [], "tables": "none"})

    def emit(self, kind: str, data: dict[str, Any], side: Optional[str] = None) -> dict[str, Any]:
        self.seq += 1
        line = {"v": 1, "game": self.game, "seq": self.seq, "turn": self.turn, "phase": self.phase,
                "side": side, "type": kind, "data": data}
        self.lines.append(line)
        return line

    def text_lines(self) -> Iterator[str]:
        return chain(self.lines)

    # -- set-up and turn structure -----------------------------------------------------------------
    def map(self, hexes: list[str]) -> None:
        self.emit("MapDefined", {"maps": ["1"], "hexes": {h: {"terrain": "clear"} for h in hexes}, "hexsides": []})

    def deploy(self, side: str, unit: str, cls: str, location: str) -> None:
        self.emit("UnitDeployed", {"unit": unit, "class": cls, "name": unit, "location": location, "facing": 1,
                                   "morale": 4, "firepower": 4, "range": 6, "movement": 2, "attrs": {}}, side)

    def element(self, side: str, element: str, firepower: int = 20, points: Optional[int] = 25) -> None:
        data = {"element": element, "side": side, "firepower": firepower}
        if points is not None:
            data["artillery_points"] = points
        self.emit("ArtilleryElementAssigned", data, side)

    def turn_start(self) -> None:
        self.turn += 1
        self.phase = "start"
        self.emit("TurnStarted", {"turn": self.turn})

    def phase_start(self, phase: str, active: Optional[str] = "british") -> None:
        self.phase = phase
        self.emit("PhaseStarted", {"phase": phase, "active": active})

    # -- the barrage procedure -----------------------------------------------------------------------
    def observe(self, side: str, observer: Optional[str], target: str, via: str = "forward-observer") -> None:
        self.emit("HexObserved", {"observer": observer, "target": target, "via": via}, side)

    def declare(self, side: str, barrage: str, target: str, elements: list[str], *,
                barrage_type: str = "drumfire", observer: Optional[str] = None) -> None:
        self.emit("BarrageDeclared", {"barrage": barrage, "side": side, "target": target, "elements": elements,
                                      "mission": "destruction", "barrage_type": barrage_type, "ammunition": "he",
                                      "observer": observer, "sustained": False}, side)

    def spend(self, side: str, element: str, points: int, barrage: Optional[str], reason: str = "barrage") -> None:
        self.emit("ArtilleryPointsSpent", {"element": element, "points": points, "reason": reason,
                                           "barrage": barrage}, side)

    def roll(self, side: str, purpose: str, result: int, subject: str, die: str = "d6") -> None:
        self.emit("DieRolled", {"purpose": purpose, "die": die, "result": result, "subject": subject}, side)

    def communication(self, side: str, barrage: str, roll: int) -> bool:
        self.roll(side, "IM.ART.COMM.TEST", roll, barrage)
        ok = roll >= 4  # IM, communication: 1-3 the FO is not in communication
        self.emit("CommunicationTested", {"barrage": barrage, "link": "fo-artillery", "in_communication": ok}, side)
        return ok

    def fire_order(self, side: str, barrage: str, column: int, roll: int, granted: bool) -> None:
        self.roll(side, "IM.ART.FOT.ROLL", roll, barrage)
        self.emit("FireOrderChecked", {"barrage": barrage, "column": column, "modifiers": [], "granted": granted},
                  side)

    def scatter(self, side: str, barrage: str, roll: int, element: Optional[str] = None) -> bool:
        self.roll(side, "IM.ART.SCATTER.DRUMFIRE", roll, barrage)
        scattered = roll >= 5  # IM, Scatter: drumfire scatters on 5-6
        data: dict[str, Any] = {"barrage": barrage, "scattered": scattered}
        if element:
            data["element"] = element
        self.emit("ScatterTested", data, side)
        return scattered

    def resolve(self, side: str, barrage: str, target: str, roll: int, result: str = "miss") -> None:
        self.roll(side, "IM.ART.BCRT.REVISED", roll, barrage)
        self.emit("BarrageResolved", {"barrage": barrage, "firepower": 20, "column": "20",
                                      "results": [{"location": target, "zone": "primary", "result": result}]}, side)

    def cancel(self, side: str, barrage: str, reason: str) -> None:
        self.emit("BarrageCancelled", {"barrage": barrage, "reason": reason}, side)

    # -- small arms and movement ---------------------------------------------------------------------
    def small_arms(self, side: str, attack: str, firers: list[str], target: str,
                   results: list[tuple[str, str]], roll: int = 3) -> None:
        self.emit("SmallArmsFired", {"attack": attack, "firers": firers, "target": target, "firepower": 4,
                                     "range": 3}, side)
        self.roll(side, "LS.SACRT", roll, attack)
        self.emit("SmallArmsResolved", {"attack": attack,
                                        "results": [{"unit": u, "result": r} for u, r in results]}, side)
        for unit, result in results:
            if result in ("eliminated", "retreated"):
                self.emit("UnitStatusChanged", {"unit": unit, "status": result, "cause": attack}, side)

    def move(self, side: str, unit: str, path: list[str]) -> None:
        self.emit("UnitMoved", {"unit": unit, "path": path}, side)


def corpus_game(name: str, seed: int, turns: int = 34) -> LogWriter:
    """One seeded game of about 29 events a turn (about 1,000 events with the default 34 turns)."""
    rnd = random.Random(seed)
    w = LogWriter(name)
    line = [f"1:{col:02d}10" for col in range(10, 16)]
    w.map(line + [f"1:{col:02d}05" for col in range(10, 16)])
    w.emit("WeatherSet", {"weather": "fair", "terrain_state": "good"})
    w.emit("ArtilleryMissionSet", {"side": "british", "mission": "destruction"})
    w.emit("BarrageTypesSet", {"side": "british", "allowed": ["drumfire", "hurricane"]})
    defenders = {}
    for i, hex_ in enumerate(line):
        for j in range(2):
            unit = f"g-{i}-{j}"
            w.deploy("german", unit, "infantry-platoon", hex_)
            defenders[unit] = hex_
    attackers = [f"b-{i}" for i in range(6)]
    for i, unit in enumerate(attackers):
        w.deploy("british", unit, "infantry-platoon", f"1:{10 + i:02d}07")
    w.deploy("british", "b-mg", "mg-platoon", "1:1206")
    w.deploy("british", "b-gun", "artillery-gun", "1:1205")
    w.deploy("british", "b-fo", "forward-observer", "1:1105")
    elements = {f"obm-{k}": 25 for k in range(8)}
    for element in elements:
        w.element("british", element)
    resisted = {h: [0, 0] for h in line}  # hex -> [count, last turn counted] (IM.ART.RESIST.*)
    barrage_no = attack_no = 0
    for _ in range(turns):
        w.turn_start()
        w.phase_start("barrage")
        for _ in range(2):
            barrage_no += 1
            _barrage(w, rnd, f"br-{barrage_no}", rnd.choice(line), elements, resisted)
        w.phase_start("offensive-small-arms-fire")
        for _ in range(4):
            attack_no += 1
            _attack(w, rnd, f"sa-{attack_no}", line, attackers, defenders, resisted)
        w.phase_start("first-foot-movement", "german")
        for unit in rnd.sample(sorted(defenders), 3):
            hex_ = defenders[unit]
            if hex_ is not None:
                w.move("german", unit, [hex_, hex_])
        w.phase_start("end", None)
    return w


def _barrage(w: LogWriter, rnd: random.Random, barrage: str, target: str, elements: dict[str, int],
             resisted: dict[str, list[int]]) -> None:
    ready = [e for e, left in elements.items() if left > 0]
    firing = rnd.sample(ready, min(len(ready), rnd.randint(1, 2)))
    if not firing:
        return
    w.observe("british", "b-fo", target, via=rnd.choice(("forward-observer", "forward-observer", "aircraft")))
    w.declare("british", barrage, target, firing, observer="b-fo")
    for element in firing:
        points = min(elements[element], rnd.randint(1, 2))
        elements[element] -= points
        w.spend("british", element, points, barrage)
    if not w.communication("british", barrage, rnd.randint(1, 6)):
        w.cancel("british", barrage, "no-communication")
        return
    column = resisted[target][0] + (1 if rnd.random() < 0.1 else 0)
    granted = rnd.random() < 0.4 + 0.1 * column
    w.fire_order("british", barrage, column, rnd.randint(1, 6), granted)
    if not granted:
        w.cancel("british", barrage, "fire-order-refused")
        return
    w.scatter("british", barrage, rnd.randint(1, 6))
    w.resolve("british", barrage, target, rnd.randint(1, 6), rnd.choice(("miss", "miss", "H")))


def _attack(w: LogWriter, rnd: random.Random, attack: str, line: list[str], attackers: list[str],
            defenders: dict[str, Optional[str]], resisted: dict[str, list[int]]) -> None:
    target = rnd.choice(line)
    held = [u for u, h in defenders.items() if h == target]
    firers = rnd.sample(attackers, 2) if rnd.random() < 0.9 else ["b-gun"]
    outcome = rnd.choices(("no-effect", "pinned", "retreated", "eliminated"), (6, 3, 1, 1))[0] if held else None
    results = [(held[0], outcome)] if held else []
    w.small_arms("british", attack, firers, target, results, rnd.randint(1, 6))
    if outcome in ("retreated", "eliminated"):
        defenders[held[0]] = None
        resisted[target] = [0, w.turn]
    elif firers != ["b-gun"] and resisted[target][1] != w.turn:
        resisted[target] = [resisted[target][0] + 1, w.turn]
