"""Landships of Mogdonazia airships and airplanes, from the text (landships-of-mogdonazia.txt,
Airships and Fixed Wings A. 1-4). Each game is the page's example with l-1 built as an airship or an
airplane (at (10, 24) facing 90, so a move along +x turns nothing); the rebels r-1 at (40, 24)."""
from __future__ import annotations

from tests.unit.test_mog_vehicles import built, game, judged, line, move, roll, turn

AIRSHIP = built(kind="airship", target_class=4)
AIRPLANE = built(kind="airplane", target_class=4, weapons=[], crew=1)


def flight(n: int, dice: list[int], *points, purpose: str = "MOG.AIRSHIP.MOVE") -> list[dict]:
    return [*turn(n), roll(purpose, dice, turn=n), move(*points, n=n)]


def verdicts(lines, rule="MOG.AIRSHIP.MOVE", **kw):
    return [a.verdict.value for a in judged(lines, rule, **kw)]


def test_an_airship_starts_at_2d6_and_gains_a_die_a_turn():
    # A. 1: "Moves 2d6 per turn, plus an additional d6 every turn after until it reaches 4d6 per turn."
    ok = game(*flight(1, [3, 3], (10, 24), (16, 24)), *flight(2, [3, 3, 3], (16, 24), (25, 24)),
              *flight(3, [3, 3, 3, 3], (25, 24), (37, 24)), setup=AIRSHIP)
    assert verdicts(ok) == ["ok"] * 6
    too_fast = game(*flight(1, [3, 3, 3], (10, 24), (16, 24)), setup=AIRSHIP)
    assert verdicts(too_fast) == ["ok", "violation"]
    too_far = game(*flight(1, [1, 2], (10, 24), (16, 24)), setup=AIRSHIP)
    assert verdicts(too_far) == ["violation", "ok"]
    # "An airship can decelerate at a rate of 2d6 per turn": 4d6 to 2d6, not to 1d6
    slowing = [*flight(1, [3, 3], (10, 24), (16, 24)), *flight(2, [3, 3, 3], (16, 24), (25, 24)),
               *flight(3, [3, 3, 3, 3], (25, 24), (37, 24))]
    assert verdicts(game(*slowing, *flight(4, [3, 3], (37, 24), (43, 24)), setup=AIRSHIP))[-1] == "ok"
    assert verdicts(game(*slowing, *flight(4, [3], (37, 24), (40, 24)), setup=AIRSHIP))[-1] == "violation"


def test_turning_over_45_loses_a_die_per_step():
    # "Airship is moving at 4d6 and decides to turn 80 º starboards, so the airship can turn but only has
    # 3d6 left" (EX-MOG-01): from 90 to 170 is 80°, so 3 dice rolled at a speed of 4d6
    climb = [*flight(1, [3, 3], (10, 24), (16, 24)), *flight(2, [3, 3, 3], (16, 24), (25, 24))]
    turned = game(*climb, *flight(3, [4, 4, 4], (25, 24), (26.8, 13.8)), setup=AIRSHIP)
    assert verdicts(turned)[-2:] == ["ok", "ok"]
    unturned = game(*climb, *flight(3, [3, 3, 3], (25, 24), (34, 24)), setup=AIRSHIP)
    assert verdicts(unturned, interpretations=["mog-airship-accel=compulsory"])[-1] == "violation"


def test_holding_speed_follows_mog_airship_accel():
    # "plus an additional d6 every turn after" vs "can decelerate": holding 2d6 is not settled
    held = game(*flight(1, [3, 3], (10, 24), (16, 24)), *flight(2, [3, 3], (16, 24), (22, 24)), setup=AIRSHIP)
    assert verdicts(held)[-1] == "ambiguous"
    assert verdicts(held, interpretations=["mog-airship-accel=optional"])[-1] == "ok"
    assert verdicts(held, interpretations=["mog-airship-accel=compulsory"])[-1] == "violation"


def test_an_airplane_moves_4d6_and_curves():
    # "Airplane: Moves 4d6 per turn ... cannot make a sharp, right angle turn, but can curve around."
    def plane(dice, *points):
        return verdicts(game(*flight(1, dice, *points, purpose="MOG.AIRPLANE.MOVE"), setup=AIRPLANE),
                        "MOG.AIRPLANE.MOVE")
    assert plane([4, 4, 4, 4], (10, 24), (20, 24), (25, 27)) == ["ok"]
    assert plane([4, 4, 4, 4], (10, 24), (20, 24), (20, 30)) == ["violation"]   # a right angle at (20, 24)
    assert plane([4, 4, 4], (10, 24), (20, 24)) == ["violation"]


def test_airships_are_shot_at_within_12_inches():
    # A. 3: "Airships and Airplanes can be shot at if they are within 12 of the targeter"
    def shot(x):
        approach = line("UnitMoved", {"unit": "r-1", "path": [{"x": 40.0, "y": 24.0}, {"x": x, "y": 24.0}]},
                        side="rebels")
        fired = line("ShotFired", {"attack": "a-1", "shooter": "r-1", "target": "l-1", "target_part": "vehicle",
                                   "weapon_class": "small-arms", "dice": 4, "range": 10.0}, phase="shooting",
                     side="rebels")
        return verdicts(game(*turn(1), approach, fired, setup=AIRSHIP), "MOG.AIR.SHOOT")
    # l-1's hull ends at x 13; r-1 is 2" deep, so at x 25 its near edge is at 24: 11" away
    assert shot(25.0) == ["ok", "ok"]          # the first: "Both count as class IV", at build
    assert shot(27.0) == ["ok", "violation"]


