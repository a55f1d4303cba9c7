"""Environmental Conditions: the weather roll and high explosive in mud and deep snow (IM.ENV).

- General Weather Rules (new): "If the scenario does not specify a particular weather condition, roll a
  ten-sided die at the start of the game. On a result of 1 to 5 the weather is bad; on 6 to 10 it is fair."
  A `DieRolled` of purpose `IM.ENV.WEATHER.ROLL` (its d10 is IM.CORE.DICE's) is judged: made in the set-up
  (turn 0), not after a `WeatherSet` already gave the scenario's weather (EC-40: a roll overriding it is
  refused), and the `WeatherSet` that follows it must say what the die says.
- Terrain States (changed): "High-explosive artillery ammunition is slightly less effective in muddy
  conditions (+1 on the Barrage Combat Results Table (BCRT))", and the same in deep snow. Where the text
  gives every BCRT modifier of the hex (clear or town, foot units), IM.ART.FP.TERRAIN's sum carries the +1
  and a sum short of exactly it is this rule's mismatch (artillery_resolution.py); elsewhere the chart's
  terrain modifiers are not in the text, and the +1 is found by its name: a modifier whose `why` says mud
  or snow. A +1 named for mud or snow on shrapnel, or when the ground is neither, is a mismatch too.

The handlers are cheap on the events they do not concern: a roll's purpose is compared once, and a
barrage's resolution is read only in a game in mud or deep snow or when a modifier is named for them.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.artillery_resolution import text_bcrt_modifiers
from domain.rules.infernal_machines.movement_costs import RULEBOOK

SECTIONS = RULEBOOK.sections(("IM.ENV.WEATHER.ROLL", "IM.ENV.MUD.HE", "IM.ENV.DEEPSNOW.HE"))
WEATHER_ROLL = "IM.ENV.WEATHER.ROLL"
WEATHER_PURPOSES = (WEATHER_ROLL, "IM.ENV.WEATHER")   # the roll, by its id or its section's
# the ground whose +1 for high explosive the text gives, and the rule that gives it
HE_GROUND = {"mud": "IM.ENV.MUD.HE", "deep-snow": "IM.ENV.DEEPSNOW.HE"}
GROUND_WORDS = ("mud", "snow")


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def weather_of(natural: int) -> str:
    """General Weather Rules: "On a result of 1 to 5 the weather is bad; on 6 to 10 it is fair"."""
    return "bad" if natural <= 5 else "fair"


# the other causes of a BCRT modifier the log may name: a +1 named for one of them is not the mud's
OTHER_CAUSES = ("wood", "town", "trench", "rubble", "vest", "shrapnel", "cover", "cavalry", "strongpoint", "hill")


def named_modifiers(items: Any) -> list[tuple[int, str]]:
    """(value, why) of the numeric modifiers of a `modifiers` field (typed, plain objects or numbers; "" when it
    does not say why)."""
    out = []
    for m in items if isinstance(items, list) else [items]:
        why = getattr(m, "why", None) if not isinstance(m, dict) else m.get("why")
        value = m if isinstance(m, (int, float)) else getattr(m, "value", None) if not isinstance(m, dict) \
            else m.get("value")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append((int(value), why.lower() if isinstance(why, str) else ""))
    return out


def unexplained(mods: Iterable[tuple[int, str]]) -> list[int]:
    """The positive modifiers whose `why` names no other cause: one of them may be the mud's +1."""
    return [value for value, why in mods if value > 0 and not any(word in why for word in OTHER_CAUSES)]


def for_ground(named: Iterable[tuple[int, str]]) -> list[int]:
    return [value for value, why in named if any(word in why for word in GROUND_WORDS)]


