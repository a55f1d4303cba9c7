"""Plays one seeded Dux Bellorum AVBCW game and returns its log lines (no I/O).

Each turn follows "Turn sequence" (AVBCW.TURN): leadership, missile fire, moves, close combat,
morale and victory. Each Inspiring commander that is not suppressed places its 6 LPs, less 1 for
each unit under its command destroyed, with friendly units within 24”, the sides alternating
with the Repeller first (AB.INSPIRING, SUPP.EFFECTS); none are used (what they do is core), and
all come back in step 5 ("return all unused LPs to players"). A unit shoots only at the closest enemy, the one facing it down its column
(SHOOT.PRIORITY, LOS clear of friends and terrain), with its rating's dice, halved "round down" when
low on ammunition and never when a second low result has exhausted it (AMMO.LOW); "more '1's' than
successful hits" makes it low. Two COH lost to shooting in a turn suppress a unit (SUPP.TRIGGER);
a suppressed unit does not shoot, and moves only after a BRV test at -2 that ends it (SUPP.EFFECTS).
A unit that did not shoot tests Bravery and moves straight ahead within its 6" (MV, MOVE.NOSHOOT),
in the order of the movement sequence (MOVE.ORDER), twice on a double 1, never on a double 6,
which costs it 1 COH (BRV.EXTREMES). The royalists' car drives up the road within its MV 24”
(12” after traction damage), never turning, so its facing changes by none of the 45° a move of
more than 6” allows (VEH.FACING, VEH.WHEELED); its double 6 is a mechanical mishap on the Vehicle
Damage table at 1d6-1 (VEH.DAMAGE_TABLE), and it moves no more once its traction is wrecked, its
crew shaken or it is wrecked. Dice come only from the seeded `random.Random`."""
from __future__ import annotations

import random
from typing import Any

from domain.rules.dux_bellorum_avbcw.generator.army import (
    CAR, NATIONS, R, S, SIDES, Armies, Unit, army_list, choose_armies, table)
from domain.tabletop.recorder import TableRecorder, inches

KEEP_CLEAR = 8.0      # no move ends nearer an enemy than this: the generator fights no melee
MOVE_STEPS = (("veh", R), ("veh", S), ("inf", R), ("inf", S), ("team", R), ("team", S))   # AVBCW.MOVE.ORDER
# Vehicle Damage table at 1d6-1: "1 or less Traction damage ... 5 Wrecked"
DAMAGE = {1: "traction-damage", 2: "traction-wrecked", 3: "weapon-damaged", 4: "crew-shaken", 5: "wrecked"}
STOPS = {"traction-wrecked", "crew-shaken", "wrecked"}


def set_up(rec: TableRecorder, armies: Armies, scenario: str) -> None:
    rec.emit("GameStarted", {"ruleset": "dux-bellorum-avbcw", "scenario": scenario, "date": "1938-06",
                             "sides": {R: {"nation": NATIONS[R], "bloc": "other", "role": "aggressor"},
                                       S: {"nation": NATIONS[S], "bloc": "other", "role": "repeller"}},
                             "options": ["avbcw-arc=quadrant"], "permissions": [], "tables": "none"})
    rec.emit("TableDefined", table(rec.rng))
    for side in SIDES:
        rec.emit("ArmyListed", army_list(armies, side), side)
    # "each side alternately deploys 3 units (of any type) at a time"
    for side, units in ((R, armies.of(R)[:3]), (S, armies.of(S)[:3]), (R, armies.of(R)[3:6]), (S, armies.of(S)[3:])):
        for u in units:
            rec.deploy(side, u.id, (u.x, u.y), u.facing, *u.size)


LP_REACH = 20.0   # Inspiring: "within 24”", with room to spare


def leadership(rec: TableRecorder, armies: Armies) -> dict[str, int]:
    """Step 1: "Alternately place LPs (Repeller goes first)", one or two at a time, until both
    sides have placed all theirs (or a side has no unit in reach: then no more are placed)."""
    left = {side: lps_of(armies, side) for side in (S, R)}
    placed = {S: 0, R: 0}
    side = S
    while left[S] or left[R]:
        if not left[side]:
            side = R if side == S else S
            continue
        giver = commander(armies, side)
        near = [u for u in armies.of(side) if u is not giver and nearest(giver, u) <= LP_REACH]
        if not near:
            break
        points = min(left[side], rec.rng.choice((1, 2)))
        rec.emit("LeadershipPointsPlaced", {"from": giver.id, "to": rec.rng.choice(near).id, "points": points}, side)
        left[side] -= points
        placed[side] += points
        side = R if side == S else S
    return placed


