"""Additional Tank Rules (IM.TANK): breakdowns, the breakdown modifier, tanks as cover, blast power,
anti-tank capabilities and the designer's note on armour, with the Elephant's exceptions. Every
expectation quotes the rulebook passage it comes from."""
from __future__ import annotations

from tests.vehicle_helpers import BRIT, GER, VehicleLog, verdicts

# map 5, a column of hexes: 0502 north of 0503 ... (odd-q); distances along it are row differences
A, B, C, D, E = "5:0502", "5:0503", "5:0504", "5:0505", "5:0506"


def tank_game(**attrs) -> VehicleLog:
    g = VehicleLog()
    g.unit("b-tank", BRIT, "tank", A, **({"model": "Mark IV male"} | attrs))
    return g


def breakdown(g: VehicleLog, tank: str, second: int | None, turn: int, die: str = "d6") -> tuple[int, int | None]:
    g.at(turn, "vehicle-movement", BRIT)
    g.move(tank, [A, B])
    g.die("LS.BREAKDOWN", 6, tank, BRIT)
    status = g.add("UnitStatusChanged", {"unit": tank, "status": "broken-down"}, side=BRIT)["seq"]
    second_seq = g.die("IM.TANK.BREAKDOWN", second, tank, BRIT, die=die) if second is not None else None
    return status, second_seq


# -- Tank Breakdowns (changed) ---------------------------------------------------------------------------

def test_an_even_second_die_holds_the_tank_for_the_next_turn_only():
    # Tank Breakdowns: "If the result is even, the tank in question breaks down for the next turn only and, after
    # that turn, is considered automatically repaired." EC-39: breakdown in turn 4, second d6 = 4 -> immobile in
    # turn 5 only, then automatically repaired in turn 6 with no repair roll.
    g = tank_game()
    _, second = breakdown(g, "b-tank", 4, 4)
    g.at(5, "vehicle-movement", BRIT)
    held = g.move("b-tank", [B, C])["seq"]
    g.at(6, "vehicle-movement", BRIT)
    free = g.move("b-tank", [C, D])["seq"]
    report = g.audit()
    assert verdicts(report, "IM.TANK.BREAKDOWN", second) == ["ok"]
    assert verdicts(report, "IM.TANK.BREAKDOWN", held) == ["violation"]
    assert verdicts(report, "IM.TANK.BREAKDOWN", free) == []


def test_an_even_breakdown_needs_no_repair_roll_and_no_early_repair():
    # "... is considered automatically repaired" after the next turn: no repair roll, and not repaired sooner
    g = tank_game()
    breakdown(g, "b-tank", 2, 4)
    g.at(5, "vehicle-movement", BRIT)
    repair = g.die("LS.REPAIR", 3, "b-tank", BRIT)
    early = g.status("b-tank", "repaired", BRIT).lines[-1]["seq"]
    report = g.audit()
    assert verdicts(report, "IM.TANK.BREAKDOWN", repair) == ["violation"]
    assert verdicts(report, "IM.TANK.BREAKDOWN", early) == ["violation"]


def test_an_odd_second_die_is_landships_6_16():
    # "Odd results always follow rule 6.16 of Landships!" (not in the text): unverifiable, and later moves
    # are not judged by this rule
    g = tank_game()
    _, second = breakdown(g, "b-tank", 3, 4)
    g.at(5, "vehicle-movement", BRIT)
    move = g.move("b-tank", [B, C])["seq"]
    report = g.audit()
    assert verdicts(report, "IM.TANK.BREAKDOWN", second) == ["unverifiable"]
    assert verdicts(report, "IM.TANK.BREAKDOWN", move) == []


def test_a_breakdown_needs_its_second_die():
    # "When a tank breaks down, roll a second six-sided die."
    g = tank_game()
    status, _ = breakdown(g, "b-tank", None, 4)
    g.at(4, "first-foot-movement", BRIT)
    assert verdicts(g.audit(), "IM.TANK.BREAKDOWN", status) == ["missing-roll"]
    g = tank_game()
    _, second = breakdown(g, "b-tank", 4, 4, die="d10")
    assert verdicts(g.audit(), "IM.CORE.DICE", second) == ["violation"]


