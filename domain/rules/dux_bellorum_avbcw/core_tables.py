"""The Dux Bellorum core procedures the conversion relies on but does not contain (`DB.*`,
game-log-tabletop.md), as the tables a club types into its table pack from its own copy of the
core rules (docs/table-packs.md, *The tabletop core procedures*). No value is held here: a game
whose pack lacks a table has that procedure `unverifiable`."""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.dux_bellorum_avbcw.army_tables import pro_faces
from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedUnit, has_rule
from domain.tabletop import core_procedures as cp

ARMOUR = RULEBOOK.rule("AVBCW.EQ.ARMOUR")
ARMOUR_PRO = +1   # Armour: "The unit gains +1 Protection but suffers -1” move"
REAR = 2          # "Indirect fire against a vehicle always counts as hitting the Rear armour" (Front / Sides / Rear)


def _test(table: Any) -> cp.Problem:
    return cp.an_object(table) or cp.first(lambda: cp.dice(table, "dice"), lambda: cp.comparison(table, "pass"))


def _hits(table: Any) -> cp.Problem:
    return cp.an_object(table) or cp.first(lambda: cp.comparison(table, "hit"), lambda: cp.faces(table, "always"),
                                           lambda: cp.faces(table, "never"))


def _lp_loss(key: str, entry: Any) -> cp.Problem:
    if not key.isdigit():
        return ": the key is a number of units lost (\"2\")"
    if not (isinstance(entry, int) and not isinstance(entry, bool) and entry >= 0):
        return f": the leadership points lost (a whole number from 0), not {entry!r}"
    return None


TEST = ("{\"dice\": \"2d6\", \"pass\": \"<=\" | \"<\" | \">=\" | \">\"}: the total of the dice against the "
        "BRV used (BraveryTested.brv, modified), passed when TOTAL PASS BRV")
HITS = ("{\"hit\": \"<=\" | \"<\" | \">=\" | \">\", \"always\"?: [faces], \"never\"?: [faces]}: a die hits when FACE "
        "HIT PRO of the unit it strikes (listed PRO, +1 with Armour; a vehicle's by facing); `always` faces hit and "
        "`never` faces miss whatever the PRO")
TABLES = {
    "DB.BRAVERY": cp.TableShape(TEST, _test),
    "DB.SHOOT": cp.TableShape(HITS, _hits),
    "DB.MELEE": cp.TableShape(HITS, _hits),
    "DB.MORALE": cp.TableShape("units the side has lost -> leadership points it loses at 'Check morale & victory'",
                               cp.keyed(_lp_loss)),
}


def passes(table: dict, faces: list[int], brv: int) -> bool:
    """DB.BRAVERY: whether the dice pass against the BRV used."""
    return cp.compares(table["pass"], sum(faces), brv)


def hit_count(table: dict, faces: list[int], pro: int) -> int:
    """DB.SHOOT / DB.MELEE: the faces that hit against PRO."""
    always, never = set(table.get("always", [])), set(table.get("never", []))
    return sum(1 for f in faces if f in always or (f not in never and cp.compares(table["hit"], f, pro)))


def protection(entry: Optional[ListedUnit], indirect: bool = False) -> tuple[Optional[int], str]:
    """The PRO a hit is read against, and how it was found; None with the reason when it cannot be
    read from the list (no PRO, or a vehicle's PRO differing by facing)."""
    printed = (entry.stats.get("PRO") if entry is not None else None) or ""
    by_facing = pro_faces(printed) if printed else None
    if by_facing is None:
        return None, f"its PRO {printed!r} is not listed as one number or Front / Sides / Rear"
    if len(set(by_facing)) > 1 and not indirect:
        return None, f"its PRO {printed} differs by facing and the facing struck is not recorded"
    pro, why = by_facing[REAR] if indirect else by_facing[0], f"PRO {printed}"
    if has_rule(entry, ARMOUR.id):
        pro, why = pro + ARMOUR_PRO, f"{why} +1 Armour (\"gains +1 Protection\")"
    return pro, why + (" (indirect: Rear)" if indirect and len(set(by_facing)) > 1 else "")
