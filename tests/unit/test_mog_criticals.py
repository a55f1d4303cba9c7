"""Landships of Mogdonazia critical hits, from the text (landships-of-mogdonazia.txt, D. 2 "Vehicle
Critical Chart", Airships A. 3 "Airship Critical Chart", B. Crew and Systems). Each game is the
page's example (the landship l-1 of 8 crew at (10, 24)) with a critical hit in turn 1."""
from __future__ import annotations

from tests.unit.test_mog_vehicles import breakdown, built, failing, game, judged, line, move, roll, turn


def crit(result: int, *faces: int, sub: int | None = None, chart: str = "vehicle", purpose: str = "MOG.FIRE.CRIT"):
    data = {"unit": "l-1", "chart": chart, "result": result, "effect": "as charted"}
    if sub is not None:
        data["sub_roll"] = sub
    return [*(roll(purpose, [f], phase="shooting", side="rebels") for f in faces),
            line("CriticalHit", data, phase="shooting", side="rebels")]


def verdicts(lines, rule="MOG.FIRE.CRIT"):
    return [a.verdict.value for a in judged(lines, rule)]


def test_the_critical_is_its_d6():
    # "When a face card is turned, refer to the Vehicle Critical chart. and apply the results."
    assert verdicts(game(*turn(1), *crit(1, 1))) == ["ok"]
    assert verdicts(game(*turn(1), *crit(3, 1))) == ["mismatch"]
    assert verdicts(game(*turn(1), line("CriticalHit", {"unit": "l-1", "chart": "vehicle", "result": 1,
                                                        "effect": "x"}))) == ["missing-roll"]


def test_a_propulsion_hit_rolls_again():
    # "4 Propulsion hit, 1-3 not serious (1/2 speed), 4-6 immobilized"
    assert verdicts(game(*turn(1), *crit(4, 4, 2, sub=2))) == ["ok", "ok"]
    assert verdicts(game(*turn(1), *crit(4, 4, 2, sub=5))) == ["ok", "mismatch"]
    assert verdicts(game(*turn(1), *crit(4, 4, sub=5))) == ["ok", "missing-roll"]


def test_d3_crew_are_killed_no_save():
    # "5 D3 Crew are killed, no save, closest to shooter"; a D3 is "a d6 read as ceil(face/2)"
    def killed(face, dead, wounded=0):
        return game(*turn(1), *crit(5, 5), roll("MOG.FIRE.CRIT", [face], phase="shooting", side="rebels"),
                    line("CasualtiesTaken", {"unit": "l-1", "killed": dead, "wounded": wounded,
                                             "cause": "MOG.FIRE.CRIT"}, phase="shooting"))
    assert verdicts(killed(5, 3)) == ["ok", "ok"]
    assert verdicts(killed(2, 1)) == ["ok", "ok"]
    assert verdicts(killed(2, 2)) == ["ok", "mismatch"]
    assert verdicts(killed(3, 1, wounded=1)) == ["ok", "mismatch"]


def test_a_critical_after_a_d3_reads_its_own_d6():
    # "5 D3 Crew are killed": that D3 is the critical 5's, not the next critical's d6
    d3 = [roll("MOG.FIRE.CRIT", [3], phase="shooting", side="rebels"),
          line("CasualtiesTaken", {"unit": "l-1", "killed": 2, "wounded": 0, "cause": "MOG.FIRE.CRIT"},
               phase="shooting")]
    assert verdicts(game(*turn(1), *crit(5, 5), *d3, *crit(6, 6))) == ["ok", "ok", "ok"]
    assert verdicts(game(*turn(1), *crit(5, 5), *d3, *crit(3, 6))) == ["ok", "ok", "mismatch"]


