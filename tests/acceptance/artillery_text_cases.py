"""Artillery logs written from the rulebook text and game-log.md only (Infernal Machines, Artillery
Options): no private conventions (no `note` on the scatter direction die, plain option ids),
as someone writing a log by hand would. Each case names the passage it checks; a legal case must
audit clean, an illegal one must give the finding the text demands (rule prefix, verdict, seq).
Run by tests/acceptance/test_artillery_text_cases.py."""
from __future__ import annotations

from typing import Any, Callable, Optional

from tests.acceptance.artillery_cases import Game

TEXT_CASES: dict[str, Callable[[], "Hand"]] = {}


def case(fn):
    TEXT_CASES[fn.__name__.replace("_", "-")] = fn
    return fn


class Hand(Game):
    """A hand-written log: the scatter direction die is just a second DieRolled of the same purpose."""

    def scatter(self, barrage, natural, scattered, new_target=None, kind="DRUMFIRE", direction=None,
                element=None, modifiers=(), side="british"):
        if natural is not None:
            mods = [{"value": v, "why": why} for v, why in modifiers]
            self.roll(f"IM.ART.SCATTER.{kind}", natural, barrage, side, **({"modifiers": mods} if mods else {}))
            if scattered:
                self.roll(f"IM.ART.SCATTER.{kind}", direction or 2, barrage, side)
        data: dict[str, Any] = {"barrage": barrage, "scattered": scattered}
        if new_target:
            data["new_target"] = new_target
        if element:
            data["element"] = element
        return self.add("ScatterTested", data, side)

    def turn_two(self) -> None:
        self.new_turn(1); self.phase_start("barrage"); self.phase_start("end")
        self.new_turn(2); self.phase_start("barrage")

    def fire(self, b="b-2", mission="destruction", ammo="he", bat="drumfire", results=(("1:1010", "primary", "H"),),
             elements=("obm-1",), fp=20, col="20", modifiers=(), **extra) -> int:
        """A full turn-2 FO barrage (observe, declare, communication 5, FOT granted, no scatter, BCRT)."""
        self.observe(); self.declare(b, mission=mission, ammo=ammo, bat=bat, elements=elements, **extra)
        self.comm(b, 5); self.fot(b, 2, 0); self.scatter(b, 3, False, kind=bat.upper())
        return self.resolve(b, 5, fp, col, results, modifiers=modifiers)


def turn_two(**kw) -> Hand:
    g = Hand(**kw); g.turn_two()
    return g


def missions(own: str) -> dict:
    return {"british": own, "german": "destruction"}


# -- Scatter test ------------------------------------------------------------------------------------
@case
def hand_drumfire_scatter_direction_without_note():
    # Scatter test: drumfire scatters on 5-6; "a second die is rolled" for the adjacent hex.
    g = turn_two(); g.observe(); g.declare("b-2"); g.comm("b-2", 5); g.fot("b-2", 2, 0)
    g.scatter("b-2", 5, True, "1:1011"); g.resolve("b-2", 5, 20, "20", (("1:1011", "primary", "miss"),))
    return g


@case
def hand_hurricane_scatters_two_hexes():
    # Scatter test: hurricane scatters on 4-6, two hexes; resolved on column "10" per element.
    g = turn_two(); g.observe(); g.declare("b-2", bat="hurricane"); g.comm("b-2", 5); g.fot("b-2", 2, 0)
    g.scatter("b-2", 4, True, "1:1012", kind="HURRICANE")
    g.resolve("b-2", 5, 10, "10", (("1:1012", "primary", "miss"),), element="obm-1")
    return g


@case
def hand_hurricane_second_attack_retreats():
    # "Hurricane" barrage: each element attacks in turn, results applied before the next; an
    # already pinned unit pinned again retreats two hexes (destruction HE, primary zone miss).
    g = Hand(elements=2); g.turn_two()
    g.observe(); g.declare("b-2", elements=("obm-1", "obm-2"), bat="hurricane"); g.comm("b-2", 5); g.fot("b-2", 2, 0)
    g.scatter("b-2", 2, False, kind="HURRICANE")
    g.resolve("b-2", 5, 10, "10", element="obm-1"); g.status("g-1", "pinned", "b-2")
    g.resolve("b-2", 5, 10, "10", element="obm-2"); g.status("g-1", "retreated", "b-2")
    return g


@case
def hand_hurricane_column_twenty():
    # "Hurricane" barrage: column "10" of the BCRT whatever the element's firepower.
    g = turn_two(); g.observe(); g.declare("b-2", bat="hurricane"); g.comm("b-2", 5); g.fot("b-2", 2, 0)
    g.scatter("b-2", 2, False, kind="HURRICANE"); seq = g.resolve("b-2", 5, 20, "20", element="obm-1")
    g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.FP.HURRICANE", "mismatch")
    return g


@case
def hand_drumfire_sixty_on_31_plus():
    # Determining results: 3 x 20 = 60 uses the 31+ column.
    g = Hand(elements=3); g.turn_two()
    g.fire(elements=("obm-1", "obm-2", "obm-3"), fp=60, col="31+", results=(("1:1010", "primary", "miss"),))
    g.status("g-1", "pinned", "b-2")
    return g


@case
def hand_drumfire_sixty_on_column_twenty():
    g = Hand(elements=3); g.turn_two()
    seq = g.fire(elements=("obm-1", "obm-2", "obm-3"), fp=60, col="20", results=(("1:1010", "primary", "miss"),))
    g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.FP.COLUMN", "mismatch")
    return g


# -- Aircraft and balloons ---------------------------------------------------------------------------
def aircraft_game(at: str) -> Hand:
    g = Hand(); g.unit("b-air", "british", "aircraft", at, attrs={"type": "CS"}); g.turn_two()
    return g


@case
def hand_aircraft_observes_two_hexes():
    # Aircraft: observes at two hexes, always in communication; the FOT is still used (-1, example).
    g = aircraft_game("1:1008")
    g.observe("1:1010", "aircraft:b-air", "aircraft"); g.declare("b-2", observer="aircraft:b-air")
    g.fot("b-2", 2, 0, modifiers=[(-1, "aircraft")]); g.scatter("b-2", 3, False)
    g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def hand_aircraft_observes_three_hexes():
    g = aircraft_game("1:1007")
    seq = g.observe("1:1010", "aircraft:b-air", "aircraft"); g.declare("b-2", observer="aircraft:b-air")
    g.fot("b-2", 2, 0, modifiers=[(-1, "aircraft")]); g.scatter("b-2", 3, False)
    g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.AIR.FO", "violation")
    return g


@case
def hand_aircraft_without_fot():
    # Aircraft: "The Fire Order Table is nevertheless always used".
    g = aircraft_game("1:1008")
    g.observe("1:1010", "aircraft:b-air", "aircraft"); g.declare("b-2", observer="aircraft:b-air")
    seq = g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.FOT", "missing-roll", [seq, seq + 1, seq + 2])
    return g


@case
def hand_balloon_without_fot():
    # Balloons: observe every hex; "The Fire Order Table is nevertheless always used".
    g = Hand(); g.unit("b-bal", "british", "balloon", "1:1001", firepower=0, range=0, movement=0); g.turn_two()
    g.observe("1:1030", "balloon:b-bal", "balloon"); g.declare("b-2", target="1:1030", observer="balloon:b-bal")
    seq = g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20", (("1:1030", "primary", "miss"),))
    g.expect(seq, "IM.ART.FOT", "missing-roll", [seq, seq + 1, seq + 2])
    return g


@case
def hand_balloon_moves():
    # Balloons: "may not move once deployed at the start of the scenario".
    g = Hand(); g.unit("b-bal", "british", "balloon", "1:1001", firepower=0, range=0, movement=0); g.turn_two()
    g.phase_start("vehicle-movement")
    seq = g.add("UnitMoved", {"unit": "b-bal", "path": ["1:1001", "1:1002"]}, "british")
    g.expect(seq, "IM.ART.BALLOON.STATIC", "violation")
    return g


@case
def hand_first_turn_aircraft_barrage():
    # First-turn barrages: any observed hex, no communication test, no FOT; scatter still tested.
    g = Hand(); g.unit("b-air", "british", "aircraft", "1:1008", attrs={"type": "CS"})
    g.new_turn(1); g.phase_start("barrage")
    g.observe("1:1010", "aircraft:b-air", "aircraft"); g.declare("b-1", observer="aircraft:b-air")
    g.scatter("b-1", 3, False); g.resolve("b-1", 5, 20, "20"); g.status("g-1", "pinned", "b-1")
    return g