def commander(armies: Armies, side: str) -> Unit | None:
    return next((u for u in armies.of(side) if u.type == "commander-foot"), None)


def lps_of(armies: Armies, side: str) -> int:
    """"6 Leadership Points ... loses 1 LP for each unit under its command that is destroyed"
    (a wrecked car among them); a suppressed commander gives none."""
    giver = commander(armies, side)
    if giver is None or giver.suppressed:
        return 0
    lost = sum(1 for u in armies.units if u.side == side and (u.destroyed or "wrecked" in u.damage))
    return max(0, 6 - lost)


def gap(a: Unit, b: Unit) -> float:
    """Front edge to front edge, down one column (facing units only)."""
    return abs(a.front - b.front)


def target_of(armies: Armies, u: Unit) -> Unit | None:
    """The enemy facing `u` in its column when it is the closest enemy unit of all."""
    enemies = armies.enemies(u.side)
    if not enemies:
        return None
    closest = min(enemies, key=lambda e: (nearest(u, e), e.id))
    return closest if closest.x == u.x else None


def nearest(u: Unit, e: Unit) -> float:
    """From u's leader (its position) to the closest point of e's base."""
    w, d = e.size
    dx = max(abs(e.x - u.x) - w / 2, 0.0)
    dy = max(abs(e.y - u.y) - d / 2, 0.0)
    return (dx * dx + dy * dy) ** 0.5


def shot_dice(u: Unit, target: Unit) -> tuple[int, list[str]]:
    """The rating, -1 against a prone (suppressed) target in the open (SHOOT.MODS, AVBCW.PRONE), then
    halved "round down" when low on ammo (AMMO.LOW, `avbcw-low-ammo-halve=after-rating`)."""
    dice, mods = u.number("SHOOT"), []
    if target.suppressed:
        dice, mods = dice - 1, ["-1: target prone in the open"]
    if u.ammo == 1:
        dice, mods = max(0, dice) // 2, [*mods, "AVBCW.AMMO.LOW: half"]
    return dice, mods


def shoot(rec: TableRecorder, armies: Armies, u: Unit, target: Unit) -> None:
    dice, mods = shot_dice(u, target)
    attack = rec.next_attack()
    rec.emit("ShotFired", {"attack": attack, "shooter": u.id, "target": target.id, "rating": "soft", "dice": dice,
                           "range": inches(nearest(u, target)), "modifiers": mods}, u.side)
    faces = rec.faces(dice)
    rec.roll(u.side, "DB.SHOOT", faces, attack)
    hits, ones = sum(f >= target.number("PRO") for f in faces), faces.count(1)
    rec.emit("ShotResolved", {"attack": attack, "hits": hits, "ones": ones}, u.side)
    lose(rec, target, min(hits, target.number("COH") - target.coh_lost), "shooting", attack)
    if ones > hits:
        u.ammo += 1
        rec.emit("AmmoStateChanged", {"unit": u.id, "state": "low" if u.ammo == 1 else "exhausted",
                                      "cause": "AVBCW.AMMO.LOW", "attack": attack}, u.side)


def lose(rec: TableRecorder, u: Unit, points: int, cause: str, attack: str | None = None) -> None:
    if points <= 0:
        return
    rec.emit("CohesionLost", {"unit": u.id, "points": points, "cause": cause,
                              **({"attack": attack} if attack else {})}, u.side)
    u.coh_lost += points
    if cause == "shooting":
        u.turn_shooting_coh += points
        if u.turn_shooting_coh >= 2 > u.turn_shooting_coh - points:   # "goes (or stays) prone"
            u.suppressed = True
            rec.status(u.side, u.id, "suppressed", "AVBCW.SUPP.TRIGGER")
    if u.coh_lost >= u.number("COH"):
        u.destroyed = True
        rec.status(u.side, u.id, "destroyed", attack or cause)


def missile_fire(rec: TableRecorder, armies: Armies) -> set[str]:
    shot: set[str] = set()
    order = sorted(armies.units, key=lambda u: (rec.rng.random(), u.id))
    for u in order:
        if u.destroyed or u.suppressed or u.ammo >= 2 or u.type == CAR:
            continue
        target = target_of(armies, u)
        if target is None or shot_dice(u, target)[0] <= 0 or rec.rng.random() > (0.9 if nearest(u, target) <= 20.0 else 0.4):
            continue
        shoot(rec, armies, u, target)
        shot.add(u.id)
    return shot


def step_of(u: Unit) -> tuple[str, str]:
    return ("veh" if u.type == CAR else "team" if u.type == "lmg" else "inf", u.side)


