"""Plays one seeded Landships of Mogdonazia game and returns its log lines (no I/O).

Each turn: movement (every landship rolls for breakdown, "On road 6 Off road 5-6 In rough terrain
4-6", by the class of its move or, standing, of its position; a broken-down one rolls to restart,
"On a 4 to 6, the vehicle will move normally next turn"; a moving one rolls its movement dice by
terrain and drives no farther than they give, half with a propulsion hit, not at all when
immobilized), shooting (the landships' turret weapons at the nearest infantry; the infantry's
small arms at the nearest landship, a card from the deck for each hit, "Ace card- Criticals", the
Vehicle Critical Chart applied), then close combat (none) and the end. Dice and cards come only
from the seeded `random.Random`."""
from __future__ import annotations

import math
import random
from typing import Any, Optional

from domain.rules.landships_of_mogdonazia.generator.forces import (
    DECK, HULL, LANE_Y, M, REBELS, ROAD_Y, Forces, Infantry, Landship, crew_for, inches_of, movement_dice,
    nearest_infantry, table, target_class, weapons_of)
from domain.rules.landships_of_mogdonazia.terrain import move_class, position_class
from domain.tabletop.geometry import extent, measure
from domain.tabletop.recorder import TableRecorder, inches

BREAKS_ON = {"road": 6, "off-road": 5, "rough": 4}   # A. 2, Breakdown Roll 1D6
CLEAR_OF_INFANTRY = 13.0   # no landship drives within 12" of infantry: an explosion touches no one
FIRE_DICE = {"field-gun": 2, "machine-gun": 4}
WEAPON_CLASS = {"field-gun": "gun", "machine-gun": "machine-gun"}