def test_the_breakdown_roll_carries_the_catalogue_modifier():
    # Italian CV 29: "prone to breakdowns (breakdown modifier of +1)"; New Tanks: "All new vehicles have a
    # breakdown modifier of +0 unless specifically stated otherwise"; the Mine Clearer: "its breakdown modifier is
    # increased by +1" over the female Mk IV's (on the Landships! counter)
    g = VehicleLog()
    g.unit("cv", "italian", "tank", A, model="CV 29")
    g.unit("star", BRIT, "tank", B, model="Mk V*")
    g.unit("mc", BRIT, "tank", C, model="Mine Clearer")
    g.unit("mc2", BRIT, "tank", D, model="Mine Clearer", breakdown_modifier=1)
    g.at(1, "vehicle-movement", BRIT)
    right = g.die("LS.BREAKDOWN", 3, "cv", BRIT, mods=({"value": 1, "why": "breakdown modifier"},))
    wrong = g.die("LS.BREAKDOWN", 3, "cv", BRIT)
    plain = g.die("LS.BREAKDOWN", 3, "star", BRIT)
    said_one = g.die("LS.BREAKDOWN", 3, "star", BRIT, mods=({"value": 1, "why": "breakdown modifier"},))
    unknown = g.die("LS.BREAKDOWN", 3, "mc", BRIT, mods=(1,))
    known = g.die("LS.BREAKDOWN", 3, "mc2", BRIT, mods=({"value": 2, "why": "breakdown modifier"},))
    report = g.audit()
    rule = "IM.TANK.BREAKDOWN.MOD_DEFAULT"
    assert verdicts(report, rule, right) == ["ok"]
    assert verdicts(report, rule, wrong) == ["mismatch"]
    assert verdicts(report, rule, plain) == ["ok"]
    assert verdicts(report, rule, said_one) == ["mismatch"]
    assert verdicts(report, rule, unknown) == ["unverifiable"]
    assert verdicts(report, rule, known) == ["ok"]


# -- Tanks as Cover (changed) ------------------------------------------------------------------------------

def test_infantry_with_a_tank_get_plus_one_on_the_sacrt():
    # Tanks as Cover: "If infantry or cavalry units are in the same hexagon as the tank, they now receive a +1 die
    # modifier on the SACRT due to the presence of the tank protecting them."
    g = VehicleLog()
    g.unit("b-tank", BRIT, "tank", D, model="Mark IV male")
    g.unit("b-inf", BRIT, "infantry-platoon", D)
    g.unit("g-inf", GER, "infantry-platoon", A)
    g.unit("g-inf2", GER, "infantry-platoon", E)
    g.at(1, "defensive-small-arms-fire", BRIT)
    _, without = g.small_arms("a1", ["g-inf"], D, GER, firepower=4, results=[("b-inf", "no-effect")])
    _, with_it = g.small_arms("a2", ["g-inf"], D, GER, firepower=4, mods=(1,), results=[("b-inf", "no-effect")])
    _, alone = g.small_arms("a3", ["b-inf"], E, BRIT, firepower=4, results=[("g-inf2", "no-effect")])
    report = g.audit()
    assert verdicts(report, "IM.TANK.COVER", without) == ["mismatch"]
    assert verdicts(report, "IM.TANK.COVER", with_it) == ["ok"]
    assert verdicts(report, "IM.TANK.COVER", alone) == []


# -- Main Gun Blast Power (changed) ------------------------------------------------------------------------

def test_a_vehicle_fires_its_blast_power_plus_two_for_each_machine_gun():
    # Main Gun Blast Power: "each would have added the blast power of their main gun (3) (plus any vehicle machine
    # gun)"; New Tanks: "each machine gun mounted on a tank has a firepower of 2": a 47 mm gun and one MG put 5
    g = VehicleLog()
    g.unit("b-tank", BRIT, "tank", A, gun="47mm", mgs=1)
    g.unit("g-inf", GER, "infantry-platoon", C)
    g.at(1, "offensive-small-arms-fire", BRIT)
    five, _ = g.small_arms("a1", ["b-tank"], C, BRIT, firepower=5)
    six, _ = g.small_arms("a2", ["b-tank"], C, BRIT, firepower=6)
    report = g.audit()
    assert verdicts(report, "IM.TANK.BLAST.SUM", five) == ["ok"]
    assert verdicts(report, "IM.TANK.BLAST.SUM", six) == ["violation"]


