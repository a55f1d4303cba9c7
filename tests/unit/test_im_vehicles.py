"""The new vehicles' arms and protection (IM.VEH): each expectation quotes the vehicle's section of the text.

Geometry on map 5: the vehicle stands at T = 5:0505 facing north (0); AHEAD is 5:0502 (due north), BEHIND
5:0508 (due south), FLANK 5:0905 (due east, 90 degrees off), HALF 5:0605 (north-east, 60 degrees off: the
Landships! 8.12 arc's edge, which the text does not draw)."""
from __future__ import annotations

from tests.vehicle_helpers import BRIT, GER, VehicleLog, verdicts

T, AHEAD, BEHIND, FLANK, HALF = "5:0505", "5:0502", "5:0508", "5:0905", "5:0605"


def game(model: str, cls: str = "tank", side: str = BRIT, **attrs) -> VehicleLog:
    g = VehicleLog()
    g.unit("v", side, cls, T, model=model, **attrs)
    enemy = GER if side == BRIT else BRIT
    for name, at in (("e-ahead", AHEAD), ("e-behind", BEHIND), ("e-flank", FLANK), ("e-half", HALF)):
        g.unit(name, enemy, "infantry-platoon", at)
    return g


def sa(g: VehicleLog, attack: str, target: str, firepower, side: str = BRIT, **kw) -> int:
    return g.small_arms(attack, ["v"], target, side, firepower=firepower, **kw)[0]


def test_single_forward_machine_guns_bear_ahead_only():
    # CV 29: "a 6.5 mm Breda machine gun (firepower 2) on a fixed mount (use rule 8.12)"; Mk IX: "armed with only a
    # single machine gun at the front (use rule 8.12)"; Elephant: "a single machine gun (firepower 2) firing straight
    # ahead"
    for model, rule in (("CV 29", "IM.VEH.CV29"), ("Mk IX", "IM.VEH.MKVSTAR_IX.ARMS")):
        g = game(model)
        g.at(1, "offensive-small-arms-fire", BRIT)
        ahead, behind, half = sa(g, "a1", AHEAD, 2), sa(g, "a2", BEHIND, 2), sa(g, "a3", HALF, 2)
        report = g.audit()
        assert verdicts(report, rule, ahead) == ["ok"], model
        assert verdicts(report, rule, behind) == ["violation"], model
        assert verdicts(report, rule, half) == ["unverifiable"], model
    # the Elephant's gun fires all round (its 57 mm blast power from the table pack), its MG ahead only
    g = game("Elephant")
    g.at(1, "offensive-small-arms-fire", BRIT)
    behind_with_mg = sa(g, "a1", BEHIND, 6)
    behind_gun = sa(g, "a2", BEHIND, 4)
    ahead_both = sa(g, "a3", AHEAD, 6)
    report = g.audit_with({"BLAST": {"57mm": 4}})
    assert verdicts(report, "IM.VEH.ELEPHANT.ARMS", behind_with_mg) == ["violation"]
    assert verdicts(report, "IM.VEH.ELEPHANT.ARMS", behind_gun) == ["ok"]
    assert verdicts(report, "IM.VEH.ELEPHANT.ARMS", ahead_both) == ["ok"]
    assert verdicts(g.audit(), "IM.VEH.ELEPHANT.ARMS", behind_gun) == ["unverifiable"]