# -- Smoke and observation ---------------------------------------------------------------------------
@case
def hand_fo_observes_through_smoke():
    # Use of the forward observer: "may not observe through a hexagon affected by smoke".
    g = turn_two(permissions=("smoke",))
    g.add("MarkerPlaced", {"marker": "smoke", "location": "1:1008"}, "british")
    seq = g.fire(results=(("1:1010", "primary", "miss"),)); g.status("g-1", "pinned", "b-2")
    g.expect(seq - 9, "IM.ART.FO.SMOKE", "violation")
    return g


@case
def hand_target_in_smoke():
    # Smoke: "Units in smoke screens may be neither spotted nor observed".
    g = turn_two(permissions=("smoke",))
    g.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010"}, "british")
    seq = g.fire(results=(("1:1010", "primary", "miss"),)); g.status("g-1", "pinned", "b-2")
    g.expect(seq - 9, ["IM.ART.AMMO.SMOKE", "IM.ART.FO.SMOKE"], "violation")
    return g


@case
def hand_smoke_two_elements_each_scatter():
    # Smoke: no FOT, no BCRT; "Test the scatter individually for each off-map artillery element".
    g = Hand(permissions=("smoke",), missions=missions("neutralisation"), elements=2); g.turn_two()
    g.observe(); g.declare("b-2", mission="neutralisation", ammo="smoke", elements=("obm-1", "obm-2")); g.comm("b-2", 5)
    g.scatter("b-2", 3, False, element="obm-1"); g.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010"}, "british")
    g.scatter("b-2", 6, True, "1:1011", element="obm-2")
    g.add("MarkerPlaced", {"marker": "smoke", "location": "1:1011"}, "british")
    return g


@case
def hand_smoke_without_communication_test():
    # Smoke: "the player must observe the targeted hexagon and check communications".
    g = Hand(permissions=("smoke",), missions=missions("neutralisation")); g.turn_two()
    g.observe(); g.declare("b-2", mission="neutralisation", ammo="smoke")
    seq = g.scatter("b-2", 3, False, element="obm-1")
    g.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010"}, "british")
    g.expect(seq, "IM.ART.COMM", "missing-roll", [seq - 1, seq])
    return g


@case
def hand_smoke_removed_in_opposing_pin_removal():
    # Smoke: "removed during the opposing player's turn, in the 'pin removal' phase".
    g = Hand(permissions=("smoke",), missions=missions("neutralisation")); g.turn_two()
    g.observe(); g.declare("b-2", mission="neutralisation", ammo="smoke"); g.comm("b-2", 5)
    g.scatter("b-2", 3, False); g.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010"}, "british")
    g.phase_start("pin-removal", "german"); g.add("MarkerRemoved", {"marker": "smoke", "location": "1:1010"}, "german")
    return g


# -- Liaison officer and flares ----------------------------------------------------------------------
def lno_game(comm: int, ok: Optional[bool] = None) -> tuple[Hand, int]:
    g = Hand(); g.unit("b-lno", "british", "liaison-officer", "1:1006", firepower=0, range=0); g.turn_two()
    g.observe("1:1010", "b-lno", "liaison-officer"); g.declare("b-2", observer="b-lno")
    return g, g.comm("b-2", comm, ok=ok, link="lno-fo")


@case
def hand_lno_test_three_recorded_passed():
    # Liaison officer: "a result of 1 to 3 is always a failure".
    g, seq = lno_game(3, ok=True)
    g.expect(seq, "IM.ART.LNO.COMM", "mismatch")
    return g


@case
def hand_lno_test_failed_cancelled():
    g, _ = lno_game(2)
    g.add("BarrageCancelled", {"barrage": "b-2", "reason": "no-communication"}, "british")
    return g


def flare_game(flare: int) -> tuple[Hand, int]:
    # Emergency: the hex was attacked three times without a pinned or eliminated result; the LNO test
    # fails and the LNO sends up a flare; the barrage falls 4 hexes from him (1:1006 -> 1:1010).
    g = Hand(); g.unit("b-lno", "british", "liaison-officer", "1:1006", firepower=0, range=0)
    g.new_turn(1); g.phase_start("offensive-small-arms-fire")
    for i in range(3):
        g.small_arms(f"a-{i}", "no-effect")
    g.new_turn(2); g.phase_start("barrage")
    g.observe("1:1010", "b-lno", "liaison-officer"); g.declare("b-2", observer="b-lno")
    g.comm("b-2", 2, link="lno-fo"); g.roll("IM.ART.LNO.FLARE", flare, "b-2")
    seq = g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g, seq


@case
def hand_flare_seen_on_one():
    return flare_game(1)[0]


@case
def hand_flare_three_barrage_fires():
    # "A result of 1 or 2 ... indicates that the off-map artillery sees the flare": not on a 3.
    g, seq = flare_game(3)
    g.expect(seq, "IM.ART.LNO.FLARE", "violation", [seq - 1, seq, seq + 2])
    return g


# -- Counter-battery ---------------------------------------------------------------------------------
def counter_battery(date: str, scatter: int, scattered: bool, eliminated: bool = True) -> tuple[Hand, int, int]:
    # The British fired in their barrage phase (shrapnel: no Allied compulsion roll in 1915-16);
    # the Germans answer in their barrage phase with one element, +2 on the scatter die.
    g = Hand(date=date); g.element("gobm-1", "german", 20)
    g.unit("g-fo", "german", "forward-observer", "1:1020", firepower=0, range=0)
    g.new_turn(1); g.phase_start("barrage"); g.first_turn_fo_barrage("b-1", ammo="shrapnel")
    g.phase_start("barrage", "german")
    decl = g.declare("c-1", elements=("gobm-1",), target=None, mission="counter-battery", observer="g-fo",
                     side="german", target_element="obm-1")
    seq = g.scatter("c-1", scatter, scattered, "1:1020" if scattered else None,
                    modifiers=[(2, "counter-battery")], side="german")
    if eliminated:
        g.add("ArtilleryElementEliminated", {"element": "obm-1", "by": "c-1"}, "german")
    return g, decl, seq


@case
def hand_counter_battery_german_july_1915():
    # Counter-battery mission: "No counter-battery mission may take place before July 1915 for the Germans".
    return counter_battery("1915-07", 2, False)[0]


@case
def hand_counter_battery_german_june_1915():
    g, decl, _ = counter_battery("1915-06", 2, False)
    g.expect(decl, "IM.ART.MISSION.CB.ELIG", "violation")
    return g


@case
def hand_counter_battery_three_plus_two_scatters():
    # "Test the scatter and add +2 to the result": natural 3 + 2 = 5 scatters (drumfire 5-6).
    g, _, seq = counter_battery("1917-07", 3, False)
    g.expect(seq, "IM.ART.MISSION.CB", "mismatch")
    return g


# -- General rule and direct fire --------------------------------------------------------------------
@case
def hand_element_firepower_45():
    # Artillery firepower: "a firepower of 5 (low) to 40 (high)".
    g = Hand(); seq = g.element("obm-9", "british", 45)
    g.expect(seq, "IM.ART.GEN.FP", "violation")
    return g


def gun_fires(phase: str, firepower: int) -> tuple[Hand, int]:
    g = Hand(); g.unit("b-gun", "british", "artillery-gun", "1:1007", firepower=10, range=20); g.turn_two()
    if phase != "barrage":
        g.phase_start(phase)
    g.roll("IM.SPOT.ROLL", 3, "b-gun", die="d10")
    g.add("Spotted", {"spotter": "b-gun", "target": "1:1010", "spotted": True}, "british")
    seq = g.add("SmallArmsFired", {"attack": "a-1", "firers": ["b-gun"], "target": "1:1010", "firepower": firepower,
                                   "range": 3}, "british")
    g.roll("LS.SACRT", 5, "a-1")
    g.add("SmallArmsResolved", {"attack": "a-1", "results": [{"unit": "g-1", "result": "no-effect"}]}, "british")
    return g, seq


@case
def hand_gun_direct_fire_legal():
    # Direct Fire by Artillery Guns: small arms firepower 10, in a fire phase.
    return gun_fires("offensive-small-arms-fire", 10)[0]


@case
def hand_gun_direct_fire_in_barrage_phase():
    # "... in the appropriate fire phase (but not during the barrage phase)".
    g, seq = gun_fires("barrage", 10)
    g.expect(seq, ["IM.ART.DIRECT", "IM.ART.GEN"], "violation")
    return g


@case
def hand_gun_direct_fire_firepower_20():
    g, seq = gun_fires("offensive-small-arms-fire", 20)
    g.expect(seq, ["IM.ART.DIRECT", "IM.ART.GEN.FP"], "mismatch")
    return g