class EnvironmentChecks(RuleModule):
    """The weather roll at the start of the game; the +1 of high explosive in mud and deep snow."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.weather_set: Optional[int] = None           # seq of the first WeatherSet
        self.roll: Optional[tuple[int, int]] = None      # (seq, natural) of a weather roll not yet applied
        self.barrages: dict[str, tuple[Any, int]] = {}   # barrage -> (its declaration, seq of its last step)

    # -- the weather roll ---------------------------------------------------------------------
    def on_DieRolled(self, line):
        if line["data"].get("purpose") not in WEATHER_PURPOSES:
            return ()
        seq, natural, r = line["seq"], self.ctx.typed(line).result, rule(WEATHER_ROLL)
        self.roll = (seq, natural)
        out = []
        if line["turn"] != 0:
            out.append(r.violation(seq, f"the weather is rolled at the start of the game, not in turn {line['turn']}",
                                   recorded=line["turn"]))
        if self.weather_set is not None:
            out.append(r.violation(seq, f"the scenario's weather is already set (seq {self.weather_set}): the die is "
                                   "rolled only if the scenario does not specify a particular weather condition",
                                   related=[self.weather_set]))
        return out

    def on_WeatherSet(self, line):
        seq, roll = line["seq"], self.roll
        if self.weather_set is None:
            self.weather_set = seq
        if roll is None:
            return ()
        self.roll = None
        expected, recorded = weather_of(roll[1]), self.ctx.typed(line).weather
        return [rule(WEATHER_ROLL).judge(
            seq, recorded == expected, f"the weather d10 of {roll[1]}: {expected} weather",
            f"the weather d10 of {roll[1]} makes the weather {expected}, not {recorded} (1-5 bad, 6-10 fair)",
            verdict=Verdict.MISMATCH, expected=expected, recorded=recorded, related=[roll[0]])]

    def finish(self):
        if self.roll is None:
            return ()
        return [rule(WEATHER_ROLL).violation(self.roll[0], f"the weather d10 of {self.roll[1]} is rolled and no "
                                             "WeatherSet records the weather it gives",
                                             expected=weather_of(self.roll[1]))]

    # -- high explosive in mud and deep snow ----------------------------------------------------
    def on_BarrageDeclared(self, line):
        declared = self.ctx.typed(line)
        self.barrages[declared.barrage] = (declared, line["seq"])
        return ()

    def on_BarrageResolved(self, line):
        resolved = self.ctx.typed(line)
        found = self.barrages.get(resolved.barrage)
        if found is None:
            return ()
        decl, last = found
        self.barrages[resolved.barrage] = (decl, line["seq"])
        ground = self.ctx.board.terrain_state
        subjects = {resolved.barrage, None, *decl.elements}
        rolls = [r for r in self.ctx.rolls("IM.ART.BCRT", after=last, before=line["seq"])
                 if self.ctx.typed(r).subject in subjects]
        if not rolls or decl.ammunition in ("smoke", "gas"):
            return ()
        out: list[RuleApplication] = []
        for i, row in enumerate(resolved.results):
            roll = self.ctx.typed(rolls[i] if len(rolls) == len(resolved.results) else rolls[0])
            mods = getattr(row, "modifiers", None) if "modifiers" in row.model_fields_set else roll.modifiers
            out.extend(self._he_ground(line, decl, ground, row.location, named_modifiers(mods), rolls[0]["seq"]))
        return out

    def _he_ground(self, line, decl, ground: Optional[str], location: str, named: list[tuple[int, str]],
                   roll_seq: int) -> list[RuleApplication]:
        seq, related = line["seq"], [self.barrages[decl.barrage][1], roll_seq]
        named_ground = for_ground(named)
        rule_id = HE_GROUND.get(ground or "")
        if rule_id is None or decl.ammunition != "he":
            if not named_ground:
                return []
            why = "shrapnel" if decl.ammunition != "he" else f"{ground or 'good'} ground"
            return [rule("IM.ENV.MUD.HE").mismatch(
                seq, f"{location}: a BCRT modifier for mud or snow on {why}: the +1 is for high-explosive "
                "ammunition in mud or deep snow only", expected=0, recorded=sum(named_ground), related=related)]
        r, where = rule(rule_id), "mud" if ground == "mud" else "deep snow"
        if named_ground:
            return [r.judge(seq, sum(named_ground) == 1, f"{location}: high explosive in {where}, +1 on the BCRT",
                            f"{location}: high explosive in {where} takes +1 on the BCRT, not {sum(named_ground):+d}",
                            verdict=Verdict.MISMATCH, expected=1, recorded=sum(named_ground), related=related)]
        if self._terrain_known(decl, location):
            return []      # IM.ART.FP.TERRAIN's sum carries the +1 (artillery_resolution.py)
        if unexplained(named):
            return [r.unverifiable(seq, f"{location}: high explosive in {where} takes +1 on the BCRT; the roll's "
                                   f"modifiers {[v for v, _ in named]} do not say which is for the {where}",
                                   related=related)]
        return [r.mismatch(seq, f"{location}: high explosive in {where} takes +1 on the BCRT; no modifier of the roll "
                           f"is for the {where}", expected=1, recorded=0, related=related)]

    def _terrain_known(self, decl, location: str) -> bool:
        """Whether the text gives every BCRT modifier of this hex (IM.ART.FP.TERRAIN then judges the sum)."""
        board = self.ctx.board
        hexinfo = board.hexes.get(location, {})
        return text_bcrt_modifiers(hexinfo.get("terrain", "clear"), [m["marker"] for m in board.markers_at(location)],
                                   board.units_at(location), decl.ammunition, board.terrain_state, board.options,
                                   False, hexinfo.get("features", [])) is not None


T = "tests/unit/test_im_environment.py::"
ACCEPTANCE = "tests/acceptance/test_cases_im_env.py::test_case_gives_expected_findings"
COVERAGE = {
    "IM.ENV.WEATHER.ROLL": ("implemented", f"{T}test_ec_40_the_weather_d10_bad_on_1_to_5_fair_on_6_to_10; "
                            f"{T}test_ec_40_a_roll_that_overrides_the_scenarios_weather_is_refused; {ACCEPTANCE}",
                            "the IM.ENV.WEATHER.ROLL d10 in the set-up, not after the scenario's WeatherSet, and the "
                            "WeatherSet after it (1-5 bad, 6-10 fair); a roll no WeatherSet follows"),
    "IM.ENV.MUD.HE": ("implemented", f"{T}test_high_explosive_in_mud_takes_plus_one_on_the_bcrt; "
                      f"tests/acceptance/test_artillery_text_cases.py::test_hand_written_case; {ACCEPTANCE}",
                      "where the text gives the hex's BCRT modifiers, their sum short of the +1 (IM.ART.FP.TERRAIN's "
                      "check, artillery_resolution.py); elsewhere a modifier named for mud (a +1 naming no cause: "
                      "unverifiable); a mud modifier on shrapnel or on other ground"),
    "IM.ENV.DEEPSNOW.HE": ("implemented", f"{T}test_high_explosive_in_deep_snow_takes_plus_one_on_the_bcrt; {ACCEPTANCE}",
                           "as IM.ENV.MUD.HE, in deep snow"),
}