def test_ex_im_04_blast_power_in_a_small_arms_phase_is_summed_on_a_d6():
    # EX-IM-04: "two enemy tanks had both fired at the hexagon with their 47 mm guns, each would have added the
    # blast power of their main gun (3) ... resolved on the SACRT using a six-sided die": total 6 on a d6; with one
    # MG each, 10; a d10 is refused
    g = VehicleLog()
    g.unit("g-e1", GER, "tank", A, gun="47mm", mgs=1)
    g.unit("g-e2", GER, "tank", B, gun="47mm", mgs=1)
    g.unit("b-inf", BRIT, "infantry-platoon", D)
    g.at(1, "defensive-small-arms-fire", BRIT)
    six, six_roll = g.small_arms("a1", ["g-e1", "g-e2"], D, GER, firepower=6, roll=3,
                                 results=[("b-inf", "no-effect")])
    ten, _ = g.small_arms("a2", ["g-e1", "g-e2"], D, GER, firepower=10, roll=3, results=[("b-inf", "no-effect")])
    _, d10_roll = g.small_arms("a3", ["g-e1", "g-e2"], D, GER, firepower=6, roll=3, die="d10")
    report = g.audit()
    assert verdicts(report, "IM.TANK.BLAST.SUM", six) == ["ok"]
    assert verdicts(report, "IM.TANK.BLAST.SUM", ten) == ["ok"]
    assert verdicts(report, "IM.TANK.BLAST.SAFPHASE", six_roll - 1) == ["ok"]
    assert verdicts(report, "IM.TANK.BLAST.SAFPHASE", d10_roll - 1) == ["violation"]


def at_game() -> VehicleLog:
    """EX-IM-03: a friendly tank and a platoon in hex X (D); an enemy tank with a 47 mm gun at A."""
    g = VehicleLog()
    g.unit("b-tank", BRIT, "tank", D, model="Mark IV female")
    g.unit("b-inf", BRIT, "infantry-platoon", D)
    g.unit("g-tank", GER, "tank", A, gun="47mm", mgs=0)
    g.at(1, "defensive-anti-tank-fire", BRIT)
    return g


def test_ex_im_03_the_automatic_safa_reuses_the_anti_tank_d10():
    # EX-IM-03: "an enemy tank armed with a 47 mm gun fires at the hexagon, destroying the tank ... an automatic SAFA
    # is also immediately conducted against the infantry group ... Using the same ten-sided die result, the blast
    # power of 3 (for a 47 mm gun) is cross-referenced on the SACRT"
    g = at_game()
    g.anti_tank("at1", ["g-tank"], D, GER, target_unit="b-tank", roll=4, results=[("b-tank", "destroyed")])
    safa, _ = g.small_arms("s1", ["g-tank"], D, GER, firepower=3, roll=None, spot=False, results=[("b-inf", "pinned")])
    again = g.die("LS.SACRT", 4, "s1", GER, die="d10")
    fresh = g.die("LS.SACRT", 7, "s1", GER, die="d10")
    report = g.audit()
    assert verdicts(report, "IM.TANK.BLAST.AUTO_SAFA", safa) == ["ok"]
    assert verdicts(report, "IM.TANK.BLAST.VALUE", safa) == ["ok"]
    assert verdicts(report, "IM.TANK.BLAST.AUTO_SAFA", again) == ["ok"]
    assert verdicts(report, "IM.TANK.BLAST.AUTO_SAFA", fresh) == ["violation"]


def test_the_automatic_safa_must_follow_the_guns_anti_tank_shot():
    # "Even though the tank was the target, an automatic SAFA is also immediately conducted against the infantry
    # group in the hexagon" ("whether or not enemy vehicles are present")
    g = at_game()
    fired, _ = g.anti_tank("at1", ["g-tank"], D, GER, target_unit="b-tank", roll=9, results=[("b-tank", "miss")])
    g.at(1, "defensive-small-arms-fire", BRIT)
    assert verdicts(g.audit(), "IM.TANK.BLAST.AUTO_SAFA", fired) == ["violation"]


def test_the_automatic_safa_fires_at_the_guns_blast_power():
    # "all guns mounted on vehicles are considered to have an exaggerated firepower of 8 ... Instead, use the revised
    # blast powers": the 47 mm fires its SAFA at 3, not 8
    g = at_game()
    g.anti_tank("at1", ["g-tank"], D, GER, target_unit="b-tank", roll=4, results=[("b-tank", "destroyed")])
    safa, _ = g.small_arms("s1", ["g-tank"], D, GER, firepower=8, roll=None, spot=False)
    assert verdicts(g.audit(), "IM.TANK.BLAST.VALUE", safa) == ["violation"]


