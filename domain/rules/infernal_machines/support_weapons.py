"""New Support Weapons (IM.SW): who carries them, what they add to a shot, and their own limits.

The log records a support weapon in any of the ways the format allows (docs/game-log-extensions.md):
a marker placed on its carrier (`MarkerPlaced` {`marker`: "smg", `unit`}; "Units equipped with ...
are indicated by placing an SMG marker on the infantry platoons so armed"), the carrier's
`UnitDeployed.attrs` (`smg`: true, `gl`: 2, `lmg`: ["lewis"], `support_weapons`: [...]), or a
`support-weapon` unit deployed with `attrs.weapon` and `attrs.carrier`. `Armoury` folds them once
per audit. Their firepower and range reach a shot as terms (`DIRECT_FIRE_TERMS`, direct_fire.py):
SMG +10 up to two hexes, +5 at three, nothing beyond; grenade launcher +3 at up to 3 hexes; MMG +3
with range 8 (crews only); an LMG's firepower and range are on its counter (`attrs.firepower`,
`attrs.range` of its marker or unit, else `unverifiable`). The 37 mm fires at infantry and cavalry
with its blast power of 2.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional

from domain.board.hexes import distance
from domain.rules.engine import RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.direct_fire import Shot, Term, fire_facts, rule
from domain.rules.interpretations import Interpretation, declare

KINDS = {  # the names a log may give a support weapon -> its kind
    "smg": "smg", "submachine-gun": "smg", "sub-machine-gun": "smg",
    "mmg": "mmg", "medium-machine-gun": "mmg",
    "lmg": "lmg", "light-machine-gun": "lmg", "lewis": "lmg-lewis", "madsen": "lmg-madsen",
    "benet": "lmg-benet", "benet-mercie": "lmg-benet", "bar": "lmg-bar", "browning": "lmg-bar",
    "gl": "gl", "grenade-launcher": "gl", "grenade-launchers": "gl",
    "37mm": "37mm", "37-mm": "37mm", "37mm-at": "37mm", "37mm-gun": "37mm",
}
ATTR_KEYS = ("smg", "mmg", "lmg", "lmgs", "gl", "grenade_launcher", "grenade_launchers", "support_weapons", "weapons")
CARRIERS = {  # kind -> (the unit classes that may carry it, at most how many, the rule)
    "smg": (("infantry-platoon", "infantry-squad"), 1, "IM.SW.SMG"),
    "mmg": (("crew",), 1, "IM.SW.MMG"),
    "lmg": (("infantry-platoon", "infantry-squad"), 4, "IM.SW.LMG.CARRY"),
    "gl": (("infantry-platoon", "infantry-squad"), 4, "IM.SW.GL"),
}
UNNAMED_DIE = declare(Interpretation(
    "IM.CORE.DICE.UNNAMED", ("IM.CORE.DICE", "IM.SW.LMG.BENET", "IM.SW.ATR.CRIT", "IM.OPTCBT.HEROISM"),
    "Several rolls only say 'roll a die' (the Benet jam, the anti-tank rifle's third and repair dice, the heroism "
    "table): which die?",
    {"d6": "a six-sided die, the die the text names for every other small-arms roll (the catalogue's reading)",
     "any": "any die; the printed thresholds are read on the die rolled"}, default="d6"))


def weapon_kind(name: Any) -> Optional[str]:
    """The kind of a support weapon from a name the log gives ("SMG", "lewis_lmg", "LMG-Benet")."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key in KINDS:
        return KINDS[key]
    for part in key.split("-"):
        if part in ("lewis", "madsen", "benet", "bar"):
            return KINDS[part]
    return "lmg" if "lmg" in key else None


def family(kind: str) -> str:
    return "lmg" if kind.startswith("lmg") else kind


@dataclass
class Carried:
    kind: str                      # smg, mmg, gl, lmg, lmg-lewis, lmg-benet, ...
    carrier: str
    seq: int
    firepower: Optional[float] = None
    range: Optional[float] = None
    name: Optional[str] = None     # a marker's or unit's own id, when it has one