def test_boarding_is_beside_the_base_and_aboard_next_turn():
    # A. 2: "To climb into the airship, one simply has to move besides its base. The next turn, they will be on board"
    beside = line("UnitMoved", {"unit": "r-1", "path": [{"x": 40.0, "y": 24.0}, {"x": 14.0, "y": 24.0}]},
                  side="rebels")
    climb = line("UnitEmbarked", {"unit": "r-1", "vehicle": "l-1", "at": 0}, side="rebels")

    def aboard(n):
        return line("UnitStatusChanged", {"unit": "r-1", "status": "aboard"}, turn=n, side="rebels")
    assert verdicts(game(*turn(1), beside, climb, *turn(2), aboard(2), setup=AIRSHIP), "MOG.AIRSHIP.BOARD") == ["ok"]
    assert verdicts(game(*turn(1), beside, climb, aboard(1), setup=AIRSHIP), "MOG.AIRSHIP.BOARD") == \
        ["ok", "violation"]
    assert verdicts(game(*turn(1), climb, setup=AIRSHIP), "MOG.AIRSHIP.BOARD") == ["violation"]


def bomb(dark, light, hit, x):
    return [roll("MOG.AIRPLANE.BOMB", [dark, light]),
            line("BombDropped", {"plane": "l-1", "results": [dark, light], "direction": 90,
                                 "point": {"x": x, "y": 24.0}, "hit": hit})]


def test_bombs_hit_on_doubles_and_fall_by_the_light_die():
    # A. 3: "On doubles, it will count as a hit ... the light die will indicate how many inches"
    assert verdicts(game(*turn(1), *bomb(2, 5, False, 15.0), setup=AIRPLANE), "MOG.AIRPLANE.BOMB") == ["ok", "ok"]
    assert verdicts(game(*turn(1), *bomb(2, 5, True, 15.0), setup=AIRPLANE), "MOG.AIRPLANE.BOMB") == \
        ["mismatch", "ambiguous"]
    assert verdicts(game(*turn(1), *bomb(2, 5, False, 12.0), setup=AIRPLANE), "MOG.AIRPLANE.BOMB") == ["ok", "violation"]
    hit = game(*turn(1), *bomb(3, 3, True, 10.0), setup=AIRPLANE)
    assert verdicts(hit, "MOG.AIRPLANE.BOMB", interpretations=["mog-bomb=offset-on-miss"]) == ["ok", "ok"]
    # "If a double one is rolled ... Every turn after, roll a D6"
    cockpit = game(*turn(1), *bomb(1, 1, True, 11.0), *turn(2), *turn(3), setup=AIRPLANE)
    assert "missing-roll" in verdicts(cockpit, "MOG.AIRPLANE.BOMB", interpretations=["mog-bomb=hit-at-offset"])


def test_a_repairing_airship_keeps_its_speed_and_course():
    # A. 4: "the airship will continue moving at the same speed it did the previous turn and will not be able to turn"
    repair = [roll("MOG.VEH.REPAIR", [3], turn=2),
              line("RepairAttempted", {"unit": "l-1", "system": "engine", "repaired": False}, turn=2)]
    same = game(*flight(1, [3, 3], (10, 24), (16, 24)), *turn(2), *repair, move((16, 24), (22, 24), n=2),
                setup=AIRSHIP)
    assert verdicts(same, "MOG.AIR.REPAIR") == ["ok"]
    turned = game(*flight(1, [3, 3], (10, 24), (16, 24)), *turn(2), *repair, move((16, 24), (16, 30), n=2),
                  setup=AIRSHIP)
    assert verdicts(turned, "MOG.AIR.REPAIR") == ["violation"]


def test_an_engine_hit_airship_cannot_change_direction():
    # Airship Critical Chart "2 Engine hit, cannot change direction and will crash in D3 turns"
    hit = [roll("MOG.AIR.CRIT", [2]), line("CriticalHit", {"unit": "l-1", "chart": "airship", "result": 2,
                                                          "effect": "engine"})]
    straight = game(*flight(1, [3, 3], (10, 24), (16, 24)), *hit, *flight(2, [3, 3, 3], (16, 24), (25, 24)),
                    setup=AIRSHIP)
    assert verdicts(straight, "MOG.AIR.CRIT") == ["ok"]
    turning = game(*flight(1, [3, 3], (10, 24), (16, 24)), *hit, *flight(2, [3, 3, 3], (16, 24), (20, 30)),
                   setup=AIRSHIP)
    assert verdicts(turning, "MOG.AIR.CRIT") == ["ok", "violation"]


def test_a_repaired_airship_engine_steers_again():
    # MOG, Airships A. 3 Airship Critical Chart "2 Engine hit, cannot change direction"; A. 4: "Airship crew can
    # repair systems, but the airship will continue moving at the same speed it did the previous turn and will not
    # be able to turn": once repaired ("On a 5 to 6, the system is repaired"), it turns again
    hit = [roll("MOG.AIR.CRIT", [2]), line("CriticalHit", {"unit": "l-1", "chart": "airship", "result": 2,
                                                          "effect": "engine"})]
    def after(face):
        fix = [roll("MOG.VEH.REPAIR", [face], turn=2),
               line("RepairAttempted", {"unit": "l-1", "system": "engine", "repaired": face >= 5}, turn=2),
               line("UnitMoved", {"unit": "l-1", "path": [{"x": 16.0, "y": 24.0}, {"x": 22.0, "y": 24.0}]}, turn=2)]
        return game(*flight(1, [3, 3], (10, 24), (16, 24)), *hit, *turn(2), *fix,
                    *flight(3, [4, 4], (22, 24), (26, 30)), setup=AIRSHIP)
    assert "violation" not in verdicts(after(6), "MOG.AIR.CRIT")
    assert verdicts(after(4), "MOG.AIR.CRIT")[-1] == "violation"
