"""Judging a Dux Bellorum AVBCW move on the table, in inches (game-log-tabletop.md, Dux Bellorum,
UnitMoved): no move after shooting (MOVE.NOSHOOT), the allowance (MV with EQ.ARMOUR, EQ.BICYCLES
and traction damage), stopping at obstacles and area terrain (MOVE.TERRAIN), a vehicle's facing
changes (VEH.FACING) and where wheels may go (VEH.WHEELED). Every length is the base centre's
path rounded half-up to 0.1" (domain/tabletop/geometry.py), never a number the players typed."""
from __future__ import annotations

import math
from typing import Any, Iterable, Optional

from domain.board.state import UnitState
from domain.rules.dux_bellorum_avbcw import army_tables
from domain.rules.dux_bellorum_avbcw.events import ListedUnit
from domain.rules.dux_bellorum_avbcw.facts import (
    RULEBOOK, RULESET_ID, ArmyLists, good_ground, has_rule, centre_line, inches_of, is_vehicle, path_on)
from domain.rules.dux_bellorum_avbcw.placing import boxes_meet, swept_box
from domain.rules.engine import RuleApplication, RuleModule
from domain.tabletop import geometry as geo

NOSHOOT = RULEBOOK.rule("AVBCW.MOVE.NOSHOOT")
# The page's "MV (EQ.ARMOUR -1", EQ.BICYCLES 12" on road or good going, traction damage half)" names
# the statistic, not an id: a unit's MV is a row of the unit table (UNIT.STATS), a vehicle's of
# the vehicle tables (VEH.STATS).
UNIT_MV = RULEBOOK.rule("AVBCW.UNIT.STATS")
VEHICLE_MV = RULEBOOK.rule("AVBCW.VEH.STATS")
TERRAIN = RULEBOOK.rule("AVBCW.MOVE.TERRAIN")
FACING = RULEBOOK.rule("AVBCW.VEH.FACING")
WHEELED = RULEBOOK.rule("AVBCW.VEH.WHEELED")
# The rule that sets a move's allowance when it is not the printed MV alone: "The unit gains +1
# Protection but suffers -1” move" (Armour), "The unit can move 12” on roads or off road in good
# going" (Bicycles), "Traction damage: Vehicle can only move at half its listed rate ... Traction
# wrecked: Vehicle cannot move again" (Vehicle Damage Table). A move judged against that allowance
# is judged under that rule.
ARMOUR = RULEBOOK.rule("AVBCW.EQ.ARMOUR")
BICYCLES = RULEBOOK.rule("AVBCW.EQ.BICYCLES")
DAMAGE_TABLE = RULEBOOK.rule("AVBCW.VEH.DAMAGE_TABLE")

# The moves of step 3, "Move units (Only if unit did not shoot ...)": a unit's own move, its
# second move after a double 1 ("two consecutive normal moves") and a charge. Falling back,
# pursuing, retreating and scattering are moves other rules command ("It retreats the minimum
# distance to be more than 6” from all enemy units"): the allowance, the stops and the shooting
# ban of a normal move are not theirs to obey, so they are not judged by them here.
OWN_MOVES = (None, "normal", "second", "charge")
# "A vehicle that moves 6” or less during any move can change facing as desired. A vehicle that
# moves more than 6” can only change facing by up to 45° during their move."
FREE_TURN_LENGTH = 6.0
MAX_TURN = 45.0
# Poor turn: the Notes of "Mk.A ‘Whippet’ ... Poor turn" and of the soft vehicles' option
# "Armour plate ... +1 Poor turn" (dux-bellorum-avbcw.txt, Hard and Soft vehicle tables).
POOR_TURN_TYPES = frozenset({"vehicle:mk-a-whippet"})
POOR_TURN_OPTIONS = frozenset({"armour-plate"})
# EQ.BICYCLES: "The unit can move 12” on roads or off road in good going."
BICYCLE_MV = 12.0
# VEH.WHEELED: "Wheeled vehicles cannot cross linear terrain": the kinds the page calls linear
# (hedge, fence, wall: linear obstacles; river, stream: "linear terrain (no wheels)").
LINEAR_TERRAIN = frozenset({"hedge", "fence", "wall", "river", "stream"})
STRAIGHT_TOLERANCE = 0.0   # a Poor turn vehicle's sideways drift, rounded to 0.1", must be none