class Armoury:
    """Each unit's support weapons so far (a fold), and the weapons that broke (removed from play)."""

    reads = frozenset({"DieRolled", "UnitDeployed", "MarkerPlaced", "MarkerRemoved"})   # the event types its `update` reads (the auditor hands it no other)

    def __init__(self, ctx):
        self.ctx = ctx
        self.carried: dict[str, list[Carried]] = {}
        self.broken: dict[tuple[str, str], int] = {}     # (carrier, kind) -> seq it broke or was removed

    def of(self, unit: str, kind: Optional[str] = None) -> list[Carried]:
        return [c for c in self.carried.get(unit, ()) if kind is None or family(c.kind) == kind or c.kind == kind]

    def add(self, weapon: Carried) -> None:
        self.carried.setdefault(weapon.carrier, []).append(weapon)

    def from_deployment(self, line: dict[str, Any]) -> list[Carried]:
        """The weapons a UnitDeployed gives: on the unit (its attrs), or the unit is one (`support-weapon`)."""
        d, out = line["data"], []
        attrs = d.get("attrs") or {}
        for key in ATTR_KEYS:
            out += [Carried(kind, d["unit"], line["seq"], fp, rng) for kind, fp, rng in _listed(key, attrs.get(key))]
        kind = weapon_kind(attrs.get("weapon") or attrs.get("type") or d.get("name"))
        carrier = attrs.get("carrier") or attrs.get("with") or attrs.get("on")
        if d.get("class") == "support-weapon" and kind and isinstance(carrier, str):
            out.append(Carried(kind, carrier, line["seq"], d.get("firepower"), d.get("range"), d["unit"]))
        return out

    def update(self, line: dict[str, Any], board) -> None:
        kind = line["type"]
        if kind == "DieRolled" and line["data"].get("purpose") == "IM.SW.LMG.BENET" and line["data"].get("result", 9) <= 2:
            self._break(line["data"].get("subject"), line["seq"])
        elif kind == "UnitDeployed":
            for weapon in self.from_deployment(line):
                self.add(weapon)
        elif kind in ("MarkerPlaced", "MarkerRemoved"):
            d = line["data"]
            weapon = weapon_kind(d.get("marker"))
            if weapon is None or not d.get("unit"):
                return
            if kind == "MarkerPlaced":
                self.add(Carried(weapon, d["unit"], line["seq"], d.get("firepower"), d.get("range"), d.get("id")))
                return
            held = [c for c in self.carried.get(d["unit"], []) if c.kind == weapon or family(c.kind) == weapon]
            if held:
                self.carried[d["unit"]].remove(held[-1])
                self.broken[(d["unit"], held[-1].kind)] = line["seq"]

    def _break(self, subject: Optional[str], seq: int) -> None:
        """A Benet jam roll of 1-2: "the Benet light machine gun breaks. Remove the counter from play." """
        for carrier, weapons in self.carried.items():
            benets = [w for w in weapons if w.kind == "lmg-benet" and subject in (carrier, w.name)]
            if benets:
                weapons.remove(benets[0])
                self.broken[(carrier, "lmg-benet")] = seq
                return


def _listed(key: str, value: Any) -> Iterable[tuple[str, Optional[float], Optional[float]]]:
    """(kind, firepower, range) of each weapon an attrs entry names: true, a count, a name, a list of
    names or of {type, firepower, range}."""
    base = weapon_kind(key.rstrip("s")) if key not in ("support_weapons", "weapons") else None
    if value is True and base:
        yield base, None, None
    elif isinstance(value, int) and not isinstance(value, bool) and base:
        for _ in range(max(value, 0)):
            yield base, None, None
    elif isinstance(value, str):
        kind = weapon_kind(value) if base in (None, "lmg") else base
        if kind:
            yield kind if base != "lmg" or kind.startswith("lmg") else "lmg", None, None
    elif isinstance(value, dict) and not any(k in value for k in ("type", "weapon", "kind")) and base is None:
        for name, count in value.items():   # {"smg": 1, "gl": 2}: names and counts
            yield from _listed(name, count)
    elif isinstance(value, dict):
        kind = weapon_kind(value.get("type") or value.get("weapon") or value.get("kind")) or base
        if kind:
            yield kind, value.get("firepower"), value.get("range")
    elif isinstance(value, list):
        for item in value:
            yield from _listed(key, item)


def armoury(ctx) -> Armoury:
    return ctx.shared("im-armoury", lambda: Armoury(ctx))


# -- what a weapon adds to a shot ------------------------------------------------------------------
def smg_bonus(hexes: int) -> int:
    """Submachine Guns: "+10 to its firepower up to a distance of two hexagons. At a distance of three
    hexagons, it may add +5. Submachine guns have no effect on targets more than three hexagons away." """
    return 10 if hexes <= 2 else 5 if hexes == 3 else 0


