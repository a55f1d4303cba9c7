"""Judging Dux Bellorum AVBCW shooting on the table (game-log-tabletop.md, Dux Bellorum, ShotFired,
ShotResolved, CohesionLost, AmmoStateChanged, UnitStatusChanged): a rating's range limits and
arc (SHOOT.RATINGS, VEH.SHOOT, EQ.MIXED, EQ.INDIRECT's minimum range), line of sight where the
geometry can say (LOS), low on ammunition from the dice's faces and its halving (AMMO.LOW,
EQ.POORSUP, EQ.WELLSUP), and the suppression it causes (SUPP.TRIGGER; "Vehicles are never
suppressed", SUPP.NOPRONE). Distances are measured on the table, rounded half-up to 0.1"; the
`range` a player recorded is shown beside the measured one, never used."""
from __future__ import annotations

import math
import re
from functools import cached_property, lru_cache
from typing import Any, Iterable, Optional

from domain.board.state import UnitState
from domain.rules.dux_bellorum_avbcw import army_tables, core_tables
from domain.rules.dux_bellorum_avbcw.events import ListedUnit
from domain.rules.dux_bellorum_avbcw.facts import (
    RULEBOOK, RULESET_ID, ArmyLists, Rating, friends_of, has_rule, is_vehicle, on_table, rating_of, unit_extent)
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict, closer
from domain.tabletop import geometry as geo
from domain.tabletop.queries import ARC_HALF_WIDTH, EDGE_OFFSETS

RATINGS = RULEBOOK.rule("AVBCW.SHOOT.RATINGS")
VEH_SHOOT = RULEBOOK.rule("AVBCW.VEH.SHOOT")
MIXED = RULEBOOK.rule("AVBCW.EQ.MIXED")
INDIRECT = RULEBOOK.rule("AVBCW.EQ.INDIRECT")
LOS = RULEBOOK.rule("AVBCW.LOS")
AMMO = RULEBOOK.rule("AVBCW.AMMO.LOW")
TRIGGER = RULEBOOK.rule("AVBCW.SUPP.TRIGGER")
NOPRONE = RULEBOOK.rule("AVBCW.SUPP.NOPRONE")
DB_SHOOT = Rule("DB.SHOOT", "Shooting hits (core rules, not in the text)", "Dux Bellorum")

MIXED_RANGE = 18.0       # EQ.MIXED: "The unit has its Shooting range limited to 18”"
SUPPRESSING_COH = 2      # "at least 2 lost Cohesion points from shooting this turn"
SIGHT_VERDICTS = {"clear": Verdict.OK, "blocked": Verdict.VIOLATION, "ambiguous": Verdict.AMBIGUOUS,
                  "unchecked": Verdict.UNVERIFIABLE}


