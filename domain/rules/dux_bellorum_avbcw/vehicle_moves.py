"""Judging what Dux Bellorum AVBCW vehicles do with the units around them (dux-bellorum-avbcw.txt,
Vehicles: Tracked vehicles, Embarking and disembarking, Attacking a vehicle, Vehicle Protection,
Running people over; game-log-tabletop.md, Dux Bellorum, UnitMoved, UnitEmbarked, UnitDisembarked,
UnitStatusChanged, VehicleAssaulted): a tracked vehicle's bog rolls (one d6 after the move per
obstacle crossed and area passed, in path order; on a 1 the path ends there), passengers getting
on and off (the vehicle's 6” a turn, half the unit within 6”) and shooting only un-crewed weapons,
and a unit assaulting a vehicle (within 3”, the vehicle's 6” unless it ran the unit over, the
rating, the facing its leader attacks, the retreat after)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Optional

import shapely
from shapely.geometry import LineString, Point

from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, has_rule, is_vehicle, rating_of, unit_extent
from domain.rules.dux_bellorum_avbcw.placing import distance, extent_after
from domain.rules.dux_bellorum_avbcw.vehicle_damage import SOFT
from domain.rules.engine import RuleApplication, closer
from domain.tabletop import geometry as geo

BOG = RULEBOOK.rule("AVBCW.VEH.TRACKED.BOG")
EMBARK = RULEBOOK.rule("AVBCW.VEH.EMBARK")
ASSAULTED = RULEBOOK.rule("AVBCW.VEH.ASSAULTED")
PRO = RULEBOOK.rule("AVBCW.VEH.PRO")
RUNOVER = RULEBOOK.rule("AVBCW.VEH.RUNOVER")
WRECK = RULEBOOK.rule("AVBCW.EQ.WRECK")
BAYONETS = RULEBOOK.rule("AVBCW.EQ.BAYONETS")
SMG = RULEBOOK.rule("AVBCW.EQ.SMG")

BOG_PURPOSE = "AVBCW.VEH.TRACKED.BOG"
OBSTACLES = frozenset({"hedge", "fence", "wall"})
EMBARK_MOVE = 6.0      # "provided that vehicle does not move more than 6” during the turn"
EMBARK_REACH = 6.0     # "at least half the unit must be within 6” of the vehicle"
ASSAULT_REACH = 3.0    # "if they end within 3” of that vehicle"
ASSAULT_MOVE = 6.0     # "and the vehicle did not move more than 6” during the turn"
ARCS = ("F", "R", "B", "L")


@dataclass
class Bog:
    vehicle: str
    seq: int
    crossings: list[tuple[str, str]]    # (feature, obstacle|area), in path order
    end: object                          # the vehicle's extent at the end of the path


@dataclass
class Assault:
    unit: str
    vehicle: str
    seq: int
    rating: str = "soft"
    retreated: bool = False
    destroyed: bool = False
    counted: bool = False


@dataclass
class TurnLog:
    moved: dict[str, float] = field(default_factory=dict)          # vehicle -> inches moved this turn
    paths: dict[str, list] = field(default_factory=dict)           # vehicle -> its last path this turn
    boarding: dict[str, int] = field(default_factory=dict)         # vehicle -> first (dis)embarking seq
    run_over: dict[tuple[str, str], int] = field(default_factory=dict)   # (vehicle, unit) -> UnitRunOver seq
    moved_into: dict[str, int] = field(default_factory=dict)             # unit -> seq of an own move this turn
    assaults: list[Assault] = field(default_factory=list)


class AVBCWVehicleMoves(ListedModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.turn = TurnLog()
        self.bog: Optional[Bog] = None

    def _tracked(self, unit_id: str) -> bool:
        entry = self.lists.get(unit_id)
        return entry is not None and entry.drive == "tracked"

    # ------------------------------------------------------------ moves and bog rolls

    def on_UnitMoved(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        out = self._bog_done()
        unit = self.ctx.board.units.get(data.unit)
        if unit is None or unit.position is None:
            return out
        if is_vehicle(unit, self.lists.get(data.unit)):
            self.turn.moved[data.unit] = self.turn.moved.get(data.unit, 0.0) + geo.path_length(data.path)
            self.turn.paths[data.unit] = [geo.xy(p) for p in data.path]
            if self._tracked(data.unit) and len(data.path) > 1:
                out += self._crossings(line, data, unit)
        if data.mode in (None, "normal", "second", "charge"):
            self.turn.moved_into[data.unit] = line["seq"]
        if data.mode == "retreat":
            for assault in self.turn.assaults:
                if assault.unit == data.unit:
                    assault.retreated = True
        return out

    def _crossings(self, line, data, unit) -> list[RuleApplication]:
        """"Tracked vehicles can cross linear obstacles and any passable terrain (except dense
        woodland). Halfway across an obstacle, roll 1d6 ... At the midpoint of its current move
        though area terrain, roll 1d6"."""
        track = LineString([geo.xy(p) for p in data.path])
        found = []
        for f in self.ctx.board.table["features"]:
            shape = geo.feature_shape(f)
            if f["kind"] in OBSTACLES and track.intersects(shape):
                # "Halfway across an obstacle, roll 1d6": where the base centre's path reaches the
                # obstacle. A path that starts there (a vehicle bogged halfway across) has been
                # halfway across already: "the vehicle moves off from the obstacle without hindrance".
                where = [track.project(Point(c)) for c in shapely.get_coordinates(track.intersection(shape))]
                onward = [d for d in where if geo.round_inches(d) > 0.0]
                if onward:
                    found.append((min(onward), f["id"], "obstacle", f))
            elif geo.is_area(f) and track.intersects(shape):
                found.append((track.project(track.intersection(shape).representative_point()), f["id"], "area", f))
        found.sort(key=lambda c: c[0])
        dense = [c[1] for c in found if c[3]["kind"] == "dense-woodland" or c[3].get("passable") is False]
        self.bog = Bog(data.unit, line["seq"], [(c[1], c[2]) for c in found], extent_after(unit, data.path, None))
        if dense:
            return [BOG.violation(line["seq"], f"tracked {data.unit} enters {', '.join(dense)}: \"any passable terrain "
                                  "(except dense woodland)\"")]
        return []

    def _bog_done(self) -> list[RuleApplication]:
        bog, self.bog = self.bog, None
        if bog is None:
            return []
        rolls = self.ctx.rolls_for(bog.vehicle, BOG_PURPOSE, after=bog.seq)
        faces = [self.ctx.typed(r).result for r in rolls]
        n, related = len(bog.crossings), [r["seq"] for r in rolls]
        if 1 in faces[:-1]:
            return [BOG.violation(bog.seq, f"{bog.vehicle} bogged on roll {faces.index(1) + 1} ({faces}) and its path "
                                  "goes on: \"On a '1' the vehicle become bogged down or stuck and its movement ends\"",
                                  related=related)]
        if len(faces) != n:
            # a roll the procedure asks for and the log lacks is a missing roll; a roll it never
            # asked for (no obstacle or area there) is not allowed
            crossed = ', '.join(c[0] for c in bog.crossings) or 'none'
            judge = BOG.missing_roll if len(faces) < n else BOG.violation
            return [judge(bog.seq, f"{bog.vehicle} crosses {n} obstacles and areas ({crossed}) and rolls {len(faces)} "
                          "bog dice: \"Halfway across an obstacle, roll 1d6 ... At the midpoint of its current move "
                          "though area terrain, roll 1d6\"", expected=n, recorded=len(faces), related=related)]
        if faces and faces[-1] == 1:
            feature, kind = bog.crossings[-1]
            bogged = [l["seq"] for l in self.ctx.of_type("UnitStatusChanged", after=bog.seq)
                      if l["data"]["unit"] == bog.vehicle and l["data"]["status"] == "bogged"]
            status = BOG.judge(rolls[-1]["seq"], bool(bogged), f"{bog.vehicle} is recorded bogged",
                               f"{bog.vehicle} rolled a 1 and no `bogged` status follows: \"the vehicle become bogged "
                               "down or stuck\"", related=bogged)
            return [self._stuck(bog, feature, kind, related), status]
        return [BOG.ok(bog.seq, f"{bog.vehicle}: {n} bog rolls, none a 1", related=related)] if n else []

    def _stuck(self, bog: Bog, feature: str, kind: str, related: list[int]) -> RuleApplication:
        shape = next(geo.feature_shape(f) for f in self.ctx.board.table["features"] if f["id"] == feature)
        on_it = geo.in_contact(bog.end, shape)
        if kind == "area":
            # "At the midpoint of its current move though area terrain": the midpoint of the area
            # crossed (the vehicle is in the area when it bogs) or of the move (it may be anywhere
            # on its path). Where on that stretch the move would have ended is not in the log.
            reading = self.ctx.interpretations.reading("avbcw-bog-area")
            label = self.ctx.interpretations.label("avbcw-bog-area")
            if reading == "area-midpoint":
                return BOG.judge(bog.seq, on_it, f"{bog.vehicle} bogs in {feature}, where its path ends",
                                 f"{bog.vehicle} bogs at the midpoint of {feature} yet its path ends outside it",
                                 related=related, interpretation=label)
            if reading == "move-midpoint":
                return BOG.ok(bog.seq, f"{bog.vehicle} bogs at the midpoint of its move through {feature}, where its "
                              "path ends", related=related, interpretation=label)
            where = "in" if on_it else "beyond"
            return BOG.ambiguous(bog.seq, f"{bog.vehicle} bogs {where} {feature}: \"the midpoint of its current move "
                                 "though area terrain\" is the area's or the move's (avbcw-bog-area has no default)",
                                 related=related, interpretation=label)
        return BOG.judge(bog.seq, on_it, f"{bog.vehicle} bogs \"Halfway across\" {feature}, where its path ends",
                         f"{bog.vehicle} bogs at {feature} yet its path does not end on it", related=related)

    # ------------------------------------------------------------ embarking

    def on_UnitEmbarked(self, line):
        return self._boarding(line, embark=True)

    def on_UnitDisembarked(self, line):
        return self._boarding(line, embark=False)

    def _boarding(self, line, embark: bool) -> list[RuleApplication]:
        """"Passengers can enter or leave a vehicle at any point during a move, provided that vehicle
        does not move more than 6” during the turn. To embark, at least half the unit must be within
        6” of the vehicle. When disembarking, the unit is placed so that at least half of it remains
        within 6” of the vehicle.\""""
        data, seq = self.ctx.typed(line), line["seq"]
        self.turn.boarding.setdefault(data.vehicle, seq)
        unit, vehicle = self.ctx.board.units.get(data.unit), self.ctx.board.units.get(data.vehicle)
        if unit is None or vehicle is None or vehicle.position is None:
            return []
        figures = data.figures or (unit.figures if embark else None)
        if not figures:
            return [EMBARK.unverifiable(seq, f"{data.unit}'s figures are not placed: whether half of them are within 6” "
                                        "of the vehicle cannot be measured")]
        hull = self._hull_at(vehicle, data.vehicle, data.at)
        radius = float(unit.figure_base or 0) / 2
        near = sum(1 for p in figures if geo.round_inches(max(0.0, hull.distance(Point(geo.xy(p))) - radius)) <= EMBARK_REACH)
        verb = "embark" if embark else "disembark"
        return [EMBARK.judge(seq, 2 * near >= len(figures), f"{near} of {data.unit}'s {len(figures)} figures within 6” "
                             f"as they {verb}", f"{near} of {data.unit}'s {len(figures)} figures are within 6” of "
                             f"{data.vehicle}: \"at least half the unit\"", expected=math.ceil(len(figures) / 2),
                             recorded=near)]

    def _hull_at(self, vehicle, vehicle_id: str, at: int):
        """The vehicle's hull at point `at` of its move this turn (where it stands, if it has not moved)."""
        path = self.turn.paths.get(vehicle_id)
        if not path:
            return unit_extent(vehicle).shape
        point = path[min(at, len(path) - 1)]
        body = vehicle.to_json() | {"position": {"x": point[0], "y": point[1]}}
        return geo.extent(body).shape

    def on_ShotFired(self, line) -> Iterable[RuleApplication]:
        """"Passengers on vehicles may use an un-crewed weapon mounted on the vehicle, but cannot
        otherwise shoot.\""""
        data, seq = self.ctx.typed(line), line["seq"]
        shooter = self.ctx.board.units.get(data.shooter)
        aboard = shooter.attrs.get("aboard") if shooter is not None else None
        if not aboard and not data.passengers:
            return ()
        vehicle = aboard or data.shooter
        entry = self.lists.get(vehicle)
        weapon = next((w for w in (entry.weapons or ()) if w.weapon == data.weapon), None) if entry else None
        good = weapon is not None and not weapon.crewed
        return [EMBARK.judge(seq, good, f"passengers fire {vehicle}'s un-crewed {data.weapon}",
                             f"passengers aboard {vehicle} shoot {'with ' + data.weapon if data.weapon else ''} "
                             "not an un-crewed weapon of the vehicle: they \"cannot otherwise shoot\"")]

    # ------------------------------------------------------------ assaults and run-overs

    def on_UnitRunOver(self, line):
        data = self.ctx.typed(line)
        self.turn.run_over[(data.vehicle, data.unit)] = line["seq"]

    def on_VehicleDamaged(self, line):
        data = self.ctx.typed(line)
        if data.result in ("wrecked", "brews-up") and not data.repeat:
            for assault in self.turn.assaults:
                if assault.vehicle == data.vehicle:
                    assault.destroyed = True

    def on_VehicleAssaulted(self, line) -> Iterable[RuleApplication]:
        """"a unit may assault a vehicle ... if they end within 3” of that vehicle and the vehicle did
        not move more than 6” during the turn ... If the vehicle is not destroyed, an attacking unit
        then retreats from the combat"; "An attacking unit uses the PRO of the facing attacked by the
        unit leader"."""
        data, seq = self.ctx.typed(line), line["seq"]
        unit, vehicle = self.ctx.board.units.get(data.unit), self.ctx.board.units.get(data.vehicle)
        if unit is None or vehicle is None or unit.position is None or vehicle.position is None:
            return ()
        out_before = self._assault_dice()
        self.turn.assaults.append(Assault(data.unit, data.vehicle, seq, data.rating))
        far = distance(self.ctx, unit_extent(unit), unit_extent(vehicle))
        moved = round(self.turn.moved.get(data.vehicle, 0.0), 1)
        ran_over = (data.vehicle, data.unit) in self.turn.run_over
        out = [ASSAULTED.judge(seq, far <= ASSAULT_REACH, f"{data.unit} is {far}\" from {data.vehicle}: within 3”",
                               f"{data.unit} is {far}\" from {data.vehicle}: \"if they end within 3”\"",
                               expected=ASSAULT_REACH, recorded=far),
               ASSAULTED.judge(seq, moved <= ASSAULT_MOVE or ran_over, f"{data.vehicle} moved {moved}\" this turn"
                               + (" and ran the unit over" if ran_over else ""),
                               f"{data.vehicle} moved {moved}\" this turn: \"the vehicle did not move more than 6”\"",
                               expected=ASSAULT_MOVE, recorded=moved)]
        hard = (self.lists.get(data.vehicle).type if self.lists.get(data.vehicle) else "") not in SOFT
        if hard:
            out.append(ASSAULTED.judge(seq, data.rating == "hard", f"{data.unit} uses its hard MELEE on hard "
                                       f"{data.vehicle}", f"{data.unit} assaults hard {data.vehicle} with its soft "
                                       "rating: \"using their soft or hard target MELEE rating as appropriate\""))
        out.append(self._facing(seq, data, unit, vehicle))
        return out_before + out

    def _assault_dice(self) -> list[RuleApplication]:
        """The dice of each assault not yet counted: its DB.MELEE roll against the rating used,
        Wrecking tools "+0 (+1) MELEE against tanks, bunkers and so on", Bayonets and SMGs "+1 MELEE"
        on the soft rating. Whether the Melee modifiers (+1 charged ...) apply to an assault on a
        vehicle the text does not say."""
        out = []
        for assault in self.turn.assaults:
            if assault.counted:
                continue
            assault.counted = True
            rolls = self.ctx.rolls_for(assault.unit, "DB.MELEE", after=assault.seq)
            entry = self.lists.get(assault.unit)
            rating = rating_of(entry.stats.get("MELEE") if entry else None)
            if not rolls or rating is None:
                continue
            hard = assault.rating == "hard"
            base = rating.hard if hard else rating.soft
            if base is None:
                continue
            extra = [(WRECK, 1 if hard else 0, "Wrecking tools +0 (+1)")] if has_rule(entry, WRECK.id) else []
            extra += [] if hard else [(BAYONETS, 1, "Bayonets +1")] * has_rule(entry, BAYONETS.id)
            extra += [] if hard else [(SMG, 1, "SMGs +1")] * has_rule(entry, SMG.id)
            expected = base + sum(e[1] for e in extra)
            faces = len(self.ctx.typed(rolls[0]).results or [1])
            rule = next((r for r, amount, _ in extra if amount and faces == expected - amount), ASSAULTED)
            why = ", ".join([f"MELEE {base}"] + [e[2] for e in extra])
            if faces == expected:
                out.append((extra[0][0] if extra else ASSAULTED).ok(assault.seq, f"{assault.unit} rolls {faces} ({why})",
                                                                   related=[rolls[0]["seq"]]))
            elif (self.turn.moved_into.get(assault.unit) and faces == expected + 1):
                out.append(ASSAULTED.ambiguous(assault.seq, f"{assault.unit} rolls {faces}: {expected} ({why}) +1 for its "
                                               "charge, and the text does not say the Melee modifiers apply to an "
                                               "assault on a vehicle", related=[rolls[0]["seq"]]))
            else:
                out.append(rule.mismatch(assault.seq, f"{assault.unit} rolls {faces} dice against {assault.vehicle}, not "
                                         f"{expected} ({why})", expected=expected, recorded=faces,
                                         related=[rolls[0]["seq"]]))
        return out

    def _facing(self, seq, data, unit, vehicle) -> RuleApplication:
        if not isinstance(data.facing, str):
            return PRO.unverifiable(seq, f"the facing {data.facing} is a bearing: which arc it names is not stated")
        offset = (geo.bearing(vehicle.position, unit.position) - float(vehicle.facing or 0)) % 360
        arcs = {ARCS[int(((offset + 45) % 360) // 90)], ARCS[int(((offset + 45 - 1e-9) % 360) // 90)]}
        if data.facing in arcs and len(arcs) > 1:
            return PRO.ambiguous(seq, f"{data.unit}'s leader is on the line between the {' and '.join(sorted(arcs))} "
                                 "arcs", recorded=data.facing)
        return PRO.judge(seq, data.facing in arcs, f"{data.unit}'s leader attacks the {data.facing} facing",
                         f"{data.unit}'s leader is in {data.vehicle}'s {'/'.join(sorted(arcs))} arc, not {data.facing}: "
                         "\"uses the PRO of the facing attacked by the unit leader\"", expected=sorted(arcs),
                         recorded=data.facing)

    # ------------------------------------------------------------ the turn's end

    def _turn_done(self) -> list[RuleApplication]:
        out, turn = [], self.turn
        for vehicle, seq in turn.boarding.items():
            moved = round(turn.moved.get(vehicle, 0.0), 1)
            out.append(EMBARK.judge(seq, moved <= EMBARK_MOVE, f"{vehicle} moved {moved}\" the turn passengers got on or "
                                    "off", f"{vehicle} moved {moved}\" the turn passengers got on or off: \"provided "
                                    "that vehicle does not move more than 6” during the turn\"", expected=EMBARK_MOVE,
                                    recorded=moved))
        for assault in turn.assaults:
            if not assault.destroyed and not assault.retreated:
                out.append(ASSAULTED.violation(assault.seq, f"{assault.vehicle} is not destroyed and {assault.unit} does "
                                               "not retreat: \"an attacking unit then retreats from the combat\""))
        for (vehicle, unit_id), seq in turn.run_over.items():
            out += self._must_assault(vehicle, unit_id, seq, turn)
        self.turn = TurnLog()
        return out

    def _must_assault(self, vehicle: str, unit_id: str, seq: int, turn: TurnLog) -> list[RuleApplication]:
        """"If it remains within 3”, that enemy unit must attack the vehicle in melee if able to do so"."""
        unit, car = self.ctx.board.units.get(unit_id), self.ctx.board.units.get(vehicle)
        if unit is None or car is None or unit.position is None or car.position is None:
            return []
        if distance(self.ctx, unit_extent(unit), unit_extent(car)) > ASSAULT_REACH:
            return []
        if any(a.unit == unit_id and a.vehicle == vehicle for a in turn.assaults):
            return [RUNOVER.ok(seq, f"{unit_id}, run over within 3”, attacks {vehicle}")]
        return [RUNOVER.violation(seq, f"{vehicle} stays within 3” of {unit_id}, which does not attack it: \"that enemy "
                                  "unit must attack the vehicle in melee if able to do so\"")]

    @closer   # it flushes only what this module's own steps left pending
    def on_PhaseStarted(self, line):
        return [*self._bog_done(), *self._assault_dice()]

    def on_TurnStarted(self, line):
        return [*self._bog_done(), *self._assault_dice(), *self._turn_done()]

    def finish(self):
        return [*self._bog_done(), *self._assault_dice(), *self._turn_done()]


TESTS = "tests/unit/test_avbcw_vehicle_moves.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.VEH.TRACKED.BOG": ("implemented", f"{TESTS}test_bog_rolls; "
                              f"{TESTS}test_a_bogged_vehicle_moves_off_the_obstacle_without_a_roll; "
                              f"{TESTS}test_bogging_in_an_area_by_the_chosen_reading",
                              "a tracked vehicle's path: one AVBCW.VEH.TRACKED.BOG d6 after it per hedge, fence or wall "
                              "its base centre reaches (not one it starts on: \"moves off from the obstacle without "
                              "hindrance\") and area entered or passed, in path order (too few: `missing-roll`); a 1 "
                              "before the last roll: the path went "
                              "on; a last 1: a `bogged` status after it, and the path ends on that obstacle; in an area "
                              "by `avbcw-bog-area` (no default: `ambiguous`; `area-midpoint`: the path ends in the area; "
                              "`move-midpoint`: anywhere on it); dense woodland or impassable ground: violation"),
    "AVBCW.VEH.EMBARK": ("implemented", f"{TESTS}test_embarking; {TESTS}test_passengers_fire_uncrewed_weapons",
                         "the vehicle's moves that turn 6.0” or less in all; at least half the figures within 6” of "
                         "the hull at point `at` of its move (figures not placed: `unverifiable`); passengers shoot "
                         "only an un-crewed weapon of the vehicle"),
    "AVBCW.VEH.ASSAULTED": ("implemented", f"{TESTS}test_assaulting_a_vehicle",
                            "the unit within 3” (`measure`), the vehicle's moves that turn 6.0” or less unless it ran "
                            "the unit over, the hard rating against a hard vehicle, a retreat after unless the vehicle "
                            "is wrecked or brews up"),
    "AVBCW.VEH.PRO": ("partial", f"{TESTS}test_assaulting_a_vehicle",
                      "the facing an assault names: the arc (F, R, B, L, 45° either side of each) holding the "
                      "attacker's leader, on a boundary `ambiguous`. A shot's facing and Open PRO 2: no event records "
                      "them (hits against PRO are DB core)"),
    "AVBCW.EQ.WRECK": ("implemented", f"{TESTS}test_wrecking_tools_against_a_vehicle",
                       "an assault's DB.MELEE dice: the rating used with Wrecking tools \"+0 (+1)\" (and Bayonets and "
                       "SMGs +1 on the soft rating); one more after a move this turn: `ambiguous` (the Melee modifiers "
                       "are not said to apply to attacking a vehicle); its cost and who may take it (\"(and Foot "
                       "Commander\", AVBCW.Z 4): the army list's"),
    "AVBCW.VEH.RUNOVER": ("partial", f"{TESTS}test_a_unit_run_over_within_3_must_attack",
                          "a unit run over that the vehicle stays within 3” of attacks it (VehicleAssaulted) that turn"),
}