class Game:
    def __init__(self, name: str, seed: int):
        self.rec = TableRecorder(name, random.Random(seed))
        self.rng = self.rec.rng
        self.table: dict[str, Any] = {}
        self.forces = Forces([], [])

    # -- set-up -----------------------------------------------------------------------------
    def set_up(self, scenario: str) -> None:
        rec = self.rec
        rec.emit("GameStarted", {"ruleset": "landships-of-mogdonazia", "scenario": scenario, "date": "1890-06",
                                 "sides": {M: {"nation": "mogdonazia", "bloc": "other"},
                                           REBELS: {"nation": "rebels", "bloc": "other"}},
                                 "options": ["mog-speed-roll=once"], "permissions": [], "tables": "none"})
        self.table, _ = table(self.rng)
        rec.emit("TableDefined", self.table)
        rec.emit("DeckDefined", {"deck": "main", "cards": "standard-52"})
        self.shuffle()
        for unit, x, y in (("l-1", 6.0, ROAD_Y), ("l-2", 6.0, LANE_Y)):
            self.build(unit, x, y)
        for n, y in enumerate((ROAD_Y, 24.0, LANE_Y), 1):
            x = round(self.rng.uniform(62.0, 68.0), 1)
            self.forces.infantry.append(Infantry(f"r-{n}", x, y))
            rec.emit("UnitDeployed", {"unit": f"r-{n}", "class": "figures", "type": "egyptian-infantry",
                                      "figures": 20, "position": {"x": x, "y": y}, "facing": 270,
                                      "footprint": {"w": 10.0, "d": 2.0}}, REBELS)

    def build(self, unit: str, x: float, y: float) -> None:
        """"roll a D6. This is the number of dice"; the armour d6 of a model that looks armoured."""
        rec = self.rec
        rec.emit("UnitDeployed", {"unit": unit, "class": "vehicle", "position": {"x": x, "y": y}, "facing": 90,
                                  "footprint": dict(HULL)}, M)
        speed, armour = rec.faces(1)[0], rec.faces(1)[0]
        rec.roll(M, "MOG.VEH.SPEED", [speed], unit)
        rec.roll(M, "MOG.VEH.ARMOUR", [armour], unit)
        weapons = weapons_of(unit, self.rng)
        crew = crew_for(weapons, self.rng)
        rec.emit("VehicleBuilt", {"unit": unit, "kind": "landship", "looks": "armoured", "open_topped": False,
                                  "speed_dice": speed, "target_class": target_class(armour), "crew": crew,
                                  "weapons": weapons}, M)
        self.forces.landships.append(Landship(unit, x, y, speed, crew, weapons))

    def shuffle(self) -> None:
        self.forces.deck = list(DECK)
        self.rng.shuffle(self.forces.deck)

    # -- movement ---------------------------------------------------------------------------
    def movement(self, turn: int) -> None:
        for ship in self.forces.landships:
            if ship.gone:
                continue
            if "broken-down" in ship.status:
                self.restart(ship, turn)
            else:
                self.drive(ship)

    def restart(self, ship: Landship, turn: int) -> None:
        face = self.rec.faces(1)[0]
        self.rec.roll(M, "MOG.VEH.BREAKDOWN.RESTART", [face], ship.id)
        self.rec.emit("BreakdownTested", {"unit": ship.id, "kind": "restart",
                                          "terrain": position_class(ship.unit(), self.table),
                                          "restarted": face >= 4}, M)
        if face >= 4:
            ship.status.discard("broken-down")
            self.rec.status(M, ship.id, "restarted", "MOG.VEH.BREAKDOWN")

    def plan(self, ship: Landship) -> Optional[tuple[list[int], list[dict[str, float]], str]]:
        """The movement dice and path of a move east (None when it does not move), and its class."""
        if ship.status & {"immobilized", "gears"}:
            return None
        room = min(i.x for i in self.forces.infantry) - 1.0 - CLEAR_OF_INFANTRY - (ship.x + HULL["d"] / 2)
        road = ship.y == ROAD_Y
        count, _ = movement_dice(ship.speed_dice, "road" if road else "off-road")
        faces = self.rec.faces(count)
        allowed = inches_of(faces, False) / (2 if "half-speed" in ship.status else 1)
        length = inches(min(allowed, room))
        if length < 1.0:
            return None
        path = self.path(ship, length)
        terrain = move_class(ship.unit(), path, self.table, "worst")
        if terrain == "rough":   # "negates the highest die rolled"
            length = inches(min(inches_of(faces, True) / (2 if "half-speed" in ship.status else 1), room))
            path = self.path(ship, length)
            terrain = move_class(ship.unit(), path, self.table, "worst")
        if length < 1.0:
            return None
        return faces, path, terrain

    def path(self, ship: Landship, length: float) -> list[dict[str, float]]:
        return [{"x": ship.x, "y": ship.y}, {"x": inches(ship.x + max(length, 0.0)), "y": ship.y}]

    def drive(self, ship: Landship) -> None:
        """"Vehicles must roll for breakdown every turn": by the class of the move, or of where it
        stands when it does not move (it stays put when the move's class would break it down and its
        position's would not)."""
        rec = self.rec
        face = rec.faces(1)[0]
        planned = self.plan(ship)
        standing = position_class(ship.unit(), self.table)
        if planned is not None and face >= BREAKS_ON[planned[2]]:
            planned = None
        terrain = planned[2] if planned else standing
        broke = face >= BREAKS_ON[terrain]
        rec.roll(M, "MOG.VEH.BREAKDOWN", [face], ship.id)
        rec.emit("BreakdownTested", {"unit": ship.id, "kind": "breakdown", "terrain": terrain, "broke_down": broke}, M)
        if broke:
            ship.status.add("broken-down")
            rec.status(M, ship.id, "broken-down", "MOG.VEH.BREAKDOWN")
            return
        if planned is None:
            return
        faces, path, _ = planned
        rec.roll(M, "MOG.VEH.SPEED.DICE", faces, ship.id)
        rec.emit("UnitMoved", {"unit": ship.id, "path": path}, M)
        ship.x = path[-1]["x"]

    # -- shooting ---------------------------------------------------------------------------
    def shooting(self) -> None:
        for ship in self.forces.landships:
            for weapon in ship.weapons:
                target = nearest_infantry(self.forces, ship)
                if ship.gone or target is None or weapon["weapon"] in ship.damaged:
                    continue
                self.fire_at_infantry(ship, weapon, target)
        for infantry in self.forces.infantry:
            ships = [s for s in self.forces.landships if not s.gone]
            if infantry.gone or not ships:
                continue
            target = min(ships, key=lambda s: (abs(s.x - infantry.x) + abs(s.y - infantry.y), s.id))
            self.fire_at_landship(infantry, target)

    def fire_at_infantry(self, ship: Landship, weapon: dict[str, Any], target: Infantry) -> None:
        rec = self.rec
        attack, dice = rec.next_attack(), FIRE_DICE[weapon["type"]]
        rec.emit("ShotFired", {"attack": attack, "shooter": ship.id, "weapon": weapon["weapon"], "target": target.id,
                               "target_part": "vehicle", "weapon_class": WEAPON_CLASS[weapon["type"]], "dice": dice,
                               "range": self.range(ship.unit(), target)}, M)
        faces = rec.faces(dice, 20)
        rec.roll(M, "TSATF.FIRE", faces, attack, 20)
        hits = min(sum(f <= 6 for f in faces), target.figures)
        rec.emit("ShotResolved", {"attack": attack, "hits": hits}, M)
        if hits:
            rec.emit("CasualtiesTaken", {"unit": target.id, "killed": hits, "wounded": 0, "cause": "TSATF.FIRE",
                                         "attack": attack}, REBELS)
            target.figures -= hits
            if target.gone:
                rec.status(REBELS, target.id, "destroyed", attack)

    def range(self, ship_unit: Any, target: Infantry) -> float:
        other = {"position": {"x": target.x, "y": target.y}, "facing": 270, "footprint": {"w": 10.0, "d": 2.0}}
        return measure(extent(ship_unit), extent(other))

    def fire_at_landship(self, infantry: Infantry, ship: Landship) -> None:
        """Small arms at a landship: "When a vehicle is hit, play out a card"; "Ace card- Criticals"."""
        rec = self.rec
        attack, dice = rec.next_attack(), max(1, infantry.figures // 5)
        rec.emit("ShotFired", {"attack": attack, "shooter": infantry.id, "target": ship.id, "target_part": "vehicle",
                               "weapon_class": "small-arms", "dice": dice,
                               "range": self.range(ship.unit(), infantry)}, REBELS)
        faces = rec.faces(dice, 20)
        rec.roll(REBELS, "TSATF.FIRE", faces, attack, 20)
        hits = sum(f <= 3 for f in faces)
        rec.emit("ShotResolved", {"attack": attack, "hits": hits}, REBELS)
        for _ in range(hits):
            if ship.gone:
                break
            card = self.draw(attack)
            outcome = "critical" if card.startswith("A") else "none"
            rec.emit("HitCardResolved", {"attack": attack, "target": ship.id, "weapon_class": "small-arms",
                                         "card": card, "outcome": outcome}, REBELS)
            if outcome == "critical":
                self.critical(ship)

    def draw(self, attack: str) -> str:
        if not self.forces.deck:
            self.rec.emit("DeckShuffled", {"deck": "main", "returned": "all"})
            self.shuffle()
        card = self.forces.deck.pop(0)
        self.rec.emit("CardDrawn", {"deck": "main", "card": card, "for": "MOG.FIRE.CARD", "subject": attack}, REBELS)
        return card

    # -- the Vehicle Critical Chart ---------------------------------------------------------
    def critical(self, ship: Landship) -> None:
        rec = self.rec
        face = rec.faces(1)[0]
        rec.roll(REBELS, "MOG.FIRE.CRIT", [face], ship.id)
        sub = None
        if face == 4:   # "Propulsion hit, 1-3 not serious (1/2 speed), 4-6 immobilized"
            sub = rec.faces(1)[0]
            rec.roll(REBELS, "MOG.FIRE.CRIT", [sub], ship.id)
        effect = self.effect(ship, face, sub)
        rec.emit("CriticalHit", {"unit": ship.id, "chart": "vehicle", "result": face,
                                 **({"sub_roll": sub} if sub else {}), "effect": effect}, M)
        self.aftermath(ship, face, sub)

    def effect(self, ship: Landship, face: int, sub: Optional[int]) -> str:
        if face == 1:
            working = [w["weapon"] for w in ship.weapons if w["weapon"] not in ship.damaged]
            if working:
                ship.damaged.add(working[0])
            return f"weapon damaged: {working[0]}" if working else "weapon damaged"
        return {2: "engine hit: immobilized", 3: "gears hit: +1 turning, one die lost",
                4: "propulsion hit: " + ("half speed" if sub and sub <= 3 else "immobilized"),
                5: "D3 crew killed", 6: "explodes"}[face]

    def aftermath(self, ship: Landship, face: int, sub: Optional[int]) -> None:
        rec = self.rec
        if face == 2 or (face == 4 and sub and sub >= 4):
            if "immobilized" not in ship.status:
                ship.status.add("immobilized")
                rec.status(M, ship.id, "immobilized", "MOG.FIRE.CRIT")
        elif face == 4 and "half-speed" not in ship.status:
            ship.status.add("half-speed")
            rec.status(M, ship.id, "half-speed", "MOG.FIRE.CRIT")
        elif face == 3:
            ship.status.add("gears")   # it drives no more: "lose one die" is read two ways (MOG.VEH.SPEED)
        elif face == 5:
            roll = rec.faces(1)[0]
            rec.roll(REBELS, "MOG.FIRE.CRIT", [roll], ship.id)
            killed = math.ceil(roll / 2)
            rec.emit("CasualtiesTaken", {"unit": ship.id, "killed": killed, "wounded": 0, "cause": "MOG.FIRE.CRIT"}, M)
            ship.crew -= killed
            if ship.crew <= 0:
                ship.status.add("gone")
                rec.status(M, ship.id, "abandoned", "MOG.GEN.UNIT")
        elif face == 6:   # "all the crew within are immediately killed"; no figure within 12"
            rec.emit("ExplosionResolved", {"unit": ship.id, "figures": []}, M)
            ship.status.add("gone")
            rec.status(M, ship.id, "destroyed", "MOG.FIRE.EXPLODE")


def play_game(name: str, seed: int, map_data: Any = None, tables: Any = None, *, turns: int = 6,
              scenario: str = "generated") -> list[dict[str, Any]]:
    """A legal game of `turns` turns; `map_data` and `tables` are unused (the table is generated,
    the game uses no table pack)."""
    game = Game(name, seed)
    game.set_up(scenario)
    rec = game.rec
    for turn in range(1, turns + 1):
        rec.start_turn(turn)
        rec.start_phase("movement")
        game.movement(turn)
        rec.start_phase("shooting")
        game.shooting()
        rec.start_phase("close-combat")
        rec.start_phase("end")
    return rec.lines