def weapon_terms(shot: Shot, ctx) -> Iterable[Term]:
    if shot.kind != "small-arms":
        return []
    arms, board, out = armoury(ctx), ctx.board, []
    named = {weapon_kind(w) for w in shot.weapons}
    for firer in shot.firers:
        hexes, unit = shot.hexes(firer), board.units.get(firer)
        if hexes is None or unit is None or (firer not in arms.carried and unit.unit_class not in GUN_CLASSES):
            continue
        if is_37mm(unit):
            out.append(Term("IM.SW.37MM", 2, "the 37 mm's blast power against infantry or cavalry", "firepower-set", firer))
        reach = [unit.range or 0]
        for weapon in arms.of(firer):
            if named and weapon.kind not in named and family(weapon.kind) not in named:
                continue   # the line names the weapons that fired, and not this one
            term, weapon_range = _weapon_term(weapon, unit, hexes)
            if term is not None:
                out.append(term)
            if weapon_range is not None:
                reach.append(weapon_range)
        if max(reach) > (unit.range or 0):
            out.append(Term(_range_rule(arms.of(firer)), max(reach), "its support weapons' range", "range", firer))
    return out


def _weapon_term(weapon: Carried, unit, hexes: int) -> tuple[Optional[Term], Optional[float]]:
    classes, _, rule_id = CARRIERS.get(family(weapon.kind), ((), 0, ""))
    if family(weapon.kind) in CARRIERS and unit.unit_class not in classes:
        return None, None   # a weapon on a unit that may not carry it adds nothing (judged by the carriage check)
    if weapon.kind == "smg":
        return Term("IM.SW.SMG", smg_bonus(hexes), f"SMG at {hexes} hexes", "firepower", unit.unit), 3
    if weapon.kind == "gl":
        return Term("IM.SW.GL", 3 if hexes <= 3 else 0, f"grenade launcher at {hexes} hexes", "firepower", unit.unit), 3
    if weapon.kind == "mmg":
        return Term("IM.SW.MMG", 3 if hexes <= 8 else 0, f"MMG at {hexes} hexes", "firepower", unit.unit), 8
    if family(weapon.kind) == "lmg":
        reach = weapon.range
        value = weapon.firepower if reach is None or hexes <= reach else 0
        return Term("IM.SW.LMG.CARRY", value, f"{weapon.kind} (its counter's firepower)", "firepower", unit.unit), reach
    return None, None


def _range_rule(weapons: list[Carried]) -> str:
    kinds = {family(w.kind) for w in weapons}
    return "IM.SW.MMG" if "mmg" in kinds else "IM.SW.LMG.CARRY" if "lmg" in kinds else \
        "IM.SW.SMG" if "smg" in kinds else "IM.SW.GL"


GUN_CLASSES = ("support-weapon", "artillery-gun")


def is_37mm(unit) -> bool:
    return unit is not None and weapon_kind(unit.attrs.get("weapon") or unit.attrs.get("type")) == "37mm" or \
        (unit is not None and unit.unit_class in ("support-weapon", "artillery-gun")
         and "37" in str(unit.name or unit.unit).lower().replace(" ", ""))


DIRECT_FIRE_TERMS = (weapon_terms,)