# -- Effects (section 5.5) ---------------------------------------------------------------------------
@case
def hand_destruction_primary_hit_eliminates():
    # Destruction HE vs infantry, primary: eliminated on any "H".
    g = turn_two(); g.fire(); g.status("g-1", "eliminated", "b-2")
    return g


@case
def hand_destruction_secondary_morale_missing():
    # Destruction HE vs infantry, secondary: "must take a morale check if an 'H' result ... is obtained".
    g = turn_two(german_at="1:1011"); g.fire(results=(("1:1010", "primary", "H"), ("1:1011", "secondary", "H+1")))
    seq = g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.EFF", "missing-roll")
    return g


@case
def hand_destruction_secondary_morale_fails():
    # "... roll a result higher than their morale value fail the morale check and are eliminated" (2+1 > 2... 4+1 > 4).
    g = turn_two(german_at="1:1011"); g.fire(results=(("1:1010", "primary", "H"), ("1:1011", "secondary", "H+1")))
    g.roll("LS.MORALE", 4, "g-1"); g.add("MoraleChecked", {"units": ["g-1"], "morale": 4, "passed": False}, "german")
    g.status("g-1", "eliminated", "b-2")
    return g


@case
def hand_neutralisation_primary_hit_two_turns():
    # Neutralisation HE vs infantry, primary: "pinned (but not eliminated) for two full turns".
    g = turn_two(missions=missions("neutralisation")); g.fire(mission="neutralisation")
    g.status("g-1", "pinned", "b-2", turns=2)
    return g


@case
def hand_neutralisation_primary_hit_eliminated():
    g = turn_two(missions=missions("neutralisation")); g.fire(mission="neutralisation")
    seq = g.status("g-1", "eliminated", "b-2")
    g.expect(seq, "IM.ART.EFF.NEUT.HE.INF", "mismatch")
    return g


@case
def hand_suppression_primary_miss_pinned():
    # Suppression HE vs infantry, primary: "There is no effect if a 'miss' result is obtained".
    g = turn_two(missions=missions("suppression")); g.fire(mission="suppression", results=(("1:1010", "primary", "miss"),))
    seq = g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.EFF.SUPP", "mismatch")
    return g


@case
def hand_interdiction_hit_on_bridge_pins():
    # Interdiction HE vs infantry, primary: "Infantry also become pinned if they occupy a bridge hexagon".
    g = turn_two(missions=missions("interdiction"), hexes={"1:1010": {"terrain": "clear", "features": ["bridge"]}})
    g.fire(mission="interdiction"); g.status("g-1", "pinned", "b-2")
    return g


@case
def hand_interdiction_hit_off_bridge_pins():
    # "They are not pinned or eliminated" off a bridge.
    g = turn_two(missions=missions("interdiction")); g.fire(mission="interdiction")
    seq = g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.EFF.INT", "mismatch")
    return g


@case
def hand_support_weapon_secondary_three_destroyed():
    # Destruction HE vs support weapons, secondary: "A result of 1 or 2 destroys that support weapon".
    g = Hand(german_at="1:1012"); g.unit("g-sw", "german", "support-weapon", "1:1011"); g.turn_two()
    g.fire(results=(("1:1010", "primary", "H"), ("1:1011", "secondary", "H")))
    g.roll("IM.ART.EFF.DEST.HE.SW", 3, "g-sw"); seq = g.status("g-sw", "eliminated", "b-2")
    g.expect(seq, "IM.ART.EFF.DEST.HE.SW", "mismatch")
    return g


@case
def hand_cavalry_secondary_dismounted_on_one():
    # Destruction HE vs cavalry: mounted cavalry -1 on the BCRT; secondary morale check, then "On a
    # result of '1' ... 'dismount' the unit".
    g = Hand(german_at="1:1012"); g.unit("g-cav", "german", "cavalry-platoon", "1:1011"); g.turn_two()
    g.fire(results=(("1:1010", "primary", "H"), ("1:1011", "secondary", "H")), modifiers=[(-1, "mounted cavalry")])
    g.roll("LS.MORALE", 2, "g-cav"); g.add("MoraleChecked", {"units": ["g-cav"], "morale": 4, "passed": True}, "german")
    g.status("g-cav", "pinned", "b-2"); g.roll("IM.ART.EFF.DEST.HE.CAV", 1, "g-cav"); g.status("g-cav", "dismounted", "b-2")
    return g


@case
def hand_mud_without_he_modifier():
    # Weather: HE "+1 on the Barrage Combat Results Table" in mud.
    g = Hand(); g.lines[2]["data"]["terrain_state"] = "mud"; g.turn_two()
    seq = g.fire(results=(("1:1010", "primary", "miss"),)); g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ENV.MUD.HE", "mismatch")
    return g


@case
def hand_wire_under_31_removed():
    # Destruction HE vs obstacles: "if the final firepower of a barrage is 31+ or greater".
    g = Hand(); g.add("MarkerPlaced", {"marker": "wire", "location": "1:1010"}, "german"); g.turn_two()
    g.fire(); g.status("g-1", "eliminated", "b-2")
    g.roll("IM.ART.EFF.DEST.HE.OBST", 1, "b-2")
    seq = g.add("MarkerRemoved", {"marker": "wire", "location": "1:1010"}, "british")
    g.expect(seq, "IM.ART.EFF.DEST.HE.OBST", ["mismatch"][0])
    return g


# -- Gas ---------------------------------------------------------------------------------------------
def gas_game(**kw) -> Hand:
    return Hand(date="1916-03", permissions=("gas",), **kw)


@case
def hand_gas_pins_infantry():
    # Gas: "The first 'hit' caused by a gas mission automatically pins all infantry"; FOT rolled, no BCRT.
    g = gas_game(missions=missions("gas")); g.turn_two()
    g.observe(); g.declare("b-2", mission="gas", ammo="gas"); g.comm("b-2", 5); g.fot("b-2", 2, 0)
    g.scatter("b-2", 3, False)
    g.add("MarkerPlaced", {"marker": "gas", "location": "1:1010", "turns": 2}, "british"); g.status("g-1", "pinned", "b-2")
    return g


def double_gas(mask: int, turns: int) -> tuple[Hand, int]:
    # Double gas attack: German, from January 1916; d6 per unit, 1-3 survives, 4-6 pinned 4 turns.
    g = gas_game(missions={"british": "destruction", "german": "gas"})
    g.element("gobm-1", "german", 20); g.unit("g-fo", "german", "forward-observer", "1:1020", firepower=0, range=0)
    g.unit("b-inf2", "british", "infantry-platoon", "1:1010"); g.turn_two(); g.phase_start("barrage", "german")
    g.observe("1:1010", "g-fo", side="german")
    g.declare("g-b", elements=("gobm-1",), mission="gas", ammo="gas", observer="g-fo", side="german")
    g.comm("g-b", 5, side="german"); g.fot("g-b", 2, 0, side="german"); g.scatter("g-b", 3, False, side="german")
    g.add("MarkerPlaced", {"marker": "gas", "location": "1:1010"}, "german"); g.status("b-inf2", "pinned", "g-b", side="german")
    g.roll("IM.ART.AMMO.GAS.DOUBLE", mask, "b-inf2", side="german")
    return g, g.status("b-inf2", "pinned", "g-b", side="german", turns=turns)


@case
def hand_double_gas_five_pins_four_turns():
    return double_gas(5, 4)[0]


@case
def hand_double_gas_two_pinned_four_turns():
    g, seq = double_gas(2, 4)
    g.expect(seq, "IM.ART.AMMO.GAS.DOUBLE", "mismatch")
    return g


# -- Missions, barrage types, Allied shrapnel --------------------------------------------------------
@case
def hand_mission_not_obtained():
    # Artillery Fire Missions: the AFMT mission "remains until the end of the scenario" (destruction always).
    g = turn_two(missions=missions("neutralisation"))
    seq = g.fire(mission="suppression", results=(("1:1010", "primary", "miss"),))
    g.expect(seq - 8, ["IM.ART.AFMT", "IM.ART.MISSION"], "violation")
    return g


@case
def hand_barrage_type_not_permitted():
    # Barrage Type Table: the roll "determine[s] which barrage type is permitted during the scenario".
    g = turn_two(allowed=("drumfire",))
    g.observe(); seq = g.declare("b-2", bat="hurricane"); g.comm("b-2", 5); g.fot("b-2", 2, 0)
    g.scatter("b-2", 3, False, kind="HURRICANE"); g.resolve("b-2", 5, 10, "10", element="obm-1")
    g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.BTT", "violation")
    return g


