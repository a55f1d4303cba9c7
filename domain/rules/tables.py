"""Table packs: the charts of the separate play-aid sheet, as data.

`none` holds no values (every check that needs one is `unverifiable`); `sample` holds
illustrative values, labelled as such, that are NOT the rulebook's; a user loads their own
pack from a JSON file. A pack is `{"pack": NAME, "illustrative": bool, "source": "...",
"tables": {TABLE: {...}}}`; each table's shape is documented in `docs/table-packs.md`.

Which tables a pack may hold, and the built-in packs, are each rule system's
(`RuleSet.table_schemas`, `RuleSet.table_packs`): a pack is checked against the schemas of every
installed rule system, or of one.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from domain.rulesets import find, registered


class TablePackError(ValueError):
    pass


@dataclass
class TablePack:
    name: str
    illustrative: bool = False
    source: str = ""
    tables: dict[str, Any] = field(default_factory=dict)
    requested: Optional[str] = None  # the pack the game asked for, when it is not loaded

    def has(self, table: str) -> bool:
        return table in self.tables

    def get(self, table: str, *keys: Any) -> Any:
        """The value at `keys` in `table`, or None when the pack does not hold it."""
        node: Any = self.tables.get(table)
        for key in keys:
            if not isinstance(node, dict):
                return None
            node = node.get(str(key))
        return node

    def label(self) -> str:
        if self.requested:
            return f"pack {self.requested!r} not loaded"
        if self.illustrative:
            return f"pack {self.name!r} (ILLUSTRATIVE values, not the rulebook's)"
        return f"pack {self.name!r}"

    def lacks(self, table: str) -> str:
        """The message of an `unverifiable` check for a table this pack does not hold."""
        return f"the {table} is not in the rulebook text and {self.label()} has no value for it"

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "illustrative": self.illustrative, "source": self.source,
                "tables": sorted(self.tables), "requested": self.requested}


NONE = TablePack("none", source="no table values: every check that needs one is unverifiable")

def known_tables(ruleset_id: Optional[str] = None) -> dict[str, str]:
    """Table names a pack may hold, and the shape each must have: one rule system's, or all."""
    chosen = [find(ruleset_id)] if find(ruleset_id) else list(registered().values())
    return {name: shape for rules in chosen for name, shape in rules.table_schemas.items()}


def validate_pack(data: Any, where: str, ruleset_id: Optional[str] = None) -> TablePack:
    if not isinstance(data, dict):
        raise TablePackError(f"{where}: a table pack is a JSON object")
    for key in ("pack", "tables"):
        if key not in data:
            raise TablePackError(f"{where}: field {key!r} is missing")
    if not isinstance(data["pack"], str) or not data["pack"]:
        raise TablePackError(f"{where}: field 'pack' must be a non-empty string")
    if not isinstance(data["tables"], dict):
        raise TablePackError(f"{where}: field 'tables' must be an object")
    known = known_tables(ruleset_id)
    for name, table in data["tables"].items():
        if name not in known:
            raise TablePackError(f"{where}: tables.{name}: unknown table; known: {', '.join(known)}")
        if name.endswith("_COLUMNS"):
            if not isinstance(table, list) or not all(isinstance(r, list) and len(r) == 2 for r in table):
                raise TablePackError(f"{where}: tables.{name}: expected {known[name]}")
        elif getattr(known[name], "check", None) is not None:
            problem = known[name].check(table)   # a shape that checks itself (domain/tabletop/core_procedures.py)
            if problem:
                raise TablePackError(f"{where}: tables.{name}{problem}; expected {known[name]}")
        elif not isinstance(table, dict):
            raise TablePackError(f"{where}: tables.{name}: expected an object: {known[name]}")
    illustrative = data.get("illustrative", False)
    if not isinstance(illustrative, bool):
        raise TablePackError(f"{where}: field 'illustrative' must be true or false")
    return TablePack(data["pack"], illustrative, str(data.get("source", "")), data["tables"])


def load_pack_file(path: str | Path, ruleset_id: Optional[str] = None) -> TablePack:
    """A pack from a JSON file, its tables checked against one rule system's (or every one's)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TablePackError(f"{path}: no such file") from None
    except json.JSONDecodeError as exc:
        raise TablePackError(f"{path}: line {exc.lineno}: malformed JSON: {exc.msg}") from None
    return validate_pack(data, str(path), ruleset_id)


def pack_names(ruleset_id: Optional[str]) -> list[str]:
    """The built-in packs a game of a rule system may name: `none` (everybody's), then its own."""
    rules = find(ruleset_id)
    folder = rules.table_packs() if rules is not None and rules.table_packs else None
    own = sorted(path.stem for path in folder.glob("*.json")) if folder is not None and folder.is_dir() else []
    return ["none", *(name for name in own if name != "none")]


def builtin(name: str, ruleset_id: Optional[str] = None) -> Optional[TablePack]:
    """A built-in pack of one rule system (or of the first that has one of that name)."""
    if name == "none":
        return NONE
    chosen = [find(ruleset_id)] if find(ruleset_id) else list(registered().values())
    for rules in chosen:
        folder = rules.table_packs() if rules.table_packs else None
        if folder is not None and (folder / f"{name}.json").exists():
            # checked against its own rule system's tables: no other rule system is loaded
            return load_pack_file(folder / f"{name}.json", rules.id)
    return None


def resolve(requested: Optional[str], loaded: Optional[TablePack] = None,
            ruleset_id: Optional[str] = None) -> TablePack:
    """The pack for a game: a loaded user pack wins, then a built-in one; an unknown name
    gives an empty pack that says which pack was asked for."""
    if loaded is not None:
        return loaded
    name = requested or "none"
    pack = builtin(name, ruleset_id)
    if pack is not None:
        return pack
    return TablePack("none", source="", requested=name)
