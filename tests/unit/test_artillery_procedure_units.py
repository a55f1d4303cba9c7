"""Observers and guns as units (Infernal Machines, Liaison officer; FO and LNO in combat; Balloons;
General Rule; Restrictions on indirect fire)."""
from tests.artillery_procedure_helpers import FO_HEX, Game, at, found, run


def test_one_lno_per_fo():
    # IM: "a player may automatically choose to have a liaison officer for each forward observer".
    game = Game()
    game.unit("b-lno2", "british", "liaison-officer", "1:1003")
    game.turn_start(1)
    assert found(run(game), "IM.ART.LNO.AVAIL") == [(at(game.lines[-2]), "IM.ART.LNO.AVAIL", "violation")]
    one_each = Game()
    one_each.turn_start(1)
    assert found(run(one_each), "IM.ART.LNO.AVAIL") == []


def test_overrun_fo_is_eliminated():
    # IM: "A forward observer ... alone in a hexagon into which enemy ... platoon-sized infantry ...
    # moves is eliminated."
    game = Game()
    game.unit("g-2", "german", "infantry-platoon", "1:1004")
    game.turn_start(1)
    game.phase_start("first-foot-movement", "german")
    game.add("UnitMoved", {"unit": "g-2", "path": ["1:1004", FO_HEX]}, side="german")
    nxt = game.add("PhaseStarted", {"phase": "second-foot-movement", "active": "german"})
    game.phase = "second-foot-movement"
    assert found(run(game), "IM.ART.FO.COMBAT") == [(at(nxt), "IM.ART.FO.COMBAT", "mismatch")]
    fixed = Game()
    fixed.unit("g-2", "german", "infantry-platoon", "1:1004")
    fixed.turn_start(1)
    fixed.phase_start("first-foot-movement", "german")
    fixed.add("UnitMoved", {"unit": "g-2", "path": ["1:1004", FO_HEX]}, side="german")
    fixed.add("UnitStatusChanged", {"unit": "b-fo", "status": "eliminated", "cause": "overrun"}, side="german")
    fixed.phase_start("second-foot-movement", "german")
    assert found(run(fixed), "IM.ART.FO.COMBAT") == []


def test_balloon_attacked_only_by_aircraft():
    # IM, Balloons: "may not be the target of small arms or anti-tank fire by enemy ground units, or of
    # barrage fire by enemy off-map artillery elements".
    game = Game()
    game.unit("g-bal", "german", "balloon", "1:1015")
    game.barrage_phase(1).observe("1:1015", via="forward-observer")
    declared = game.declare("b-1", "1:1015")
    assert (at(declared), "IM.ART.BALLOON.DEFENCE", "violation") in found(run(game), "IM.ART.BALLOON")


def test_onmap_guns_fire_at_ten_each():
    # IM: "Each on-map artillery gun conducting small arms fire has a firepower of 10."
    game = Game()
    game.unit("b-gun", "british", "artillery-gun", "1:1008")
    game.unit("b-gun2", "british", "artillery-gun", "1:1008")
    game.turn_start(1)
    game.fire_phase().small_arms("a-1", firers=["b-gun", "b-gun2"], firepower=20)
    game.small_arms("a-2", firers=["b-gun", "b-gun2"], firepower=15)
    fired = [l for l in game.lines if l["type"] == "SmallArmsFired"][-1]
    assert found(run(game), "IM.ART.GEN.FP") == [(at(fired), "IM.ART.GEN.FP", "mismatch")]


def test_guns_and_observed_hex_in_barrage_phase():
    # IM: guns fire directly "in the appropriate fire phase (but not during the barrage phase)"; an observed
    # hexagon "may only be attacked in the barrage phase by indirect barrage fire".
    game = Game()
    game.unit("b-gun", "british", "artillery-gun", "1:1008")
    game.barrage_phase(1).observe()
    game.small_arms("a-1", firers=["b-gun"], firepower=10)
    fired = [l for l in game.lines if l["type"] == "SmallArmsFired"][-1]
    report = run(game)
    assert (at(fired), "IM.ART.GEN.ONMAP_SKIP", "violation") in found(report, "IM.ART.GEN")
    assert found(report, "IM.ART.RESTRICT.BARRAGE_ONLY") == [(at(fired), "IM.ART.RESTRICT.BARRAGE_ONLY", "violation")]


def test_offmap_firepower_is_5_to_40():
    # IM, General Rule, Artillery firepower: "each off-map artillery element ... a firepower from 5 to 40".
    game = Game()
    game.add("ArtilleryElementAssigned", {"element": "obm-big", "side": "british", "firepower": 45}, side="british")
    game.add("ArtilleryElementAssigned", {"element": "obm-5", "side": "british", "firepower": 5}, side="british")
    big, five = game.lines[-2], game.lines[-1]
    assert (at(big), "IM.ART.GEN.FP", "violation") in found(run(game), "IM.ART.GEN.FP")
    assert (at(five), "IM.ART.GEN.FP", "violation") not in found(run(game), "IM.ART.GEN.FP")