def test_rear_guns_fire_rearward():
    # Pierce Arrow: "the gun facing rearward with limited firing angle (use the firing arc of artillery and anti-tank
    # guns)"; 47 mm AC: "the turret had a restricted firing arc to the rear"; Lancia: one MG "in a rotating turret ...,
    # the second facing directly to the rear"; Naval AC: "The machine gun mounted at the front uses the anti-tank and
    # artillery firing arc"
    g = game("Pierce Arrow", "armoured-car")
    g.unit("g-tank", GER, "tank", AHEAD, model="A7V")
    g.unit("g-tank2", GER, "tank", BEHIND, model="A7V")
    g.at(1, "offensive-anti-tank-fire", BRIT)
    ahead, _ = g.anti_tank("at1", ["v"], AHEAD, BRIT, target_unit="g-tank", results=[("g-tank", "miss")])
    behind, _ = g.anti_tank("at2", ["v"], BEHIND, BRIT, target_unit="g-tank2", results=[("g-tank2", "miss")])
    report = g.audit()
    assert verdicts(report, "IM.VEH.PIERCEARROW", ahead) == ["violation"]
    assert verdicts(report, "IM.VEH.PIERCEARROW", behind) == ["ok"]
    g = game("47 mm armoured car", "armoured-car")
    g.unit("g-tank", GER, "tank", AHEAD, model="A7V")
    g.at(1, "offensive-anti-tank-fire", BRIT)
    ahead, _ = g.anti_tank("at1", ["v"], AHEAD, BRIT, target_unit="g-tank", results=[("g-tank", "miss")])
    assert verdicts(g.audit(), "IM.VEH.AC47", ahead) == ["violation"]
    g = game("Lancia", "armoured-car")
    g.at(1, "offensive-small-arms-fire", BRIT)
    front_two, rear_two = sa(g, "a1", AHEAD, 4), sa(g, "a2", BEHIND, 4)
    report = g.audit()
    assert verdicts(report, "IM.VEH.LANCIA", front_two) == ["violation"]
    assert verdicts(report, "IM.VEH.LANCIA", rear_two) == ["ok"]
    g = game("Naval armoured car", "armoured-car")
    g.at(1, "offensive-small-arms-fire", BRIT)
    rear_mg = sa(g, "a1", BEHIND, 2)
    assert verdicts(g.audit(), "IM.VEH.NAVALAC", rear_mg) == ["unverifiable"]          # the gun's blast: the pack's
    assert verdicts(g.audit_with({"BLAST": {"57mm": 1}}), "IM.VEH.NAVALAC", rear_mg) == ["violation"]


def test_ex_im_25_the_latil_by_side():
    # Latil: "the Latil could project a firepower of up to 4 to the left or right, but only a firepower of 2 to the
    # front or rear" (EX-IM-25: max_fp_left 4, right 4, front 2, rear 2)
    g = game("Latil", "armoured-car")
    g.at(1, "offensive-small-arms-fire", BRIT)
    flank4, front4, rear2, front2 = sa(g, "a1", FLANK, 4), sa(g, "a2", AHEAD, 4), sa(g, "a3", BEHIND, 2), \
        sa(g, "a4", AHEAD, 2)
    report = g.audit()
    assert verdicts(report, "IM.VEH.LATIL", flank4) == ["ok"]
    assert verdicts(report, "IM.VEH.LATIL", front4) == ["violation"]
    assert verdicts(report, "IM.VEH.LATIL", rear2) == ["ok"]
    assert verdicts(report, "IM.VEH.LATIL", front2) == ["ok"]


def test_ex_im_23_the_a7v54_puts_up_to_six_on_one_target():
    # A7V(54): "Targets located in the double-hatched zone may be attacked by two machine guns, for a total firepower of
    # 4 ... A target located in this combined zone may be attacked with a firepower of up to 6"
    g = game("A7V(54)", side=GER)
    g.at(1, "defensive-small-arms-fire", BRIT)
    two, six, eight = (sa(g, f"a{fp}", AHEAD, fp, side=GER) for fp in (2, 6, 8))
    report = g.audit()
    assert verdicts(report, "IM.VEH.A7V54.MG", two) == ["ok"]
    assert verdicts(report, "IM.VEH.A7V54.MG", six) == ["unverifiable"]       # the zones are the diagram's
    assert verdicts(report, "IM.VEH.A7V54.MG", eight) == ["violation"]
    assert verdicts(report, "IM.TANK.BLAST.SUM", eight) == ["violation"]


