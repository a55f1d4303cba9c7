"""Plays one seeded Infernal Machines game and returns its log lines (no I/O).

Each game turn holds a player turn per side (British first), each with the phases of the log
format. Dice come only from `random.Random` seeded by the caller; the same seed gives the same
lines.
"""
from __future__ import annotations

import random
from typing import Any

from domain.rules.infernal_machines.generator.artillery import barrage_phase
from domain.rules.infernal_machines.generator.close_combat import close_combat_phase, close_in
from domain.rules.infernal_machines.generator.fighting import advance, fire_phase, remove_pins, spot
from domain.rules.infernal_machines.generator.machines import anti_tank_phase
from domain.rules.infernal_machines.generator.scenario import set_up
from domain.rules.infernal_machines.generator.tracked import TrackedRecorder
from domain.rules.tables import TablePack

SIDE_ORDER = ("british", "german")


def player_turn(rec: TrackedRecorder, side: str) -> None:
    enemy = rec.enemy(side)
    rec.start_phase("pin-removal", side)
    remove_pins(rec, side)
    rec.start_phase("barrage", side)
    barrage_phase(rec, side)
    rec.start_phase("vehicle-movement", side)
    advance(rec, side, ("tank", "armoured-car"), 2, 0.6)
    rec.start_phase("first-foot-movement", side)
    close_in(rec, side)
    advance(rec, side, ("infantry-squad", "infantry-platoon"), 1, 0.5)
    rec.start_phase("second-foot-movement", side)
    advance(rec, side, ("liaison-officer", "infantry-platoon", "mg-platoon"), 1, 0.3)
    rec.start_phase("defensive-anti-tank-fire", side)
    anti_tank_phase(rec, enemy, spot)
    rec.start_phase("defensive-small-arms-fire", side)
    fire_phase(rec, enemy, 0.8)
    rec.start_phase("offensive-anti-tank-fire", side)
    anti_tank_phase(rec, side, spot)
    rec.start_phase("offensive-small-arms-fire", side)
    fire_phase(rec, side, 0.9)
    rec.start_phase("close-combat", side)
    close_combat_phase(rec, side)
    rec.start_phase("end", side)


def resistance_markers(rec: TrackedRecorder, shown: dict[str, int]) -> None:
    """Keep the "resisted N turns" counters in step with the count, at the end of the turn."""
    for loc in sorted(set(shown) | set(rec.resistance.hexes)):
        count = rec.resistance.count(loc)
        if shown.get(loc) == count or (count == 0 and loc not in shown):
            continue
        if loc in shown:
            rec.marker(None, "resisted", loc, placed=False, turns=shown.pop(loc))
        if count:
            rec.marker(None, "resisted", loc, turns=count)
            shown[loc] = count


def play_game(name: str, seed: int, map_data: dict[str, Any], pack: TablePack, *, turns: int = 6,
              scenario: str = "generated") -> list[dict[str, Any]]:
    rec = TrackedRecorder(name, random.Random(seed), pack)
    set_up(rec, map_data, scenario)
    shown: dict[str, int] = {}
    for turn in range(1, turns + 1):
        rec.start_turn(turn)
        for side in SIDE_ORDER:
            player_turn(rec, side)
        resistance_markers(rec, shown)
        rec.last_turn_barrages = rec.this_turn_barrages
        rec.this_turn_barrages = {}
    return rec.lines
