"""A vehicle of an AVBCW army list against its row of the soft or hard vehicle table
(AVBCW.VEH.STATS): crew, MV, BRV, SHOOT and PRO as printed, with the soft vehicles' options
("Armour plate ... +1/+1/+1 +1", "Mounted LMG +1 -1 ... 4 ... +1") applied or not, each weapon's
rating and arcs among the row's, and the points: the row's, the options', and a Tank
Commander's +3 (AVBCW.VEH.TANKCMDR). army.py's checker collects what is found."""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Optional

from domain.rules.dux_bellorum_avbcw.army_tables import (
    VehicleRow, number, printed_form, pro_faces, seats, slug, weapon_arcs)
from domain.rules.dux_bellorum_avbcw.events import ListedUnit

VEH_STATS, TANK_COMMANDER = "AVBCW.VEH.STATS", "AVBCW.VEH.TANKCMDR"


def vehicle_base(ck: Any, entry: ListedUnit, row: VehicleRow) -> tuple[Optional[int], list[str]]:
    """The vehicle's points before special rules, and what they are made of."""
    if entry.commander is True:
        ck.judged(entry.unit, TANK_COMMANDER)
    if row.hard:
        return _hard(ck, entry, row)
    return _soft(ck, entry, row)


def _stat(ck: Any, entry: ListedUnit, row: VehicleRow, column: str, accepted: list[str]) -> None:
    listed = entry.stats.get(column)
    if listed is None or printed_form(listed) in {printed_form(a) for a in accepted}:
        return
    ck.error(entry.unit, VEH_STATS, listed, " or ".join(dict.fromkeys(accepted)),
             f"{row.name}: {column} {row.row[column] if column in row.row else accepted[0]}",
             f"{column} {listed!r} is not the table's")


def _crew(ck: Any, entry: ListedUnit, row: VehicleRow, accepted: list[int]) -> None:
    if entry.crew is not None and entry.crew not in accepted:
        ck.error(entry.unit, VEH_STATS, entry.crew, " or ".join(map(str, dict.fromkeys(accepted))),
                 f"{row.name}: Crew {row.row['crew']}", f"a crew of {entry.crew}")


def _pro(ck: Any, entry: ListedUnit, row: VehicleRow, accepted: list[tuple[int, int, int]]) -> None:
    listed = entry.stats.get("PRO")
    if listed is None or pro_faces(listed) in accepted:
        return
    ck.error(entry.unit, VEH_STATS, listed, " or ".join("/".join(map(str, a)) for a in dict.fromkeys(accepted)),
             f"{row.name}: PRO {row.row['PRO']}", f"PRO {listed!r} is not the table's")


# ---------------------------------------------------------------- soft vehicles

def _soft(ck: Any, entry: ListedUnit, row: VehicleRow) -> tuple[Optional[int], list[str]]:
    options, why = _options(ck, entry, row), [f"{row.name} {row.row['PTS']}"]
    crew = sum(number(o["crew"]) or 0 for o in options)
    taken = -sum(number(o["passengers"]) or 0 for o in options)
    if taken > seats(row.row["passengers"]):
        ck.error(entry.unit, VEH_STATS, taken, seats(row.row["passengers"]),
                 f"{row.name}: Passengers {row.row['passengers']}",
                 f"its options take {taken} passengers' places: the text does not say an option needs them",
                 "ambiguous")
    _crew(ck, entry, row, [int(row.row["crew"]), int(row.row["crew"]) + crew])
    mv = number(row.row["MV"]) + sum(number(o["MV"]) or 0 for o in options)
    _stat(ck, entry, row, "MV", [row.row["MV"], str(mv)])
    _stat(ck, entry, row, "BRV", [row.row["BRV"]])
    ratings = [o["SHOOT"] for o in options if o["SHOOT"] != "-"]
    _stat(ck, entry, row, "SHOOT", ratings or [row.row["SHOOT"]])
    printed = pro_faces(row.row["PRO"])
    change = [0, 0, 0]
    for option in options:
        faces = [number(p) or 0 for p in option["PRO"].split("/")] if option["PRO"] != "-" else [0]
        change = [c + f for c, f in zip(change, faces * 3 if len(faces) == 1 else faces)]
    _pro(ck, entry, row, [printed, tuple(p + c for p, c in zip(printed, change))])
    _soft_weapons(ck, entry, row, ratings)
    if entry.commander is True:
        ck.error(entry.unit, TANK_COMMANDER, entry.type, "a hard vehicle", ck.book.data["tank_commander"]["words"],
                 "a soft vehicle designated a Commander")
    why += [f"{slug(o['row'])} {o['PTS']}" for o in options]
    return int(row.row["PTS"]) + sum(number(o["PTS"]) or 0 for o in options), why


def _options(ck: Any, entry: ListedUnit, row: VehicleRow) -> list[dict[str, Any]]:
    found, named = [], Counter(entry.options or ())
    for option, times in named.items():
        spec = ck.book.options.get(option)
        if spec is None:
            ck.error(entry.unit, VEH_STATS, option, ", ".join(ck.book.options), "Soft Vehicles: Options",
                     f"{option!r} is not an option of the soft vehicle table")
            continue
        if times > 1:
            ck.error(entry.unit, VEH_STATS, times, 1, f"Options: {spec['row']}",
                     f"option {option!r} taken {times} times")
        found.append(spec)
    return found


