"""Judging the dice of a Dux Bellorum AVBCW shot (dux-bellorum-avbcw.txt, Shooting modifiers,
Suppression, Equipment, Trench rats; game-log-tabletop.md, Dux Bellorum, ShotFired: "`dice` is the
number of dice rolled, after every modifier"): the rating (soft or hard), Bombs +1(+1) within
12”, SMGs +1 within 12” until low on ammo, a Squad LMG +1, -2 while suppressed, and what the
target has on the table: -1 prone in the open, in terrain, behind a soft obstacle or in smoke
(not against indirect fire), -2 behind a hard obstacle or fortified, Trench rats -1 more behind an
obstacle. A low unit's halving is AMMO.LOW's (shooting.py): there the recorded modifiers are
weighed instead of the dice."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, has_rule, is_vehicle, on_table
from domain.rules.dux_bellorum_avbcw.kinds import never_prone, type_of
from domain.rules.dux_bellorum_avbcw.shooting import Aim, aim_at, modifier_sum, weapon_rating
from domain.rules.dux_bellorum_avbcw.support import OTS_TIERS
from domain.rules.dux_bellorum_avbcw.vehicle_damage import SOFT as SOFT_VEHICLES
from domain.rules.engine import Rule, RuleApplication, bookkeeping, closer
from domain.tabletop import geometry as geo

MODS = RULEBOOK.rule("AVBCW.SHOOT.MODS")
BOMBS = RULEBOOK.rule("AVBCW.EQ.BOMBS")
SMG = RULEBOOK.rule("AVBCW.EQ.SMG")
SQUADLMG = RULEBOOK.rule("AVBCW.EQ.SQUADLMG")
SUPPRESSION = RULEBOOK.rule("AVBCW.SUPP.EFFECTS")
TRENCHRATS = RULEBOOK.rule("AVBCW.AB.TRENCHRATS")
PRONE = RULEBOOK.rule("AVBCW.PRONE")
MADMINUTE = RULEBOOK.rule("AVBCW.AB.MADMINUTE")
SOURCE = RULEBOOK.rule("AVBCW.VEH.DAMAGE_SOURCE")
MAD_MINUTE = +2   # Mad minute: "The unit gains +2 SHOOT and automatically suffers 'out of ammo' as a result"

CLOSE = 12.0                     # Bombs "+1(+1) SHOOT within 12”"; SMGs "+1 SHOOT (12”)"
SOFT_COVER, HARD_COVER = -1, -2  # "-1* Target unit is prone, in terrain, behind a 'soft' obstacle ..., or obscurement";
                                 # "-2 Target unit is behind a 'hard' obstacle (wall etc.), or fortified"
SOFT_OBSTACLES = {"hedge": "soft", "fence": "soft", "wall": "hard"}
FORTIFIED = frozenset({"building", "town", "trench"})   # "fortified (in a trench, house, or similar)"
INSIDE_DEPTH = 0.05                                     # more than touching: "in" terrain


@dataclass(frozen=True)
class Part:
    rule: Rule
    amount: int
    why: str


class AVBCWShotDice(ListedModule):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.low: dict[tuple[str, Optional[str]], int] = {}   # (unit, vehicle weapon) -> low results so far
        self.mad: dict[str, int] = {}    # unit -> seq of its mad minute, until its ammunition changes
        self.smg_lost: set[str] = set()  # SMGs: "This bonus is permanently lost once the unit becomes 'low on ammo'"
        self.withheld: list[Part] = []   # the shot's equipment that does not apply (beyond 12”, lost)
        self.down: set[str] = set()      # units lying prone (going prone, or suppressed), until they get up

    @bookkeeping   # who lies prone: read by later shots, never flushed
    def on_UnitStatusChanged(self, line):
        """Who lies prone: a unit that went prone, or was suppressed ("automatically goes (or stays)
        prone", unless it is of the types that "do not go prone"), until it gets up: "A prone unit can
        get up and move normally in later turns" (a move, or a `standing` status)."""
        data = self.ctx.typed(line)
        kind = type_of(self.ctx.board.units.get(data.unit), self.lists.get(data.unit))
        if data.status == "prone" or (data.status == "suppressed" and not never_prone(kind)):
            self.down.add(data.unit)
        elif data.status in ("standing", "suppression-ignored"):   # Fearless "can choose to ignore any suppression"
            self.down.discard(data.unit)
        return ()

    @bookkeeping
    def on_UnitMoved(self, line):
        self.down.discard(self.ctx.typed(line).unit)
        return ()

    def on_AmmoStateChanged(self, line):
        data = self.ctx.typed(line)
        out = []
        if data.unit in self.mad and data.state != "normal":
            fired = self.mad.pop(data.unit)
            reading = self.ctx.interpretations.reading("avbcw-mad-minute")
            label = self.ctx.interpretations.label("avbcw-mad-minute")
            if reading is None:
                out.append(MADMINUTE.ambiguous(line["seq"], f"{data.unit} goes {data.state} after its mad minute: \"out of "
                                               "ammo\" is low or exhausted, the text does not say", related=[fired],
                                               interpretation=label))
            else:
                out.append(MADMINUTE.judge(line["seq"], data.state == reading, f"{data.unit} goes {data.state}",
                                           f"{data.unit} goes {data.state} after its mad minute, not {reading}",
                                           related=[fired], interpretation=label))
        key = self._ammo_key(data.unit, data.weapon)
        self.low[key] = 0 if data.state == "normal" else self.low.get(key, 0) + 1
        if data.state != "normal":
            self.smg_lost.add(data.unit)
        return out

    def on_ShotFired(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        board = self.ctx.board
        shooter, target = board.units.get(data.shooter), board.units.get(data.target)
        if not (on_table(shooter) and on_table(target)):
            return ()
        entry = self.lists.get(data.shooter)
        called = data.off_table is not None
        if called:   # off-table support: its tier's rating, "Indirect"
            if data.off_table not in OTS_TIERS:
                return ()      # the smoke row, or no tier: no dice to count
            printed, rating = f"off-table tier {data.off_table}", OTS_TIERS[data.off_table]
            data = data.model_copy(update={"indirect": True})
        else:
            printed, rating = weapon_rating(data.weapon, entry)
        if rating is None:
            return ()      # SHOOT.RATINGS says the rating is not known
        base = rating.hard if data.rating == "hard" else rating.soft
        aim = aim_at(self, data, shooter, target, entry)
        distance = aim._distance()[0]
        if base is None and not called and has_rule(entry, BOMBS.id) and distance <= CLOSE:
            base = 0   # Bombs: "The unit gains +1(+1) SHOOT within 12”": a hard rating of its own
        if base is None:
            return [MODS.violation(seq, f"{data.shooter}'s {printed} has no hard rating (\"a second rating in brackets\")",
                                   recorded=data.rating)]
        parts = ([] if called else self._shooter_parts(data, shooter, entry, distance)) + self._target_parts(data, aim, target)
        self.withheld = [] if called else self._withheld_parts(data, entry, distance)
        changes = _readings(parts)
        if not called and has_rule(entry, MADMINUTE.id) and data.rating == "soft":
            return self._mad_minute(line, data, parts, {max(0, base + c) for c in changes}, printed, base)
        lows = 0 if called else self.low.get(self._ammo_key(data.shooter, data.weapon), 0)
        if lows:
            recorded = modifier_sum(data.modifiers)
            if recorded is None:
                return [MODS.unverifiable(seq, f"{data.shooter} is low on ammo and its modifiers cannot be read: "
                                          "the dice are AMMO.LOW's halving of them")]
            return [self._judge(seq, data, parts, changes, recorded, f"its recorded modifiers sum to {recorded:+d}")]
        dice = {max(0, base + c) for c in changes}
        if (self.lists.get(data.target) and self.lists.get(data.target).type in SOFT_VEHICLES
                and data.dice not in dice):
            halved = {max(0, base // 2 + c) for c in changes} | {max(0, base + c) // 2 for c in changes}
            if data.dice in halved:
                return [SOURCE.ambiguous(seq, f"{data.shooter} rolls {data.dice}, half its {printed}, at soft vehicle "
                                         f"{data.target}: \"Soft vehicles can be affected by anti-tank attack ratings, or "
                                         "normal attack ratings (at half that value (rounded down)\" leaves open which "
                                         "rating is halved (AVBCW.Z 3)", expected=sorted(dice | halved), recorded=data.dice)]
        return [self._judge(seq, data, parts, dice, data.dice, f"{printed} {data.rating} {base}")]

    def _ammo_key(self, unit_id: str, weapon: Optional[str]) -> tuple[str, Optional[str]]:
        """Vehicles: "A vehicle weapon ... becomes 'low on ammo' for that weapon"; a unit's low result
        "applies to all weapons and both soft and hard target dice for the unit"."""
        unit = self.ctx.board.units.get(unit_id)
        vehicle = unit is not None and is_vehicle(unit, self.lists.get(unit_id))
        return (unit_id, weapon if vehicle else None)

    def _mad_minute(self, line, data, parts: list[Part], plain: set[int], printed: str, base: int) -> list[RuleApplication]:
        """A Mad minute unit shoots with or without its +2; with it, it "automatically suffers 'out of
        ammo'" (avbcw-mad-minute: low or exhausted, no default)."""
        seq = line["seq"]
        if self.low.get(self._ammo_key(data.shooter, data.weapon)):
            return [MADMINUTE.unverifiable(seq, f"{data.shooter} is low on ammo: its halved dice are AMMO.LOW's")]
        mad = {d + MAD_MINUTE for d in plain}
        if data.dice in mad and data.dice not in plain:
            self.mad[data.shooter] = seq
            return [MADMINUTE.ok(seq, f"{data.shooter} fires its mad minute: {data.dice} dice ({printed} +2)")]
        return [self._judge(seq, data, parts, plain, data.dice, f"{printed} {data.rating} {base}")]

    @closer   # it flushes only what this module's own steps left pending
    def on_PhaseStarted(self, line):
        return self._mad_unspent()

    @closer   # the same flush: a mad minute is pending only after a shot this module judged
    def on_TurnStarted(self, line):
        return self._mad_unspent()

    def finish(self):
        return self._mad_unspent()

    def _mad_unspent(self) -> list[RuleApplication]:
        out = [MADMINUTE.violation(seq, f"{unit} fired its mad minute and no AmmoStateChanged follows: it "
                                   "\"automatically suffers 'out of ammo'\"") for unit, seq in self.mad.items()]
        self.mad.clear()
        return out

    def _shooter_parts(self, data, shooter, entry, distance: float) -> list[Part]:
        parts = []
        if has_rule(entry, BOMBS.id) and distance <= CLOSE:
            parts.append(Part(BOMBS, 1, "Bombs \"+1(+1) SHOOT within 12”\""))
        if has_rule(entry, SMG.id) and distance <= CLOSE and data.rating == "soft" and data.shooter not in self.smg_lost:
            parts.append(Part(SMG, 1, "SMGs \"+1 SHOOT (12”)\""))
        if has_rule(entry, SQUADLMG.id) and data.rating == "soft":
            parts.append(Part(SQUADLMG, 1, "Squad LMG \"+1 SHOOT\""))
        if "suppressed" in shooter.status:
            parts.append(Part(SUPPRESSION, -2, "suppressed: \"Suffers -2 SHOOT\""))
        return parts

    def _withheld_parts(self, data, entry, distance: float) -> list[Part]:
        """The shooter's equipment that does not add to this shot: Bombs beyond 12” ("+1(+1) SHOOT
        within 12”"), SMGs beyond 12” or once low on ammo ("+1 SHOOT (12”). This bonus is permanently
        lost once the unit becomes 'low on ammo'"). Dice that count it anyway are its mismatch."""
        out = []
        if has_rule(entry, BOMBS.id) and distance > CLOSE:
            out.append(Part(BOMBS, 1, f"Bombs \"+1(+1) SHOOT within 12”\", not at {distance}\""))
        if has_rule(entry, SMG.id) and data.rating == "soft":
            if data.shooter in self.smg_lost:
                out.append(Part(SMG, 1, "SMGs: \"This bonus is permanently lost once the unit becomes 'low on ammo'\""))
            elif distance > CLOSE:
                out.append(Part(SMG, 1, f"SMGs \"+1 SHOOT (12”)\", not at {distance}\""))
        return out

    def _target_parts(self, data, aim: Aim, target) -> list[Part]:
        """What the target has: one -1 for any of the first row, -2 for the second."""
        features = self.ctx.board.table["features"]
        target = aim.target_shape
        drawn: list[Optional[LineString]] = []
        inner: list[BaseGeometry] = []   # the target less INSIDE_DEPTH, shrunk when first needed

        def holds(feature) -> bool:
            """Whether the feature holds part of the target more than INSIDE_DEPTH inside it. The
            inner shape lies within the target's core's box grown by its bases' radius: a feature
            apart from that box is apart from the inner shape's, found without shrinking it."""
            shape = geo.feature_shape(feature)
            if geo.boxes_apart(target.core, shape, target.radius):
                return False
            if not inner:
                inner.append(target.shrunk(INSIDE_DEPTH))
            return not geo.boxes_apart(inner[0], shape, 0.0) and inner[0].intersects(shape)

        def line() -> Optional[LineString]:
            """The sight line, drawn only for an obstacle the target touches or a smoke marker."""
            if not drawn:
                drawn.append(self._line(aim))
            return drawn[0]
        soft, hard = [], []
        # a feature whose box is apart from the target's (its inner shape's, for "in"; its extent's
        # grown by the bases' radius and the 0.05" that rounds to contact, for "behind") neither
        # holds nor touches it, as measuring it would find
        in_terrain = [f["id"] for f in features if geo.is_area(f) and f["kind"] not in FORTIFIED and holds(f)]
        fortified = [f["id"] for f in features if (f["kind"] in FORTIFIED or (geo.is_area(f) and f.get("cover") == "hard"))
                     and holds(f)]
        behind = {f["id"]: f.get("cover") or SOFT_OBSTACLES[f["kind"]] for f in features
                  if f["kind"] in SOFT_OBSTACLES
                  and not geo.boxes_apart(target.core, geo.feature_shape(f), target.radius + 0.1)
                  and geo.in_contact(target, geo.feature_shape(f))
                  and line() is not None and line().intersects(geo.feature_shape(f))}
        smoke = [m.get("id") for m in self.ctx.board.markers if m.get("marker") == "smoke" and line() is not None
                 and line().distance(Point(geo.xy(m["position"]))) <= float(m.get("radius") or 0)]
        prone = data.target in self.down
        if not data.indirect:   # "*Does not apply against Indirect fire"
            soft += [f"in terrain ({', '.join(in_terrain)})"] * bool(in_terrain)
            soft += [f"behind {k}" for k, cover in behind.items() if cover == "soft"]
            soft += [f"obscured by smoke {', '.join(map(str, smoke))}"] * bool(smoke)
            if prone and not soft:
                soft.append("prone in the open")
        hard += [f"behind {k}" for k, cover in behind.items() if cover == "hard"]
        hard += [f"fortified ({', '.join(fortified)})"] * bool(fortified)
        parts = []
        if soft:
            parts.append(Part(MODS, SOFT_COVER, "-1: " + ", ".join(soft)))
        if hard:
            parts.append(Part(MODS, HARD_COVER, "-2: " + ", ".join(hard)))
        if behind and has_rule(self.lists.get(data.target), TRENCHRATS.id):
            parts.append(Part(TRENCHRATS, -1, "Trench rats: \"an additional -1\" behind obstacle cover"))
        return parts

    def _line(self, aim: Aim) -> Optional[LineString]:
        best = aim._best_sight
        if best is None:
            origin = geo.xy(aim.shooter.position)
            near = aim.target_shape.core.centroid
            return LineString([origin, (near.x, near.y)])
        (a, b) = best[1].line
        return LineString([a, b]) if a != b else None

    def _judge(self, seq, data, parts: list[Part], allowed: set[int], recorded: int, what: str) -> RuleApplication:
        why = "; ".join(p.why for p in parts) or "no modifier"
        inputs = {"parts": [{"rule": p.rule.id, "amount": p.amount} for p in parts], "allowed": sorted(allowed)}
        if recorded in allowed and len(allowed) == 1:
            rule = next((p.rule for p in parts if p.rule is not MODS), MODS)
            return rule.ok(seq, f"{data.shooter} rolls {recorded} ({what}; {why})", expected=recorded,
                           recorded=recorded, inputs=inputs)
        if recorded in allowed:
            return MODS.ambiguous(seq, f"{data.shooter}'s target is behind a hard and a soft cover at once ({why}): the "
                                  "text does not say whether -1 and -2 add up", expected=sorted(allowed),
                                  recorded=recorded, inputs=inputs)
        blamed = next((p.rule for p in parts if p.rule is not MODS and recorded in {a - p.amount for a in allowed}), None)
        counted = next((p for p in self.withheld if recorded in {a + p.amount for a in allowed}), None)
        if blamed is None and counted is not None:   # equipment counted where it does not apply
            blamed, why = counted.rule, f"{why}; {counted.why}"
        return (blamed or MODS).mismatch(seq, f"{data.shooter} rolls {recorded} dice, not "
                                         f"{' or '.join(map(str, sorted(allowed)))} ({what}; {why})",
                                         expected=sorted(allowed), recorded=recorded, inputs=inputs)


def _readings(parts: list[Part]) -> set[int]:
    """The sums the text allows: a -1 and a -2 of the cover rows together add up, or only the -2
    stands (the rows do not say)."""
    total = sum(p.amount for p in parts)
    covers = [p for p in parts if p.rule is MODS]
    if len(covers) == 2:
        return {total, total - SOFT_COVER}
    return {total}


TESTS = "tests/unit/test_avbcw_modifiers.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.SHOOT.MODS": ("implemented", f"{TESTS}test_cover_on_the_table; {TESTS}test_not_against_indirect_fire",
                         "the dice: the rating (soft or hard; none in brackets: violation) with every change; -1 once "
                         "for a target in area terrain, touching a hedge or fence the line of sight meets, in smoke on "
                         "that line, or prone (or suppressed) in the open, none of it against indirect fire; -2 for a "
                         "wall so met or a building, town or trench; both at once: `ambiguous` (-3 or -2); a low unit's "
                         "recorded modifiers instead of its halved dice (a vehicle's per weapon: \"low on ammo\" for "
                         "that weapon)"),
    "AVBCW.EQ.BOMBS": ("implemented", f"{TESTS}test_equipment_that_adds_dice; "
                       f"{TESTS}test_equipment_counted_where_it_does_not_apply; {TESTS}test_bombs_give_a_hard_rating_within_12",
                       "\"+1(+1) SHOOT within 12”\" (range by `avbcw-range`; a unit without a bracket gets 1 hard die), "
                       "counted beyond: its mismatch; its cost and who may take it: the army list's"),
    "AVBCW.EQ.SMG": ("partial", f"{TESTS}test_equipment_that_adds_dice; {TESTS}test_equipment_counted_where_it_does_not_apply",
                     "\"+1 SHOOT (12”)\" on soft dice, lost once low on ammo; counted beyond 12” or once lost: its "
                     "mismatch"),
    "AVBCW.EQ.SQUADLMG": ("implemented", TESTS + "test_equipment_that_adds_dice", "\"+1 SHOOT\" on soft dice; its cost "
                          "and who may take it: the army list's"),
    "AVBCW.SUPP.EFFECTS": ("partial", TESTS + "test_equipment_that_adds_dice", "a suppressed unit shoots at -2"),
    "AVBCW.AB.TRENCHRATS": ("implemented", TESTS + "test_cover_on_the_table",
                            "\"an additional -1\" for a Trench rats target behind a hedge, fence or wall; its cost: the "
                            "army list's"),
    "AVBCW.PRONE": ("partial", f"{TESTS}test_cover_on_the_table; {TESTS}test_a_prone_unit_that_gets_up_is_in_the_open_again",
                    "a prone target in the open: -1, until it moves or stands (\"can get up and move normally in later "
                    "turns\")"),
    "AVBCW.VEH.DAMAGE_SOURCE": ("ambiguous", TESTS + "test_half_a_rating_at_a_soft_vehicle",
                                "a shot at a soft vehicle rolling half its dice, \"at half that value (rounded down\" "
                                "with its parenthesis unclosed (AVBCW.Z 3): `ambiguous`; the full dice: ok"),
    "AVBCW.AB.MADMINUTE": ("ambiguous", TESTS + "test_mad_minute",
                           "a Mad minute unit's soft dice with or without \"+2 SHOOT\"; with it, an AmmoStateChanged by "
                           "the phase's end (none: violation), low or exhausted by `avbcw-mad-minute` (no default: "
                           "`ambiguous`, AVBCW.Z 2)"),
    "AVBCW.ARMY.OTS": ("ambiguous", TESTS + "test_off_table_tiers",
                       "an off-table shot's dice: its tier's rating (1: 4(1), 2: 5(1), 3: 6(2), 4: 7(2)) with the "
                       "target's cover as against indirect fire"),
}
