"""Writes the environment and running acceptance logs beside this file: the weather roll, high explosive in mud
and deep snow, skis inherent to Russian troops in snow (IM.ENV), fire by and at running units
(IM.OPTMOVE.RUN.FIRE, IM.OPTMOVE.RUN.TARGET), and the Bridge Layer's bridge crossed as clear terrain.

Each case is a complete game log with a NAME.expected.json of the findings it must give; every expectation
cites the rulebook passage it comes from. Regenerate with
`.venv/bin/python -m tests.acceptance.cases_im_env.build_cases`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from tests.acceptance.cases_im_ground.build_cases import BRIT, GER, Game as GroundGame

HERE = Path(__file__).resolve().parent


class Game(GroundGame):
    def write(self) -> None:
        import json

        from domain.log import chain
        (HERE / f"{self.name}.jsonl").write_text("\n".join(chain(self.lines)) + "\n", encoding="utf-8")
        (HERE / f"{self.name}.expected.json").write_text(json.dumps({"findings": self.expected}, indent=1) + "\n",
                                                        encoding="utf-8")


def unset_weather(name: str, **kw) -> Game:
    """A game whose scenario does not specify the weather: no WeatherSet before the roll."""
    g = Game(name, **kw)
    g.lines.pop()                     # the set-up's WeatherSet (the last line so far)
    return g


def weather_roll(g: Game, result: int) -> int:
    return g.add("DieRolled", {"purpose": "IM.ENV.WEATHER.ROLL", "die": "d10", "result": result, "subject": None})


# -- IM.ENV.WEATHER.ROLL ------------------------------------------------------------------------------
def weather_roll_bad() -> Game:
    """General Weather Rules: "On a result of 1 to 5 the weather is bad" (EC-40: d10 = 5 -> Bad). Clean."""
    g = unset_weather("env-weather-roll-bad")
    weather_roll(g, 5)
    g.add("WeatherSet", {"weather": "bad", "terrain_state": "good"})
    return g


def weather_roll_taken_as_bad() -> Game:
    """General Weather Rules: "on 6 to 10 it is fair" (EC-40: d10 = 6 -> Fair): a 6 recorded as bad weather."""
    g = unset_weather("env-weather-roll-six-taken-as-bad")
    weather_roll(g, 6)
    g.expect(g.add("WeatherSet", {"weather": "bad", "terrain_state": "good"}), "IM.ENV.WEATHER.ROLL", "mismatch")
    return g


def weather_roll_overrides_scenario() -> Game:
    """"If the scenario does not specify a particular weather condition, roll a ten-sided die" (EC-40: "A scenario
    that specifies the weather plus a logged weather roll that overrides it -> REJECT")."""
    g = Game("env-weather-roll-overrides-the-scenario")      # the scenario's WeatherSet: fair
    g.expect(weather_roll(g, 2), "IM.ENV.WEATHER.ROLL")
    g.add("WeatherSet", {"weather": "bad", "terrain_state": "good"})
    return g


# -- IM.ENV.MUD.HE, IM.ENV.DEEPSNOW.HE ----------------------------------------------------------------
def he_barrage(name: str, terrain_state: str, terrain: str, modifiers: list[tuple[int, str]]) -> tuple[Game, int]:
    """A first-turn British destruction drumfire with HE on a German platoon (no communication test, no Fire Order
    Table; a scatter test), its BCRT roll with `modifiers`: (game, seq of the resolution)."""
    g = Game(name, hexes={"5:1010": {"terrain": terrain}}, terrain_state=terrain_state)
    g.add("ArtilleryMissionSet", {"side": BRIT, "mission": "destruction"})
    g.add("BarrageTypesSet", {"side": BRIT, "allowed": ["drumfire"]})
    g.deploy("b-fo", BRIT, "forward-observer", "5:1006", firepower=0, rng=0)
    g.deploy("g-inf", GER, "infantry-platoon", "5:1010")
    g.add("ArtilleryElementAssigned", {"element": "obm-1", "firepower": 20, "side": BRIT}, side=BRIT)
    g.at(1, "barrage", BRIT)
    g.add("HexObserved", {"observer": "b-fo", "target": "5:1010", "via": "forward-observer"}, side=BRIT)
    g.add("BarrageDeclared", {"barrage": "b-1", "side": BRIT, "target": "5:1010", "elements": ["obm-1"],
                              "mission": "destruction", "barrage_type": "drumfire", "ammunition": "he",
                              "observer": "b-fo", "sustained": False}, side=BRIT)
    g.roll(BRIT, "IM.ART.SCATTER.DRUMFIRE", 2, "b-1")
    g.add("ScatterTested", {"barrage": "b-1", "scattered": False}, side=BRIT)
    g.add("DieRolled", {"purpose": "IM.ART.BCRT.REVISED", "die": "d6", "result": 6, "subject": "b-1",
                        "modifiers": [{"value": v, "why": why} for v, why in modifiers]}, side=BRIT)
    seq = g.add("BarrageResolved", {"barrage": "b-1", "firepower": 20, "column": "20",
                                    "results": [{"location": "5:1010", "zone": "primary", "result": "miss"}]},
                side=BRIT)
    # destruction, HE, infantry: "miss -> pinned"
    g.add("UnitStatusChanged", {"unit": "g-inf", "status": "pinned", "cause": "b-1"}, side=GER)
    return g, seq


def mud_he_without_plus_one() -> Game:
    """Terrain States, mud: "High-explosive artillery ammunition is slightly less effective in muddy conditions (+1
    on the Barrage Combat Results Table (BCRT))": an HE roll on a clear hex in mud with no modifier."""
    g, seq = he_barrage("env-mud-he-without-plus-one", "mud", "clear", [])
    g.expect(seq, "IM.ENV.MUD.HE", "mismatch")
    return g


def mud_he_with_plus_one() -> Game:
    """The same barrage with its +1 for the mud: clean."""
    g, _ = he_barrage("env-mud-he-with-plus-one", "mud", "clear", [(1, "mud: HE less effective")])
    return g


def deep_snow_he_in_a_wood() -> Game:
    """Deep snow: "High-explosive artillery ammunition is slightly less effective in deep snow (+1 on the BCRT)":
    on a wood hex (whose own modifier is the chart's) the roll records only the wood, not the deep snow."""
    g, seq = he_barrage("env-deep-snow-he-in-a-wood", "deep-snow", "wood", [(1, "wood")])
    g.expect(seq, "IM.ENV.DEEPSNOW.HE", "mismatch")
    return g


# -- IM.ENV.SKI.INHERENT --------------------------------------------------------------------------------
def russian_skis_in_snow() -> Game:
    """Skis: "In scenarios with snow, deep snow or ice involving Finnish or Russian troops ... skis are always
    available" and "Units on skis may move at a speed of three hexagons per foot movement phase": a Russian platoon
    with no skis attribute skis three hexes in snow (clean); a British one may not."""
    g = Game("env-russian-skis-in-snow", terrain_state="snow", date="1919-02",
             nations={BRIT: "british", GER: "russian"})
    g.deploy("r-inf", GER, "infantry-platoon", "5:1010")
    g.deploy("b-inf", BRIT, "infantry-platoon", "5:0510")
    g.at(1, "first-foot-movement", GER)
    g.move(GER, "r-inf", ["5:1010", "5:1011", "5:1012", "5:1013"], mode="ski")
    g.at(1, "first-foot-movement", BRIT)
    g.expect(g.move(BRIT, "b-inf", ["5:0510", "5:0511", "5:0512", "5:0513"], mode="ski"), "IM.INF.SKI")
    return g


# -- IM.OPTMOVE.RUN.FIRE, IM.OPTMOVE.RUN.TARGET ---------------------------------------------------------
def running(name: str) -> Game:
    """British platoon b-inf runs 5:1010 -> 5:1013 in the first foot phase of turn 1 with the Lewis gun it carries."""
    g = Game(name, options=["IM.OPTMOVE.RUN"])
    g.deploy("b-inf", BRIT, "infantry-platoon", "5:1010")
    g.deploy("b-lewis", BRIT, "support-weapon", "5:1010", firepower=2, rng=6, weapon="lmg-lewis", carrier="b-inf")
    g.deploy("g-inf", GER, "infantry-platoon", "5:1015")
    g.at(1, "first-foot-movement", BRIT)
    g.move(BRIT, "b-inf", ["5:1010", "5:1011", "5:1012", "5:1013"], mode="run")
    g.move(BRIT, "b-lewis", ["5:1010", "5:1011", "5:1012", "5:1013"])
    return g


def runner_lewis_fires() -> Game:
    """Running: "While running, units may not conduct small arms fire or have support weapons fire": the runner's
    Lewis gun fires in the offensive fire phase of the run's turn."""
    g = running("run-support-weapon-fires")
    g.at(1, "offensive-small-arms-fire", BRIT)
    g.expect(g.fire(BRIT, "a-1", "b-lewis", "5:1015", 2, 2, results=(("g-inf", "no-effect"),)),
             "IM.OPTMOVE.RUN.FIRE")
    return g


def defensive_fire_at_a_crossed_hex() -> Game:
    """Running: "the player may conduct fire against any hexagon within firing range traversed by the enemy units
    ... (move them back to the targeted hexagon) ... If fired upon during a defensive fire phase, running units suffer
    a -1 penalty modifier on the SACRT": the Germans fire at 5:1012, which the runner crossed, with the -1 and move
    it back there (clean), then fire again without the -1."""
    g = running("run-defensive-fire-at-a-crossed-hex")
    g.at(1, "defensive-small-arms-fire", BRIT)
    g.fire(GER, "a-1", "g-inf", "5:1012", 4, 3, modifiers=(-1,), results=(("b-inf", "no-effect"),))
    g.move(GER, "b-inf", ["5:1013", "5:1012"])                     # "move them back to the targeted hexagon"
    fired = g.fire(GER, "a-2", "g-inf", "5:1012", 4, 3, results=(("b-inf", "no-effect"),))
    resolved = len(g.lines)
    g.expect(resolved, "IM.OPTMOVE.RUN.TARGET", "mismatch", accept=[fired, resolved])
    return g


# -- IM.VEH.BRIDGELAYER.DEPLOY: the crossing ---------------------------------------------------------------
def bridge_crossed_as_clear() -> Game:
    """The Mk. V** "Bridge Layer": "When the tank reaches a river or trench hexagon, it may stop and deploy the bridge
    across the hexagon ... Friendly units and vehicles may cross the bridge, treating the hexagon as clear terrain."
    The sample pack (ILLUSTRATIVE) gives tracked vehicles no way into a river: the British tank crosses on the bridge
    (clean), the German tank may not use it."""
    g = Game("veh-bridge-crossed-as-clear", tables="sample", date="1918-09", hexes={"5:1009": {"terrain": "river"}})
    g.deploy("b-bl", BRIT, "tank", "5:1010", model="Mk V** Bridge Layer")
    g.deploy("b-mk5", BRIT, "tank", "5:1011", model="Mark V")
    g.deploy("g-tank", GER, "tank", "5:1007", model="A7V")
    g.at(1, "vehicle-movement", BRIT)
    g.add("MarkerPlaced", {"marker": "bridge", "location": "5:1009", "vehicle": "b-bl"}, side=BRIT)
    g.move(BRIT, "b-mk5", ["5:1011", "5:1010", "5:1009", "5:1008"])
    g.at(1, "vehicle-movement", GER)
    g.expect(g.move(GER, "g-tank", ["5:1007", "5:1008", "5:1009"]), "IM.ENV.TSTATE.TYPES")
    return g


CASES = [bridge_crossed_as_clear, weather_roll_bad, weather_roll_taken_as_bad, weather_roll_overrides_scenario, mud_he_without_plus_one,
         mud_he_with_plus_one, deep_snow_he_in_a_wood, russian_skis_in_snow, runner_lewis_fires,
         defensive_fire_at_a_crossed_hex]


def main() -> None:
    for make in CASES:
        make().write()


if __name__ == "__main__":
    main()