def test_the_vickers_mk_ia_fires_in_three_directions_at_most():
    # "The Mk. IA may fire in at most three directions per fire phase. As it carries no high-explosive ammunition, the
    # gun has a blast power of 1."
    g = game("Vickers Mk IA")
    g.unit("e-west", GER, "infantry-platoon", "5:0105")
    g.at(1, "offensive-small-arms-fire", BRIT)
    shots = [sa(g, f"a{i}", at, 2) for i, at in enumerate((AHEAD, BEHIND, FLANK), 1)]
    fourth = sa(g, "a4", "5:0105", 2)
    g.at(1, "offensive-anti-tank-fire", BRIT)
    g.unit("g-tank", GER, "tank", AHEAD, model="A7V")
    g.anti_tank("at1", ["v"], AHEAD, BRIT, target_unit="g-tank", results=[("g-tank", "miss")])
    safa = g.small_arms("s1", ["v"], AHEAD, BRIT, firepower=1, roll=None, spot=False)[0]
    report = g.audit()
    assert [verdicts(report, "IM.VEH.VICKERSIA.ARMS", s)[-1] for s in shots] == ["ok"] * 3
    assert "violation" in verdicts(report, "IM.VEH.VICKERSIA.ARMS", fourth)
    assert verdicts(report, "IM.TANK.BLAST.VALUE", safa) == ["ok"]             # blast power 1


def test_the_ics_smoke_and_its_full_blast_power():
    # ICS: "with full blast power and the capability of firing smoke rounds (place a smoke marker in the targeted
    # hexagon) to a distance of 20 hexagons"
    g = game("Vickers Mk IA ICS")
    g.unit("e-far", GER, "infantry-platoon", "5:0525")
    g.at(1, "offensive-small-arms-fire", BRIT)
    smoke = sa(g, "a1", "5:0520", 0, ammunition="smoke", roll=None)
    too_far = sa(g, "a2", "5:0526", 0, ammunition="smoke", roll=None)
    g.at(1, "offensive-anti-tank-fire", BRIT)
    g.unit("g-tank", GER, "tank", AHEAD, model="A7V")
    g.anti_tank("at1", ["v"], AHEAD, BRIT, target_unit="g-tank", results=[("g-tank", "miss")])
    safa = g.small_arms("s1", ["v"], AHEAD, BRIT, firepower=3, roll=None, spot=False)[0]
    report = g.audit()
    assert set(verdicts(report, "IM.VEH.VICKERSIA.ICS", smoke)) == {"ok"}
    assert verdicts(report, "IM.VEH.VICKERSIA.ICS", too_far).count("violation") == 1
    assert verdicts(report, "IM.TANK.BLAST.VALUE", safa) == ["unverifiable"]   # "full blast power": no number


def test_the_mk_e_heavy_machine_gun():
    # Mk E: "a 12.7 mm heavy machine gun (it has a firepower of 5) ... it may conduct small arms fire against enemy
    # vehicles (add +1 to the die roll)"; the export variant: "two turrets, each armed with a standard machine gun
    # (firepower 2 each and no anti-tank fire capability)"
    g = game("Vickers Mk E")
    g.unit("g-car", GER, "armoured-car", "5:0503")
    g.at(1, "offensive-small-arms-fire", BRIT)
    five = sa(g, "a1", AHEAD, 5)
    six = sa(g, "a2", AHEAD, 6)
    _, plus = g.small_arms("a3", ["v"], "5:0503", BRIT, firepower=5, mods=(1,), results=[("g-car", "no-effect")])
    _, missing = g.small_arms("a4", ["v"], "5:0503", BRIT, firepower=5, results=[("g-car", "no-effect")])
    report = g.audit()
    assert verdicts(report, "IM.TANK.BLAST.SUM", five) == ["ok"]
    assert verdicts(report, "IM.TANK.BLAST.SUM", six) == ["violation"]
    assert verdicts(report, "IM.VEH.VICKERSE.HMG", plus) == ["ok"]
    assert verdicts(report, "IM.VEH.VICKERSE.HMG", missing) == ["mismatch"]
    g = game("Vickers Mk E export")
    g.unit("g-tank", GER, "tank", AHEAD, model="A7V")
    g.at(1, "offensive-small-arms-fire", BRIT)
    four, five = sa(g, "a1", AHEAD, 4), sa(g, "a2", AHEAD, 5)
    g.at(1, "offensive-anti-tank-fire", BRIT)
    at, _ = g.anti_tank("at1", ["v"], AHEAD, BRIT, target_unit="g-tank", results=[("g-tank", "miss")])
    report = g.audit()
    assert verdicts(report, "IM.VEH.VICKERSE.EXPORT", four) == ["unverifiable"]    # the Austin arcs: the counter's
    assert verdicts(report, "IM.VEH.VICKERSE.EXPORT", five) == ["violation"]
    assert verdicts(report, "IM.TANK.ATFA", at) == ["violation"]


