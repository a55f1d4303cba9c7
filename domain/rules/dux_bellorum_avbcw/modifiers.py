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

from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, has_rule, on_table
from domain.rules.dux_bellorum_avbcw.kinds import never_prone, type_of
from domain.rules.dux_bellorum_avbcw.shooting import Aim, modifier_sum, weapon_rating
from domain.rules.engine import Rule, RuleApplication
from domain.tabletop import geometry as geo

MODS = RULEBOOK.rule("AVBCW.SHOOT.MODS")
BOMBS = RULEBOOK.rule("AVBCW.EQ.BOMBS")
SMG = RULEBOOK.rule("AVBCW.EQ.SMG")
SQUADLMG = RULEBOOK.rule("AVBCW.EQ.SQUADLMG")
SUPPRESSION = RULEBOOK.rule("AVBCW.SUPP.EFFECTS")
TRENCHRATS = RULEBOOK.rule("AVBCW.AB.TRENCHRATS")
PRONE = RULEBOOK.rule("AVBCW.PRONE")

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
        self.low: dict[str, int] = {}    # unit -> low results so far (any weapon)
        self.smg_lost: set[str] = set()  # SMGs: "This bonus is permanently lost once the unit becomes 'low on ammo'"

    def on_AmmoStateChanged(self, line):
        data = self.ctx.typed(line)
        self.low[data.unit] = 0 if data.state == "normal" else self.low.get(data.unit, 0) + 1
        if data.state != "normal":
            self.smg_lost.add(data.unit)

    def on_ShotFired(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        board = self.ctx.board
        shooter, target = board.units.get(data.shooter), board.units.get(data.target)
        if data.off_table is not None or not (on_table(shooter) and on_table(target)):
            return ()
        entry = self.lists.get(data.shooter)
        printed, rating = weapon_rating(data.weapon, entry)
        if rating is None:
            return ()      # SHOOT.RATINGS says the rating is not known
        base = rating.hard if data.rating == "hard" else rating.soft
        if base is None:
            return [MODS.violation(seq, f"{data.shooter}'s {printed} has no hard rating (\"a second rating in brackets\")",
                                   recorded=data.rating)]
        aim = Aim(self, data, shooter, target, entry)
        distance = aim._distance()[0]
        parts = self._shooter_parts(data, shooter, entry, distance) + self._target_parts(data, aim, target)
        changes = _readings(parts)
        lows = self.low.get(data.shooter, 0)
        if lows:
            recorded = modifier_sum(data.modifiers)
            if recorded is None:
                return [MODS.unverifiable(seq, f"{data.shooter} is low on ammo and its modifiers cannot be read: "
                                          "the dice are AMMO.LOW's halving of them")]
            return [self._judge(seq, data, parts, changes, recorded, f"its recorded modifiers sum to {recorded:+d}")]
        dice = {max(0, base + c) for c in changes}
        return [self._judge(seq, data, parts, dice, data.dice, f"{printed} {data.rating} {base}")]

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

    def _target_parts(self, data, aim: Aim, target) -> list[Part]:
        """What the target has: one -1 for any of the first row, -2 for the second."""
        features = self.ctx.board.table["features"]
        shape = aim.target_shape.shape
        inner = shape.buffer(-INSIDE_DEPTH)
        line = self._line(aim)
        soft, hard = [], []
        in_terrain = [f["id"] for f in features if geo.is_area(f) and f["kind"] not in FORTIFIED
                      and inner.intersects(geo.feature_shape(f))]
        fortified = [f["id"] for f in features if (f["kind"] in FORTIFIED or (geo.is_area(f) and f.get("cover") == "hard"))
                     and inner.intersects(geo.feature_shape(f))]
        behind = {f["id"]: f.get("cover") or SOFT_OBSTACLES[f["kind"]] for f in features
                  if f["kind"] in SOFT_OBSTACLES and geo.in_contact(aim.target_shape, geo.feature_shape(f))
                  and line is not None and line.intersects(geo.feature_shape(f))}
        smoke = [m.get("id") for m in self.ctx.board.markers if m.get("marker") == "smoke" and line is not None
                 and line.distance(Point(geo.xy(m["position"]))) <= float(m.get("radius") or 0)]
        prone = "prone" in target.status or ("suppressed" in target.status
                                             and not never_prone(type_of(target, self.lists.get(data.target))))
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
        blamed = next((p.rule for p in parts if p.rule is not MODS and recorded in {a - p.amount for a in allowed}), MODS)
        return blamed.mismatch(seq, f"{data.shooter} rolls {recorded} dice, not {' or '.join(map(str, sorted(allowed)))} "
                               f"({what}; {why})", expected=sorted(allowed), recorded=recorded, inputs=inputs)


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
                         "recorded modifiers instead of its halved dice"),
    "AVBCW.EQ.BOMBS": ("partial", TESTS + "test_equipment_that_adds_dice", "\"+1(+1) SHOOT within 12”\" (range by "
                       "`avbcw-range`); its cost and who may take it: the army list's"),
    "AVBCW.EQ.SMG": ("partial", TESTS + "test_equipment_that_adds_dice",
                     "\"+1 SHOOT (12”)\" on soft dice, lost once low on ammo"),
    "AVBCW.EQ.SQUADLMG": ("partial", TESTS + "test_equipment_that_adds_dice", "\"+1 SHOOT\" on soft dice; its cost "
                          "and who may take it: the army list's"),
    "AVBCW.SUPP.EFFECTS": ("partial", TESTS + "test_equipment_that_adds_dice", "a suppressed unit shoots at -2"),
    "AVBCW.AB.TRENCHRATS": ("partial", TESTS + "test_cover_on_the_table",
                            "\"an additional -1\" for a Trench rats target behind a hedge, fence or wall; its cost: the "
                            "army list's"),
    "AVBCW.PRONE": ("partial", TESTS + "test_cover_on_the_table", "a prone target in the open: -1"),
}