class AVBCWMovement(RuleModule):
    ruleset = RULESET_ID

    def __init__(self, ctx):
        super().__init__(ctx)
        self.lists = ArmyLists()
        self.shots: dict[tuple[int, str], dict[str, Any]] = {}   # (turn, shooter) -> its first shot
        self.moves: dict[tuple[int, str], int] = {}              # (turn, unit) -> its first own move
        self.damage: dict[str, set[str]] = {}                    # vehicle -> VehicleDamaged results
        self.allowed: dict[str, tuple] = {}                      # unit -> its entry, damage and allowances

    def on_ArmyListed(self, line):
        self.lists.take(self.ctx.typed(line))

    def on_VehicleDamaged(self, line):
        data = self.ctx.typed(line)
        self.damage.setdefault(data.vehicle, set()).add(data.result)

    # ------------------------------------------------------------ MOVE.NOSHOOT

    def on_ShotFired(self, line) -> Iterable[RuleApplication]:
        """"A unit or vehicle cannot move if it shoots this turn": a shot after its move."""
        data = self.ctx.typed(line)
        key = (line["turn"], data.shooter)
        self.shots.setdefault(key, {"seq": line["seq"], "data": data})
        moved = self.moves.get(key)
        if moved is None:
            return ()
        return [NOSHOOT.violation(line["seq"], f"{data.shooter} shoots in turn {line['turn']} after moving "
                                  f"at seq {moved}: \"A unit or vehicle cannot move if it shoots this turn\"",
                                  related=[moved])]

    def _no_shot(self, line, data) -> list[RuleApplication]:
        shot = self.shots.get((line["turn"], data.unit))
        if shot is None:
            return [NOSHOOT.ok(line["seq"], f"{data.unit} has not shot this turn")]
        fired = shot["data"]
        if fired.passengers or fired.off_table is not None:
            # Passengers' fire of an un-crewed weapon (VEH.EMBARK) and a call for off-table
            # support ("Instead of shooting") are not said to be the shooter's own shot.
            return [NOSHOOT.ambiguous(line["seq"], f"{data.unit} moves after the shot at seq {shot['seq']}, "
                                      "made by its passengers or called off table: the text does not say "
                                      "whether that is the unit's shooting", related=[shot["seq"]])]
        return [NOSHOOT.violation(line["seq"], f"{data.unit} moves after shooting at seq {shot['seq']}: "
                                  "\"A unit or vehicle cannot move if it shoots this turn\"",
                                  related=[shot["seq"]])]

    # ------------------------------------------------------------ UnitMoved

    def on_UnitMoved(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        unit = self.ctx.board.units.get(data.unit)
        if unit is None or unit.position is None:
            return ()      # a move of no unit on the table: the log's reference check says so
        entry = self.lists.get(data.unit)
        length = geo.path_length(data.path)
        out: list[RuleApplication] = []
        if data.mode in OWN_MOVES:
            self.moves.setdefault((line["turn"], data.unit), line["seq"])
            out += self._no_shot(line, data)
            out += self._allowance(line, data, entry, length, VEHICLE_MV if is_vehicle(unit, entry) else UNIT_MV)
            out += self._terrain(line, data, unit, entry, length)
        if is_vehicle(unit, entry):
            out += self._facing(line, data, unit, entry, length)
            out += self._wheels(line, data, entry)
        return out

    # ------------------------------------------------------------ the allowance

    def _allowances(self, data, entry: ListedUnit) -> tuple[list[float], list[str]]:
        """Every allowance the text allows this move, and what each came from; more than one
        where the text leaves an order or a case open (then a length between them is ambiguous).
        Without bicycles they depend on the unit's entry and damage alone: kept per unit, by
        the entry (the object) and the damage so far, and given out as copies."""
        damage = frozenset(self.damage.get(data.unit, ()))
        kept = self.allowed.get(data.unit)
        if kept is None or kept[0] is not entry or kept[1] != damage:
            found = self._allowances_now(data, entry, damage)
            if has_rule(entry, "AVBCW.EQ.BICYCLES"):   # the path's ground too: not kept
                return found
            kept = self.allowed[data.unit] = (entry, damage, found)   # the entry kept: compared by identity
        return list(kept[2][0]), list(kept[2][1])

    def _allowances_now(self, data, entry: ListedUnit, damage: frozenset[str]) -> tuple[list[float], list[str]]:
        printed = listed_mv(entry)
        if "traction-wrecked" in damage:
            return [0.0], ["traction wrecked: \"Vehicle cannot move again for the rest of the battle\""]
        bases, why = [printed], [f"MV {entry.stats['MV']}"]
        if printed != inches_of(entry.stats.get("MV")):
            why.append(f"{printed:g}” with its options (\"Mounted field gun ... -2”\")")
        if has_rule(entry, "AVBCW.EQ.BICYCLES"):
            ground = path_on(data.path, good_ground(self.ctx.board.table["features"]))
            if ground.all:
                bases, why = [BICYCLE_MV], ["EQ.BICYCLES: \"can move 12” on roads or off road in good going\""]
            elif ground.any:
                # The text gives 12" on roads or good going and says nothing of a move partly on them.
                bases, why = [printed, BICYCLE_MV], why + ["EQ.BICYCLES, the move only partly on roads or good going"]
        armour = has_rule(entry, "AVBCW.EQ.ARMOUR")        # "suffers -1” move"
        half = "traction-damage" in damage                  # "can only move at half its listed rate"
        found = set()
        for base in bases:
            if armour and half:   # the text gives no order for the two
                found |= {(base - 1) / 2, base / 2 - 1}
            else:
                found.add((base - (1 if armour else 0)) / (2 if half else 1))
        why += ["-1\" EQ.ARMOUR"] * armour + ["half: traction damage"] * half
        return sorted(max(0.0, a) for a in found), why

    def _allowance(self, line, data, entry: Optional[ListedUnit], length: float, MV) -> list[RuleApplication]:
        if entry is None or inches_of(entry.stats.get("MV")) is None:
            return [MV.unverifiable(line["seq"], f"{data.unit} has no MV in an ArmyListed: its allowance is unknown",
                                    recorded=length)]
        allowed, why = self._allowances(data, entry)
        MV = self._allowance_rule(data, entry, MV)
        low, high = allowed[0], allowed[-1]
        inputs = {"length": length, "allowance": allowed, "from": why}
        if length <= low:   # "within X" is <= X
            return [MV.ok(line["seq"], f"{data.unit} moves {length}\", allowance {low:g}\" ({'; '.join(why)})",
                          expected=low, recorded=length, inputs=inputs)]
        if length > high:
            return [MV.violation(line["seq"], f"{data.unit} moves {length}\", more than its {high:g}\" "
                                 f"({'; '.join(why)})", expected=high, recorded=length, inputs=inputs)]
        return [MV.ambiguous(line["seq"], f"{data.unit} moves {length}\": within {high:g}\" and more than "
                             f"{low:g}\" ({'; '.join(why)}); the text does not settle which applies",
                             expected=allowed, recorded=length, inputs=inputs)]

    def _allowance_rule(self, data, entry: ListedUnit, MV):
        """The rule whose words set this move's allowance: traction damage (the Vehicle Damage
        Table), Armour's -1”, Bicycles' 12”, else the printed MV (UNIT.STATS, VEH.STATS)."""
        if self.damage.get(data.unit, set()) & {"traction-damage", "traction-wrecked"}:
            return DAMAGE_TABLE
        if has_rule(entry, ARMOUR.id):
            return ARMOUR
        if has_rule(entry, BICYCLES.id):
            return BICYCLES
        return MV

    # ------------------------------------------------------------ MOVE.TERRAIN

    def _terrain(self, line, data, unit: UnitState, entry, length: float) -> list[RuleApplication]:
        """"A unit stops and ends its move if it meets a linear obstacle that it did not begin in
        contact with. It stops upon entering area terrain (e.g. woodland or a building).\""""
        label = None
        if is_vehicle(unit, entry):
            reading = self.ctx.interpretations.reading("avbcw-vehicle-terrain")
            label = self.ctx.interpretations.label("avbcw-vehicle-terrain")
            if reading == "cross":
                return [TERRAIN.ok(line["seq"], f"{data.unit} is a vehicle: vehicles cross terrain", interpretation=label)]
        stops, boxes = _stops(self.ctx.board.table["features"])
        # geometry measures only the stops within the extent's reach of the path (and 0.1"), their
        # boxes first: a move whose swept box (grown by that 0.1") meets none of theirs meets none
        near = boxes_meet(swept_box(unit, data.path, 0.1), boxes)
        contact = geo.first_contact(unit, data.path, stops) if near else None
        if contact is None:
            return [TERRAIN.ok(line["seq"], f"{data.unit} meets no linear obstacle and enters no area terrain",
                               interpretation=label)]
        if length > contact.distance:
            return [TERRAIN.violation(line["seq"], f"{data.unit} meets {contact.feature} after {contact.distance}\" "
                                      f"and goes on to {length}\": it \"stops and ends its move\" there",
                                      expected=contact.distance, recorded=length, interpretation=label,
                                      inputs={"feature": contact.feature, "at": list(contact.point)})]
        return [TERRAIN.ok(line["seq"], f"{data.unit} ends its move on meeting {contact.feature}", interpretation=label)]

    # ------------------------------------------------------------ VEH.FACING

    def _rotations(self, unit: UnitState, path) -> list[tuple[float, bool]]:
        """Each facing change of the move, and whether it is made where the segments before and
        after it lie on one road ("Vehicles can move along roads changing facing to follow that
        road as required"): a change at point i turns between segments i-1 and i."""
        roads = [f for f in self.ctx.board.table["features"] if f["kind"] == "road"]
        current, out = unit.facing, []
        for i, facing in enumerate(geo.facings_of(path)):
            if facing is None:
                continue
            turned = geo.rotation(current, facing) if current is not None else 0.0
            current = facing
            if not turned:
                continue
            along = 0 < i < len(path) - 1 and any(
                geo.on_road(path[i - 1:i + 1], [road]) and geo.on_road(path[i:i + 2], [road]) for road in roads)
            out.append((turned, along))
        return out

    def _facing(self, line, data, unit: UnitState, entry, length: float) -> list[RuleApplication]:
        rotations = self._rotations(unit, data.path)
        counted = sum(t for t, along in rotations if not along)
        total = sum(t for t, _ in rotations)
        seq, inputs = line["seq"], {"length": length, "turn": total, "turn_off_road": counted}
        if poor_turn(entry):
            return [self._poor_turn(seq, data, unit, length, counted, total, inputs)]
        if length <= FREE_TURN_LENGTH:
            return [FACING.ok(seq, f"{data.unit} moves {length}\" (6” or less): it may change facing as desired",
                              inputs=inputs)]
        return [FACING.judge(seq, counted <= MAX_TURN,
                             f"{data.unit} moves {length}\" and turns {counted:g}° (45° allowed over 6”)",
                             f"{data.unit} moves {length}\" and turns {counted:g}°: \"A vehicle that moves more "
                             "than 6” can only change facing by up to 45° during their move\"",
                             expected=MAX_TURN, recorded=counted, inputs=inputs)]

    def _poor_turn(self, seq, data, unit, length, counted, total, inputs) -> RuleApplication:
        """Poor Turn: "If the vehicle moves 6” or less during any move it can change facing by up to
        45°. If the vehicle moves more than 6” it can only move directly forwards, even along roads.\""""
        if length > FREE_TURN_LENGTH:
            drift = sideways_drift(unit, data.path)
            good = total == 0 and drift <= STRAIGHT_TOLERANCE
            return FACING.judge(seq, good, f"{data.unit} (Poor turn) moves {length}\" directly forwards",
                                f"{data.unit} (Poor turn) moves {length}\", turning {total:g}° and {drift}\" off "
                                "straight ahead: over 6” it \"can only move directly forwards, even along roads\"",
                                expected=0, recorded=total, inputs=inputs | {"drift": drift})
        if total <= MAX_TURN:
            return FACING.ok(seq, f"{data.unit} (Poor turn) moves {length}\" and turns {total:g}°", inputs=inputs)
        if counted <= MAX_TURN:
            # The road sentence is general; "even along roads" is said only of a move over 6".
            return FACING.ambiguous(seq, f"{data.unit} (Poor turn) turns {total:g}° in {length}\", {counted:g}° "
                                    "of it off the road: the text does not say whether following a road frees a "
                                    "Poor turn vehicle's 45° in a move of 6” or less", inputs=inputs)
        return FACING.violation(seq, f"{data.unit} (Poor turn) moves {length}\" and turns {total:g}°: \"it can "
                                "change facing by up to 45°\"", expected=MAX_TURN, recorded=total, inputs=inputs)

    # ------------------------------------------------------------ VEH.WHEELED

    def _wheels(self, line, data, entry: Optional[ListedUnit]) -> list[RuleApplication]:
        """"Wheeled vehicles cannot cross linear terrain. They can only travel off-road on ground
        designated as good enough for wheeled vehicles" (the base centre's path: it crosses a line
        where it meets it, and is on road where it lies within the road's width/2)."""
        seq = line["seq"]
        if entry is None or entry.drive is None:
            return [WHEELED.unverifiable(seq, f"{data.unit}'s ArmyListed gives no `drive`: wheeled or not is unknown")]
        if entry.drive != "wheeled":
            return ()
        features = self.ctx.board.table["features"]
        track = centre_line(data.path)
        crossed = [f["id"] for f in features if f["kind"] in LINEAR_TERRAIN and track.intersects(geo.feature_shape(f))]
        if crossed:
            return [WHEELED.violation(seq, f"wheeled {data.unit} crosses {', '.join(crossed)}: \"Wheeled vehicles "
                                      "cannot cross linear terrain\"", inputs={"crossed": crossed})]
        ground = path_on(data.path, good_ground(features))
        if not ground.all:
            x, y = ground.first_off
            return [WHEELED.violation(seq, f"wheeled {data.unit} leaves roads and ground designated for wheels at "
                                      f"({x:.1f}, {y:.1f}): \"They can only travel off-road on ground designated as "
                                      "good enough for wheeled vehicles\"", inputs={"off_at": [x, y]})]
        return [WHEELED.ok(seq, f"wheeled {data.unit} stays on roads and ground designated for wheels")]


def _stops(features: list) -> tuple[list, list[tuple]]:
    """The table's linear obstacles and area terrain (MOVE.TERRAIN's stops) and their shapes' boxes,
    kept by the features (the objects: a table's features never change once defined)."""
    kept = _STOPS.get(id(features))
    if kept is not None and kept[0] is features and len(kept[1]) == len(features) \
            and all(a is b for a, b in zip(kept[1], features)):
        return kept[2]
    stops = [f for f in features if f["kind"] in geo.LINEAR_OBSTACLES or geo.is_area(f)]
    found = (stops, [tuple(geo.feature_shape(f).bounds) for f in stops])
    if len(_STOPS) >= 64:
        _STOPS.clear()
    _STOPS[id(features)] = (features, list(features), found)   # kept alive: their ids are not reused
    return found


_STOPS: dict[int, tuple] = {}


def listed_mv(entry: ListedUnit) -> Optional[float]:
    """The MV a unit moves by: as listed, but a soft vehicle listed at its row's printed MV with an
    option that changes it ("Mounted field gun +3 -3 -2” ...": the list may print the row's MV or the
    MV with its options applied, army_vehicles.py) has the option's change applied here."""
    printed = inches_of(entry.stats.get("MV"))
    row = army_tables.tables().vehicle(entry.type or "")
    if printed is None or row is None or row.hard or not entry.options:
        return printed
    change = sum(army_tables.number(spec["MV"]) or 0 for spec in
                 (army_tables.tables().options.get(o) for o in entry.options) if spec is not None)
    if change and printed == inches_of(row.row["MV"]):
        return max(0.0, printed + change)
    return printed


def poor_turn(entry: Optional[ListedUnit]) -> bool:
    return entry is not None and (entry.type in POOR_TURN_TYPES or bool(POOR_TURN_OPTIONS & set(entry.options or ())))


def sideways_drift(unit: UnitState, path) -> float:
    """How far, rounded to 0.1", the path's points lie off the line straight ahead of the vehicle
    (its facing at the start), or behind it: "it can only move directly forwards"."""
    (x0, y0), facing = geo.xy(path[0]), math.radians(unit.facing or 0)
    ahead = (math.sin(facing), math.cos(facing))
    worst = 0.0
    for point in path[1:]:
        dx, dy = geo.xy(point)[0] - x0, geo.xy(point)[1] - y0
        forward = dx * ahead[0] + dy * ahead[1]
        sideways = abs(dx * ahead[1] - dy * ahead[0])
        worst = max(worst, sideways, -forward)
    return geo.round_inches(worst)


TESTS = "tests/unit/test_avbcw_movement.py::"
EXAMPLE = "tests/acceptance/test_avbcw_example.py::"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.UNIT.STATS": ("partial", TESTS + "test_allowance",
                         "MV: a move's length against the listed MV (\"within X\" is <= X); the row against "
                         "ArmyListed: army.py"),
    "AVBCW.MOVE.NOSHOOT": ("implemented", f"{TESTS}test_no_move_after_shooting; "
                           f"{TESTS}test_a_shot_after_a_move_of_the_same_turn_is_the_same_breach",
                           "a unit's own moves (normal, second, charge) after its shot this turn, and a shot after "
                           "its move; passengers' or off-table shots: `ambiguous`"),
    "AVBCW.MOVE.TERRAIN": ("implemented", f"{TESTS}test_terrain_stops; "
                           f"{TESTS}test_vehicles_and_terrain_follow_the_named_interpretation",
                           "the move ends where the extent first meets a hedge, fence or wall it was not touching, "
                           "or first touches area terrain; vehicles by `avbcw-vehicle-terrain` (default `cross`)"),
    "AVBCW.EQ.ARMOUR": ("partial", TESTS + "test_armour_costs_an_inch",
                        "\"-1” move\": an armoured unit's moves are judged under this rule against MV - 1; its +1 "
                        "PRO is read only by the core hits (DB.SHOOT, DB.MELEE), not in the text"),
    "AVBCW.EQ.BICYCLES": ("partial", TESTS + "test_bicycles",
                          "a unit with bicycles has its moves judged under this rule: 12” when the whole path is on "
                          "roads or good going, else its MV; a move partly on them between MV and 12”: `ambiguous`"),
    "AVBCW.VEH.FACING": ("implemented", f"{TESTS}test_vehicle_facing; {TESTS}test_turning_to_follow_a_road; "
                         f"{TESTS}test_poor_turn; "
                         f"{TESTS}test_armour_plate_makes_a_soft_vehicle_a_poor_turner; "
                         f"{EXAMPLE}test_the_example_gives_exactly_its_expected_findings",
                         "<= 6.0” any turn; > 6.0” at most 45°, rotations between two segments on one road not "
                         "counted; Poor turn (Mk.A Whippet, armour plate): <= 6.0” at most 45° (a road-excused turn "
                         "there: `ambiguous`), > 6.0” directly forwards"),
    "AVBCW.VEH.WHEELED": ("implemented", f"{TESTS}test_wheeled; {TESTS}test_a_tracked_vehicle_is_not_held_to_wheels; "
                          f"{EXAMPLE}test_the_legal_rest_is_judged_not_skipped",
                          "the base centre's path crosses no hedge, fence, wall, river or stream, and stays on roads "
                          "(within width/2) or `wheels` ground; no `drive` listed: `unverifiable`"),
    "AVBCW.VEH.STATS": ("partial", f"{TESTS}test_vehicle_allowance_and_traction_damage; "
                        f"{TESTS}test_armour_and_traction_damage_have_no_stated_order; "
                        f"{TESTS}test_a_mounted_field_gun_slows_a_soft_vehicle",
                        "a vehicle's MV (a soft vehicle's with its options' MV change, \"Mounted field gun ... -2”\", "
                        "when the list prints the row's MV); after traction damage (half) or traction wrecked (0) its moves are judged "
                        "under AVBCW.VEH.DAMAGE_TABLE; armour and traction damage together have no stated order "
                        "(`ambiguous` between the two results); the row against ArmyListed: army.py"),
}