def test_the_ehrhardts_machine_guns():
    # Ehrhardt 1915: "allows two machine guns to engage the same target while the third must fire at another";
    # 1917: "four machine guns (firepower 2 each) in the hull ... and two machine guns (firepower 2 each) in a
    # rotating turret"
    g = game("Ehrhardt 1915", "armoured-car")
    g.at(1, "offensive-small-arms-fire", BRIT)
    two_mgs, third_same, third_other = sa(g, "a1", AHEAD, 4), sa(g, "a2", AHEAD, 2), sa(g, "a3", FLANK, 2)
    report = g.audit()
    assert verdicts(report, "IM.VEH.EHRHARDT15", two_mgs) == ["ok"]
    assert verdicts(report, "IM.VEH.EHRHARDT15", third_same) == ["violation"]
    assert verdicts(report, "IM.VEH.EHRHARDT15", third_other) == ["violation"]   # 8 in all: only three guns
    g = game("Ehrhardt 1917", "armoured-car")
    g.at(1, "offensive-small-arms-fire", BRIT)
    twelve, fourteen = sa(g, "a1", AHEAD, 12), sa(g, "a2", FLANK, 14)
    report = g.audit()
    assert verdicts(report, "IM.VEH.EHRHARDT17", twelve) == ["unverifiable"]
    assert verdicts(report, "IM.VEH.EHRHARDT17", fourteen) == ["violation"]


def test_size_modifiers_on_the_anti_tank_roll():
    # A7V(54): "As with all A7Vs, this tank has a size modifier of -1"; C-L Mk VI: "a size modifier of +2 on the
    # anti-tank fire table when rolling the die that determines whether it is hit"; Mk IX: "larger (-1 to-hit modifier)"
    g = VehicleLog()
    g.unit("b-gun", BRIT, "artillery-gun", AHEAD)
    for name, model, at in (("a7v54", "A7V(54)", "5:0504"), ("cl", "Carden-Lloyd Mk VI", "5:0506"),
                            ("nine", "Mk IX", "5:0507")):
        g.unit(name, GER, "tank", at, model=model)
    g.at(1, "offensive-anti-tank-fire", BRIT)
    rolls = {}
    for attack, target, at, mods in (("x1", "a7v54", "5:0504", (-1,)), ("x2", "a7v54", "5:0504", ()),
                                     ("x3", "cl", "5:0506", (2,)), ("x4", "nine", "5:0507", ())):
        fired, _ = g.anti_tank(attack, ["b-gun"], at, BRIT, target_unit=target, mods=mods, results=[(target, "miss")])
        rolls[attack] = fired + 1
    report = g.audit()
    assert verdicts(report, "IM.VEH.A7V54.SIZE", rolls["x1"]) == ["ok"]
    assert verdicts(report, "IM.VEH.A7V54.SIZE", rolls["x2"]) == ["mismatch"]
    assert verdicts(report, "IM.VEH.CLMK6.SIZE", rolls["x3"]) == ["ok"]
    assert verdicts(report, "IM.VEH.MKVSTAR_IX.ARMS", rolls["x4"]) == ["mismatch"]