def test_an_engine_hit_immobilizes():
    # "2 Engine hit, vehicle is immobilized": no move next turn, even with the status unrecorded
    moved = game(*turn(1), *breakdown(3), *crit(2, 2), *turn(2), *breakdown(3, n=2), roll("MOG.VEH.SPEED.DICE", [2, 2, 2], turn=2),
                 move((10.0, 24.0), (12.0, 24.0), n=2))
    assert ("MOG.FIRE.CRIT", "violation") in [f[1:] for f in failing(moved)]
    # repaired ("On a 5 to 6, the system is repaired"), it moves again
    fixed = game(*turn(1), *breakdown(3), *crit(2, 2), *turn(2), *breakdown(3, n=2), roll("MOG.VEH.REPAIR", [6], turn=2),
                 line("RepairAttempted", {"unit": "l-1", "system": "engine", "repaired": True}, turn=2),
                 *turn(3), *breakdown(3, n=3), roll("MOG.VEH.SPEED.DICE", [2, 2, 2], turn=3),
                 move((10.0, 24.0), (12.0, 24.0), n=3))
    assert failing(fixed) == []


def test_the_airship_chart_and_its_unclear_propeller_hit():
    # Airship Critical Chart "3 Propeller hit, lose 1D6 to turning, lose one die" (MOG.Z 5: unclear)
    air = built(kind="airship", target_class=4)
    assert verdicts(game(*turn(1), *crit(1, 1, chart="airship", purpose="MOG.AIR.CRIT"), setup=air),
                    "MOG.AIR.CRIT") == ["ok"]
    assert verdicts(game(*turn(1), *crit(3, 3, chart="airship", purpose="MOG.AIR.CRIT"), setup=air),
                    "MOG.AIR.CRIT") == ["ok", "ambiguous"]


def test_a_repair_names_a_system():
    # B.: "systems ... consist of the engine, the gear box, the weapons and the propulsion system"
    def repaired(system):
        return game(*turn(1), *breakdown(3), roll("MOG.VEH.REPAIR", [6]),
                    line("RepairAttempted", {"unit": "l-1", "system": system, "repaired": True}))
    assert verdicts(repaired("gear-box"), "MOG.VEH.SYSTEMS") == ["ok"]
    assert verdicts(repaired("l-1/gun"), "MOG.VEH.SYSTEMS") == ["ok"]
    assert verdicts(repaired("boiler"), "MOG.VEH.SYSTEMS") == ["violation"]


def test_a_vehicle_without_crew_does_not_act():
    # "It will always have a crew (else it would be abandoned)": 8 crew, all killed, then it moves
    lines = game(*turn(1), line("CasualtiesTaken", {"unit": "l-1", "killed": 8, "wounded": 0, "cause": "TSATF.FIRE"}),
                 *breakdown(3), roll("MOG.VEH.SPEED.DICE", [2, 2, 2]), move((10.0, 24.0), (12.0, 24.0)))
    assert ("MOG.GEN.UNIT", "violation") in [f[1:] for f in failing(lines)]
    assert verdicts(lines, "MOG.GEN.UNIT") == ["violation"]



def test_a_vehicle_without_crew_rolls_no_breakdown():
    # MOG: "It will always have a crew (else it would be abandoned)"; A. 2 "Vehicles must roll for breakdown every
    # turn": the 8 crew all killed in turn 1, no one is left to roll in turn 2
    lines = game(*turn(1), *breakdown(3), line("CasualtiesTaken", {"unit": "l-1", "killed": 8, "wounded": 0,
                                                                  "cause": "TSATF.FIRE"}), *turn(2))
    assert [f for f in failing(lines) if f[1] == "MOG.VEH.BREAKDOWN"] == []
    some_left = game(*turn(1), *breakdown(3), line("CasualtiesTaken", {"unit": "l-1", "killed": 7, "wounded": 0,
                                                                      "cause": "TSATF.FIRE"}), *turn(2))
    assert ("MOG.VEH.BREAKDOWN", "missing-roll") in [f[1:] for f in failing(some_left)]

# --- 6 "Look out! Vehicle suddenly explodes.": MOG.FIRE.EXPLODE ------------------------------------
# The rebels r-1 (20 figures, 10" x 2" facing 270) move up to l-1 (at (10, 24) facing 90, 6" long).