def _soft_weapons(ck: Any, entry: ListedUnit, row: VehicleRow, ratings: list[str]) -> None:
    allowed = Counter(printed_form(r) for r in ratings)
    for weapon in entry.weapons or ():
        rating = printed_form(weapon.shoot)
        if allowed[rating] <= 0:
            ck.error(entry.unit, VEH_STATS, weapon.shoot, " or ".join(ratings) or "none",
                     f"{row.name}: SHOOT {row.row['SHOOT']}; Options: mounted weapons",
                     f"weapon {weapon.weapon!r} rated {weapon.shoot!r} is not a mounted weapon the options give")
        allowed[rating] -= 1


# ---------------------------------------------------------------- hard vehicles

def _hard(ck: Any, entry: ListedUnit, row: VehicleRow) -> tuple[Optional[int], list[str]]:
    why = [f"{row.name} {row.row['PTS']}"]
    for option in entry.options or ():
        ck.error(entry.unit, VEH_STATS, option, "none", "Soft Vehicles: Options",
                 f"option {option!r}: the options are the soft vehicles'")
    _crew(ck, entry, row, [int(row.row["crew"])])
    _stat(ck, entry, row, "MV", [row.row["MV"]])
    _stat(ck, entry, row, "BRV", [row.row["BRV"]])
    ratings = [w["SHOOT"] for w in row.row["weapons"]] or ["-"]
    _stat(ck, entry, row, "SHOOT", ratings + [r.split("x", 1)[1] for r in ratings if "x" in r])
    _pro(ck, entry, row, [pro_faces(row.row["PRO"])])
    matched = [weapon for weapon in entry.weapons or () if _hard_weapon(ck, entry, row, weapon)]
    _hard_weapon_count(ck, entry, row, matched)
    pts = int(row.row["PTS"])
    if entry.commander is True:
        pts += ck.book.data["tank_commander"]["cost"]
        why.append(f"{TANK_COMMANDER} +{ck.book.data['tank_commander']['cost']}")
    return pts, why


def _fits(printed: dict, weapon) -> bool:
    """The listed weapon is this printed one: its rating ("2x 4" read as its 4 too) and arcs within
    the arcs it "can attack into"."""
    allowed, _ = weapon_arcs(printed["weapon"])
    forms = {printed_form(printed["SHOOT"]), printed_form(printed["SHOOT"]).split("x")[-1]}
    return printed_form(weapon.shoot) in forms and set(weapon.arcs) <= allowed


def _hard_weapon(ck: Any, entry: ListedUnit, row: VehicleRow, weapon) -> bool:
    """A listed weapon is one of the row's (True). A coaxial MG (+Co) has no printed rating."""
    arcs = set(weapon.arcs)
    coax = False
    for printed in row.row["weapons"]:
        allowed, has_coax = weapon_arcs(printed["weapon"])
        coax = coax or (has_coax and arcs <= allowed)
        if _fits(printed, weapon):
            return True
    shown = "; ".join(f"{w['weapon']} {w['SHOOT']}" for w in row.row["weapons"]) or "none"
    if coax:
        ck.error(entry.unit, VEH_STATS, weapon.shoot, shown, f"{row.name}: +Co",
                 f"weapon {weapon.weapon!r} rated {weapon.shoot!r}: a coaxial MG's rating is not printed",
                 "ambiguous")
        return False
    ck.error(entry.unit, VEH_STATS, f"{weapon.shoot} ({','.join(weapon.arcs)})", shown, f"{row.name}: {shown}",
             f"weapon {weapon.weapon!r} is not one of the row's (rating and arcs)")
    return False


def _mounts(printed: dict) -> int:
    """How many weapons a printed line is: "2x LMG (L)" two; "LMG (TH)*" one in each hull facing
    ("the arrangement of an LMG in each hull facing"), four; else one."""
    if re.match(r"^\s*(\d+)x", printed["weapon"]):
        return int(re.match(r"^\s*(\d+)x", printed["weapon"])[1])
    return 4 if "(TH)" in printed["weapon"] else 1


def _hard_weapon_count(ck: Any, entry: ListedUnit, row: VehicleRow, listed: list) -> None:
    """No more weapons than the row prints ("Each weapon that can shoot independently is listed
    with the firing arc it can attack into"): each listed weapon takes one of the row's, a line
    "2x ..." two of them (a matching of listed weapons to printed ones)."""
    slots = [printed for printed in row.row["weapons"] for _ in range(_mounts(printed))]
    taken: dict[int, int] = {}     # slot -> listed weapon index

    def place(i: int, seen: set[int]) -> bool:
        for j, printed in enumerate(slots):
            if j in seen or not _fits(printed, listed[i]):
                continue
            seen.add(j)
            if j not in taken or place(taken[j], seen):
                taken[j] = i
                return True
        return False

    extra = [w.weapon for i, w in enumerate(listed) if not place(i, set())]
    if extra:
        shown = "; ".join(f"{w['weapon']} {w['SHOOT']}" for w in row.row["weapons"]) or "none"
        ck.error(entry.unit, VEH_STATS, len(listed), len(listed) - len(extra), f"{row.name}: {shown}",
                 f"{len(listed)} weapons listed, the row prints {len(slots)}: {', '.join(extra)} has no weapon of "
                 "the row left")