def test_optional_ranges_apply_when_agreed():
    # A7V(54): "If you are playing with optional rule 16.31 of Landships!, reduce the A7V(54)'s firing range to 6";
    # Mk E: "reduce the Mk. E's firing range to 8 if you are playing with optional rule 16.31"; Gun Carrier: "printed
    # with a range of 10"; French SPG: "increase the gun's range to 20"; Pierce Arrow: "increase ... range to 30"
    far = "5:0512"   # 7 hexes north of 0505
    for options, verdict in (([], []), (["16.31"], ["violation"])):
        g = VehicleLog(options=options)
        g.unit("v", GER, "tank", T, model="A7V(54)", range_=8)
        g.unit("b", BRIT, "infantry-platoon", far)
        g.at(1, "defensive-small-arms-fire", BRIT)
        shot = g.small_arms("a1", ["v"], far, GER, firepower=2)[0]
        assert verdicts(g.audit(), "IM.VEH.A7V54.RANGE", shot) == verdict
    g = VehicleLog(options=["16.31"])
    g.unit("v", BRIT, "tank", T, model="Vickers Mk E", range_=12)
    g.unit("g", GER, "infantry-platoon", "5:0514")
    g.at(1, "offensive-small-arms-fire", BRIT)
    shot = g.small_arms("a1", ["v"], "5:0514", BRIT, firepower=5)[0]      # 9 hexes
    assert verdicts(g.audit(), "IM.VEH.VICKERSE.RANGE", shot) == ["violation"]
    g = VehicleLog(options=["IM.VEH.GUNCARRIER.OPT_RANGE", "IM.VEH.FRSPG.GUN"])
    g.unit("gc", BRIT, "tank", T, model="Gun Carrier", range_=None)
    g.unit("spg", BRIT, "armoured-car", "5:0506", model="French SPG")
    g.unit("gun", BRIT, "artillery-gun", "5:0506", range_=12, vehicle="spg")
    g.unit("crew", BRIT, "crew", "5:0506", vehicle="spg")
    g.unit("g", GER, "infantry-platoon", "5:0525")
    g.unit("g2", GER, "infantry-platoon", "5:0527")
    g.at(1, "offensive-small-arms-fire", BRIT)
    carrier = g.small_arms("a1", ["gc"], "5:0525", BRIT, firepower=2)[0]
    spg_near = g.small_arms("a2", ["gun"], "5:0525", BRIT, firepower=10)[0]
    spg_far = g.small_arms("a3", ["gun"], "5:0527", BRIT, firepower=10)[0]
    report = g.audit()
    assert verdicts(report, "IM.VEH.GUNCARRIER.OPT_RANGE", carrier) == ["violation"]     # 20 hexes: beyond 10
    assert verdicts(report, "IM.VEH.FRSPG.GUN", spg_near) == ["ok"]                      # 19 hexes
    assert verdicts(report, "IM.VEH.FRSPG.GUN", spg_far) == ["violation"]                # 21 hexes


def test_speeds_and_gun_ranges_the_text_gives():
    # Tadpole: "The range of its main gun remains 9 and the speed of the tank remains 3/5"; C-L Mk VI: "note its
    # speeds of 9/18"
    g = VehicleLog()
    tad = g.unit("tad", BRIT, "tank", T, model="Tadpole", movement=3)
    fast = g.unit("tad2", BRIT, "tank", "5:0506", model="Tadpole", movement=6)
    cl = g.unit("cl", BRIT, "tank", "5:0507", model="Carden-Lloyd Mk VI", movement=9)
    cl_wrong = g.unit("cl2", BRIT, "tank", "5:0508", model="Carden-Lloyd Mk VI", movement=12)
    g.unit("g-tank", GER, "tank", "5:0515", model="A7V")
    g.at(1, "offensive-anti-tank-fire", BRIT)
    ten, _ = g.anti_tank("at1", ["tad"], "5:0515", BRIT, target_unit="g-tank", results=[("g-tank", "miss")])
    report = g.audit()
    assert verdicts(report, "IM.VEH.TADPOLE.COMPOSITION", tad) == ["ok"]
    assert verdicts(report, "IM.VEH.TADPOLE.COMPOSITION", fast) == ["violation"]
    assert verdicts(report, "IM.VEH.CLMK6.ARMS", cl) == ["ok"]
    assert verdicts(report, "IM.VEH.CLMK6.ARMS", cl_wrong) == ["violation"]
    assert verdicts(report, "IM.VEH.TADPOLE.COMPOSITION", ten) == ["violation"]      # 10 hexes: beyond 9


def test_the_elephant_breaks_down_at_plus_one():
    # "The Elephant's breakdown modifier is +1."
    g = VehicleLog()
    g.unit("ele", BRIT, "tank", T, model="Elephant")
    g.at(1, "vehicle-movement", BRIT)
    good = g.die("LS.BREAKDOWN", 2, "ele", BRIT, mods=({"value": 1, "why": "breakdown modifier"},))
    bad = g.die("LS.BREAKDOWN", 2, "ele", BRIT, mods=({"value": 0, "why": "breakdown modifier"},))
    report = g.audit()
    assert verdicts(report, "IM.TANK.BREAKDOWN.MOD_DEFAULT", good) == ["ok"]
    assert verdicts(report, "IM.TANK.BREAKDOWN.MOD_DEFAULT", bad) == ["mismatch"]