def blast(*figures, faces=None):
    faces = faces if faces is not None else [6] * len(figures)
    return [*(roll("MOG.FIRE.EXPLODE", [f], phase="shooting", side="rebels") for f in faces),
            line("ExplosionResolved", {"unit": "l-1", "figures": [
                {"unit": "r-1", "distance": d, "survived": s} for d, s in figures]}, phase="shooting")]


def near_rebels():
    # r-1 moved to (20, 24): its extent spans x 19..21 (2" deep, 10" wide across y 19..29), so from
    # the hull's end at x 13 its nearest point is 6" and its farthest about 8.8"
    return line("UnitMoved", {"unit": "r-1", "path": [{"x": 40.0, "y": 24.0}, {"x": 20.0, "y": 24.0}]},
                phase="movement", side="rebels")


def test_figures_near_an_explosion_survive_on_6_or_4_up():
    # "All figures within 6 must roll a 6 on a D6 to survive, all figures 6-12 away must roll 4 and higher"
    lines = game(*turn(1), *breakdown(3), near_rebels(), *blast((7.0, True), (8.0, False), faces=[4, 3]))
    assert [a.verdict.value for a in judged(lines, "MOG.FIRE.EXPLODE")] == ["ok", "ok"]
    wrong = game(*turn(1), *breakdown(3), near_rebels(), *blast((7.0, False), faces=[5]))
    assert [a.verdict.value for a in judged(wrong, "MOG.FIRE.EXPLODE")] == ["mismatch"]
    missing = game(*turn(1), *breakdown(3), near_rebels(), *blast((7.0, True), (8.0, True), faces=[5]))
    assert [a.verdict.value for a in judged(missing, "MOG.FIRE.EXPLODE")] == ["missing-roll"]


def test_exactly_6_inches_is_ambiguous():
    # AP-MOG-02: "within 6" and "6-12 away" overlap at 6"
    lines = game(*turn(1), *breakdown(3), near_rebels(), *blast((6.0, True)))
    assert [a.verdict.value for a in judged(lines, "MOG.FIRE.EXPLODE")] == ["ambiguous"]


def test_an_explosion_distance_is_measured():
    # game-log-tabletop.md: without recorded figures the distance "must lie between the nearest and
    # farthest points of that unit's extent from the vehicle"
    lines = game(*turn(1), *breakdown(3), near_rebels(), *blast((3.0, True), faces=[6]))
    assert [a.verdict.value for a in judged(lines, "MOG.FIRE.EXPLODE")] == ["mismatch", "ok"]


def status(name: str, n: int = 1) -> dict:
    return line("UnitStatusChanged", {"unit": "l-1", "status": name, "cause": "MOG.FIRE.CRIT"}, turn=n, phase="shooting",
                side="rebels")


def repair(system: str, face: int, n: int) -> list[dict]:
    return [roll("MOG.VEH.REPAIR", [face], turn=n),
            line("RepairAttempted", {"unit": "l-1", "system": system, "repaired": face >= 5}, turn=n)]


def test_a_repaired_engine_lifts_the_recorded_immobilized_status():
    # MOG, B. 2: "The crew can elect to repair a damaged system. To repair, roll a D6. On a 5 to 6, the system
    # is repaired." Critical 2, "Engine hit, vehicle is immobilized": the recorded status ends with the repair.
    def after(face):
        return game(*turn(1), *breakdown(3), *crit(2, 2), status("immobilized"), *turn(2), *breakdown(3, n=2),
                    *repair("engine", face, 2), *turn(3), *breakdown(3, n=3),
                    roll("MOG.VEH.SPEED.DICE", [2, 2, 2], turn=3), move((10.0, 24.0), (12.0, 24.0), n=3))
    assert failing(after(5)) == []
    assert {f[1] for f in failing(after(4))} & {"MOG.FIRE.CRIT", "MOG.VEH.SPEED", "MOG.VEH.BREAKDOWN"}


