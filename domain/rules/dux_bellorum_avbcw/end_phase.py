"""Judging what a Dux Bellorum AVBCW turn's end phase brings (dux-bellorum-avbcw.txt, First Aid,
Supply, Smoke bombs; game-log-tabletop.md, Dux Bellorum: "The 'end phase' of First Aid and Supply,
and smoke's 'end of each turn', are `morale-and-victory` (`avbcw-end-phase`)"): a Medical unit's
one restored COH, a Supply unit's one resupply, and smoke: placed once by a unit with Smoke bombs
within 6” (a Mortar or Field gun anywhere in its range), drifting 1d6-1” toward the wind at the
end of every turn and gone on a modified 1 or less."""
from __future__ import annotations

import math
from typing import Any, Iterable, Optional

from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, has_rule, unit_extent
from domain.rules.dux_bellorum_avbcw.kinds import LOGISTICS, move_class, type_of
from domain.rules.dux_bellorum_avbcw.placing import distance, others
from domain.rules.dux_bellorum_avbcw.shooting import weapon_rating
from domain.rules.engine import RuleApplication, Verdict
from domain.tabletop import geometry as geo

FIRSTAID = RULEBOOK.rule("AVBCW.AB.FIRSTAID")
SUPPLY = RULEBOOK.rule("AVBCW.AB.SUPPLY")
SMOKE = RULEBOOK.rule("AVBCW.EQ.SMOKE")
OTS = RULEBOOK.rule("AVBCW.ARMY.OTS")

REACH = 12.0          # First Aid and Supply: "with 12” of"; First Aid: "not within 12” of an enemy unit"
SMOKE_REACH = 6.0     # "Other units can place one anywhere within 6”"
SMOKE_PURPOSE = "AVBCW.EQ.SMOKE"
FAR_SMOKERS = frozenset({"mortar", "mortar-heavy", "field-gun", "field-gun-heavy"})   # "Mortar and Field gun units"


