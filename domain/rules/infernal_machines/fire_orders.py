"""The Fire Order Table step of a barrage (Infernal Machines, Indirect Barrage Fire Procedure:
"make a die roll on the Fire Order Table under the column corresponding to the number of turns
for which the hexagon has resisted, and apply any useful modifiers shown below the table").

The text fixes the column (the hex's resistance turns), the aircraft's modifier (-1 in the worked
example) and that a balloon has one; the letters ("F" or not) are on the chart, so they are
checked only against a table pack that holds the FOT (`column -> roll -> "F" or "-"`).
"""
from __future__ import annotations

import weakref

from typing import Any, Optional

from domain.events import Modifier
from domain.rules.engine import RuleApplication, Verdict
from domain.rules.infernal_machines.barrage_tracker import FOT_AIRCRAFT, FOT_DIE, Barrage
from domain.rulebook import beside

RULEBOOK = beside(__file__)
R_FOT = RULEBOOK.rule("IM.ART.FOT.ROLL")
R_COLUMN = RULEBOOK.rule("IM.ART.FOT.ROLL", "column")
R_MOD = RULEBOOK.rule("IM.ART.FOT.MOD")
R_BALLOON_MOD = RULEBOOK.rule("IM.ART.FOT.MOD", "balloon")
R_FAIL = RULEBOOK.rule("IM.ART.FOT.FAIL", "not-obtained")


def modifiers(items: list[Any]) -> list[tuple[int, str]]:
    """(value, why) of each recorded modifier: numbers, {"value", "why"} objects, or a roll's typed
    modifiers."""
    out = []
    for item in (items if isinstance(items, list) else [items]) if items else []:
        if isinstance(item, Modifier):
            out.append((item.value, str(item.why or "")))
        elif isinstance(item, dict) and isinstance(item.get("value"), (int, float)):
            out.append((int(item["value"]), str(item.get("why") or "")))
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            out.append((int(item), ""))
    return out