def test_the_cv_29_and_the_47_mm_car_ignore_small_arms():
    # CV 29: "The CV 29 cannot be damaged by small arms fire"; 47 mm AC: "Immune to small arms fire"
    g = VehicleLog()
    g.unit("cv", GER, "tank", AHEAD, model="CV 29")
    g.unit("ac", GER, "armoured-car", "5:0503", model="47 mm armoured car")
    g.unit("b", BRIT, "mg-platoon", T)
    g.at(1, "offensive-small-arms-fire", BRIT)
    _, cv = g.small_arms("a1", ["b"], AHEAD, BRIT, firepower=4, results=[("cv", "pinned")])
    _, ac = g.small_arms("a2", ["b"], "5:0503", BRIT, firepower=4, results=[("ac", "eliminated")])
    _, none = g.small_arms("a3", ["b"], AHEAD, BRIT, firepower=4, results=[("cv", "no-effect")])
    report = g.audit()
    assert verdicts(report, "IM.VEH.CV29", cv) == ["violation"]
    assert verdicts(report, "IM.VEH.AC47", ac) == ["violation"]
    assert verdicts(report, "IM.VEH.CV29", none) == []


def test_exposed_crews_of_the_c_l_and_the_mack():
    # C-L Mk VI: "The C-L's crew are also vulnerable to small arms fire, but add +2 to the to-hit die roll ... If a
    # 'Hit' is recorded on the SACRT, the C-L's crew must take a morale check. The C-L and its crew are eliminated if the
    # crew fails its morale check, but ignore 'pinned' results if the crew passes." The Mack: the same.
    g = VehicleLog()
    g.unit("cl", GER, "tank", AHEAD, model="Carden-Lloyd Mk VI", morale=4)
    g.unit("mack", GER, "armoured-car", "5:0503", model="Mack", morale=4)
    g.unit("b", BRIT, "infantry-platoon", T)
    g.at(1, "offensive-small-arms-fire", BRIT)
    _, no_plus = g.small_arms("a1", ["b"], AHEAD, BRIT, firepower=4, results=[("cl", "no-effect")])
    _, failed = g.small_arms("a2", ["b"], AHEAD, BRIT, firepower=4, mods=(2,), results=[("cl", "hit")])
    g.die("LS.MORALE", 6, "cl", GER)                      # 6 against morale 4: fails, and it is not eliminated
    _, passed = g.small_arms("a3", ["b"], "5:0503", BRIT, firepower=4, mods=(2,), results=[("mack", "hit")])
    g.die("LS.MORALE", 2, "mack", GER)
    g.status("mack", "pinned", GER)                       # passes: "ignore 'pinned' results"
    g.at(1, "close-combat", BRIT)
    report = g.audit()
    assert verdicts(report, "IM.VEH.CLMK6.CREW", no_plus) == ["mismatch"]
    assert verdicts(report, "IM.VEH.CLMK6.CREW", failed) == ["ok", "violation"]
    assert verdicts(report, "IM.VEH.MACK", passed) == ["ok", "violation"]


def test_ap_20_rifle_fire_at_the_benz_is_ambiguous():
    # AP-20: "small arms fire is ineffective against them" against "small arms fire by machine guns affects it in the
    # same way as a normal armoured car": rifle fire at the Benz
    g = VehicleLog()
    g.unit("benz", GER, "armoured-car", AHEAD, model="Benz")
    g.unit("b", BRIT, "infantry-platoon", T)
    g.unit("mg", BRIT, "mg-platoon", T)
    g.at(1, "offensive-small-arms-fire", BRIT)
    _, rifles = g.small_arms("a1", ["b"], AHEAD, BRIT, firepower=4, results=[("benz", "hit")])
    _, mgs = g.small_arms("a2", ["mg"], AHEAD, BRIT, firepower=4, results=[("benz", "hit")])
    assert verdicts(g.audit(), "IM.VEH.BENZ", rifles) == ["ambiguous"]
    assert verdicts(g.audit(IM__VEH__BENZ__RIFLES="ineffective"), "IM.VEH.BENZ", rifles) == ["violation"]
    assert verdicts(g.audit(IM__VEH__BENZ__RIFLES="as-armoured-car"), "IM.VEH.BENZ", rifles) == ["ok"]
    assert verdicts(g.audit(), "IM.VEH.BENZ", mgs) == []