def allied_1916(roll: Optional[int], before: bool = False) -> tuple[Hand, int]:
    # Allied use of shrapnel: 6 or more on a d6 to select another ammunition, +2 in 1916.
    g = turn_two(date="1916-05")
    g.observe()
    if before:   # rolled before selecting: the subject is the side (the barrage is not yet declared)
        g.roll("IM.ART.AMMO.SHRAP.ALLIED", roll, "british")
    seq = g.declare("b-2")
    if roll is not None and not before:
        g.roll("IM.ART.AMMO.SHRAP.ALLIED", roll, "b-2")
    g.comm("b-2", 5); g.fot("b-2", 2, 0); g.scatter("b-2", 3, False)
    g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g, seq


@case
def hand_allied_he_1916_roll_four():
    return allied_1916(4)[0]


@case
def hand_allied_he_1916_roll_four_before_declaring():
    return allied_1916(4, before=True)[0]


@case
def hand_allied_he_1916_roll_three():
    g, seq = allied_1916(3)
    g.expect(seq, "IM.ART.AMMO.SHRAP.ALLIED", "violation", [seq, seq + 1])
    return g


@case
def hand_allied_he_1916_roll_three_before_declaring():
    g, seq = allied_1916(3, before=True)
    g.expect(seq, "IM.ART.AMMO.SHRAP.ALLIED", "violation", [seq - 1, seq])
    return g


@case
def hand_allied_he_1916_no_roll():
    g, seq = allied_1916(None)
    g.expect(seq + 2, "IM.ART.AMMO.SHRAP.ALLIED", "missing-roll", [seq, seq + 1, seq + 2])
    return g


# -- Creeping barrages -------------------------------------------------------------------------------
def creeping(date: str, mission: str, n: int) -> tuple[Hand, int]:
    g = Hand(date=date, missions={"british": "destruction", "german": "suppression"}, german_elements=n)
    # the barrage row 15 is five rows from the German platoon in row 10
    seq = g.declare("cb-1", elements=tuple(f"gobm-{i}" for i in range(1, n + 1)), target="1:1015", mission=mission,
                    observer=None, side="german")
    return g, seq


@case
def hand_simple_creeping_german_july_1915():
    # Simple creeping barrage: the Germans "from July 1915 onward", at least three elements.
    return creeping("1915-07", "simple-creeping", 3)[0]


@case
def hand_simple_creeping_german_june_1915():
    g, seq = creeping("1915-06", "simple-creeping", 3)
    g.expect(seq, "IM.ART.MISSION.SCB", "violation")
    return g


@case
def hand_simple_creeping_two_elements():
    g, seq = creeping("1917-07", "simple-creeping", 2)
    g.expect(seq, "IM.ART.MISSION.SCB", "violation")
    return g


@case
def hand_double_creeping_german_1916_six():
    # Double creeping barrage: German only, from January 1916, at least six elements per map panel.
    return creeping("1916-02", "double-creeping", 6)[0]


@case
def hand_double_creeping_five_elements():
    g, seq = creeping("1916-02", "double-creeping", 5)
    g.expect(seq, "IM.ART.MISSION.DCB", "violation")
    return g


# -- Ammunition consumption --------------------------------------------------------------------------
def ammo_game(marker: Optional[str] = None) -> Hand:
    g = Hand(options=("IM.ART.AMMOCON.ENABLE",), points=25)
    if marker:
        g.add("MarkerPlaced", {"marker": marker, "location": "1:1010"}, "german")
    g.turn_two()
    return g


def spend(g: Hand, points: int, reason: str) -> int:
    return g.add("ArtilleryPointsSpent", {"element": "obm-1", "points": points, "reason": reason, "barrage": "b-2"},
                 "british")


@case
def hand_ammo_wire_objective_destroyed():
    # "Destruction mission to destroy a barbed wire hexagon: 2 artillery points"; in the primary zone
    # the objective "is automatically considered destroyed" (whatever the 31+ obstacle rule says).
    g = ammo_game("wire")
    g.observe(); g.declare("b-2", objective="wire"); spend(g, 2, "wire")
    g.comm("b-2", 5); g.fot("b-2", 2, 0); g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20")
    g.status("g-1", "pinned", "b-2"); g.add("MarkerRemoved", {"marker": "wire", "location": "1:1010"}, "british")
    return g


@case
def hand_ammo_strongpoint_three_points():
    # "Destruction mission to destroy a strongpoint: 4 artillery points per turn".
    g = ammo_game("strongpoint")
    g.observe(); g.declare("b-2", objective="strongpoint"); seq = spend(g, 3, "strongpoint")
    g.comm("b-2", 5); g.fot("b-2", 2, 0); g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20")
    g.status("g-1", "pinned", "b-2"); g.add("MarkerRemoved", {"marker": "strongpoint", "location": "1:1010"}, "british")
    g.expect(seq, "IM.ART.AMMOCON.COST", "mismatch")
    return g


@case
def hand_ammo_gas_spends_points():
    # "... gas missions and all other artillery fire are exempt from the ammunition consumption rules".
    g = Hand(options=("IM.ART.AMMOCON.ENABLE",), points=25, date="1916-03", permissions=("gas",),
             missions=missions("gas")); g.turn_two()
    g.observe(); g.declare("b-2", mission="gas", ammo="gas"); seq = spend(g, 2, "barrage")
    g.expect(seq, "IM.ART.AMMOCON.EXEMPT", "violation")
    return g


# -- Logs that use game-log.md's optional fields as written --------------------------------------------
@case
def hand_hurricane_resolutions_without_element():
    # game-log.md: `element`? (hurricane), "hurricane barrages record one per element, in order".
    # The second attack on the pinned unit pins it again: it retreats two hexes (destruction HE).
    g = Hand(elements=2); g.turn_two()
    g.observe(); g.declare("b-2", elements=("obm-1", "obm-2"), bat="hurricane"); g.comm("b-2", 5); g.fot("b-2", 2, 0)
    g.scatter("b-2", 2, False, kind="HURRICANE")
    g.resolve("b-2", 5, 10, "10"); g.status("g-1", "pinned", "b-2")
    g.resolve("b-2", 6, 10, "10"); g.status("g-1", "retreated", "b-2")
    return g


@case
def hand_hurricane_combined_in_one_resolution():
    # "each of them will individually attack all units": not one attack at the summed firepower.
    g = Hand(elements=2); g.turn_two()
    g.observe(); g.declare("b-2", elements=("obm-1", "obm-2"), bat="hurricane"); g.comm("b-2", 5); g.fot("b-2", 2, 0)
    g.scatter("b-2", 2, False, kind="HURRICANE")
    seq = g.resolve("b-2", 5, 40, "31+"); g.status("g-1", "pinned", "b-2")
    g.expect(seq, ["IM.ART.BAT.HURRICANE", "IM.ART.FP.HURRICANE"], "mismatch")
    return g


def aircraft_next_turn(target: str) -> tuple[Hand, int]:
    # Aircraft: placed "directly on the hexagon targeted" in the air combat phase; next turn's barrage
    # marker goes "on any hexagon at a distance of two hexagons from the aircraft".
    g = Hand(); g.unit("b-air", "british", "aircraft", "1:1001", attrs={"type": "CS"})
    g.new_turn(1); g.phase_start("barrage"); g.phase_start("air-combat")
    g.add("UnitMoved", {"unit": "b-air", "path": ["1:1001", "1:1010"]}, "british")
    g.observe("1:1010", "aircraft:b-air", "aircraft"); g.phase_start("end")
    g.new_turn(2); g.phase_start("barrage")
    seq = g.declare("b-2", target=target, observer="aircraft:b-air")
    g.fot("b-2", 2, 0, modifiers=[(-1, "aircraft")]); g.scatter("b-2", 3, False)
    g.resolve("b-2", 5, 20, "20", ((target, "primary", "miss"),))
    return g, seq


@case
def hand_aircraft_marker_two_hexes_from_aircraft():
    return aircraft_next_turn("1:1012")[0]


@case
def hand_aircraft_marker_three_hexes_from_aircraft():
    g, seq = aircraft_next_turn("1:1013")
    g.expect(seq, ["IM.ART.FOT.PRIOR_OBS", "IM.ART.AIR.FO"], "violation")
    return g