class AVBCWEndPhase(ListedModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.lost: set[tuple[int, str]] = set()                 # (turn, unit) that lost COH
        self.helped: dict[tuple[int, str], int] = {}            # (turn, Medical or Supply unit) -> seq
        self.smoked: dict[str, int] = {}                        # unit -> seq of its one smoke
        self.drifted: dict[str, int] = {}                       # marker -> turn of its last drift
        self.smoke_calls: set[int] = set()                      # off-table smoke calls answered by a marker

    def _late(self, line, rule, what: str) -> list[RuleApplication]:
        """`what` happens "during the end phase" (`avbcw-end-phase`), or a violation."""
        if line["phase"] == self.ctx.interpretations.reading("avbcw-end-phase"):
            return []
        return [rule.violation(line["seq"], f"{what} in phase {line['phase']}, not in the end phase",
                               interpretation=self.ctx.interpretations.label("avbcw-end-phase"))]

    def _eligible(self, unit_id: str) -> bool:
        """"Any friendly Commander, Infantry, Cavalry, or Support unit": not a vehicle, not Logistics."""
        unit, entry = self.ctx.board.units.get(unit_id), self.lists.get(unit_id)
        kind = type_of(unit, entry)
        return move_class(kind) in ("infantry", "cavalry", "teams") and kind not in LOGISTICS

    def _helper(self, line, rule, helper_id: str, unit_id: str, ability: str, kind: str) -> list[RuleApplication]:
        """Who helps whom: the ability, a friendly eligible unit within 12”, once a turn."""
        seq, board = line["seq"], self.ctx.board
        helper, unit = board.units.get(helper_id), board.units.get(unit_id)
        if helper is None or unit is None or helper.position is None or unit.position is None:
            return [rule.unverifiable(seq, f"{helper_id} or {unit_id} is not on the table")]
        entry = self.lists.get(helper_id)
        out = [rule.judge(seq, type_of(helper, entry) == kind or has_rule(entry, rule.id),
                          f"{helper_id} has {ability}", f"{helper_id} has no {ability}")]
        out += self._late(line, rule, f"{ability} acts")
        far = distance(self.ctx, unit_extent(helper), unit_extent(unit))
        out.append(rule.judge(seq, unit.side == helper.side and self._eligible(unit_id) and far <= REACH,
                              f"{unit_id} is a friendly Commander, Infantry, Cavalry or Support unit {far}\" away",
                              f"{unit_id} ({type_of(unit, self.lists.get(unit_id))}, {far}\" away) is not a friendly "
                              "Commander, Infantry, Cavalry, or Support unit within 12”", expected=REACH, recorded=far))
        first = self.helped.setdefault((line["turn"], helper_id), seq)
        if first != seq:
            out.append(rule.violation(seq, f"{helper_id} already helped a unit this turn at seq {first}: \"Only a single "
                                      "unit can gain this benefit ... in a turn\"", related=[first]))
        return out

    # ------------------------------------------------------------ First Aid

    def on_CohesionLost(self, line):
        self.lost.add((line["turn"], self.ctx.typed(line).unit))

    def on_CohesionRestored(self, line) -> Iterable[RuleApplication]:
        """"Any friendly Commander, Infantry, Cavalry, or Support unit with 12” of a Medical unit and
        not within 12” of an enemy unit can restore 1 Cohesion point during the end phase provided
        they did not lose any Cohesion this turn.\""""
        data, seq = self.ctx.typed(line), line["seq"]
        out = self._helper(line, FIRSTAID, data.by, data.unit, "First Aid", "medical")
        unit = self.ctx.board.units.get(data.unit)
        if unit is None or unit.position is None:
            return out
        enemies = others(self.ctx.board, unit.side, enemies=True)
        near = sorted(uid for uid, e in enemies.items() if distance(self.ctx, unit_extent(unit), unit_extent(e)) <= REACH)
        out.append(FIRSTAID.judge(seq, not near, f"{data.unit} is not within 12” of an enemy unit",
                                  f"{data.unit} is within 12” of {', '.join(near)}: \"not within 12” of an enemy unit\""))
        out.append(FIRSTAID.judge(seq, (line["turn"], data.unit) not in self.lost, f"{data.unit} lost no COH this turn",
                                  f"{data.unit} lost COH this turn: \"provided they did not lose any Cohesion this turn\""))
        out.append(FIRSTAID.judge(seq, data.points == 1, "1 COH restored", f"{data.points} COH restored: \"restore 1 "
                                  "Cohesion point\"", verdict=Verdict.MISMATCH, expected=1, recorded=data.points))
        return out

    # ------------------------------------------------------------ Supply

    def on_AmmoStateChanged(self, line) -> Iterable[RuleApplication]:
        """"Any friendly Commander, Infantry, Cavalry, or Support unit with 12” of a Supply unit can
        remove all 'out of ammo' counters during the end phase.\""""
        data, seq = self.ctx.typed(line), line["seq"]
        if data.state != "normal":
            return ()
        if data.by is None:
            return [SUPPLY.violation(seq, f"{data.unit}'s ammunition is made normal by no Supply unit (`by`)")]
        return self._helper(line, SUPPLY, data.by, data.unit, "Supply", "supply")

    # ------------------------------------------------------------ smoke

    def on_MarkerPlaced(self, line) -> Iterable[RuleApplication]:
        """"Mortar and Field gun units can place a smoke marker anywhere in range. Other units can
        place one anywhere within 6”. The unit has enough smoke bombs/shells for one shot.\""""
        data, seq = self.ctx.typed(line), line["seq"]
        called = self._called_smoke(line)
        if called is not None:   # Off table support: "1 point per two shots = Smoke bomb"
            return [OTS.ok(seq, f"smoke {data.id} is the off-table smoke called at seq {called}", related=[called])]
        placer = self._placer(line)
        if placer is None:
            return [SMOKE.unverifiable(seq, f"smoke {data.id}: which unit places it is not recorded (`unit`), and its "
                                       "side has no single unit with Smoke bombs")]
        unit, entry = self.ctx.board.units.get(placer), self.lists.get(placer)
        if unit is None or unit.position is None:
            return [SMOKE.unverifiable(seq, f"{placer} is not on the table")]
        out = [SMOKE.judge(seq, has_rule(entry, SMOKE.id), f"{placer} has Smoke bombs", f"{placer} has no Smoke bombs")]
        first = self.smoked.setdefault(placer, seq)
        if first != seq:
            out.append(SMOKE.violation(seq, f"{placer} placed its smoke at seq {first}: \"enough smoke bombs/shells for "
                                       "one shot\"", related=[first]))
        far = distance(self.ctx, unit_extent(unit), geo.xy(data.position))
        if type_of(unit, entry) in FAR_SMOKERS:
            # "Mortar and Field gun units can place a smoke marker anywhere in range": a mortar's range
            # is "4(1): ≥12”", and "Weapons with indirect fire have a minimum range"
            rating = weapon_rating(None, entry)[1]
            limit = rating.max_range if rating is not None else None
            least = rating.min_range if rating is not None else None
            if least is not None and far < least:
                out.append(SMOKE.violation(seq, f"smoke {far}\" from {placer}, inside its {least:g}\" minimum range: "
                                           "\"can place a smoke marker anywhere in range\"", expected=least, recorded=far))
            else:
                out.append(SMOKE.judge(seq, limit is None or far <= limit, f"smoke {far}\" away, in range",
                                       f"smoke {far}\" away, beyond the {limit}\" range", expected=limit, recorded=far))
        else:
            out.append(SMOKE.judge(seq, far <= SMOKE_REACH, f"smoke {far}\" from {placer}: within 6”",
                                   f"smoke {far}\" from {placer}: \"anywhere within 6”\"", expected=SMOKE_REACH,
                                   recorded=far))
        return out

    def _called_smoke(self, line) -> Optional[int]:
        """The seq of this turn's off-table smoke call of the side (ShotFired `off_table` naming
        smoke) that no marker has answered yet, else None."""
        starts = self.ctx.of_type("TurnStarted", before=line["seq"])
        calls = [l for l in self.ctx.of_type("ShotFired", after=starts[-1]["seq"] if starts else 0, before=line["seq"])
                 if l.get("side") == line.get("side") and "smoke" in str(l["data"].get("off_table", "")).lower()
                 and l["seq"] not in self.smoke_calls]
        if not calls:
            return None
        self.smoke_calls.add(calls[0]["seq"])
        return calls[0]["seq"]

    def _placer(self, line) -> Optional[str]:
        raw: dict[str, Any] = line["data"]
        named = raw.get("unit") or raw.get("by")
        if isinstance(named, str):
            return named
        smokers = [uid for uid, u in self.ctx.board.units.items()
                   if u.side == line.get("side") and has_rule(self.lists.get(uid), SMOKE.id)]
        return smokers[0] if len(smokers) == 1 else None

    def on_MarkerMoved(self, line) -> Iterable[RuleApplication]:
        """"Once placed, at the end of each turn, the smoke drifts in the direction of the wind by
        1d6-1” (it dissipates on a modified result of '1' or less)"."""
        data, seq = self.ctx.typed(line), line["seq"]
        marker = next((m for m in self.ctx.board.markers if m.get("id") == data.id), None)
        if marker is None or marker.get("marker") != "smoke":
            return ()
        self.drifted[data.id] = line["turn"]
        out = self._late(line, SMOKE, f"smoke {data.id} drifts")
        start, end = geo.xy(data.from_), geo.xy(data.to)
        if start != geo.xy(marker["position"]):
            out.append(SMOKE.mismatch(seq, f"smoke {data.id} drifts from {start}, not from where it is "
                                      f"{geo.xy(marker['position'])}"))
        roll = self._roll(data.id, line)
        if roll is None:
            return out + [SMOKE.missing_roll(seq, f"smoke {data.id}'s drift has no {SMOKE_PURPOSE} d6 before it")]
        moved = geo.round_inches(math.dist(start, end))
        out.append(SMOKE.judge(seq, roll - 1 > 1 and moved == roll - 1, f"smoke drifts {moved}\" on a {roll}: 1d6-1",
                               f"smoke {data.id} drifts {moved}\" on a {roll}: " + (
                                   "it \"dissipates on a modified result of '1' or less\"" if roll - 1 <= 1 else
                                   f"1d6-1 is {roll - 1}”"), verdict=Verdict.MISMATCH, expected=roll - 1, recorded=moved))
        wind = self.ctx.board.table.get("wind")
        if wind is None:
            out.append(SMOKE.unverifiable(seq, "\"in the direction of the wind\": the table gives no wind (AVBCW.Z 6)"))
        elif moved:
            off = geo.rotation(geo.bearing(start, end), float(wind))
            out.append(SMOKE.judge(seq, off < 1.0, f"smoke drifts toward the wind ({wind}°)",
                                   f"smoke drifts on bearing {geo.bearing(start, end):.0f}°, the wind blows toward {wind}°",
                                   expected=wind, recorded=round(geo.bearing(start, end))))
        return out

    def _roll(self, marker: str, line) -> Optional[int]:
        rolls = self.ctx.rolls_for(marker, SMOKE_PURPOSE, after=self._turn_start(line), before=line["seq"])
        return self.ctx.typed(rolls[-1]).result if rolls else None

    def _turn_start(self, line) -> int:
        starts = self.ctx.of_type("TurnStarted", before=line["seq"])
        return starts[-1]["seq"] if starts else 0

    def on_MarkerRemoved(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        marker = next((m for m in self.ctx.board.markers if m.get("id") == data.id), None)
        if marker is None or marker.get("marker") != "smoke":
            return ()
        self.drifted[data.id] = line["turn"]
        roll = self._roll(data.id, line)
        if roll is None:
            return [SMOKE.missing_roll(line["seq"], f"smoke {data.id} is removed with no {SMOKE_PURPOSE} d6 before it")]
        return [SMOKE.judge(line["seq"], roll - 1 <= 1, f"smoke {data.id} dissipates on {roll}-1",
                            f"smoke {data.id} is removed on a {roll}: 1d6-1 = {roll - 1} drifts, only \"a modified "
                            "result of '1' or less\" dissipates", verdict=Verdict.MISMATCH)]

    def on_TurnStarted(self, line) -> Iterable[RuleApplication]:
        """Every smoke on the table drifted or dissipated at the end of the turn just over."""
        turn = line["turn"] - 1
        return [SMOKE.violation(m["seq"], f"smoke {m.get('id')} neither drifts nor dissipates at the end of turn {turn}: "
                                "\"at the end of each turn, the smoke drifts\"")
                for m in self.ctx.board.markers if m.get("marker") == "smoke" and turn >= 1
                and m.get("turn", 0) <= turn and self.drifted.get(m.get("id")) != turn]


TESTS = "tests/unit/test_avbcw_end_phase.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.AB.FIRSTAID": ("implemented", TESTS + "test_first_aid",
                          "a CohesionRestored `by` a Medical unit (or one listing First Aid) in the end phase "
                          "(`avbcw-end-phase`): 1 COH to a friendly Commander, Infantry, Cavalry or Support unit within "
                          "12” of it (`measure`), none within 12” of an enemy, that lost no COH this turn; one unit a "
                          "turn"),
    "AVBCW.AB.SUPPLY": ("implemented", TESTS + "test_supply",
                        "an AmmoStateChanged to normal only `by` a Supply unit, in the end phase, for a friendly "
                        "Commander, Infantry, Cavalry or Support unit within 12”; one unit a turn"),
    "AVBCW.ARMY.OTS": ("ambiguous", TESTS + "test_off_table_smoke",
                       "a smoke marker answering the turn's off-table smoke call of its side is the army rule's"),
    "AVBCW.EQ.SMOKE": ("implemented", f"{TESTS}test_placing_smoke; {TESTS}test_smoke_drifts; "
                       f"{TESTS}test_a_mortars_smoke_in_its_range",
                       "placed by a unit with Smoke bombs (its `unit`, else its side's only one) once a battle, within "
                       "6” (a Mortar or Field gun: in its rating's range, a mortar's ≥12” minimum included); at the end of every turn (`avbcw-end-phase`) "
                       "it moves from where it is 1d6-1” (AVBCW.EQ.SMOKE d6 that turn, none: `missing-roll`) toward "
                       "TableDefined.wind (none: `unverifiable`, AVBCW.Z 6), or is removed on a modified 1 or less"),
}
