"""What kind of unit a Dux Bellorum AVBCW unit is, from its `type` (its row of the unit table,
game-log-tabletop.md, Names and weapons: "lower-case, every run of characters other than a-z0-9
... turned into one -"): the classes the movement sequence names, who goes prone, who leads, and
each side's role ("Aggressor's Vehicles ... Repeller's Teams")."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping, Optional

from domain.board.state import UnitState
from domain.rules.dux_bellorum_avbcw.events import ListedUnit

# Unit type table, headings "Commanders", "Infantry", "Cavalry", "Support teams", "Logistics teams":
# each row's type. The page writes the infantry rows `inf-regulars` ...; the cavalry rows are read
# the same way (`cav-regulars`, `cavalry-regulars`), "Mounted infantry" sits under "Cavalry".
FOOT_COMMANDER = "commander-foot"
MOUNTED_COMMANDER = "commander-mounted"
DEMAGOGUE = "demagogue"
CAVALRY = frozenset({"cav-regulars", "cav-irregulars", "cavalry-regulars", "cavalry-irregulars",
                     "mounted-infantry"})
INFANTRY = frozenset({"inf-regulars", "inf-irregulars", "inf-militia"})
TEAMS = frozenset({"lmg", "hmg", "at-rifle", "spotter", "sniper", "flamethrower", "mortar", "mortar-heavy",
                   "field-gun", "field-gun-heavy", "fighting-dogs", "supply", "medical"})
LOGISTICS = frozenset({"supply", "medical"})
# Suppression: "Units that cannot go prone (Mounted Commanders, Cavalry, Mortar, Field gun, or
# Flamethrower teams)"; Going prone: "(except Mounted Commanders, Cavalry, Mortar, Field gun, or
# Flamethrower teams)". The heavy rows are a mortar and a field gun.
NEVER_PRONE = CAVALRY | {MOUNTED_COMMANDER, "mortar", "mortar-heavy", "field-gun", "field-gun-heavy",
                         "flamethrower"}

# Movement sequence: "1. Aggressor's Vehicles (inc. Tank Commanders) 2. Repeller's Vehicles ...
# 3. Aggressor's Cavalry (inc. Mounted Commanders) ... 5. Aggressor's Infantry (inc. Commanders)
# ... 7. Aggressor's Teams 8. Repeller's Teams". A Demagogue is listed under Commanders, and moves
# with "Infantry (inc. Commanders)" (game-log-tabletop.md, UnitMoved).
MOVE_CLASSES = ("vehicles", "cavalry", "infantry", "teams")
ROLES = ("aggressor", "repeller")


def type_of(unit: Optional[UnitState], entry: Optional[ListedUnit]) -> str:
    return (entry.type if entry is not None else None) or (unit.type if unit is not None else None) or ""


def move_class(kind: str) -> Optional[str]:
    """The movement sequence's class of a unit type, or None for a type the table does not hold."""
    if kind.startswith("vehicle:"):
        return "vehicles"
    if kind in CAVALRY or kind == MOUNTED_COMMANDER:
        return "cavalry"
    if kind in INFANTRY or kind in (FOOT_COMMANDER, DEMAGOGUE):
        return "infantry"
    if kind in TEAMS:
        return "teams"
    return None


def move_step(kind: str, role: Optional[str]) -> Optional[int]:
    """1 to 8: the step of the movement sequence a unit of this type and side moves in."""
    klass = move_class(kind)
    if klass is None or role not in ROLES:
        return None
    return MOVE_CLASSES.index(klass) * 2 + ROLES.index(role) + 1


def step_name(step: int) -> str:
    role, klass = ROLES[(step - 1) % 2], MOVE_CLASSES[(step - 1) // 2]
    return f"{step}. {role.capitalize()}'s {klass.capitalize()}"


def never_prone(kind: str) -> bool:
    return kind in NEVER_PRONE or kind.startswith("vehicle:")


def is_commander(kind: str, entry: Optional[ListedUnit]) -> bool:
    """A Commander unit: the rows under "Commanders" that lead (on foot, mounted), or a hard
    vehicle designated one ("Tank Commander: Any Hard Vehicle can be designated a Commander unit
    ... This unit acts as a Commander, can lead a force, distribute Leadership Points")."""
    if kind in (FOOT_COMMANDER, MOUNTED_COMMANDER):
        return True
    return kind.startswith("vehicle:") and entry is not None and entry.commander is True


def roles_of(sides: Mapping[str, Any]) -> dict[str, str]:
    """Each side's `role` (GameStarted.sides.<side>.role, required)."""
    return {side: spec.get("role") for side, spec in sides.items() if isinstance(spec, Mapping)}


def inspiring(kind: str, entry: Optional[ListedUnit]) -> Optional[bool]:
    """Whether a unit is Inspiring: the Commander rows' Notes ("On foot ... Inspiring", "Mounted
    ... Inspiring"), or the ability listed ("Inspiring @ 0 points (Commander units only)"). A Tank
    Commander "acts as a Commander" yet no Notes give it Inspiring: None, the text does not say."""
    if kind in (FOOT_COMMANDER, MOUNTED_COMMANDER) or (entry is not None and "AVBCW.AB.INSPIRING" in entry.special):
        return True
    if is_commander(kind, entry):
        return None
    return False


def motivating(kind: str, entry: Optional[ListedUnit]) -> bool:
    """"Demagogue ... Motivating"; "Motivating @ 0 points (Demagogue units only)"."""
    return kind == DEMAGOGUE or (entry is not None and "AVBCW.AB.MOTIVATING" in entry.special)


def stat(entry: Optional[ListedUnit], name: str) -> Optional[int]:
    """A statistic's first whole number as the army list prints it ("8", "4(1)"), or None."""
    return _first_number((entry.stats.get(name) if entry is not None else None) or "")


@lru_cache(maxsize=1024)
def _first_number(printed: str) -> Optional[int]:
    """Read once per printed form: every bravery test and move reads its unit's statistics."""
    found = re.match(r"^\s*(\d+)", printed)
    return int(found[1]) if found else None