@case
def hand_aircraft_and_balloon_named_by_unit_id():
    # HexObserved.observer is "unit id | aircraft:<id> | balloon:<id>": the plain unit id also works.
    g = Hand(); g.unit("b-air", "british", "aircraft", "1:1008", attrs={"type": "CS"})
    g.unit("b-bal", "british", "balloon", "1:1001", firepower=0, range=0, movement=0); g.turn_two()
    g.observe("1:1010", "b-air", "aircraft"); g.declare("b-2", observer="b-air")
    g.fot("b-2", 2, 0, modifiers=[(-1, "aircraft")]); g.scatter("b-2", 3, False)
    g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def hand_balloon_barrage_without_hex_observed():
    # Balloons "automatically observe all hexagons on the map": the declaration names the balloon.
    g = Hand(elements=1); g.unit("b-bal", "british", "balloon", "1:1001", firepower=0, range=0, movement=0)
    g.unit("g-2", "german", "infantry-platoon", "1:1030"); g.turn_two()
    g.declare("b-2", target="1:1030", observer="balloon:b-bal")
    g.fot("b-2", 2, 0, modifiers=[(-1, "balloon")]); g.scatter("b-2", 3, False)
    g.resolve("b-2", 5, 20, "20", (("1:1030", "primary", "miss"),)); g.status("g-2", "pinned", "b-2")
    return g


# -- Suppression: half firepower, crews silent, the next complete turn -----------------------------------
def suppressed_then_fires(firepower: int, cls: str = "infantry-platoon", later: int = 1,
                          result: str = "miss") -> tuple[Hand, int]:
    """A German suppression barrage (HE, drumfire) on the British unit in 1:1012 in turn 2; the unit
    fires at the German platoon in the offensive small arms phase `later` turns after."""
    g = Hand(missions={"british": "destruction", "german": "suppression"}); g.element("gobm-1", "german", 20)
    g.unit("g-fo", "german", "forward-observer", "1:1020", firepower=0, range=0)
    g.unit("b-x", "british", cls, "1:1012", firepower=4)
    g.turn_two(); g.phase_start("barrage", "german")
    g.observe("1:1012", "g-fo", side="german")
    g.declare("g-b", elements=("gobm-1",), target="1:1012", mission="suppression", observer="g-fo", side="german")
    g.comm("g-b", 5, side="german"); g.fot("g-b", 2, 0, side="german"); g.scatter("g-b", 3, False, side="german")
    g.resolve("g-b", 5, 20, "20", (("1:1012", "primary", result),), side="german")
    if result != "miss":
        g.status("b-x", "pinned", "g-b", side="german")
    g.phase_start("end", "german")
    for t in range(3, 3 + later):
        g.new_turn(t)
    g.phase_start("offensive-small-arms-fire")
    g.roll("IM.SPOT.ROLL", 3, "b-x", die="d10")
    g.add("Spotted", {"spotter": "b-x", "target": "1:1010", "spotted": True}, "british")
    seq = g.add("SmallArmsFired", {"attack": "a-9", "firers": ["b-x"], "target": "1:1010", "firepower": firepower,
                                   "range": 2}, "british")
    g.roll("LS.SACRT", 5, "a-9")
    g.add("SmallArmsResolved", {"attack": "a-9", "results": [{"unit": "g-1", "result": "no-effect"}]}, "british")
    return g, seq


@case
def hand_suppressed_platoon_fires_at_half():
    # Suppression HE: "Whatever the final outcome ... half their firepower (round fractions up)": 4 -> 2.
    return suppressed_then_fires(2)[0]


@case
def hand_suppressed_platoon_fires_at_full():
    g, seq = suppressed_then_fires(4)
    g.expect(seq, "IM.ART.EFF.SUPP.HE.INF", "mismatch")
    return g


@case
def hand_suppressed_platoon_two_turns_later_full():
    # "during the next complete turn": the turn after that is free.
    return suppressed_then_fires(4, later=2)[0]


@case
def hand_suppressed_crew_fires():
    # "Crews may not fire at all during one complete turn (both the first and second phases)."
    g, seq = suppressed_then_fires(2, cls="crew")
    g.expect(seq, "IM.ART.EFF.SUPP.HE.INF", "violation")
    return g


# -- Gassed units ----------------------------------------------------------------------------------------
def gassed_british_unit() -> Hand:
    """German gas (1916, permitted) on the British platoon in 1:1012 in turn 2; it is pinned."""
    g = Hand(date="1916-03", permissions=("gas",), missions={"british": "destruction", "german": "gas"})
    g.element("gobm-1", "german", 20); g.unit("g-fo", "german", "forward-observer", "1:1020", firepower=0, range=0)
    g.unit("b-x", "british", "infantry-platoon", "1:1012")
    g.turn_two(); g.phase_start("barrage", "german")
    g.observe("1:1012", "g-fo", side="german")
    g.declare("g-b", elements=("gobm-1",), target="1:1012", mission="gas", ammo="gas", observer="g-fo", side="german")
    g.comm("g-b", 5, side="german"); g.fot("g-b", 2, 0, side="german"); g.scatter("g-b", 3, False, side="german")
    g.add("MarkerPlaced", {"marker": "gas", "location": "1:1012"}, "german")
    g.add("UnitStatusChanged", {"unit": "b-x", "status": "pinned", "cause": "g-b"}, "german")
    g.roll("IM.ART.AMMO.GAS.DOUBLE", 2, "b-x", side="german")      # 1-3: the mask works
    g.phase_start("end", "german")
    g.new_turn(3)
    return g


@case
def hand_gassed_unit_moves_while_gas_remains():
    # Gas: "gassed units may not fire or move until the gas marker is removed".
    g = gassed_british_unit(); g.phase_start("first-foot-movement")
    seq = g.add("UnitMoved", {"unit": "b-x", "path": ["1:1012", "1:1013"]}, "british")
    g.expect(seq, ["IM.ART.AMMO.GAS", "IM.CORE.PINNED"], "violation")
    return g


@case
def hand_gassed_unit_recovers_while_gas_remains():
    g = gassed_british_unit(); g.phase_start("pin-removal")
    seq = g.add("UnitStatusChanged", {"unit": "b-x", "status": "unpinned"}, "british")
    g.expect(seq, "IM.ART.AMMO.GAS", "violation")
    return g


@case
def hand_gassed_unit_moves_after_gas_removed():
    g = gassed_british_unit(); g.phase_start("barrage"); g.phase_start("end")
    g.phase_start("pin-removal", "german"); g.phase_start("end", "german")
    g.add("MarkerRemoved", {"marker": "gas", "location": "1:1012"}, "german")
    g.new_turn(4); g.phase_start("pin-removal")
    g.add("UnitStatusChanged", {"unit": "b-x", "status": "unpinned"}, "british")
    g.phase_start("first-foot-movement")
    g.add("UnitMoved", {"unit": "b-x", "path": ["1:1012", "1:1013"]}, "british")
    return g


# -- Simple creeping barrage as it runs -------------------------------------------------------------------
def creeping_run(scatter: bool = False, setup: str = "declare", firepower: int = 10) -> tuple[Hand, int]:
    """A British simple creeping barrage (1917, suppression obtained, three elements): chosen before
    the scenario, it fires each turn with no communication test and no FOT, a suppression HE attack
    of firepower 10 on the units in its rows; on turn 2 friendly units reach it and a 1-3 advances it."""
    g = Hand(date="1917-07", missions={"british": "suppression", "german": "destruction"}, elements=3,
             german_at="1:1013")
    elements = ("obm-1", "obm-2", "obm-3")
    if setup == "declare":
        g.declare("scb-0", elements=elements, target="1:0112", mission="simple-creeping", observer=None)
    else:
        g.add("ArtilleryMissionSet", {"side": "british", "mission": "simple-creeping"})
    g.new_turn(1); g.phase_start("barrage")
    g.declare("scb-1", elements=elements, target="1:0112", mission="simple-creeping", observer=None)
    if scatter:
        g.scatter("scb-1", 3, False)
    g.roll("IM.ART.BCRT.REVISED", 4, "scb-1")
    seq = g.add("BarrageResolved", {"barrage": "scb-1", "firepower": firepower, "column": "10", "results": [
        {"location": "1:1012", "zone": "primary", "result": "miss"},
        {"location": "1:1013", "zone": "secondary", "result": "H"}]}, "british")
    g.roll("LS.MORALE", 2, "g-1"); g.add("MoraleChecked", {"units": ["g-1"], "morale": 4, "passed": True}, "german")
    g.phase_start("end")
    g.new_turn(2); g.phase_start("barrage")
    g.roll("IM.ART.MISSION.SCB.RUN", 2, "scb-1")
    g.declare("scb-2", elements=elements, target="1:0117", mission="simple-creeping", observer=None)
    g.roll("IM.ART.BCRT.REVISED", 4, "scb-2")
    g.add("BarrageResolved", {"barrage": "scb-2", "firepower": 10, "column": "10",
                              "results": [{"location": "1:1017", "zone": "primary", "result": "miss"}]}, "british")
    return g, seq