def test_a_repaired_gear_box_gives_the_lost_die_back():
    # MOG, D. 2 Vehicle Critical Chart: "3 Gears hit, add 1 to turning, lose one die"; B. 2: "On a 5 to 6, the
    # system is repaired". Max 5 off road is 3 dice; a gears hit makes it 2, the gear box repaired 3 again.
    def dice(*faces, fixed=True):
        fix = repair("gear-box", 6 if fixed else 3, 2)
        return game(*turn(1), *breakdown(3), *crit(3, 3), *turn(2), *breakdown(3, n=2), *fix, *turn(3),
                    *breakdown(3, n=3), roll("MOG.VEH.SPEED.DICE", list(faces), turn=3),
                    move((10.0, 24.0), (12.0, 24.0), n=3))
    assert [a.verdict.value for a in judged(dice(1, 1, 1), "MOG.VEH.SPEED")] == ["ok", "ok"]   # built, moved
    assert ("MOG.VEH.SPEED", "violation") in [f[1:] for f in failing(dice(1, 1))]
    assert ("MOG.VEH.SPEED", "violation") in [f[1:] for f in failing(dice(1, 1, 1, fixed=False))]


def test_a_repaired_propulsion_ends_half_speed():
    # MOG, D. 2 Vehicle Critical Chart: "4 Propulsion hit, 1-3 not serious (1/2 speed)": 3 off-road dice of 2
    # give 6", half is 3"; once the propulsion "is repaired" the full 6".
    def moved(fixed):
        fix = repair("propulsion", 5, 2) if fixed else []
        return game(*turn(1), *breakdown(3), *crit(4, 4, 2, sub=2), status("half-speed"), *turn(2),
                    *breakdown(3, n=2), *fix, *turn(3), *breakdown(3, n=3),
                    roll("MOG.VEH.SPEED.DICE", [2, 2, 2], turn=3), move((10.0, 24.0), (16.0, 24.0), n=3))
    assert failing(moved(True)) == []
    assert ("MOG.VEH.SPEED", "violation") in [f[1:] for f in failing(moved(False))]


def test_an_exploded_or_destroyed_vehicle_neither_rolls_nor_acts():
    # MOG, D. 2 Vehicle Critical Chart "6 Look out! Vehicle suddenly explodes."; "Ace of Hearts card- Destroyed":
    # gone, with or without a recorded status, it owes no breakdown roll and does not move
    blown = game(*turn(1), *breakdown(3), *crit(6, 6), *turn(2))
    assert [f for f in failing(blown) if f[1] == "MOG.VEH.BREAKDOWN"] == []
    moved = game(*turn(1), *breakdown(3), *crit(6, 6), *turn(2), roll("MOG.VEH.SPEED.DICE", [2, 2, 2], turn=2),
                 move((10.0, 24.0), (12.0, 24.0), n=2))
    assert ("MOG.FIRE.CRIT", "violation") in [f[1:] for f in failing(moved)]
    ace = line("HitCardResolved", {"attack": "a-1", "target": "l-1", "weapon_class": "gun", "card": "AH",
                                   "outcome": "destroyed"}, phase="shooting", side="rebels")
    carded = game(*turn(1), *breakdown(3), ace, *turn(2))
    assert [f for f in failing(carded) if f[1] == "MOG.VEH.BREAKDOWN"] == []


def test_half_speed_stands_without_its_status():
    # MOG, D. 2 Vehicle Critical Chart: "4 Propulsion hit, 1-3 not serious (1/2 speed)": 3 off-road dice of 2 give
    # 6", half is 3", whether or not a half-speed status line follows the critical
    def moved(x):
        return game(*turn(1), *breakdown(3), *crit(4, 4, 2, sub=2), *turn(2), *breakdown(3, n=2),
                    roll("MOG.VEH.SPEED.DICE", [2, 2, 2], turn=2), move((10.0, 24.0), (x, 24.0), n=2))
    assert failing(moved(13.0)) == []
    assert ("MOG.VEH.SPEED", "violation") in [f[1:] for f in failing(moved(16.0))]