def ahead(armies: Armies, u: Unit, wanted: float) -> float:
    """How far u may go straight ahead, keeping KEEP_CLEAR from every enemy in its column (the car,
    between the columns, from every enemy)."""
    room = min((gap(u, e) - KEEP_CLEAR for e in armies.enemies(u.side) if e.x == u.x or u.type == CAR),
               default=wanted)
    edge = (48.0 - 1.0 - u.y - u.size[1] / 2) if u.facing == 0 else (u.y - u.size[1] / 2 - 1.0)
    return inches(max(0.0, min(wanted, room, edge)))


def walk(rec: TableRecorder, armies: Armies, u: Unit, mode: str | None = None) -> None:
    if u.type == CAR:   # MV 24”; "Traction damage ... half"
        wanted = min(rec.rng.choice((5.0, 8.0, 12.0, 18.0, 24.0)), 12.0 if "traction-damage" in u.damage else 24.0)
    else:
        wanted = rec.rng.choice((3.0, 4.0, 5.0, 6.0))
    length = ahead(armies, u, wanted)
    if length < 1.0:
        return
    y = inches(u.y + (length if u.facing == 0 else -length))
    rec.move(u.side, u.id, [(u.x, u.y), (u.x, y)], mode)
    u.y = y


def move_unit(rec: TableRecorder, armies: Armies, u: Unit) -> None:
    """"Test Bravery for each unit" that moves: a double 1 moves twice, a double 6 not at all."""
    brv, mods = u.number("BRV"), []
    if u.suppressed:
        brv, mods = brv - 2, [{"value": -2, "why": "suppressed"}]
    faces = rec.faces(2)
    rec.roll(u.side, "DB.BRAVERY", faces, u.id)
    passed = faces != [6, 6] and (faces == [1, 1] or sum(faces) <= brv)
    rec.emit("BraveryTested", {"unit": u.id, "why": "move", "brv": brv, "modifiers": mods, "passed": passed}, u.side)
    if faces == [6, 6] and u.type == CAR:
        mishap(rec, u)
        return
    if faces == [6, 6]:
        lose(rec, u, 1, "bravery")
        return
    if not passed:
        return
    if u.suppressed:
        u.suppressed = False
        rec.status(u.side, u.id, "unsuppressed", "AVBCW.SUPP.EFFECTS")
    walk(rec, armies, u)
    if faces == [1, 1]:
        walk(rec, armies, u, "second")


def mishap(rec: TableRecorder, car: Unit) -> None:
    """A vehicle's double 6 "suffers a mechanical mishap; roll on the Vehicle Damage table with
    1d6-1"; "Each result only applies once"."""
    face = rec.faces(1)[0]
    rec.roll(car.side, "AVBCW.VEH.DAMAGE_TABLE", [face], car.id)
    result = DAMAGE[max(1, face - 1)]
    weapon = {"weapon": f"{car.id}/lmg"} if result == "weapon-damaged" else {}
    rec.emit("VehicleDamaged", {"vehicle": car.id, "cause": "bravery", "result": result, **weapon,
                                "repeat": result in car.damage}, car.side)
    car.damage.add(result)


def move_phase(rec: TableRecorder, armies: Armies, shot: set[str]) -> None:
    for step in MOVE_STEPS:
        for u in armies.units:
            if u.damage & STOPS:
                continue
            if step_of(u) == step and not u.destroyed and u.id not in shot and rec.rng.random() < 0.8:
                move_unit(rec, armies, u)


def play_game(name: str, seed: int, map_data: Any = None, tables: Any = None, *, turns: int = 6,
              scenario: str = "generated") -> list[dict[str, Any]]:
    """A legal game of `turns` turns; `map_data` and `tables` are unused (the table is generated,
    the game uses no table pack)."""
    rec = TableRecorder(name, random.Random(seed))
    armies = choose_armies(rec.rng)
    set_up(rec, armies, scenario)
    for turn in range(1, turns + 1):
        rec.start_turn(turn)
        for u in armies.units:
            u.turn_shooting_coh = 0
        rec.start_phase("leadership")
        placed = leadership(rec, armies)
        rec.start_phase("missile-fire")
        shot = missile_fire(rec, armies)
        rec.start_phase("move")
        move_phase(rec, armies, shot)
        rec.start_phase("close-combat")
        rec.start_phase("morale-and-victory")
        for side in (S, R):
            if placed[side]:
                rec.emit("LeadershipPointsReturned", {"side": side, "points": placed[side]}, side)
    return rec.lines
