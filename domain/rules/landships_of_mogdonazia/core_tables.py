"""The Sword and The Flame procedures the seed relies on but does not contain (`TSATF.*`,
game-log-tabletop.md: "checked only when the table pack holds it"), as the tables a club types
into its table pack from its own copy of TSATF (docs/table-packs.md, *The tabletop core
procedures*). No value is held here: a game whose pack lacks a table has it `unverifiable`."""
from __future__ import annotations

from typing import Any, Optional

from domain.tabletop import core_procedures as cp

# The firing-chart columns the seed itself names: "Roll 3D20 as Dervish rifle weapon" (Tesla),
# "Roll 6D20 as Machine Gun (short range) weapon" (Congreve), written as a log's `fires_as`.
SEED_COLUMNS = {"tesla-rifle": "dervish-rifle", "congreve": "machine-gun-short-range"}
AIRCRAFT = ("airship", "airplane")   # "Both count as class IV"
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}   # "The target class (i.e. I, II, III, IV)"


def _fire_column(key: str, entry: Any) -> cp.Problem:
    if isinstance(entry, dict):
        return cp.keyed(lambda target, bands: cp.bands(bands))(entry)
    return cp.bands(entry)


def _move(key: str, entry: Any) -> cp.Problem:
    if not isinstance(entry, dict):
        return ": an object {\"dice\": N, \"add\"?: inches}"
    if not cp.is_face(entry.get("dice")):
        return f".dice: the number of d6 (a whole number from 1), not {entry.get('dice')!r}"
    if not cp.is_number(entry.get("add", 0)):
        return f".add: inches (a number), not {entry.get('add')!r}"
    return None


def _melee(table: Any) -> cp.Problem:
    modifiers = table.get("modifiers", {}) if isinstance(table, dict) else None
    return cp.an_object(table) or cp.first(
        lambda: cp.dice(table, "dice"), lambda: cp.comparison(table, "win"),
        lambda: None if isinstance(modifiers, dict) and all(cp.is_number(v) for v in modifiers.values())
        else f".modifiers: circumstance -> amount (a number), not {modifiers!r}")


FIRE = ("column (a ShotFired's `fires_as`, else its `weapon_class`; the Tesla rifle's `dervish-rifle`, the "
        "Congreve's `machine-gun-short-range`) -> [[range up to (inches), highest d20 face that hits], ...] "
        "ascending; or column -> target -> that list, the target read as the vehicle's class (\"I\" to \"IV\", "
        "airships and airplanes \"IV\"), `crew`, the figures' type (\"zulu\"), `figures`, then `any`")
TABLES = {
    "TSATF.FIRE": cp.TableShape(FIRE, cp.keyed(_fire_column)),
    "TSATF.SAVE": cp.CARDS,
    "TSATF.RALLY": cp.CARDS,
    "TSATF.ACTIVATION": cp.CARDS,
    "TSATF.MOVE": cp.TableShape("unit type (UnitDeployed.type, \"zulu\") -> {\"dice\": number of d6, \"add\"?: "
                                "inches}", cp.keyed(_move)),
    "TSATF.MELEE": cp.TableShape("{\"dice\": \"1d6\", \"win\": \"<=\" | \"<\" | \">=\" | \">\", \"modifiers\"?: "
                                 "{circumstance: amount}}: each figure's die, modified, against its opponent's",
                                 _melee),
}


def column_of(shot, carries: Optional[str]) -> str:
    return SEED_COLUMNS.get(carries or "") or shot.fires_as or shot.weapon_class


def target_keys(shot, vehicle: Optional[dict], unit_type: Optional[str]) -> list[str]:
    """The keys a TSATF.FIRE column is read by for this shot's target, in order."""
    if vehicle is not None and shot.target_part == "crew":
        return ["crew", "figures", "any"]
    if vehicle is not None:
        roman = "IV" if vehicle.get("kind") in AIRCRAFT else ROMAN.get(vehicle.get("target_class"), "")
        return [roman, "any"]
    return [k for k in (unit_type, "figures", "any") if k]


def hit_on(table: dict, column: str, keys: list[str], inches: float) -> tuple[Optional[int], str]:
    """The highest d20 face that hits, or None with the reason the pack does not give it."""
    entry = table.get(column)
    if entry is None:
        return None, f"TSATF.FIRE has no column {column!r}"
    if isinstance(entry, dict):
        target = next((k for k in keys if k in entry), None)
        if target is None:
            return None, f"TSATF.FIRE column {column!r} has no target {' / '.join(keys)}"
        entry, column = entry[target], f"{column} / {target}"
    face = cp.banded(entry, inches)
    if face is None:
        return None, f"{inches}\" is beyond TSATF.FIRE column {column!r}'s last band ({entry[-1][0]}\")"
    return face, f"column {column} at {inches}\": hits on {face} or less"


def carried(keys: dict[str, str], shot, figures: Optional[int] = None) -> Optional[str]:
    """What the key figure firing carries: the shot's `weapon` names the figure, or what it carries.
    Without a `weapon`, a unit whose every figure is a key figure carrying the same thing (a lone
    flame-rifle or Tesla figure: "A figure carrying ... is considered a key figure") fires that."""
    if shot.weapon is None:
        if keys and figures == len(keys) and len(set(keys.values())) == 1:
            return next(iter(keys.values()))
        return None
    return keys.get(shot.weapon) or (shot.weapon if shot.weapon in keys.values() else None)


def figure_count(unit) -> Optional[int]:
    """A figures unit's number of figures: the count, or the placed figures (UnitDeployed `figures`)."""
    figures = getattr(unit, "figures", None)
    if isinstance(figures, int):
        return figures
    return len(figures) if isinstance(figures, list) else None