# -- the checks ----------------------------------------------------------------------------------------
class SupportWeaponChecks(RuleModule):
    """Carriers and limits of SMG, MMG, LMG and grenade launchers, the BAR's nation and date, the
    Benet's jam roll, the 37 mm's movement, grenade-launcher smoke."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.arms = armoury(ctx)
        self.facts = fire_facts(ctx)
        self.benet_turns: dict[str, tuple[int, int]] = {}      # carrier -> (turn, seq of its first Benet fire)
        self.gl_smoke: dict[str, int] = {}                     # target hex -> seq of a smoke-grenade shot
        self.moved_37: dict[str, int] = {}                     # 37 mm -> turn it last moved

    # -- carriage --------------------------------------------------------------------------------
    def on_UnitDeployed(self, line):
        weapons = self.arms.from_deployment(line)
        out = [self._bar(line, w.carrier) for w in weapons if w.kind == "lmg-bar"]
        for carrier, fam in sorted({(w.carrier, family(w.kind)) for w in weapons}):
            added = sum(1 for w in weapons if w.carrier == carrier and family(w.kind) == fam)
            out += self._carriage(line, carrier, fam, added)
        return out

    def on_MarkerPlaced(self, line):
        d = line["data"]
        kind = weapon_kind(d.get("marker"))
        out = []
        if kind and d.get("unit"):
            if kind == "lmg-bar":
                out.append(self._bar(line, d["unit"]))
            out += self._carriage(line, d["unit"], family(kind), 1)
        if d.get("marker") == "smoke":
            out += self._gl_smoke_marker(line)
        return out

    def _carriage(self, line, carrier: str, fam: str, added: int) -> list[RuleApplication]:
        seq, unit = line["seq"], self._unit(line, carrier)
        if fam not in CARRIERS or unit is None:
            return []
        classes, most, rule_id = CARRIERS[fam]
        what = {"smg": "an SMG", "mmg": "an MMG", "lmg": "light machine guns", "gl": "grenade launchers"}[fam]
        out = [rule(rule_id).judge(
            seq, unit.unit_class in classes, f"{unit.unit} ({unit.unit_class}) may carry {what}",
            f"{unit.unit} is a {unit.unit_class}: only {' or '.join(classes)} carry {what}", recorded=unit.unit_class)]
        count = len(self.arms.of(carrier, fam)) + added
        out.append(rule(rule_id).judge(seq, count <= most, f"{count} {fam.upper()} marker(s) on {carrier}",
                                       f"{carrier} carries {count} {fam.upper()} markers: at most {most}",
                                       expected=most, recorded=count))
        if fam == "smg" and line["turn"] > 0:
            out.extend(self._smg_reused(line, unit))
        return out

    def _unit(self, line, unit_id: str):
        if line["type"] == "UnitDeployed" and line["data"]["unit"] == unit_id:
            d = line["data"]
            from domain.board.state import UnitState
            return UnitState(unit_id, line.get("side"), d["class"], attrs=d.get("attrs") or {})
        return self.ctx.board.units.get(unit_id)

    def _bar(self, line, carrier_id: str) -> RuleApplication:
        """"The BAR is available only to American troops and from March 1918." """
        board, carrier = self.ctx.board, self._unit(line, carrier_id)
        side = carrier.side if carrier and carrier.side else line.get("side")
        nation = ((board.sides or {}).get(side) or {}).get("nation", side)
        year, month = board.year_month()
        why = []
        if str(nation).lower() not in ("american", "usa", "us", "united-states", "americans"):
            why.append(f"{side} is {nation}, not American")
        if (year, month) < (1918, 3):
            why.append(f"the scenario is dated {board.date}, before March 1918")
        return rule("IM.SW.LMG.BAR").judge(line["seq"], not why, "an American BAR from March 1918", "; ".join(why),
                                           recorded={"nation": nation, "date": board.date})

    def _smg_reused(self, line, unit) -> list[RuleApplication]:
        """"An SMG marker may not be reused or captured if the unit carrying it is eliminated": an SMG
        placed during play in the hex where an SMG carrier was eliminated."""
        lost = [c for u in self.ctx.board.units.values() if u.eliminated and u.location == unit.location
                for c in self.arms.of(u.unit, "smg")]
        if not lost:
            return []
        return [rule("IM.SW.SMG").violation(line["seq"], f"an SMG marker is placed on {unit.unit} where the SMG of "
                                            f"eliminated {lost[0].carrier} was: it may not be reused or captured",
                                            related=[lost[0].seq])]

    # -- firing ----------------------------------------------------------------------------------------
    def on_SmallArmsFired(self, line):
        shot, out = self.facts.open(line), []
        named = {weapon_kind(w) for w in shot.weapons}
        for firer in shot.firers:
            if any(w.kind == "lmg-benet" and self._fires(shot, w) for w in self.arms.of(firer, "lmg")):
                self.benet_turns.setdefault(firer, (line["turn"], line["seq"]))
            gone = self.arms.broken.get((firer, "lmg-benet"))
            if gone and "lmg-benet" in named and not any(w.kind == "lmg-benet" for w in self.arms.of(firer)):
                out.append(rule("IM.SW.LMG.BENET").violation(
                    line["seq"], f"{firer}'s Benet broke and was removed from play (seq {gone})", related=[gone]))
        if shot.given("ammunition") == "smoke":
            out += self._gl_smoke_shot(line, shot)
        return out

    def _fires(self, shot: Shot, weapon: Carried) -> bool:
        named = {weapon_kind(w) for w in shot.weapons}
        reach = weapon.range
        return (not named or weapon.kind in named or "lmg" in named) and \
            (reach is None or (shot.hexes(weapon.carrier) or 0) <= reach)

    def on_TurnStarted(self, line):
        out = self._benet_rolls(line["seq"])
        self.turn_seq = line["seq"]
        return out

    def finish(self):
        return self._benet_rolls(len(self.ctx.lines) + 1)

    def _benet_rolls(self, before: int) -> list[RuleApplication]:
        """"each turn during which it is used, roll a die. On a result of 1 or 2, the Benet light machine
        gun breaks. Remove the counter from play." The roll is about the carrier (or its Benet)."""
        out = []
        for carrier, (turn, first) in sorted(self.benet_turns.items()):
            names = {carrier, None, *(w.name for w in self.arms.of(carrier, "lmg"))}
            rolls = [r for r in self.ctx.rolls("IM.SW.LMG.BENET", after=getattr(self, "turn_seq", 0), before=before)
                     if r["data"].get("subject") in names]
            if not rolls:
                out.append(rule("IM.SW.LMG.BENET").missing_roll(
                    first, f"{carrier} used its Benet in turn {turn} without the jam roll (IM.SW.LMG.BENET)"))
                continue
            out.extend(self._benet_outcome(carrier, rolls[0], before))
        self.benet_turns = {}
        return out

    def _benet_outcome(self, carrier: str, roll_line, before: int) -> list[RuleApplication]:
        roll = self.ctx.typed(roll_line)
        if self.ctx.interpretations.reading(UNNAMED_DIE.name) == "d6" and roll.die != "d6":
            return [rule("IM.CORE.DICE").violation(roll_line["seq"], f"the Benet's jam roll is a d6 (reading "
                                                   f"{UNNAMED_DIE.name}=d6), not a {roll.die}", expected="d6",
                                                   recorded=roll.die)]
        removed = self.arms.broken.get((carrier, "lmg-benet"))
        removed = removed if removed is not None and roll_line["seq"] < removed < before else None
        if roll.result <= 2:
            return [rule("IM.SW.LMG.BENET").ok(roll_line["seq"], f"the Benet breaks on {roll.result} and is removed")]
        return [rule("IM.SW.LMG.BENET").judge(
            roll_line["seq"], removed is None, f"the Benet holds on {roll.result}",
            f"the Benet breaks only on 1 or 2; on {roll.result} it stays, yet its counter is removed (seq {removed})",
            Verdict.MISMATCH, related=[removed] if removed else [])]

    # -- grenade-launcher smoke ---------------------------------------------------------------------------
    def _gl_smoke_shot(self, line, shot: Shot) -> list[RuleApplication]:
        """"Grenade launchers may fire smoke grenades. These do not damage units in the targeted hexagon." """
        carriers = [f for f in shot.firers if self.arms.of(f, "gl")]
        if not carriers:
            return []   # smoke from another weapon (a mortar, a gun) is judged by its own rule
        self.gl_smoke[shot.target] = line["seq"]
        far = [f for f in carriers if (shot.hexes(f) or 0) > 3]
        return [rule("IM.SW.GL.SMOKE").judge(line["seq"], not far, "smoke grenades within 3 hexes",
                                             f"{', '.join(far)} fire smoke grenades beyond 3 hexes",
                                             recorded=shot.hexes())]

    def on_SmallArmsResolved(self, line):
        shot = self.facts.shot(self.ctx.typed(line).attack)
        if shot is None or shot.given("ammunition") != "smoke" or shot.target not in self.gl_smoke:
            return []
        hurt = [r.unit for r in self.ctx.typed(line).results if r.result != "no-effect"]
        return [rule("IM.SW.GL.SMOKE").judge(line["seq"], not hurt, "smoke grenades do no damage",
                                             f"smoke grenades do not damage units; results given to {', '.join(hurt)}",
                                             related=[shot.seq])]

    def _gl_smoke_marker(self, line) -> list[RuleApplication]:
        source = str(line["data"].get("source", ""))
        if weapon_kind(source) != "gl":
            return []
        loc = line["data"].get("location")
        carriers = [u for u in self.ctx.board.units.values() if u.side == line.get("side") and self.arms.of(u.unit, "gl")
                    and u.location and not u.eliminated]
        view = board_view(self.ctx)
        near = [u.unit for u in carriers if loc and distance(u.location, loc, view.placement) <= 3]
        return [rule("IM.SW.GL.SMOKE").judge(line["seq"], bool(near), f"smoke grenade from {', '.join(near)}",
                                             f"no unit of {line.get('side')} with a grenade launcher is within 3 hexes "
                                             f"of {loc}", recorded=loc)]

    # -- the 37 mm ----------------------------------------------------------------------------------------
    def on_UnitMoved(self, line):
        d = self.ctx.typed(line)
        unit = self.ctx.board.units.get(d.unit)
        if not is_37mm(unit) or line["phase"] not in ("vehicle-movement", "first-foot-movement", "second-foot-movement"):
            return []
        hexes = len(d.path) - 1
        moved_before = self.moved_37.get(d.unit) == line["turn"]
        self.moved_37[d.unit] = line["turn"]
        why = []
        if line["phase"] != "second-foot-movement":
            why.append(f"it moves in the second foot movement phase, not the {line['phase']} phase")
        if hexes > 1 or (moved_before and hexes):
            why.append(f"it moves at most one hexagon per turn ({hexes} now{', and it moved already' if moved_before else ''})")
        return [rule("IM.SW.37MM").judge(line["seq"], not why, f"{d.unit} moves {hexes} hex", "the 37 mm: " + "; ".join(why),
                                         recorded=d.path)]