def test_the_french_spg_crew_fires_the_gun_from_the_gun():
    # French SPG: "While it is in the tractor, the crew is invulnerable to small arms fire. To operate the gun, the crew
    # must dismount from the tractor and be stacked on the gun counter ... The gun cannot fire if the crew is pinned or
    # eliminated ... This vehicle has no other weapons."
    g = VehicleLog()
    g.unit("spg", BRIT, "armoured-car", T, model="French SPG")
    g.unit("gun", BRIT, "artillery-gun", T, vehicle="spg")
    g.unit("crew", BRIT, "crew", T, vehicle="spg")
    g.unit("g", GER, "infantry-platoon", AHEAD)
    g.at(1, "vehicle-movement", BRIT)
    g.add("Embarked", {"carrier": "spg", "units": ["crew"]}, side=BRIT)
    g.at(1, "offensive-small-arms-fire", BRIT)
    aboard = g.small_arms("a1", ["gun"], AHEAD, BRIT, firepower=10)[0]
    tractor = g.small_arms("a2", ["spg"], AHEAD, BRIT, firepower=2)[0]
    g.at(2, "second-foot-movement", BRIT)
    g.add("Disembarked", {"carrier": "spg", "units": ["crew"]}, side=BRIT)
    g.at(2, "offensive-small-arms-fire", BRIT)
    stacked = g.small_arms("a3", ["gun"], AHEAD, BRIT, firepower=10)[0]
    g.at(3, "defensive-small-arms-fire", GER)
    g.add("Embarked", {"carrier": "spg", "units": ["crew"]}, side=BRIT)
    _, hit = g.small_arms("a4", ["g"], T, GER, firepower=4, results=[("crew", "pinned")])
    report = g.audit()
    assert verdicts(report, "IM.VEH.FRSPG.CREW", aboard) == ["violation"]
    assert verdicts(report, "IM.VEH.FRSPG.GUN", tractor) == ["violation"]
    assert verdicts(report, "IM.VEH.FRSPG.CREW", stacked) == ["ok"]
    assert verdicts(report, "IM.VEH.FRSPG.CREW", hit) == ["violation"]


def test_wheel_damage_is_landships():
    # New Armoured Cars: "remain vulnerable to damage to their wheels from non-small-arms fire, as under the standard
    # Landships! rules" (not in the text)
    g = VehicleLog()
    g.unit("lancia", GER, "armoured-car", AHEAD, model="Lancia")
    g.unit("gun", BRIT, "artillery-gun", T)
    g.at(1, "offensive-anti-tank-fire", BRIT)
    _, hit = g.anti_tank("at1", ["gun"], AHEAD, BRIT, target_unit="lancia", results=[("lancia", "wheels")])
    assert verdicts(g.audit(), "IM.VEH.AC.WHEELS", hit) == ["unverifiable"]


def test_the_bridge_layer_has_a_blind_front():
    # Bridge Layer: "the tank may not fire its weapons toward the front of the tank (use rule 8.12 ... to determine
    # this "blind spot")" while it carries the bridge; "Once the bridge has been dropped, the tank becomes a standard
    # male Mk. V again"
    g = game("Bridge Layer")
    g.at(1, "offensive-small-arms-fire", BRIT)
    ahead, behind, half = sa(g, "a1", AHEAD, 2), sa(g, "a2", BEHIND, 2), sa(g, "a3", HALF, 2)
    g.at(2, "vehicle-movement", BRIT)
    g.marker("bridge", AHEAD, vehicle="v")
    g.at(2, "offensive-small-arms-fire", BRIT)
    after = sa(g, "a4", AHEAD, 2)
    report = g.audit()
    assert verdicts(report, "IM.VEH.BRIDGELAYER.CARRY", ahead) == ["violation"]
    assert verdicts(report, "IM.VEH.BRIDGELAYER.CARRY", behind) == ["ok"]
    assert verdicts(report, "IM.VEH.BRIDGELAYER.CARRY", half) == ["unverifiable"]
    assert verdicts(report, "IM.VEH.BRIDGELAYER.CARRY", after) == []