class FireOrders:
    """Judges FireOrderChecked lines for the procedure module that owns the barrages."""

    def __init__(self, procedure):
        # the procedure holds this tracker: a proxy back to it, not a cycle (freed with the audit)
        self.proc = weakref.proxy(procedure)

    @property
    def ctx(self):
        return self.proc.ctx

    def check(self, line, b: Barrage) -> list[RuleApplication]:
        seq, d = line["seq"], self.ctx.typed(line)
        if b.fot is not None:
            return [R_FOT.violation(seq, f"the fire order for {b.id} was already checked at seq {b.fot[0]}",
                                    related=[b.fot[0]])]
        rolls = [r for r in self.ctx.rolls_for(b.id, "IM.ART.FOT", after=b.seq) if r["seq"] < seq]
        roll = rolls[-1] if rolls else None
        out: list[RuleApplication] = []
        if roll is None:
            out.append(R_FOT.missing_roll(seq, f"no IM.ART.FOT.ROLL roll about {b.id} before its fire order"))
        else:
            out += self._die(roll)
        column = self._column(line, b, out)
        raw = d.modifiers or (self.ctx.typed(roll).modifiers if roll else [])
        mods = modifiers(raw)
        # game-log.md does not fix the shape of FireOrderChecked.modifiers: a modifier only named
        # ("aircraft") is taken as the named one, its value being the chart's.
        named = [str(i).lower() for i in (raw if isinstance(raw, list) else [raw]) if isinstance(i, str)]
        out += self._modifiers(seq, b, mods, named)
        out += self._letter(line, roll, column, sum(v for v, _ in mods))
        granted = d.granted
        b.fot = (seq, granted)
        binding = b.needs_fot() is not False
        if not binding:
            out.append(R_FOT.ok(seq, f"no FOT is needed ({b.shortcut() or 'smoke ignores the FOT'}); "
                                f"recorded, not binding"))
        elif not granted:
            b.fot_refused_seq = seq
            self.proc._waste(b, R_FAIL, seq)
            out.append(R_FAIL.ok(seq, f"fire order refused: {b.id}'s elements are wasted for turn {b.turn}"))
        return out

    def _die(self, roll) -> list[RuleApplication]:
        reading = self.ctx.interpretations.reading(FOT_DIE.name)
        if reading != "d6":
            return []
        die = self.ctx.typed(roll).die
        return [R_FOT.judge(roll["seq"], die == "d6", "FOT rolled with a d6", f"FOT rolled with a {die}, not a d6",
                            expected="d6", recorded=die,
                            interpretation=self.ctx.interpretations.label(FOT_DIE.name))]

    def _column(self, line, b: Barrage, out: list[RuleApplication]) -> Optional[int]:
        recorded = self.ctx.typed(line).column
        if isinstance(recorded, str) and recorded.strip().isdigit():
            recorded = int(recorded)     # "1" names column 1, as BCRT columns are written "20"
        if not b.target:
            return recorded
        expected = self.proc.resistance.count(b.target)
        related = self.proc.resistance.related(b.target)
        turns = "turn" if expected == 1 else "turns"
        out.append(R_COLUMN.judge(
            line["seq"], recorded == expected, f"column {expected}: {b.target} has resisted {expected} {turns}",
            f"Fire Order Table column {recorded} used; {b.target} had resisted {expected} {turns}",
            verdict=Verdict.MISMATCH, expected=expected, recorded=recorded, related=related,
            inputs={"hex": b.target, "resistance": expected}))
        return expected

    def _modifiers(self, seq: int, b: Barrage, mods: list[tuple[int, str]],
                   named: Optional[list[str]] = None) -> list[RuleApplication]:
        observed = [(v, w) for v, w in mods if "aircraft" in w.lower() or "balloon" in w.lower()]
        others = [(v, w) for v, w in mods if (v, w) not in observed]
        out: list[RuleApplication] = []
        if not observed and b.route in ("aircraft", "balloon") and any(b.route in n for n in named or ()):
            return [R_MOD.ok(seq, f"the {b.route} modifier is recorded by name; its value is the chart's")]
        if b.route == "aircraft":
            reading = self.ctx.interpretations.reading(FOT_AIRCRAFT.name)
            label = self.ctx.interpretations.label(FOT_AIRCRAFT.name)
            expected = -1 if reading == "minus-one" else 1
            recorded = sum(v for v, _ in observed) if observed else sum(v for v, _ in mods)
            out.append(R_MOD.judge(seq, recorded == expected, f"aircraft modifier {expected:+d}",
                                   f"an aircraft-observed fire order takes {expected:+d}; recorded {recorded:+d}",
                                   verdict=Verdict.MISMATCH, expected=expected, recorded=recorded,
                                   interpretation=label))
            others = others if observed else []
        elif b.route == "balloon":
            if not mods:
                out.append(R_BALLOON_MOD.mismatch(seq, "a balloon-observed fire order takes the unfavourable "
                                                  "modifier; none is recorded", expected="a modifier", recorded=0))
            else:
                out.append(R_BALLOON_MOD.unverifiable(seq, "the balloon's FOT modifier is on the chart: "
                                                      + self.ctx.tables.lacks("FOT modifier for balloons"),
                                                      recorded=sum(v for v, _ in mods)))
            others = []
        elif observed:
            out.append(R_MOD.mismatch(seq, f"{b.id} was observed via {b.route}: no aircraft or balloon modifier "
                                      f"applies", expected=0, recorded=sum(v for v, _ in observed)))
        if others:
            out.append(R_MOD.unverifiable(seq, "the modifiers 'shown below the table' are on the chart, not in "
                                          "the text", recorded=[{"value": v, "why": w} for v, w in others]))
        return out

    def _letter(self, line, roll, column: Optional[int], total: int) -> list[RuleApplication]:
        seq, d = line["seq"], self.ctx.typed(line)
        granted = d.granted
        out = []
        if d.result is not None:
            letter_f = str(d.result).upper() == "F"
            out.append(R_FOT.judge(seq, letter_f == granted, f"result {d.result!r} and granted agree",
                                   f"result {d.result!r} but granted is {granted}: only an 'F' grants the fire",
                                   verdict=Verdict.MISMATCH, expected=letter_f, recorded=granted))
        if roll is None or column is None:
            return out
        tables = self.ctx.tables
        if not tables.has("FOT"):
            return out + [R_FOT.unverifiable(seq, tables.lacks("FOT"), recorded=granted)]
        modified = self.ctx.typed(roll).result + total
        letter = lookup(tables.tables["FOT"], column, modified)
        if letter is None:
            return out + [R_FOT.unverifiable(seq, f"the FOT of {tables.label()} has no cell for column {column}, "
                                             f"roll {modified}", recorded=granted)]
        expected = str(letter).upper() == "F"
        out.append(R_FOT.judge(seq, expected == granted, f"FOT column {column}, roll "
                               f"{modified}: {letter!r}",
                               f"FOT column {column}, roll {modified} reads {letter!r}: "
                               f"granted should be {expected}", verdict=Verdict.MISMATCH, expected=expected,
                               recorded=granted, related=[roll["seq"]]))
        return out


def _numeric_keys(node: dict[str, Any]) -> list[int]:
    return sorted(int(k) for k in node if str(k).lstrip("-").isdigit())


def lookup(table: dict[str, Any], column: int, roll: int) -> Optional[str]:
    """The FOT cell: a count beyond the last column reads the last column, and a modified roll
    beyond the chart's rolls reads its first or last row."""
    cols = _numeric_keys(table)
    if not cols:
        return None
    col = table.get(str(column)) if str(column) in table else (table[str(cols[-1])] if column > cols[-1] else None)
    if not isinstance(col, dict):
        return None
    rows = _numeric_keys(col)
    if not rows:
        return None
    key = min(max(roll, rows[0]), rows[-1])
    return col.get(str(key))