COVERAGE = {
    "IM.SW.SMG": ("implemented", "tests/unit/test_im_support_weapons.py::test_an_smg_adds_its_bonus_by_distance_and_no_more; "
                  "tests/unit/test_im_support_weapons.py::test_who_may_carry_smg_mmg_lmg_and_grenade_launchers; "
                  "tests/unit/test_im_support_weapons.py::test_a_second_smg_marker_placed_on_a_platoon"),
    "IM.SW.MMG": ("implemented", "tests/unit/test_im_support_weapons.py::test_an_mmg_gives_a_crew_plus_three_and_range_eight; "
                  "tests/unit/test_im_support_weapons.py::test_who_may_carry_smg_mmg_lmg_and_grenade_launchers",
                  "carriers, +3 and range 8; the machine gun bonus it may claim is a Landships! value (unverifiable)"),
    "IM.SW.LMG.CARRY": ("implemented", "tests/unit/test_im_support_weapons.py::test_who_may_carry_smg_mmg_lmg_and_grenade_launchers",
                        "carriers and the four-marker limit; each type's firepower and range are its counter's "
                        "(`firepower`, `range` of its marker or attrs entry), else the shot's firepower is unverifiable"),
    "IM.SW.LMG.BENET": ("ambiguous", "tests/unit/test_im_support_weapons.py::test_the_benet_jams_on_one_or_two",
                        "a roll each turn it is used, 1-2 breaks it (its firepower is gone); the die is unnamed "
                        "(IM.CORE.DICE.UNNAMED, d6 by default)"),
    "IM.SW.LMG.BAR": ("implemented", "tests/unit/test_im_support_weapons.py::test_the_bar_is_american_from_march_1918"),
    "IM.SW.GL": ("implemented", "tests/unit/test_im_support_weapons.py::test_grenade_launcher_adds_three_within_three_hexes; "
                 "tests/unit/test_im_support_weapons.py::test_who_may_carry_smg_mmg_lmg_and_grenade_launchers"),
    "IM.SW.GL.SMOKE": ("partial", "tests/unit/test_im_support_weapons.py::test_grenade_launcher_smoke_does_no_damage",
                       "no damage and 3 hexes from a carrier; the marker's behaviour is Landships! 5.33"),
    "IM.SW.37MM": ("implemented", "tests/unit/test_im_support_weapons.py::test_the_37mm_moves_one_hex_in_the_second_foot_phase_and_fires_at_blast_power_two",
                   "one hexagon a turn in the second foot phase, blast power 2; stacking freely and needing no crew "
                   "forbid nothing the auditor judges"),
    "IM.CORE.DICE": ("ambiguous", "tests/unit/test_im_core.py::test_the_text_names_the_die_of_these_rolls; "
                     "tests/unit/test_im_support_weapons.py::test_the_benet_jams_on_one_or_two",
                     "the named dice of the ground war (mortar scatter and rate of fire, commander, pin removal, Red "
                     "Army, column shift); the unnamed ones follow IM.CORE.DICE.UNNAMED"),
}