def test_a_gun_whose_blast_power_is_on_the_play_aid_is_unverifiable():
    # "use the revised blast powers printed on the play aid": the 57 mm's is not in the text (table pack BLAST)
    g = VehicleLog()
    g.unit("b-inf", BRIT, "infantry-platoon", D)
    g.unit("b-tank", BRIT, "tank", D, model="Mark IV female")
    g.unit("g-ele", GER, "tank", A, model="Elephant")
    g.at(1, "defensive-anti-tank-fire", BRIT)
    g.anti_tank("at1", ["g-ele"], D, GER, target_unit="b-tank", roll=4, results=[("b-tank", "destroyed")])
    safa, _ = g.small_arms("s1", ["g-ele"], D, GER, firepower=4, roll=None, spot=False)
    assert verdicts(g.audit(), "IM.TANK.BLAST.VALUE", safa) == ["unverifiable"]
    assert verdicts(g.audit_with({"BLAST": {"57mm": 4}}), "IM.TANK.BLAST.VALUE", safa) == ["ok"]
    assert verdicts(g.audit_with({"BLAST": {"57mm": 3}}), "IM.TANK.BLAST.VALUE", safa) == ["violation"]


# -- Anti-Tank Capabilities (changed), the designer's note ---------------------------------------------------

def test_only_a_gun_of_20_mm_fires_anti_tank():
    # "Only vehicles armed with a 20 mm or larger gun possess an anti-tank fire capability (ATFA). Vehicles armed
    # only with machine guns cannot destroy other armoured targets unless those targets have the "!" indicator"
    g = VehicleLog()
    g.unit("b-mke", BRIT, "tank", A, model="Vickers Mk E")
    g.unit("b-47", BRIT, "tank", B, gun="47mm", mgs=1)
    g.unit("b-lancia", BRIT, "armoured-car", C, model="Lancia")
    g.unit("g-tank", GER, "tank", E, model="A7V")
    g.unit("g-cl", GER, "tank", D, model="Carden-Lloyd Mk VI")
    g.at(1, "offensive-anti-tank-fire", BRIT)
    hmg, _ = g.anti_tank("at1", ["b-mke"], E, BRIT, target_unit="g-tank", results=[("g-tank", "miss")])
    gun, _ = g.anti_tank("at2", ["b-47"], E, BRIT, target_unit="g-tank", results=[("g-tank", "miss")])
    bang, _ = g.anti_tank("at3", ["b-lancia"], D, BRIT, target_unit="g-cl", results=[("g-cl", "miss")])
    report = g.audit()
    assert verdicts(report, "IM.TANK.ATFA", hmg) == ["violation"]
    assert verdicts(report, "IM.TANK.ATFA", gun) == ["ok"]
    assert verdicts(report, "IM.TANK.ATFA", bang) == ["ok"]


def test_machine_gun_vehicles_destroy_only_armour_with_the_mg_indicator():
    # "Vehicles armed only with machine guns cannot destroy other armoured targets unless those targets have the
    # '!' indicator"; the C-L Mk VI: "Machine gun small arms fire may be directed against this vehicle as if it were
    # a lightly armoured tank"
    g = VehicleLog()
    g.unit("b-lancia", BRIT, "armoured-car", A, model="Lancia")
    g.unit("g-ac", GER, "armoured-car", C, model="Ehrhardt 1917")
    g.unit("g-cl", GER, "tank", D, model="Carden-Lloyd Mk VI")
    g.at(1, "offensive-small-arms-fire", BRIT)
    _, armour = g.small_arms("a1", ["b-lancia"], C, BRIT, firepower=4, results=[("g-ac", "eliminated")])
    _, light = g.small_arms("a2", ["b-lancia"], D, BRIT, firepower=4, results=[("g-cl", "eliminated")])
    report = g.audit()
    assert verdicts(report, "IM.TANK.ATFA", armour) == ["violation"]
    assert verdicts(report, "IM.TANK.ATFA", light) == ["ok"]


def test_an_anti_tank_hit_destroys_a_tank():
    # DESIGNER'S NOTE: "tanks have no armour value and any "hit" on a tank caused by an anti-tank weapon simply
    # destroys it"; anti-tank rifles keep their own criticals (Anti-Tank Rifles (changed))
    g = VehicleLog()
    g.unit("b-gun", BRIT, "artillery-gun", A)
    g.unit("b-atr", BRIT, "support-weapon", B, weapon="atr")
    for t, at in (("g-t1", C), ("g-t2", D), ("g-t3", E), ("g-t4", "5:0507")):
        g.unit(t, GER, "tank", at, model="A7V")
    g.at(1, "offensive-anti-tank-fire", BRIT)
    _, kept = g.anti_tank("at1", ["b-gun"], C, BRIT, target_unit="g-t1", results=[("g-t1", "hit")])
    _, killed = g.anti_tank("at2", ["b-gun"], D, BRIT, target_unit="g-t2", results=[("g-t2", "hit")])
    g.status("g-t2", "eliminated", BRIT)
    _, damaged = g.anti_tank("at3", ["b-gun"], E, BRIT, target_unit="g-t3", results=[("g-t3", "immobilised")])
    _, rifle = g.anti_tank("at4", ["b-atr"], "5:0507", BRIT, target_unit="g-t4", weapon="atr",
                           results=[("g-t4", "hit")])
    g.at(1, "offensive-small-arms-fire", BRIT)
    report = g.audit()
    assert verdicts(report, "IM.TANK.NOARMOUR", kept) == ["violation"]
    assert verdicts(report, "IM.TANK.NOARMOUR", killed) == []
    assert verdicts(report, "IM.TANK.NOARMOUR", damaged) == ["violation"]
    assert verdicts(report, "IM.TANK.NOARMOUR", rifle) == []