@case
def hand_simple_creeping_runs():
    return creeping_run()[0]


@case
def hand_simple_creeping_runs_with_scatter_test():
    return creeping_run(scatter=True)[0]


@case
def hand_simple_creeping_set_as_mission():
    return creeping_run(setup="mission")[0]


@case
def hand_simple_creeping_attacks_at_twenty():
    # "... subject to a suppression mission attack with high-explosive ammunition ... with a firepower of 10".
    g, seq = creeping_run(firepower=20)
    g.expect(seq, ["IM.ART.MISSION.SCB", "IM.ART.FP"], "mismatch")
    return g


@case
def hand_simple_creeping_elements_fire_elsewhere():
    # "The off-map artillery elements are not available for other mission types during the scenario."
    g, _ = creeping_run(); g.observe()
    seq = g.declare("b-9", elements=("obm-1",), mission="suppression")
    g.expect(seq, "IM.ART.MISSION.SCB", "violation")
    return g


# -- On-map guns: crews and smoke ----------------------------------------------------------------------------
def gun_with_crew(crew_status: Optional[str]) -> tuple[Hand, int]:
    # Direct Fire by Artillery Guns: "If an on-map artillery gun has a non-pinned crew counter ...".
    g = Hand(); g.unit("b-gun", "british", "artillery-gun", "1:1007", firepower=10, range=20)
    g.unit("b-crew", "british", "crew", "1:1007", firepower=0); g.turn_two()
    if crew_status:
        g.add("UnitStatusChanged", {"unit": "b-crew", "status": crew_status}, "german")
    g.phase_start("offensive-small-arms-fire")
    g.roll("IM.SPOT.ROLL", 3, "b-gun", die="d10")
    g.add("Spotted", {"spotter": "b-gun", "target": "1:1010", "spotted": True}, "british")
    seq = g.add("SmallArmsFired", {"attack": "a-1", "firers": ["b-gun"], "target": "1:1010", "firepower": 10,
                                   "range": 3}, "british")
    g.roll("LS.SACRT", 5, "a-1")
    g.add("SmallArmsResolved", {"attack": "a-1", "results": [{"unit": "g-1", "result": "no-effect"}]}, "british")
    return g, seq


@case
def hand_gun_with_crew_fires():
    return gun_with_crew(None)[0]


@case
def hand_gun_with_pinned_crew_fires():
    g, seq = gun_with_crew("pinned")
    g.expect(seq, "IM.ART.DIRECT", "violation")
    return g


@case
def hand_gun_smoke_without_scenario_smoke():
    # "On-map artillery guns may also fire smoke shells if these are available in the scenario."
    g = Hand(); g.unit("b-gun", "british", "artillery-gun", "1:1007", firepower=10, range=20); g.turn_two()
    g.phase_start("offensive-small-arms-fire")
    seq = g.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010"}, "british")
    g.expect(seq, "IM.ART.DIRECT.SMOKE", "violation")
    return g


@case
def hand_double_gas_five_without_four_turn_pin():
    # Double gas attack: "On a result of 4 to 6, the unit fails this test and is pinned for 4 turns".
    g = gas_game(missions={"british": "destruction", "german": "gas"})
    g.element("gobm-1", "german", 20); g.unit("g-fo", "german", "forward-observer", "1:1020", firepower=0, range=0)
    g.unit("b-inf2", "british", "infantry-platoon", "1:1010"); g.turn_two(); g.phase_start("barrage", "german")
    g.observe("1:1010", "g-fo", side="german")
    g.declare("g-b", elements=("gobm-1",), mission="gas", ammo="gas", observer="g-fo", side="german")
    g.comm("g-b", 5, side="german"); g.fot("g-b", 2, 0, side="german"); g.scatter("g-b", 3, False, side="german")
    g.add("MarkerPlaced", {"marker": "gas", "location": "1:1010"}, "german")
    g.add("UnitStatusChanged", {"unit": "b-inf2", "status": "pinned", "cause": "g-b"}, "german")
    seq = g.roll("IM.ART.AMMO.GAS.DOUBLE", 5, "b-inf2", side="german")
    g.phase_start("end", "german")
    g.expect(seq, "IM.ART.AMMO.GAS.DOUBLE", "mismatch")
    return g


def german_gas_on(cls: str) -> tuple[Hand, int]:
    """German gas (1916) on a British unit of class `cls` in 1:1012, turn 2; returns the marker's seq."""
    g = Hand(date="1916-03", permissions=("gas",), missions={"british": "destruction", "german": "gas"})
    g.element("gobm-1", "german", 20); g.element("gobm-2", "german", 20)
    g.unit("g-fo", "german", "forward-observer", "1:1020", firepower=0, range=0)
    g.unit("b-x", "british", cls, "1:1012")
    g.turn_two(); g.phase_start("barrage", "german")
    g.observe("1:1012", "g-fo", side="german")
    g.declare("g-b", elements=("gobm-1",), target="1:1012", mission="gas", ammo="gas", observer="g-fo", side="german")
    g.comm("g-b", 5, side="german"); g.fot("g-b", 2, 0, side="german"); g.scatter("g-b", 3, False, side="german")
    return g, g.add("MarkerPlaced", {"marker": "gas", "location": "1:1012"}, "german")


@case
def hand_gas_leaves_infantry_unpinned():
    # Gas: "automatically pins all infantry located inside the gas zone" (the marker's hex is inside it).
    g, seq = german_gas_on("infantry-platoon")
    g.roll("IM.ART.AMMO.GAS.DOUBLE", 2, "b-x", side="german"); g.phase_start("end", "german")
    g.expect(seq, "IM.ART.AMMO.GAS", "mismatch")
    return g


@case
def hand_gas_cavalry_pinned_not_dismounted():
    # "Cavalry units are likewise automatically pinned and immediately 'dismounted' for the rest of the game."
    g, seq = german_gas_on("cavalry-platoon")
    g.add("UnitStatusChanged", {"unit": "b-x", "status": "pinned", "cause": "g-b"}, "german")
    g.roll("IM.ART.AMMO.GAS.DOUBLE", 2, "b-x", side="german"); g.phase_start("end", "german")
    g.expect(seq, "IM.ART.AMMO.GAS", "mismatch")
    return g


@case
def hand_gas_cavalry_pinned_and_dismounted():
    g, _ = german_gas_on("cavalry-platoon")
    g.add("UnitStatusChanged", {"unit": "b-x", "status": "pinned", "cause": "g-b"}, "german")
    g.add("UnitStatusChanged", {"unit": "b-x", "status": "dismounted", "cause": "g-b"}, "german")
    g.roll("IM.ART.AMMO.GAS.DOUBLE", 2, "b-x", side="german"); g.phase_start("end", "german")
    return g


def gassed_then_hit(results, status: str, morale_roll: Optional[int] = None,
                    passed: Optional[bool] = None) -> tuple[Hand, int]:
    """The gassed British platoon (morale 4) is hit again by a German HE destruction barrage on turn 3."""
    g, _ = german_gas_on("infantry-platoon")
    g.add("UnitStatusChanged", {"unit": "b-x", "status": "pinned", "cause": "g-b"}, "german")
    g.roll("IM.ART.AMMO.GAS.DOUBLE", 2, "b-x", side="german"); g.phase_start("end", "german")
    g.new_turn(3); g.phase_start("barrage"); g.phase_start("end"); g.phase_start("barrage", "german")
    target = results[0][0]
    g.observe(target, "g-fo", side="german")
    g.declare("g-c", elements=("gobm-2",), target=target, mission="destruction", ammo="he", observer="g-fo",
              side="german")
    g.comm("g-c", 5, side="german"); g.fot("g-c", 2, 0, side="german"); g.scatter("g-c", 3, False, side="german")
    g.resolve("g-c", 5, 20, "20", results, side="german")
    seq = None
    if morale_roll is not None:
        g.roll("LS.MORALE", morale_roll, "b-x")
        seq = g.add("MoraleChecked", {"units": ["b-x"], "morale": 4, "passed": passed}, "british")
    status_seq = g.add("UnitStatusChanged", {"unit": "b-x", "status": status, "cause": "g-c"}, "german")
    return g, seq or status_seq


@case
def hand_gassed_unit_retreats():
    # "Gassed units forced to retreat are eliminated instead" (pinned again by a primary miss: retreat).
    g, seq = gassed_then_hit((("1:1012", "primary", "miss"),), "retreated")
    g.expect(seq, "IM.ART.AMMO.GAS", "mismatch")
    return g


@case
def hand_gassed_unit_eliminated_instead_of_retreat():
    return gassed_then_hit((("1:1012", "primary", "miss"),), "eliminated")[0]