class AVBCWShooting(RuleModule):
    ruleset = RULESET_ID

    def __init__(self, ctx):
        super().__init__(ctx)
        self.lists = ArmyLists()
        self.shots: dict[str, dict[str, Any]] = {}       # attack -> its ShotFired line
        self.lows: dict[tuple[str, Optional[str]], int] = {}   # (unit, weapon) -> low results so far
        self.pending_low: dict[str, dict[str, Any]] = {}  # attack -> what its resolution calls for
        self.shooting_coh: dict[tuple[int, str], int] = {}
        self.pending_supp: dict[str, int] = {}           # unit -> seq of the loss that reached 2

    def on_ArmyListed(self, line):
        self.lists.take(self.ctx.typed(line))

    # ------------------------------------------------------------ ShotFired

    def on_ShotFired(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        self.shots[data.attack] = line
        board = self.ctx.board
        shooter, target = board.units.get(data.shooter), board.units.get(data.target)
        if data.off_table is not None or not (on_table(shooter) and on_table(target)):
            return ()   # off-table support (ARMY.OTS) is not the caller's own rating; absent units: the log's checks
        entry = self.lists.get(data.shooter)
        printed, rating = self._rating(data, shooter, entry)
        aim = aim_at(self, data, shooter, target, entry)
        return [*aim.arc(), *aim.sight(), *aim.ranges(printed, rating), *self._ammo_dice(line, data, shooter, entry, rating)]

    def _rating(self, data, shooter: UnitState, entry: Optional[ListedUnit]) -> tuple[Optional[str], Optional[Rating]]:
        """"Each entry of an AVBCW unit's weapons carries its own shoot rating ... stats.SHOOT is
        the rating of a unit without them"."""
        return weapon_rating(data.weapon, entry)

    def _hits(self, fired, data, faces: list[int], seq: int, roll_seq: int) -> list[RuleApplication]:
        """The hits against the target's PRO: the core shooting procedure, judged only when the
        table pack holds DB.SHOOT (without it the hits are not read, as before the pack)."""
        if not self.ctx.tables.has("DB.SHOOT"):
            return []
        pro, why = core_tables.protection(self.lists.get(fired.target), bool(fired.indirect))
        if pro is None:
            return [DB_SHOOT.unverifiable(seq, f"attack {data.attack} at {fired.target}: {why}", recorded=data.hits)]
        table = self.ctx.tables.get("DB.SHOOT")
        hits = core_tables.hit_count(table, faces, pro)
        read = f"the faces {faces} against {fired.target}'s {why}, hitting when face {table['hit']} PRO"
        return [DB_SHOOT.judge(seq, data.hits == hits, f"attack {data.attack}: {hits} hits, {read}",
                               f"attack {data.attack} records {data.hits} hits; {read} ({self.ctx.tables.label()}) "
                               f"give {hits}", verdict=Verdict.MISMATCH, expected=hits, recorded=data.hits,
                               related=[roll_seq])]

    def _ammo_key(self, unit_id: str, weapon: Optional[str], vehicle: bool) -> tuple[str, Optional[str]]:
        # "A vehicle weapon ... becomes 'low on ammo' for that weapon"; a unit's applies "to all weapons".
        return (unit_id, weapon if vehicle else None)

    def _ammo_dice(self, line, data, shooter, entry, rating: Optional[Rating]) -> list[RuleApplication]:
        """"A unit that is low on ammo rolls half its Shooting dice (round down)" and "A unit that
        suffers a second 'low on ammo' result can no longer shoot\"."""
        lows = self.lows.get(self._ammo_key(data.shooter, data.weapon, is_vehicle(shooter, entry)), 0)
        seq = line["seq"]
        if lows >= 2:
            return [AMMO.violation(seq, f"{data.shooter} has had a second 'low on ammo' result: it \"can no longer "
                                   "shoot\"", recorded=data.dice)]
        if lows == 0:
            return ()
        if rating is None:
            return [AMMO.unverifiable(seq, f"{data.shooter} is low on ammo; its rating is not known here, so its "
                                      "halved dice cannot be counted")]
        base = rating.hard if data.rating == "hard" else rating.soft
        change = modifier_sum(data.modifiers)
        if base is None or change is None:
            return [AMMO.unverifiable(seq, f"{data.shooter} is low on ammo; its {data.rating} rating or its "
                                      "modifiers cannot be read, so its halved dice cannot be counted")]
        expected, label = base // 2 + change, None
        if change:
            label = self.ctx.interpretations.label("avbcw-low-ammo-halve")
            if self.ctx.interpretations.reading("avbcw-low-ammo-halve") == "after-rating":
                expected = max(0, base + change) // 2
        expected = max(0, expected)
        return [AMMO.judge(seq, data.dice == expected, f"{data.shooter}, low on ammo, rolls {data.dice} dice: half of "
                           f"{base}{change:+d} (round down)" if change else
                           f"{data.shooter}, low on ammo, rolls {data.dice}: half of {base} (round down)",
                           f"{data.shooter} is low on ammo and rolls {data.dice} dice, not {expected}: \"rolls half "
                           "its Shooting dice (round down)\"", verdict=Verdict.MISMATCH,
                           expected=expected, recorded=data.dice, interpretation=label)]

    # ------------------------------------------------------------ ShotResolved

    def on_ShotResolved(self, line) -> Iterable[RuleApplication]:
        """"A unit that makes a shooting attack and rolls more '1's' than successful hits becomes
        'low on ammo'" (`ones` from the DB.SHOOT faces); Poorly supplied: "if any shooting attack
        dice rolls a '1'"; Well supplied: "only ... if all shooting attack dice roll a '1'"."""
        data = self.ctx.typed(line)
        shot = self.shots.get(data.attack)
        if shot is None:
            return ()
        fired = self.ctx.typed(shot)
        seq = line["seq"]
        roll = next((r for r in reversed(self.ctx.rolls_for(data.attack, "DB.SHOOT", after=shot["seq"], before=seq))), None)
        if roll is None:
            return [AMMO.missing_roll(seq, f"attack {data.attack} is resolved without its DB.SHOOT DieRolled: its 1s "
                                      "cannot be counted", related=[shot["seq"]])]
        rolled = self.ctx.typed(roll)
        faces = rolled.results or [rolled.result]
        ones = faces.count(1)
        out = self._hits(fired, data, faces, seq, roll["seq"])
        if data.ones != ones:
            out.append(AMMO.mismatch(seq, f"attack {data.attack} records {data.ones} ones; the faces {faces} show {ones}",
                                     expected=ones, recorded=data.ones, related=[roll["seq"]]))
        if fired.off_table is not None:
            # "Instead of shooting, a Commander unit or Spotter unit can call in the off table support":
            # the caller makes no shooting attack of its own, so its ammunition is not spent
            return out
        entry = self.lists.get(fired.shooter)
        becomes, why = low_result(entry, faces, ones, data.hits)
        shooter = self.ctx.board.units.get(fired.shooter)
        key = self._ammo_key(fired.shooter, fired.weapon, shooter is not None and is_vehicle(shooter, entry))
        self.pending_low[data.attack] = {"seq": seq, "becomes": becomes, "why": why, "key": key,
                                         "related": [shot["seq"], roll["seq"]]}
        if becomes is None:
            out.append(AMMO.ambiguous(seq, why, related=[roll["seq"]]))
            self.pending_low.pop(data.attack)
        return out

    # ------------------------------------------------------------ AmmoStateChanged

    def on_AmmoStateChanged(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        unit = self.ctx.board.units.get(data.unit)
        vehicle = unit is not None and is_vehicle(unit, self.lists.get(data.unit))
        key = self._ammo_key(data.unit, data.weapon, vehicle)
        out = self._judge_change(line, data, key) if data.cause == AMMO.id else []
        self.lows[key] = {"low": self.lows.get(key, 0) + 1, "exhausted": 2, "normal": 0}[data.state]
        return out

    def _judge_change(self, line, data, key) -> list[RuleApplication]:
        seq = line["seq"]
        attack = data.attack or self._latest_pending(key)   # `attack`? is optional: the unit's last resolved shot
        pending = self.pending_low.pop(attack, None) if attack else None
        if pending is None:
            return [AMMO.violation(seq, f"{data.unit} goes {data.state} for AVBCW.AMMO.LOW without a resolved attack "
                                   f"of its that calls for it ({data.attack or 'no attack named'})")]
        lows = self.lows.get(key, 0)
        if not pending["becomes"]:
            return [AMMO.violation(seq, f"{data.unit} goes {data.state} on attack {data.attack}, yet {pending['why']}",
                                   related=pending["related"])]
        # a first low result makes it low; a second one "can no longer shoot" (low again, or exhausted)
        allowed = ("low",) if lows == 0 else ("low", "exhausted")
        return [AMMO.judge(seq, data.state in allowed, f"{data.unit} goes {data.state}: {pending['why']}",
                           f"{data.unit} goes {data.state}, not {' or '.join(allowed)}: {pending['why']}",
                           expected=list(allowed), recorded=data.state, related=pending["related"])]

    def _latest_pending(self, key) -> Optional[str]:
        """The last resolved attack of this unit (or vehicle weapon) still awaiting its consequence."""
        mine = [(attack, pending) for attack, pending in self.pending_low.items() if pending["key"] == key]
        calling = [attack for attack, pending in mine if pending["becomes"]]
        return (calling or [attack for attack, _ in mine] or [None])[-1]

    def _unrecorded_lows(self) -> list[RuleApplication]:
        out = []
        for attack, pending in self.pending_low.items():
            if pending["becomes"]:
                out.append(AMMO.violation(pending["seq"], f"attack {attack}: {pending['why']}, and no AmmoStateChanged "
                                          "records it", related=pending["related"]))
            else:
                out.append(AMMO.ok(pending["seq"], f"attack {attack}: {pending['why']}", related=pending["related"]))
        self.pending_low.clear()
        return out

    # ------------------------------------------------------------ suppression

    def on_CohesionLost(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        if data.cause != "shooting":
            return ()
        key = (line["turn"], data.unit)
        before = self.shooting_coh.get(key, 0)
        self.shooting_coh[key] = before + data.points
        unit = self.ctx.board.units.get(data.unit)
        if before < SUPPRESSING_COH <= before + data.points and unit is not None and not is_vehicle(unit):
            if "suppressed" in unit.status:   # "goes (or stays) prone"
                return [TRIGGER.ok(line["seq"], f"{data.unit} loses {before + data.points} COH from shooting this "
                                   "turn and stays suppressed")]
            self.pending_supp[data.unit] = line["seq"]
        return ()

    def on_UnitStatusChanged(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        if data.status not in ("suppressed", "suppression-ignored"):
            return ()
        seq, unit = line["seq"], self.ctx.board.units.get(data.unit)
        entry = self.lists.get(data.unit)
        if unit is not None and is_vehicle(unit, entry) and data.status == "suppressed":
            return [NOPRONE.violation(seq, f"{data.unit} is a vehicle: \"Vehicles are never suppressed by enemy shooting\"")]
        lost = self.shooting_coh.get((line["turn"], data.unit), 0)
        reached = self.pending_supp.pop(data.unit, None)
        related = [reached] if reached else []
        if data.status == "suppression-ignored":
            return [TRIGGER.judge(seq, has_rule(entry, "AVBCW.AB.FEARLESS"), f"{data.unit} (Fearless) ignores suppression",
                                  f"{data.unit} ignores suppression without AB.FEARLESS (\"can choose to ignore any "
                                  "suppression result\")", related=related)]
        if data.cause not in (None, TRIGGER.id):
            return ()
        return [TRIGGER.judge(seq, lost >= SUPPRESSING_COH, f"{data.unit} lost {lost} COH from shooting this turn: "
                              "suppressed", f"{data.unit} is suppressed having lost {lost} COH from shooting this turn: "
                              "\"at least 2 lost Cohesion points from shooting this turn\"",
                              expected=SUPPRESSING_COH, recorded=lost, related=related)]

    def _unrecorded_suppressions(self) -> list[RuleApplication]:
        out = [TRIGGER.violation(seq, f"{unit} lost at least 2 COH from shooting this turn and \"automatically goes "
                                 "(or stays) prone\", yet no suppressed status is recorded this turn")
               for unit, seq in self.pending_supp.items()]
        self.pending_supp.clear()
        return out

    # ------------------------------------------------------------ deadlines

    @closer   # it flushes only what this module's own steps left pending
    def on_PhaseStarted(self, line):
        return self._unrecorded_lows()      # the shot's consequences belong to its phase

    def on_TurnStarted(self, line):
        return [*self._unrecorded_lows(), *self._unrecorded_suppressions()]   # "this turn"

    def finish(self):
        return [*self._unrecorded_lows(), *self._unrecorded_suppressions()]


def weapon_rating(weapon_id: Optional[str], entry: Optional[ListedUnit]) -> tuple[Optional[str], Optional[Rating]]:
    """The printed rating a shot uses, and its numbers: the named weapon's (or a lone weapon's), else
    the unit's stats.SHOOT."""
    if entry is None:
        return None, None
    weapon = next((w for w in entry.weapons or () if w.weapon == weapon_id), None)
    if weapon is None and entry.weapons and len(entry.weapons) == 1:
        weapon = entry.weapons[0]
    printed = weapon.shoot if weapon is not None else entry.stats.get("SHOOT")
    return printed, _rating_read(printed) if isinstance(printed, str) else rating_of(printed)


@lru_cache(maxsize=256)
def _rating_read(printed: str) -> Optional[Rating]:
    """`rating_of`, once per printed form (a Rating is frozen): every shot reads its rating in three
    modules, and the target priority again for every enemy it weighs."""
    return rating_of(printed)


def turret_mounted(entry: Optional[ListedUnit], weapon) -> bool:
    """A listed weapon of a hard vehicle whose row prints it "(T)" or "(T+Co)" (T = turret (all
    round)) with this rating, listed into all four arcs; "LMG (TH)*" is a hull LMG in each facing
    and stays one."""
    if entry is None or set(weapon.arcs) != set(EDGE_OFFSETS):
        return False
    row = army_tables.tables().vehicle(entry.type or "")
    if row is None or not row.hard:
        return False
    rating = army_tables.printed_form(weapon.shoot)
    for printed in row.row["weapons"]:
        letters = {part.strip() for group in re.findall(r"\(([^)]*)\)", printed["weapon"])
                   for part in group.replace("+", ",").split(",")}
        if "T" in letters and rating in {army_tables.printed_form(printed["SHOOT"]),
                                         army_tables.printed_form(printed["SHOOT"]).split("x")[-1]}:
            return True
    return False


def _turret_offset(unit: UnitState) -> tuple[float, float]:
    """UnitDeployed `turret` {x, y} in the hull's frame; default its centre."""
    turret = unit.turret or {}
    return (float(turret.get("x", 0.0)), float(turret.get("y", 0.0)))


def low_result(entry: Optional[ListedUnit], faces: list[int], ones: int, hits: int) -> tuple[Optional[bool], str]:
    """Whether the attack makes the shooter low on ammo, and why; None where two rules collide."""
    poor, well = has_rule(entry, "AVBCW.EQ.POORSUP"), has_rule(entry, "AVBCW.EQ.WELLSUP")
    if poor and well:
        return None, "the unit is both Poorly and Well supplied: the text does not say which governs its 1s"
    if poor:
        return ones >= 1, f"{ones} ones: Poorly supplied, low \"if any shooting attack dice rolls a '1'\""
    if well:
        every = bool(faces) and ones == len(faces)
        return every, f"{ones} ones of {len(faces)} dice: Well supplied, low \"only ... if all shooting attack dice roll a '1'\""
    return ones > hits, f"{ones} ones against {hits} hits: low on \"more '1's' than successful hits\""


SIGNED = re.compile(r"^\s*([+-]?\d+)")
NUMERIC_KEYS = ("dice", "value", "amount", "mod", "modifier", "delta", "change")


def modifier_sum(modifiers: list[Any]) -> Optional[int]:
    """The dice the recorded `modifiers` add (the page gives them no form: a number, a string
    opening with a signed number, or an object with a numeric field); the low-ammo halving itself,
    if listed, is left out; None when one cannot be read."""
    total = 0
    for item in modifiers:
        if AMMO.id in str(item):
            continue
        if isinstance(item, (int, float)) and not isinstance(item, bool):
            total += int(item)
        elif isinstance(item, str) and SIGNED.match(item):
            total += int(SIGNED.match(item)[1])
        elif isinstance(item, dict) and any(isinstance(item.get(k), (int, float)) for k in NUMERIC_KEYS):
            total += int(next(item[k] for k in NUMERIC_KEYS if isinstance(item.get(k), (int, float))))
        else:
            return None
    return total


def aim_at(module: RuleModule, data, shooter: UnitState, target: UnitState, entry,
           target_id: Optional[str] = None) -> Aim:
    """The shot's `Aim` at `target_id` (default its target), made once at this board moment for
    the line's modules that judge it (the target priority, the dice, the shot's own checks): each
    asks the same arcs, range and sight of it."""
    aims = module.ctx.at_moment("avbcw-aims", dict)
    key = (module.ctx.line["seq"], id(data), data.target if target_id is None else target_id, id(entry))
    found = aims.get(key)
    if found is None or not (found.data is data and found.entry is entry and found.shooter is shooter
                             and found.target is target):
        found = aims[key] = Aim(module, data, shooter, target, entry, target_id)   # data and entry kept alive
    return found


class Aim:
    """One shot's geometry: where its line of sight starts, the arcs that hold the target, and the
    range measured by the `avbcw-range` reading."""

    def __init__(self, module: AVBCWShooting, data, shooter: UnitState, target: UnitState, entry,
                 target_id: Optional[str] = None):
        self.ctx, self.data, self.shooter, self.target, self.entry = module.ctx, data, shooter, target, entry
        # the unit aimed at: the shot's target, or another enemy the target priority weighs
        self.target_id = data.target if target_id is None else target_id
        self.seq = module.ctx.line["seq"]
        self.vehicle = is_vehicle(shooter, entry)
        self.target_shape = unit_extent(target)
        reading = self.ctx.interpretations.reading("avbcw-arc")
        self.arc_label = self.ctx.interpretations.label("avbcw-arc")
        self.half = ARC_HALF_WIDTH[reading]
        self.origins = self._origins()

    def _weapons(self) -> list[Any]:
        weapons = list(self.entry.weapons or ()) if self.entry else []
        named = [w for w in weapons if w.weapon == self.data.weapon]
        return named or weapons

    def _origins(self) -> list[tuple[str, geo.XY]]:
        """"A unit's line of sight is measured from its leader figure"; a vehicle's "from the centre
        edge of the facing being fired from": each arc of the weapon that holds the target."""
        position, facing = self.shooter.position, float(self.shooter.facing or 0)
        if not self.vehicle:
            inside = geo.in_arc(position, facing, self.target_shape, 0.0, self.half)
            return [("leader", geo.xy(position))] if inside else []
        w, d = float(self.shooter.footprint["w"]), float(self.shooter.footprint["d"])
        found = {}
        for weapon in self._weapons():
            if turret_mounted(self.entry, weapon):
                # "Turrets have a 360° fire arc (unless otherwise specified) measured from the turret
                # center"; LOS "the centre of the turret if the weapon is turret mounted"
                found["turret"] = geo.to_table(position, facing, weapon.at or _turret_offset(self.shooter))
                continue
            at = geo.to_table(position, facing, weapon.at or (0.0, d / 2))   # default: the front edge's centre
            for arc in weapon.arcs:
                if geo.in_arc(at, facing, self.target_shape, EDGE_OFFSETS[arc], self.half):
                    found[arc] = geo.edge_centre(position, facing, w, d, arc)
        return list(found.items())

    def arc(self) -> list[RuleApplication]:
        """"A unit's shooting arc is 45° to its front"; "Armaments on vehicles have a 45° fire arc
        from the gun hull location" (`avbcw-arc`: how wide "45° to its front" is)."""
        rule = VEH_SHOOT if self.vehicle else RATINGS
        if self.vehicle and not self._weapons():
            return [rule.unverifiable(self.seq, f"{self.data.shooter} lists no weapons and arcs: its arc is unknown")]
        arcs = ", ".join(label for label, _ in self.origins)
        return [rule.judge(self.seq, bool(self.origins), f"{self.target_id} is in {self.data.shooter}'s arc"
                           + (f" ({arcs})" if self.vehicle else ""),
                           f"{self.target_id} is outside {self.data.shooter}'s arcs", interpretation=self.arc_label)]

    def sight(self) -> list[RuleApplication]:
        """AVBCW.LOS: "Passes within 1” of a friendly unit; Meets a linear obstacle or similar
        terrain (e.g. a hedge); Passes through more than 3” of area terrain (e.g. a woodland)"."""
        if self.data.indirect:
            return [LOS.unverifiable(self.seq, "an indirect shot \"ignores intervening terrain or other sight-blocking "
                                     "conditions\": whom it may see is EQ.INDIRECT's and AB.SPOT's, not judged here")]
        best = self._best_sight
        if best is None:
            return []   # out of arc: no facing is fired from
        label, answer = best
        return [LOS.apply(self.seq, SIGHT_VERDICTS[answer.status], f"{self.data.shooter} to {self.target_id} from "
                          f"its {label}: {answer.reason}", inputs=answer.to_json())]

    @cached_property
    def _best_sight(self) -> Optional[tuple[str, geo.SightResult]]:
        """The best line of the origins in arc (the shooter picks the facing it fires from)."""
        if not self.origins:
            return None
        # Every module judging this shot asks the same question of the same board, and the target
        # priority asks it of every enemy: each asked once per board moment.
        sights = self.ctx.at_moment("avbcw-sights", dict)
        key = (self.data.shooter, self.target_id, tuple(self.origins))
        if key not in sights:
            features = self.ctx.board.table["features"]
            friends = friends_of(self.ctx.board, self.shooter.side, (self.data.shooter, self.target_id))
            shooter_shape = unit_extent(self.shooter)
            asked = [(label, geo.sight(point, self.target_shape, features, friends, shooter=shooter_shape))
                     for label, point in self.origins]
            sights[key] = min(asked, key=lambda a: geo.RANK[a[1].status])
        return sights[key]

    def ranges(self, printed: Optional[str], rating: Optional[Rating]) -> list[RuleApplication]:
        """"Where a distance is listed, this shoot rating has a limited range, otherwise the range is
        unlimited"; EQ.MIXED: "limited to 18”"; EQ.INDIRECT: "cannot shoot at targets even partly
        within this range" (the minimum of a "≥12”" rating)."""
        if rating is None:
            return [RATINGS.unverifiable(self.seq, f"{self.data.shooter}'s rating {printed!r} is not known here")]
        distance, how = self._distance()
        shown = f"{distance}\" measured ({how}; recorded {self.data.range}\")"
        out = []
        if rating.max_range is not None:
            out.append(RATINGS.judge(self.seq, distance <= rating.max_range, f"{self.target_id} at {shown}, within "
                                     f"{rating.max_range:g}\" of {printed}", f"{self.target_id} at {shown}, beyond "
                                     f"the {rating.max_range:g}\" of {printed}", expected=rating.max_range,
                                     recorded=distance, interpretation=how))
        if has_rule(self.entry, MIXED.id):
            out.append(MIXED.judge(self.seq, distance <= MIXED_RANGE, f"{self.target_id} at {shown}, within 18”",
                                   f"{self.target_id} at {shown}: Mixed weapons are \"limited to 18”\"",
                                   expected=MIXED_RANGE, recorded=distance, interpretation=how))
        if rating.min_range is not None:
            out.append(self._minimum(distance, shown, rating.min_range, how))
        if not out:
            out.append(RATINGS.ok(self.seq, f"{printed} lists no distance: \"the range is unlimited\" ({shown})",
                                  recorded=distance, interpretation=how))
        return out

    def _minimum(self, distance: float, shown: str, minimum: float, how: str) -> RuleApplication:
        if math.isclose(distance, minimum):
            return INDIRECT.ambiguous(self.seq, f"{self.target_id} at {shown}: the rating prints \"≥{minimum:g}”\" yet "
                                      "\"cannot shoot at targets even partly within this range\"", interpretation=how)
        return INDIRECT.judge(self.seq, distance > minimum, f"{self.target_id} at {shown}, beyond the {minimum:g}\" "
                              "minimum", f"{self.target_id} at {shown}, partly within the {minimum:g}\" minimum range",
                              expected=minimum, recorded=distance, interpretation=how)

    def _distance(self) -> tuple[float, str]:
        """`avbcw-range`: from the LOS origin to the target's closest point (`from-leader`), or
        closest point to closest point (`closest`)."""
        return self._measured

    @cached_property
    def _measured(self) -> tuple[float, str]:
        label = self.ctx.interpretations.label("avbcw-range")
        if self.ctx.interpretations.reading("avbcw-range") == "closest":
            return geo.measure(unit_extent(self.shooter), self.target_shape), label
        if len(self.origins) == 1 and not self.data.indirect:
            origin = self.origins[0][1]     # the one origin in arc is the best sight's, whatever it sees
        else:
            best = None if self.data.indirect else self._best_sight
            origin = dict(self.origins)[best[0]] if best else geo.xy(self.shooter.position)
        return geo.measure(origin, self.target_shape), label


TESTS = "tests/unit/test_avbcw_shooting.py::"
LEGAL_REST = "tests/acceptance/test_avbcw_example.py::test_the_legal_rest_is_judged_not_skipped"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.SUPP.TRIGGER": ("implemented", f"{TESTS}test_suppression_trigger; "
                           f"{TESTS}test_melee_losses_do_not_suppress_and_vehicles_never_are; {LEGAL_REST}",
                           "at least 2 COH lost from shooting this turn: suppressed by the end of the turn (or already "
                           "suppressed; `suppression-ignored` only for AB.FEARLESS); a suppression with less: "
                           "violation"),
    "AVBCW.SUPP.NOPRONE": ("implemented", TESTS + "test_melee_losses_do_not_suppress_and_vehicles_never_are",
                           "\"Vehicles are never suppressed\"; the types that do not go prone: suppression.py"),
    "AVBCW.SHOOT.RATINGS": ("implemented", f"{TESTS}test_range_limits_and_arc; "
                            f"{TESTS}test_how_wide_45_degrees_to_its_front_is",
                            "range limits of the rating (measured by `avbcw-range`) and the unit's 45° front arc "
                            "(`avbcw-arc`); the dice a rating gives, soft or hard: modifiers.py"),
    "AVBCW.LOS": ("implemented", f"{TESTS}test_line_of_sight; {LEGAL_REST}",
                  "from the leader, or the edge centre of the vehicle arc fired from: within 1” of a friend, a linear "
                  "obstacle met, more than 3” of area terrain (total along the line); over a hill `unverifiable` (no "
                  "hill rules); an obstacle at either end `ambiguous`; indirect shots `unverifiable`"),
    "AVBCW.AMMO.LOW": ("implemented", f"{TESTS}test_low_on_ammo_from_the_faces; "
                       f"{TESTS}test_ones_not_beating_hits_and_unrecorded_lows; "
                       f"{TESTS}test_a_second_low_result_stops_the_shooting; {TESTS}test_a_low_result_that_names_no_attack; "
                       "tests/unit/test_avbcw_support.py::test_an_off_table_call_spends_no_ammunition_of_the_caller; "
                       f"{LEGAL_REST}",
                       "`ones` from the DB.SHOOT faces (mismatch), \"more '1's' than successful hits\" against the "
                       "AmmoStateChanged recorded (or missing by the phase's end; one naming no attack answers the unit's "
                       "last resolved attack), half the dice (round down; with modifiers by `avbcw-low-ammo-halve`), "
                       "no shot after a second low result; an off-table call (\"Instead of shooting\") spends none"),
    "AVBCW.EQ.INDIRECT": ("partial", TESTS + "test_an_indirect_weapon_has_a_minimum_range",
                          "minimum range (\"even partly within\"); exactly at it: `ambiguous` (\"≥12”\"); the "
                          "line of communication and spotters: support.py"),
    "AVBCW.EQ.MIXED": ("implemented", TESTS + "test_mixed_weapons_limit_the_range_to_18",
                       "\"limited to 18”\""),
    "AVBCW.EQ.POORSUP": ("implemented", TESTS + "test_poorly_and_well_supplied",
                         "low \"if any shooting attack dice rolls a '1'\"; both supply rules on one unit: "
                         "`ambiguous`"),
    "AVBCW.EQ.WELLSUP": ("implemented", TESTS + "test_poorly_and_well_supplied",
                         "low \"only ... if all shooting attack dice roll a '1'\""),
    "AVBCW.AB.FEARLESS": ("implemented", "tests/unit/test_avbcw_bravery.py::test_fearless_ignores_suppression",
                          "`suppression-ignored` only by a Fearless unit (\"can choose to ignore any suppression "
                          "result\"); then it moves as an unsuppressed unit (suppression.py)"),
    "AVBCW.VEH.SHOOT": ("partial", f"{TESTS}test_a_vehicle_weapon_fires_into_its_own_arcs; "
                        f"{TESTS}test_a_turret_fires_all_round_from_its_centre",
                        "the weapon's F/R/B/L arcs from its `at` point; a hard vehicle's turret weapon (its row's "
                        "\"(T)\", listed into all four arcs) all round, its sight and range from the turret; low on ammo per weapon (AMMO.LOW); each "
                        "weapon's shot judged on its own target; target priority and the closest visible enemy "
                        "vehicle: priority.py. The coaxial MG (+Co) \"instead of the main gun\": the log gives it "
                        "no form, not judged"),
}