def test_the_elephant_ignores_anti_tank_rifles_and_confirms_hits():
    # The Elephant: "anti-tank rifles had no effect on it ... when hit by an anti-tank fire other than that of a
    # flamethrower, the Elephant is not automatically destroyed. Instead, a second confirming result of 1 to 5 on a
    # ten-sided die is required." EC-36: confirmation d10 = 5 -> destroyed; d10 = 6 -> no effect
    g = VehicleLog()
    g.unit("g-gun", GER, "artillery-gun", A)
    g.unit("g-atr", GER, "support-weapon", B, weapon="atr")
    g.unit("e1", BRIT, "tank", D, model="Elephant")
    g.unit("e2", BRIT, "tank", E, model="Elephant")
    g.unit("e3", BRIT, "tank", "5:0507", model="Elephant")
    g.at(1, "defensive-anti-tank-fire", BRIT)
    _, rifle = g.anti_tank("at1", ["g-atr"], D, GER, target_unit="e1", weapon="atr", results=[("e1", "destroyed")])
    _, five = g.anti_tank("at2", ["g-gun"], E, GER, target_unit="e2", results=[("e2", "hit")])
    confirm5 = g.die("IM.VEH.ELEPHANT.CONFIRM", 5, "e2", GER, die="d10")
    _, six = g.anti_tank("at3", ["g-gun"], "5:0507", GER, target_unit="e3", results=[("e3", "hit")])
    confirm6 = g.die("IM.VEH.ELEPHANT.CONFIRM", 6, "e3", GER, die="d10")
    gone = g.status("e3", "eliminated", GER).lines[-1]["seq"]
    g.at(1, "defensive-small-arms-fire", BRIT)
    report = g.audit()
    assert verdicts(report, "IM.VEH.ELEPHANT.ATR_IMMUNE", rifle) == ["violation"]
    assert verdicts(report, "IM.VEH.ELEPHANT.CONFIRM", confirm5) == ["ok"]
    assert verdicts(report, "IM.TANK.NOARMOUR", confirm5) == ["violation"]      # confirmed, and not eliminated
    assert verdicts(report, "IM.VEH.ELEPHANT.CONFIRM", confirm6) == ["ok"]
    assert verdicts(report, "IM.VEH.ELEPHANT.CONFIRM", gone) == ["violation"]
    g2 = VehicleLog()
    g2.unit("g-gun", GER, "artillery-gun", A)
    g2.unit("e1", BRIT, "tank", D, model="Elephant")
    g2.at(1, "defensive-anti-tank-fire", BRIT)
    _, hit = g2.anti_tank("at1", ["g-gun"], D, GER, target_unit="e1", results=[("e1", "hit")])
    g2.at(1, "defensive-small-arms-fire", BRIT)
    assert verdicts(g2.audit(), "IM.VEH.ELEPHANT.CONFIRM", hit) == ["missing-roll"]


def test_difficult_terrain_breakdowns_are_the_landships_table():
    # Terrain States: "Difficult terrain: as before, difficult terrain increases the chance of a vehicle breaking down
    # but imposes no additional movement point cost" (by how much: the Landships! breakdown table)
    g = VehicleLog(state="difficult")
    g.unit("b-tank", BRIT, "tank", A, model="Mark IV male")
    g.at(1, "vehicle-movement", BRIT)
    roll = g.die("LS.BREAKDOWN", 5, "b-tank", BRIT)
    assert verdicts(g.audit(), "IM.ENV.TSTATE.DIFFICULT", roll) == ["unverifiable"]
    g = tank_game()
    g.at(1, "vehicle-movement", BRIT)
    roll = g.die("LS.BREAKDOWN", 5, "b-tank", BRIT)
    assert verdicts(g.audit(), "IM.ENV.TSTATE.DIFFICULT", roll) == []