@case
def hand_gassed_unit_morale_one_less():
    # "the defender's printed morale value is reduced by 1": 3 + 1 (H+1) against 4 - 1 = 3 fails.
    g, seq = gassed_then_hit((("1:1011", "primary", "H"), ("1:1012", "secondary", "H+1")), "eliminated",
                             morale_roll=3, passed=True)
    g.expect(seq, ["IM.ART.EFF", "IM.ART.AMMO.GAS"], "mismatch")
    return g


# -- Interdiction: the next turn ---------------------------------------------------------------------------
def interdicted(pinned_before: bool = False) -> Hand:
    """A German interdiction barrage (HE, drumfire) gets an "H" on the British platoon in 1:1012 in turn 2."""
    g = Hand(missions={"british": "destruction", "german": "interdiction"}); g.element("gobm-1", "german", 20)
    g.unit("g-fo", "german", "forward-observer", "1:1020", firepower=0, range=0)
    g.unit("b-x", "british", "infantry-platoon", "1:1012", movement=4)
    g.turn_two()
    if pinned_before:
        g.phase_start("offensive-small-arms-fire", "german")
        g.add("UnitStatusChanged", {"unit": "b-x", "status": "pinned"}, "german")
    g.phase_start("barrage", "german")
    g.observe("1:1012", "g-fo", side="german")
    g.declare("g-b", elements=("gobm-1",), target="1:1012", mission="interdiction", ammo="he", observer="g-fo",
              side="german")
    g.comm("g-b", 5, side="german"); g.fot("g-b", 2, 0, side="german"); g.scatter("g-b", 3, False, side="german")
    g.resolve("g-b", 5, 20, "20", (("1:1012", "primary", "H"),), side="german")
    g.phase_start("end", "german")
    g.new_turn(3)
    return g


@case
def hand_interdicted_infantry_moves_next_turn():
    # Interdiction HE vs infantry, primary: "no infantry in the primary impact zone hexagon(s) may move on their next turn".
    g = interdicted(); g.phase_start("first-foot-movement")
    seq = g.add("UnitMoved", {"unit": "b-x", "path": ["1:1012", "1:1013"]}, "british")
    g.expect(seq, "IM.ART.EFF.INT", "violation")
    return g


@case
def hand_interdicted_infantry_moves_the_turn_after():
    g = interdicted(); g.phase_start("first-foot-movement"); g.phase_start("end")
    g.phase_start("barrage", "german"); g.phase_start("end", "german")
    g.new_turn(4); g.phase_start("first-foot-movement")
    g.add("UnitMoved", {"unit": "b-x", "path": ["1:1012", "1:1013"]}, "british")
    return g


@case
def hand_interdicted_pinned_infantry_recovers():
    # "If a unit already pinned suffers an 'H' result, it remains 'pinned' and may not recover its
    # normal status the following turn."
    g = interdicted(pinned_before=True); g.phase_start("pin-removal")
    seq = g.add("UnitStatusChanged", {"unit": "b-x", "status": "unpinned"}, "british")
    g.expect(seq, "IM.ART.EFF.INT", "violation")
    return g


# -- Modifiers written where game-log.md leaves them open ----------------------------------------------------
@case
def hand_aircraft_modifier_named_only():
    # FireOrderChecked.modifiers has no fixed shape in game-log.md: ["aircraft"] names the -1.
    g = aircraft_game("1:1008")
    g.observe("1:1010", "aircraft:b-air", "aircraft"); g.declare("b-2", observer="aircraft:b-air")
    g.roll("IM.ART.FOT.ROLL", 2, "b-2")
    g.add("FireOrderChecked", {"barrage": "b-2", "column": 0, "modifiers": ["aircraft"], "granted": True}, "british")
    g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def hand_aircraft_modifier_on_the_roll_only():
    g = aircraft_game("1:1008")
    g.observe("1:1010", "aircraft:b-air", "aircraft"); g.declare("b-2", observer="aircraft:b-air")
    g.roll("IM.ART.FOT.ROLL", 2, "b-2", modifiers=[{"value": -1, "why": "aircraft"}])
    g.add("FireOrderChecked", {"barrage": "b-2", "column": 0, "granted": True}, "british")
    g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def hand_town_modifier_on_the_resolution():
    # Town: +2 on the BCRT, written on the BarrageResolved rather than on its roll.
    g = turn_two(hexes={"1:1010": {"terrain": "town"}})
    g.observe(); g.declare("b-2"); g.comm("b-2", 5); g.fot("b-2", 2, 0); g.scatter("b-2", 3, False)
    g.roll("IM.ART.BCRT.REVISED", 5, "b-2")
    g.add("BarrageResolved", {"barrage": "b-2", "firepower": 20, "column": "20",
                              "modifiers": [{"value": 2, "why": "town"}],
                              "results": [{"location": "1:1010", "zone": "primary", "result": "miss"}]}, "british")
    g.status("g-1", "pinned", "b-2")
    return g


@case
def hand_town_modifier_forgotten():
    g = turn_two(hexes={"1:1010": {"terrain": "town"}})
    seq = g.fire(results=(("1:1010", "primary", "miss"),)); g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.FP.TERRAIN", "mismatch")
    return g


# -- Automatic observation from hex features -----------------------------------------------------------------
def automatic_turn_two(hexes: dict) -> tuple[Hand, int]:
    # Automatic observation: no observer, no communication test; the FOT is still used, scatter tested.
    g = Hand(observers=False, hexes=hexes); g.turn_two()
    seq = g.observe("1:1010", None, "automatic"); g.declare("b-2", observer=None); g.fot("b-2", 2, 0)
    g.scatter("b-2", 3, False); g.resolve("b-2", 5, 20, "20", (("1:1010", "primary", "miss"),))
    g.status("g-1", "pinned", "b-2")
    return g, seq


@case
def hand_automatic_road_hex_among_roads():
    # "all road junction hexagons": MapDefined names roads per hex, so roads on three sides may be a junction.
    road = {"terrain": "clear", "features": ["road"]}
    return automatic_turn_two({"1:1010": road, "1:1009": road, "1:1011": road, "1:1110": road})[0]


@case
def hand_automatic_road_junction_feature():
    return automatic_turn_two({"1:1010": {"terrain": "clear", "features": ["road", "road-junction"]}})[0]


@case
def hand_automatic_plain_road_hex():
    road = {"terrain": "clear", "features": ["road"]}
    g, seq = automatic_turn_two({"1:1010": road, "1:1009": road, "1:1011": road})
    g.expect(seq, ["IM.ART.AUTOOBS", "IM.ART.FOT.PRIOR_OBS"], "violation", [seq, seq + 1])
    return g


# -- Sustained fire under the same barrage id -----------------------------------------------------------------
@case
def hand_sustained_fire_keeps_the_barrage_id():
    # Sustained fire option: "players may automatically target the same hexagon(s) in each consecutive
    # turn ... The player simply declares that he is conducting sustained fire, and must obtain a result
    # of 1 to 5 on a six-sided die each turn". The log keeps the barrage's id for the repeat.
    g = turn_two(); g.full_fo_barrage_pinning("b-2", 0)
    g.new_turn(3); g.phase_start("barrage")
    g.observe(); g.declare("b-2", sustained=True); g.roll("IM.ART.SUSTAINED", 4, "b-2")
    g.scatter("b-2", 2, False); g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def hand_sustained_fire_same_id_roll_six_fires():
    g = turn_two(); g.full_fo_barrage_pinning("b-2", 0)
    g.new_turn(3); g.phase_start("barrage")
    g.observe(); g.declare("b-2", sustained=True); g.roll("IM.ART.SUSTAINED", 6, "b-2")
    g.scatter("b-2", 2, False); seq = g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    g.expect(seq, "IM.ART.SUSTAINED", "violation", [seq - 2, seq - 1, seq])
    return g


