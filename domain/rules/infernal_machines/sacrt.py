"""The small arms resolution: the SACRT cell, the revised SACRT, pre-set rifle ranges and the
commander of a hatch-open vehicle.

- `LS.SACRT` (the Landships! chart, on the table sheet): with the game's pack holding `SACRT`
  (`firepower column -> modified roll -> result`, and `SACRT_COLUMNS` where a column covers several
  firepowers), a miss must leave every unit of the hex unharmed and a hit must touch one; else
  `unverifiable`.
- IM.OPTCBT.SACRT (optional): "Use the revised SACRT ... Roll the die separately for each unit in the
  targeted hexagon": one roll per unit of the target hex (its cells: `SACRT_REVISED`).
- IM.OPTCBT.PRESET (optional): beyond the nation's pre-set range, +1 on the SACRT "for every two
  hexagons", for the printed firepower of infantry platoons only (⚠ an odd number of hexes beyond,
  and rifles fired together with support weapons, are ambiguous: named interpretations).
- IM.SPOT.BUTTONED.CMDR_HIT: small arms fire that gets a "hit" against a hatch-open vehicle asks a
  d6: on 1-2 the commander is seriously wounded (the crew's reaction is Landships! 15.11-15.12).
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import RuleApplication, RuleModule, Verdict, closer
from domain.rules.infernal_machines.direct_fire import Shot, fire_facts, rule, terms_of
from domain.rules.infernal_machines.morale import agreed
from domain.rules.infernal_machines.spotting import commander_of
from domain.rules.interpretations import Interpretation, declare

MISSES = ("miss", "-", "no-effect", "none", "0", "")
PRESET = {"french": 4, "france": 4, "german": 4, "germany": 4, "russian": 4, "russia": 4,
          "american": 2, "usa": 2, "us": 2, "british": 2, "britain": 2, "uk": 2}
PRESET_ROUNDING = declare(Interpretation(
    "IM.OPTCBT.PRESET.ROUNDING", ("IM.OPTCBT.PRESET",),
    "Pre-set rifle ranges: \"add +1 to the die roll on the SACRT for every two hexagons\" beyond the pre-set "
    "range: is an odd hexagon left over counted?", {"full-pairs": "+1 for each full two hexagons (5 beyond 2: +1)",
                                                    "started-pairs": "+1 for each pair begun (5 beyond 2: +2)"},
    default=None))
PRESET_MIXED = declare(Interpretation(
    "IM.OPTCBT.PRESET.MIXED", ("IM.OPTCBT.PRESET",),
    "Pre-set rifle ranges apply to the printed firepower of infantry platoons, not to their support weapons: "
    "when both fire in one SACRT roll, does the roll take the modifier?",
    {"modifier": "the roll takes the rifles' modifier", "no-modifier": "the support weapons' fire keeps the roll "
     "free of it"}, default=None))


def column_of(tables, table: str, firepower: float) -> Optional[str]:
    """The chart's column for a firepower: SACRT_COLUMNS (a list of [min firepower, column]) when the
    pack has it, else the firepower itself as a column name."""
    columns = tables.get(f"{table}_COLUMNS") if tables.has(f"{table}_COLUMNS") else None
    if isinstance(columns, list):
        found = [col for low, col in columns if firepower >= low]
        return str(found[-1]) if found else None
    key = f"{firepower:g}"
    return key if tables.get(table, key) is not None else None


def preset_modifier(nation: str, hexes: int, reading: Optional[str]) -> tuple[Optional[int], int]:
    """(modifier, pre-set range); the modifier is None where the reading is needed and not chosen."""
    preset = PRESET.get(nation.lower(), 3)
    beyond = max(0, hexes - preset)
    if beyond % 2 == 0:
        return beyond // 2, preset
    if reading is None:
        return None, preset
    return (beyond // 2 if reading == "full-pairs" else beyond // 2 + 1), preset


class SmallArmsResolution(RuleModule):
    """The SACRT cell and the optional revised SACRT, pre-set ranges, and commander hits."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)
        self.commander_hits: list[tuple[str, str, int]] = []   # (vehicle, commander, seq of the hit)

    def on_SmallArmsResolved(self, line):
        resolved = self.ctx.typed(line)
        shot = self.facts.shot(resolved.attack)
        if shot is None or shot.kind != "small-arms":
            return []
        options = self.ctx.board.options
        out = []
        revised = agreed(options, "IM.OPTCBT.SACRT")
        if revised:
            out += self._revised_rolls(line, shot)
        elif any(r["data"].get("purpose") == "IM.OPTCBT.SACRT" for r in shot.rolls):
            out.append(rule("IM.OPTCBT.AGREE").violation(line["seq"], "a revised SACRT roll, but the players did not "
                                                         "agree the optional rule"))
        out += self._cells(line, shot, resolved, "SACRT_REVISED" if revised else "SACRT")
        if agreed(options, "IM.OPTCBT.PRESET"):
            out += self._preset(line, shot)
        out += self._commanders(line, shot, resolved)
        return out

    def _revised_rolls(self, line, shot: Shot) -> list[RuleApplication]:
        units = [u.unit for u in self.ctx.board.units_at(shot.target) if u.side != shot.side]
        rolls = shot.sacrt_rolls() + [r for r in self.ctx.rolls("IM.OPTCBT.SACRT", after=shot.seq, before=line["seq"])
                                      if r["data"].get("subject") in units]
        rolls = list({r["seq"]: r for r in rolls}.values())
        return [rule("IM.OPTCBT.SACRT").judge(
            line["seq"], len(rolls) >= len(units), f"{len(rolls)} SACRT roll(s) for {len(units)} unit(s)",
            f"the revised SACRT rolls separately for each unit in the targeted hexagon: {len(units)} units "
            f"({', '.join(units)}), {len(rolls)} roll(s)", Verdict.MISSING_ROLL, expected=len(units), recorded=len(rolls),
            related=[r["seq"] for r in rolls])]

    def _cells(self, line, shot: Shot, resolved, table: str) -> list[RuleApplication]:
        rolls, tables = shot.sacrt_rolls(), self.ctx.tables
        cited = rule("IM.OPTCBT.SACRT" if table == "SACRT_REVISED" else "LS.SACRT")
        if not rolls or shot.firepower is None:
            return []
        if not tables.has(table):
            return [cited.unverifiable(line["seq"], tables.lacks(f"Small Arms Combat Resolution Table ({table})"),
                                       related=[rolls[0]["seq"]])]
        column = column_of(tables, table, shot.firepower)
        roll = self.ctx.typed(rolls[0])
        modified = roll.result + sum(m.value for m in roll.modifiers)
        cell = tables.get(table, column, modified) if column is not None else None
        if cell is None:
            return [cited.unverifiable(line["seq"], f"the {tables.name} pack's {table} has no cell for firepower "
                                       f"{shot.firepower:g} (column {column}) and roll {modified}", related=[rolls[0]["seq"]])]
        harmed = [r.unit for r in resolved.results if r.result != "no-effect"]
        target_units = [r.unit for r in resolved.results]
        miss = str(cell).lower() in MISSES
        good = not harmed if miss else (bool(harmed) or not target_units)
        return [cited.judge(line["seq"], good, f"{table} {column} on {modified}: {cell}",
                            f"the {table} reads {cell} in column {column} on {modified}; the log gives "
                            f"{[(r.unit, r.result) for r in resolved.results]}", Verdict.MISMATCH, expected=cell,
                            recorded=[r.result for r in resolved.results], related=[rolls[0]["seq"]],
                            inputs={"column": column, "roll": roll.result, "modified": modified})]

    def _preset(self, line, shot: Shot) -> list[RuleApplication]:
        """The pre-set range modifier on the shot's SACRT roll(s)."""
        board, out = self.ctx.board, []
        rifles = [f for f in shot.firers if shot.classes.get(f) == "infantry-platoon"]
        if not rifles or not shot.sacrt_rolls():
            return []
        nation = str(((board.sides or {}).get(shot.side) or {}).get("nation", shot.side or ""))
        reading = self.ctx.interpretations.reading(PRESET_ROUNDING.name)
        hexes = max(shot.hexes(f) or 0 for f in rifles)
        value, preset = preset_modifier(nation, hexes, reading)
        r = rule("IM.OPTCBT.PRESET")
        if value is None:
            return [r.ambiguous(line["seq"], f"{nation} rifles at {hexes} hexes, pre-set range {preset}: "
                                f"{PRESET_ROUNDING.describe()}", interpretation=self.ctx.interpretations.label(PRESET_ROUNDING.name))]
        weapons = [t for t in terms_of(self.ctx, shot) if t.kind == "firepower" and t.value]
        if value and (weapons or len(rifles) < len(shot.firers)):
            mixed = self.ctx.interpretations.reading(PRESET_MIXED.name)
            if mixed is None:
                return [r.ambiguous(line["seq"], f"{nation} rifles at {hexes} hexes (+{value}) fire with support weapons "
                                    f"or other units: {PRESET_MIXED.describe()}",
                                    interpretation=self.ctx.interpretations.label(PRESET_MIXED.name))]
            value = value if mixed == "modifier" else 0
        for roll in shot.sacrt_rolls():
            mods = [m.value for m in self.ctx.typed(roll).modifiers]
            out.append(r.judge(line["seq"], value == 0 or value in mods,
                               f"{nation} rifles at {hexes} hexes, pre-set {preset}: +{value}",
                               f"{nation} rifles fire {hexes} hexes, beyond their pre-set range of {preset}: +{value} on "
                               f"the SACRT; the roll's modifiers are {mods}", Verdict.MISMATCH, expected=value,
                               recorded=mods, related=[roll["seq"]]))
        return out

    # -- the commander of a hatch-open vehicle ------------------------------------------------------------------
    def _commanders(self, line, shot: Shot, resolved) -> list[RuleApplication]:
        board = self.ctx.board
        for result in resolved.results:
            vehicle = board.units.get(result.unit)
            if vehicle is None or vehicle.unit_class not in ("tank", "armoured-car") or result.result == "no-effect":
                continue
            commander = commander_of(self.ctx, vehicle)
            if commander is not None:
                self.commander_hits.append((vehicle.unit, commander, line["seq"]))
        return []

    @closer
    def on_PhaseStarted(self, line):
        return self._judge_commanders(line["seq"])

    def finish(self):
        return self._judge_commanders(len(self.ctx.lines) + 1)

    def _judge_commanders(self, before: int) -> list[RuleApplication]:
        if not self.commander_hits:
            return []
        out, r = [], rule("IM.SPOT.BUTTONED.CMDR_HIT")
        for vehicle, commander, seq in self.commander_hits:
            rolls = [x for x in self.ctx.rolls("IM.SPOT.BUTTONED.CMDR_HIT", after=seq, before=before)
                     if x["data"].get("subject") in (vehicle, commander)]
            if not rolls:
                out.append(r.missing_roll(seq, f"a small arms hit on hatch-open {vehicle} asks a d6 for its commander "
                                          f"{commander} (1-2: seriously wounded)"))
                continue
            natural = self.ctx.typed(rolls[0]).result
            gone = [x for x in self.ctx.of_type("UnitStatusChanged", after=seq, before=before)
                    if self.ctx.typed(x).unit == commander and self.ctx.typed(x).status == "eliminated"]
            wounded = natural <= 2
            out.append(r.judge(rolls[0]["seq"], wounded == bool(gone) or wounded,
                               f"commander d6 {natural}: " + ("seriously wounded" if wounded else "unharmed"),
                               f"commander d6 {natural} (3-6): {commander} is unharmed, yet the log removes him",
                               Verdict.MISMATCH, related=[seq] + [x["seq"] for x in gone]))
        self.commander_hits = []
        return out


COVERAGE = {
    "IM.OPTCBT.SACRT": ("needs a chart", "tests/unit/test_im_sacrt.py::test_the_revised_sacrt_rolls_for_each_unit_in_the_hex",
                        "a roll per unit of the hex; the cells are the pack's SACRT_REVISED"),
    "IM.OPTCBT.PRESET": ("ambiguous", "tests/unit/test_im_sacrt.py::test_pre_set_ranges_by_nation; "
                         "tests/unit/test_im_sacrt.py::test_the_pre_set_modifier_is_on_the_roll",
                         "odd distances (AP-17) and rifles fired with support weapons follow IM.OPTCBT.PRESET.ROUNDING "
                         "and IM.OPTCBT.PRESET.MIXED"),
    "IM.SPOT.BUTTONED.CMDR_HIT": ("partial", "tests/unit/test_im_sacrt.py::test_a_hit_on_a_hatch_open_vehicle_asks_for_the_commander_die",
                                  "the d6 after a hit on a hatch-open vehicle and a commander removed on 3-6; the crew's "
                                  "reaction is Landships! 15.11-15.12"),
}
