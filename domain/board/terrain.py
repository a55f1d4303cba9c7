"""The board as terrain: hex attributes, hexside features and markers, read from a `BoardState`.

`Board` is a read-only view built from a `BoardState` (the fold of a game's events) and an
optional `Extras`, which holds what the fold does not keep but the movement and sight rules
need: stone walls a tank has destroyed (Stone walls: "in doing so destroy the stone wall"),
the active barrage impact zones (from `BarrageResolved` results, active until the firer's next
barrage phase: IM.ART.GEN.PHASE) and the lifetimes of smoke and gas markers (`lifetimes`: a
marker whose lifetime has passed is gone from the view even when the log never removed it).
`Extras.from_lines(lines)` rebuilds them from a log.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Iterator, Optional

from domain.board.hexes import LOCAL_MAX, Placement, format_loc, hexside, parse_loc
from domain.board.lifetimes import MarkerClock
from domain.board.state import BoardState, UnitState

TRENCHES = ("trench-hasty", "trench-prepared", "trench-communication")
VEHICLE_CLASSES = {"tank", "armoured-car", "light-vehicle", "armoured-train", "boat"}
CREEPING = {"simple-creeping", "double-creeping"}
# Markers that put a unit above ground level (Storeys: "2nd Story"; Roofs: "RoofTop").
LEVEL_MARKERS = {"2nd-story": 2, "2nd-storey": 2, "second-storey": 2, "rooftop": 3, "roof": 3}


@dataclass(frozen=True)
class Zone:
    """One hex of an active impact zone."""

    location: str
    zone: str              # primary | secondary
    mission: str
    ammunition: str
    side: Optional[str]
    barrage: Optional[str]
    seq: int


# The events after which the board's maps, hexes, hexsides or markers may differ (domain/board/
# state.py folds only these into them); the rest of a view's inputs (impact zones, destroyed
# walls, marker lifetimes) are watched by Extras.update itself.
TERRAIN_EVENTS = frozenset({"GameStarted", "MapDefined", "MarkerPlaced", "MarkerRemoved", "RulingIssued"})
# The event types Extras.update reads (its own, the marker clock's and TERRAIN_EVENTS): the auditor
# hands it no other (a fold's `reads`), and it skips any other it is handed.
EXTRAS_READS = TERRAIN_EVENTS | {"TurnStarted", "PhaseStarted", "UnitDeployed", "UnitStatusChanged", "BarrageDeclared",
                                 "BarrageResolved", "UnitMoved"}


class Counts(dict):
    """Markers of one kind in a hex by name: 0 for a marker that is not there (a Counter's reading,
    without a Counter's cost to build, once per hex and board moment)."""

    def __missing__(self, key: str) -> int:
        return 0


@dataclass
class Extras:
    destroyed_walls: set[frozenset[str]] = field(default_factory=set)
    zones: list[Zone] = field(default_factory=list)
    _barrages: dict[str, dict[str, Any]] = field(default_factory=dict)
    _classes: dict[str, str] = field(default_factory=dict)
    unpinned: dict[str, int] = field(default_factory=dict)   # unit -> seq of its last "unpinned"
    clock: MarkerClock = field(default_factory=MarkerClock)
    # the reading of im-gas-duration in force, asked only where the readings disagree
    gas_reading: Callable[[], Optional[str]] = lambda: None
    # bumped whenever what a terrain view shows may have changed (see TERRAIN_EVENTS), so that a
    # view stays good while only units move, roll and fire
    version: int = 0
    reads: ClassVar[frozenset[str]] = EXTRAS_READS
    # the hexside features of the last board asked, while its hexsides and the destroyed walls stand
    _hexside_cache: Optional[tuple[Any, int, int, dict[frozenset[str], set[str]]]] = None

    def hexside_index(self, hexsides: list[dict[str, Any]]) -> dict[frozenset[str], set[str]]:
        """Each hexside's features less the stone walls destroyed so far; rebuilt only when the
        board's hexsides or the destroyed walls change, not at every moment of a game."""
        cached = self._hexside_cache
        if cached is not None and cached[0] is hexsides and cached[1] == len(hexsides) \
                and cached[2] == len(self.destroyed_walls):
            return cached[3]
        index: dict[frozenset[str], set[str]] = {}
        for side in hexsides:
            a, b = side["between"]
            key = hexside(a, b)
            if side["feature"] == "stone-wall" and key in self.destroyed_walls:
                continue
            index.setdefault(key, set()).add(side["feature"])
        self._hexside_cache = (hexsides, len(hexsides), len(self.destroyed_walls), index)
        return index

    def update(self, line: dict[str, Any], board: Optional[BoardState] = None) -> None:
        """Take one line into account (call it in log order)."""
        kind = line["type"]
        if kind not in EXTRAS_READS:
            return   # nothing of the extras or the marker clock changes with it
        zones, walls = len(self.zones), len(self.destroyed_walls)
        clock_changed = self.clock.update(line)
        self._take(line, line["data"], kind, board)
        if clock_changed or kind in TERRAIN_EVENTS or zones != len(self.zones) or walls != len(self.destroyed_walls):
            self.version += 1

    def _take(self, line: dict[str, Any], d: dict[str, Any], kind: str, board: Optional[BoardState]) -> None:
        if kind == "UnitDeployed":
            self._classes[d["unit"]] = d.get("class", "")
        elif kind == "UnitStatusChanged" and d.get("status") == "unpinned":
            self.unpinned[d["unit"]] = line["seq"]
        elif kind == "BarrageDeclared":
            self._barrages[d["barrage"]] = {"mission": d.get("mission"), "ammunition": d.get("ammunition"),
                                            "side": d.get("side")}
        elif kind == "BarrageResolved":
            info = self._barrages.get(d.get("barrage"), {})
            for r in d.get("results", []):
                self.zones.append(Zone(r["location"], r.get("zone", "primary"), info.get("mission") or "",
                                       info.get("ammunition") or "", info.get("side"), d.get("barrage"),
                                       line["seq"]))
        elif kind == "PhaseStarted" and d.get("phase") == "barrage" and d.get("active"):
            # the impact area lasts until the firer's next barrage phase (IM.ART.GEN.PHASE)
            self.zones = [z for z in self.zones if z.side != d["active"]]
        elif kind == "UnitMoved" and self._classes.get(d["unit"]) == "tank" and board is not None:
            # the hexsides' features as a view shows them (no whole view built for one tank's move)
            features = self.hexside_index(board.hexsides)
            path = d["path"]
            for a, b in zip(path, path[1:]):
                if "stone-wall" in features.get(hexside(a, b), ()):
                    self.destroyed_walls.add(hexside(a, b))

    @classmethod
    def from_lines(cls, lines: Iterable[dict[str, Any]]) -> "Extras":
        from domain.board.state import apply
        extras, state = cls(), BoardState()
        for line in lines:
            extras.update(line, state)
            apply(state, line)
        return extras


class Board:
    """Terrain, hexsides and markers of one board at one moment."""

    def __init__(self, state: BoardState, extras: Optional[Extras] = None):
        self.state = state
        self.extras = extras or Extras()
        # a badly placed map must not stop the audit: it falls back to the origin (docs/maps.md)
        self.placement = Placement.tolerant(state.maps)
        self._hexsides = self.extras.hexside_index(state.hexsides)
        # A view is read at one moment, or while the markers and their lifetimes stand
        # (Extras.version): the live markers, by hex and by unit, are listed once.
        clock, reading = self.extras.clock, self.extras.gas_reading
        self._live = [m for m in state.markers if not clock.expired(m.get("seq", 0), reading)]
        self._markers: dict[str, Counts] = {}
        self._gas_sides: dict[str, set[str]] = {}
        for m in self._live:
            if m.get("location") and m.get("unit") is None:
                counts = self._markers.get(m["location"])
                if counts is None:
                    counts = self._markers[m["location"]] = Counts()
                counts[m["marker"]] += 1
                if m.get("marker") == "gas" and m.get("side"):
                    self._gas_sides.setdefault(m["location"], set()).add(m["side"])
        self._pinned_since: dict[str, int] = {}   # unit -> seq of the last "pinned" marker placed on it
        for m in state.markers:
            if m.get("marker") == "pinned" and m.get("unit") is not None:
                seq = m.get("seq", 0)
                if seq > self._pinned_since.get(m["unit"], -1):
                    self._pinned_since[m["unit"]] = seq
        self._zones: dict[str, list[Zone]] = {}
        for z in self.extras.zones:
            self._zones.setdefault(z.location, []).append(z)
        for m in state.markers:   # impact zones recorded as markers (with their mission)
            if m.get("marker") == "barrage-impact" and m.get("mission") and m.get("location"):
                self._zones.setdefault(m["location"], []).append(
                    Zone(m["location"], m.get("zone", "primary"), m["mission"], m.get("ammunition", ""),
                         m.get("side"), m.get("barrage"), m.get("seq", 0)))

    # -- hexes ----------------------------------------------------------------------------
    def spec(self, loc: str) -> dict[str, Any]:
        return self.state.hexes.get(loc) or {"terrain": "clear", "features": [], "elevation": 0}

    def terrain(self, loc: str) -> str:
        return self.spec(loc).get("terrain", "clear")

    def features(self, loc: str) -> set[str]:
        return set(self.spec(loc).get("features", []))

    def elevation(self, loc: str) -> int:
        return int(self.spec(loc).get("elevation", 0) or 0)

    def road(self, loc: str) -> bool:
        return "road" in self.features(loc)

    def railway(self, loc: str) -> bool:
        return "railway" in self.features(loc)

    def river(self, loc: str) -> bool:
        return self.terrain(loc) == "river" or "river" in self.features(loc)

    def shell_holes(self, loc: str) -> bool:
        return "shell-holes" in self.features(loc)

    def multi_storey(self, loc: str) -> bool:
        return "multi-storey" in self.features(loc)

    def trench(self, loc: str) -> Optional[str]:
        for kind in TRENCHES:
            if kind in self.features(loc) or self.markers(loc)[kind]:
                return kind
        return "trench" if "trench" in self.features(loc) else None

    # -- hexsides -------------------------------------------------------------------------
    def hexside_features(self, a: str, b: str) -> set[str]:
        return self._hexsides.get(hexside(a, b), set())

    # -- markers --------------------------------------------------------------------------
    def live_markers(self) -> list[dict[str, Any]]:
        """The board's markers less the smoke and gas whose lifetime has passed (lifetimes.py)."""
        return self._live

    def gas_sides(self, loc: str) -> set[str]:
        """The sides whose live gas markers (not on a unit) lie in `loc`."""
        return self._gas_sides.get(loc) or set()

    def markers(self, loc: str) -> "Counts":
        return self._markers.get(loc) or Counts()

    def smoke(self, loc: str) -> bool:
        return self.markers(loc)["smoke"] > 0

    def wire(self, loc: str) -> int:
        """0 none, 1 low wire, 2 high wire (two stacked counters, or a wire-high marker)."""
        m = self.markers(loc)
        if m["wire-high"] or m["wire"] >= 2:
            return 2
        return 1 if m["wire"] else 0

    def roadblock(self, loc: str) -> bool:
        return self.markers(loc)["roadblock"] > 0

    def rubble(self, loc: str) -> int:
        m = self.markers(loc)
        return 2 if m["rubble-2"] else 1 if m["rubble-1"] else 0

    def zones(self, loc: str, mission: Optional[str] = None) -> list[Zone]:
        return [z for z in self._zones.get(loc, []) if mission is None or z.mission == mission]

    def creeping_primary(self) -> set[str]:
        return {loc for loc, zs in self._zones.items()
                if any(z.mission in CREEPING and z.zone == "primary" for z in zs)}

    # -- units ----------------------------------------------------------------------------
    def unit_level(self, unit: UnitState) -> int:
        """1 = ground level; 2 with a "2nd Story" marker; 3 on the roof."""
        level = int(unit.attrs.get("level", 1) or 1)
        for m in self.state.markers:
            if m.get("unit") == unit.unit and m.get("marker") in LEVEL_MARKERS:
                level = max(level, LEVEL_MARKERS[m["marker"]])
        return level

    def pinned(self, unit: UnitState) -> bool:
        """Pinned by its status, or by a "pinned" marker placed on it since it was last unpinned
        (the log format lets either record a pin: `UnitStatusChanged` or `MarkerPlaced` with `unit`)."""
        if "pinned" in unit.status:
            return True
        since = self.extras.unpinned.get(unit.unit, 0)
        return self._pinned_since.get(unit.unit, -1) > since

    def blocking_boats(self, loc: str) -> list[UnitState]:
        """Gunboats and steamboats block sight through their hex; barges do not (IM.NAV.LOS)."""
        return [u for u in self.state.units_at(loc)
                if u.unit_class == "boat" and u.attrs.get("kind", "gunboat") != "barge"]

    # -- the extent of the board ----------------------------------------------------------
    def hexes(self) -> Iterator[str]:
        """Every hex of the board: each map's extent (the 00-99 square when none is given)."""
        for m in self.placement.maps:
            (c0, r0), (c1, r1) = m.extent
            for col in range(max(c0, 0), min(c1, LOCAL_MAX) + 1):
                for row in range(max(r0, 0), min(r1, LOCAL_MAX) + 1):
                    yield format_loc(m.id, col, row)
        if not self.placement.maps:
            seen = {parse_loc(loc)[0] for loc in self.state.hexes}
            for map_id in sorted(seen):
                for col in range(LOCAL_MAX + 1):
                    for row in range(LOCAL_MAX + 1):
                        yield format_loc(map_id, col, row)