@case
def hand_same_id_hurricane_with_ammunition_two_turns():
    # Ammunition consumption: 2 points per element each turn ("per turn"), spent before firing.
    g = Hand(options=("IM.ART.AMMOCON.ENABLE",), points=25, elements=2); g.turn_two()
    for turn in (2, 3):
        if turn == 3:
            g.new_turn(3); g.phase_start("barrage")
        g.observe(); g.declare("b-2", elements=("obm-1", "obm-2"), bat="hurricane", sustained=turn == 3)
        for e in ("obm-1", "obm-2"):
            g.add("ArtilleryPointsSpent", {"element": e, "points": 2, "reason": "barrage", "barrage": "b-2"}, "british")
        if turn == 2:
            g.comm("b-2", 5); g.fot("b-2", 2, 0)
        else:
            g.roll("IM.ART.SUSTAINED", 4, "b-2")
        g.scatter("b-2", 2, False, kind="HURRICANE")
        if turn == 2:   # pinned, then pinned again: it retreats two hexes (destruction HE, primary miss)
            g.resolve("b-2", 5, 10, "10", element="obm-1"); g.status("g-1", "pinned", "b-2")
            g.resolve("b-2", 6, 10, "10", element="obm-2"); g.status("g-1", "retreated", "b-2")
            g.add("UnitMoved", {"unit": "g-1", "path": ["1:1010", "1:1011", "1:1012"]}, "german")
            g.phase_start("end")
        else:           # the hex is empty now
            g.resolve("b-2", 5, 10, "10", element="obm-1"); g.resolve("b-2", 6, 10, "10", element="obm-2")
    return g


@case
def hand_smoke_screen_listed_without_bcrt_roll():
    # Smoke: "do not make a die roll on the BCRT"; the resolution line only lists the screen's hexes.
    g = Hand(permissions=("smoke",), missions=missions("neutralisation")); g.turn_two()
    g.observe(); g.declare("b-2", mission="neutralisation", ammo="smoke"); g.comm("b-2", 5)
    g.scatter("b-2", 3, False, element="obm-1")
    g.add("BarrageResolved", {"barrage": "b-2", "firepower": 20, "column": "20",
                              "results": [{"location": "1:1010", "zone": "primary", "result": "miss"}]}, "british")
    g.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010"}, "british")
    return g


@case
def hand_counter_battery_hit_not_recorded():
    # Counter-battery: "If the fire does not scatter, one enemy off-map artillery element is eliminated".
    g, _, seq = counter_battery("1917-07", 2, False, eliminated=False); g.phase_start("end", "german")
    g.expect(seq, "IM.ART.MISSION.CB", "mismatch")
    return g


@case
def hand_counter_battery_scattered_but_eliminates():
    # "... if there is scatter, the counter-battery mission automatically fails".
    g, _, seq = counter_battery("1917-07", 4, True)
    g.expect(seq + 1, ["IM.ART.MISSION.CB", "IM.ART.EFF.CB"], "mismatch")
    return g


@case
def hand_envelope_side_left_null_on_procedure_events():
    # game-log.md: `side` is optional ("the side that acts or rolls"); BarrageDeclared.data.side names the firer.
    g = turn_two(); g.fire(results=(("1:1010", "primary", "miss"),)); g.status("g-1", "pinned", "b-2")
    for line in g.lines:
        if line["turn"] == 2 and line["type"] in ("HexObserved", "DieRolled", "CommunicationTested", "FireOrderChecked",
                                                   "ScatterTested", "BarrageResolved"):
            line["side"] = None
    return g


@case
def hand_barrage_in_the_opponents_barrage_phase():
    # Who may fire: "an indirect barrage is resolved during the player's own barrage phase".
    g = turn_two(); g.phase_start("barrage", "german")
    seq = g.fire(results=(("1:1010", "primary", "miss"),)); g.status("g-1", "pinned", "b-2")
    g.expect(seq - 8, "IM.ART.GEN.PHASE", "violation")   # at the declaration
    return g


@case
def hand_simple_creeping_row_too_close():
    # Simple creeping barrage: "The initial hexagon row chosen must be five hexagon rows away from the
    # nearest friendly unit": row 10 is three rows from the British platoon in row 7.
    g = Hand(date="1917-07", missions={"british": "suppression", "german": "destruction"}, elements=3)
    seq = g.declare("scb-0", elements=("obm-1", "obm-2", "obm-3"), target="1:0110", mission="simple-creeping",
                    observer=None)
    g.expect(seq, "IM.ART.MISSION.SCB", "violation")
    return g


@case
def hand_simple_creeping_row_three_away_in_1918():
    # "In scenarios from January to June 1918 ... the creeping barrage row may begin three hexagon rows
    # from the starting positions of the friendly units."
    g = Hand(date="1918-03", missions={"british": "suppression", "german": "destruction"}, elements=3)
    g.declare("scb-0", elements=("obm-1", "obm-2", "obm-3"), target="1:0110", mission="simple-creeping", observer=None)
    return g


@case
def hand_lno_observes_fo_relays():
    # Liaison officer: "the only one able to request immediate artillery support by means of flares or
    # through the forward observer"; both tests pass (LNO-FO, FO-artillery).
    g = Hand(); g.unit("b-lno", "british", "liaison-officer", "1:1006", firepower=0, range=0); g.turn_two()
    g.observe("1:1010", "b-lno", "liaison-officer"); g.declare("b-2", observer="b-fo")
    g.comm("b-2", 5, link="lno-fo"); g.comm("b-2", 4); g.fot("b-2", 2, 0); g.scatter("b-2", 3, False)
    g.resolve("b-2", 5, 20, "20"); g.status("g-1", "pinned", "b-2")
    return g


@case
def hand_double_gas_five_two_pinned_markers():
    # "... pinned for 4 turns; place two 'pinned' markers to indicate this."
    g = gas_game(missions={"british": "destruction", "german": "gas"})
    g.element("gobm-1", "german", 20); g.unit("g-fo", "german", "forward-observer", "1:1020", firepower=0, range=0)
    g.unit("b-inf2", "british", "infantry-platoon", "1:1010"); g.turn_two(); g.phase_start("barrage", "german")
    g.observe("1:1010", "g-fo", side="german")
    g.declare("g-b", elements=("gobm-1",), mission="gas", ammo="gas", observer="g-fo", side="german")
    g.comm("g-b", 5, side="german"); g.fot("g-b", 2, 0, side="german"); g.scatter("g-b", 3, False, side="german")
    g.add("MarkerPlaced", {"marker": "gas", "location": "1:1010"}, "german")
    g.add("UnitStatusChanged", {"unit": "b-inf2", "status": "pinned", "cause": "g-b"}, "german")
    g.roll("IM.ART.AMMO.GAS.DOUBLE", 5, "b-inf2", side="german")
    for _ in range(2):
        g.add("MarkerPlaced", {"marker": "pinned", "location": "1:1010", "unit": "b-inf2"}, "german")
    g.phase_start("end", "german")
    return g


@case
def hand_pin_recorded_as_a_marker():
    # game-log.md: MarkerPlaced {marker: pinned, unit} is one way to record the pin (destruction HE, primary miss).
    g = turn_two(); g.fire(results=(("1:1010", "primary", "miss"),))
    g.add("MarkerPlaced", {"marker": "pinned", "location": "1:1010", "unit": "g-1"}, "british")
    return g


@case
def hand_roll_purposes_by_family_id():
    # Dice: "purpose is the rule id whose procedure asked for the roll": the family ids IM.ART.COMM,
    # IM.ART.FOT and IM.ART.BCRT name the same procedures as their finer ids.
    g = turn_two(); g.observe(); g.declare("b-2")
    g.roll("IM.ART.COMM", 5, "b-2")
    g.add("CommunicationTested", {"barrage": "b-2", "link": "fo-artillery", "in_communication": True}, "british")
    g.roll("IM.ART.FOT", 2, "b-2")
    g.add("FireOrderChecked", {"barrage": "b-2", "column": 0, "modifiers": [], "granted": True}, "british")
    g.roll("IM.ART.SCATTER", 3, "b-2"); g.add("ScatterTested", {"barrage": "b-2", "scattered": False}, "british")
    g.roll("IM.ART.BCRT", 5, "b-2")
    g.add("BarrageResolved", {"barrage": "b-2", "firepower": 20, "column": "20",
                              "results": [{"location": "1:1010", "zone": "primary", "result": "miss"}]}, "british")
    g.status("g-1", "pinned", "b-2")
    return g


@case
def hand_tank_second_die_about_the_barrage():
    # Destruction HE vs vehicles, primary: a tank "hit" rolls a d6, "1" destroys it; the roll names the barrage.
    g = Hand(german_at="1:1011"); g.unit("g-tank", "german", "tank", "1:1010"); g.turn_two()
    g.fire(); g.roll("IM.ART.EFF.DEST.HE.VEH", 1, "b-2"); g.status("g-tank", "eliminated", "b-2")
    return g


@case
def hand_tank_second_die_about_the_barrage_four():
    g = Hand(german_at="1:1011"); g.unit("g-tank", "german", "tank", "1:1010"); g.turn_two()
    g.fire(); g.roll("IM.ART.EFF.DEST.HE.VEH", 4, "b-2"); seq = g.status("g-tank", "eliminated", "b-2")
    g.expect(seq, "IM.ART.EFF.DEST.HE.VEH", "mismatch")
    return g
