"""The board at any point: a fold of a game's events, one handler per event type.

`BoardState` is plain data (JSON in, JSON out) so that checkpoints can store it. The fold never
rolls dice or reads tables: it applies what the log recorded. Rule checks judge the log; this
only says where things are.
"""
from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Iterable, Optional

from domain.rulesets import find

# Statuses a unit carries until another status lifts them.
LIFTS = {"unpinned": "pinned", "standing": "prone", "repaired": "broken-down", "mounted": "dismounted"}
LASTING = {"pinned", "prone", "dismounted", "fatigued", "broken-down", "eliminated"}


def _json_copy(value: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists, tuples of str, numbers, booleans and None)."""
    kind = type(value)
    if kind is dict:
        return {k: _json_copy(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return kind(_json_copy(v) for v in value)
    return copy.deepcopy(value) if kind not in _ATOMS else value


_ATOMS = {str, int, float, bool, type(None)}


@dataclass
class UnitState:
    unit: str
    side: Optional[str]
    unit_class: str
    name: Optional[str] = None
    location: Optional[str] = None
    facing: Optional[int] = None
    morale: Optional[int] = None
    firepower: Optional[float] = None
    range: Optional[int] = None
    movement: Optional[float] = None
    attrs: dict[str, Any] = field(default_factory=dict)
    status: list[str] = field(default_factory=list)
    pinned_turns: Optional[int] = None
    pinned_at_turn: Optional[int] = None
    deployed_seq: int = 0
    last_seq: int = 0
    # On a tabletop (game-log-tabletop.md): the base's centre in inches, its footprint {w, d},
    # the figures and their base, the turret offset, and the unit table's row.
    position: Optional[dict[str, float]] = None
    footprint: Optional[dict[str, float]] = None
    figures: Optional[Any] = None
    figure_base: Optional[float] = None
    turret: Optional[dict[str, float]] = None
    type: Optional[str] = None

    @property
    def eliminated(self) -> bool:
        return "eliminated" in self.status

    def to_json(self) -> dict[str, Any]:
        # `asdict` without its generic walk (a unit is read as JSON for every move a rule measures):
        # the same deep copy of the JSON values a unit holds.
        out = {name: _json_copy(getattr(self, name)) for name in _UNIT_FIELDS}
        out["class"] = out.pop("unit_class")
        return out


_UNIT_FIELDS = tuple(f.name for f in fields(UnitState))


@dataclass
class ElementState:
    element: str
    side: str
    firepower: int
    artillery_points: Optional[int] = None
    points_spent: int = 0
    eliminated: bool = False

    @property
    def points_left(self) -> Optional[int]:
        if self.artillery_points is None:
            return None
        return self.artillery_points - self.points_spent

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "points_left": self.points_left}


@dataclass
class BoardState:
    game: Optional[str] = None
    seq: int = 0
    turn: int = 0
    phase: str = "setup"
    active: Optional[str] = None
    ruleset: Optional[str] = None
    scenario: Optional[str] = None
    date: Optional[str] = None
    sides: dict[str, dict[str, Any]] = field(default_factory=dict)
    options: list[Any] = field(default_factory=list)
    permissions: list[str] = field(default_factory=list)
    tables: str = "none"
    weather: Optional[str] = None
    terrain_state: Optional[str] = None
    maps: list[Any] = field(default_factory=list)
    hexes: dict[str, dict[str, Any]] = field(default_factory=dict)
    hexsides: list[dict[str, Any]] = field(default_factory=list)
    units: dict[str, UnitState] = field(default_factory=dict)
    elements: dict[str, ElementState] = field(default_factory=dict)
    markers: list[dict[str, Any]] = field(default_factory=list)
    missions: dict[str, str] = field(default_factory=dict)
    barrage_types: dict[str, list[str]] = field(default_factory=dict)
    disputes: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Events the fold could not apply ({seq, type, error}): reported with this game's board
    # instead of failing every read of it (a log imported before a check existed may hold one).
    problems: list[dict[str, Any]] = field(default_factory=list)
    # A tabletop game's table (its TableDefined), and what its rule system keeps beside the
    # units (decks, army lists, cohesion, ...), as plain JSON.
    table: Optional[dict[str, Any]] = None
    extra: dict[str, Any] = field(default_factory=dict)

    # -- views ----------------------------------------------------------------------------
    def units_at(self, location: str, *, side: Optional[str] = None) -> list[UnitState]:
        return [u for u in self.units.values() if u.location == location and not u.eliminated
                and (side is None or u.side == side)]

    def markers_at(self, location: str, marker: Optional[str] = None) -> list[dict[str, Any]]:
        return [m for m in self.markers if m.get("location") == location
                and (marker is None or m["marker"] == marker)]

    def year_month(self) -> tuple[int, int]:
        y, m = (self.date or "0000-00").split("-")
        return int(y), int(m)

    # -- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The full state (for checkpoints)."""
        out = {k: copy.deepcopy(v) for k, v in self.__dict__.items() if k not in ("units", "elements")}
        out["units"] = {k: u.to_json() for k, u in self.units.items()}
        out["elements"] = {k: e.to_json() for k, e in self.elements.items()}
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any], *, owned: bool = False) -> "BoardState":
        """The state from its JSON; `owned`: the caller hands `data` over (fresh from a parse),
        so it is used as is instead of copied."""
        data = data if owned else copy.deepcopy(data)
        units = {}
        for k, u in data.pop("units").items():
            u["unit_class"] = u.pop("class")
            units[k] = UnitState(**u)
        elements = {}
        for k, e in data.pop("elements").items():
            e.pop("points_left", None)
            elements[k] = ElementState(**e)
        return cls(**data, units=units, elements=elements)

    def public(self) -> dict[str, Any]:
        """The JSON of `umpire state` and `GET /api/games/{game}/state`."""
        if self.table is not None:
            return self._public_tabletop()
        return {
            "game": self.game, "seq": self.seq, "turn": self.turn, "phase": self.phase,
            "active": self.active, "weather": self.weather, "terrain_state": self.terrain_state,
            "units": {k: {"side": u.side, "class": u.unit_class, "name": u.name,
                          "location": u.location, "status": list(u.status), "morale": u.morale,
                          "firepower": u.firepower, "range": u.range, "movement": u.movement,
                          "facing": u.facing, "pinned_turns": u.pinned_turns}
                      for k, u in self.units.items()},
            "elements": {k: {"side": e.side, "firepower": e.firepower,
                             "artillery_points": e.artillery_points,
                             "points_spent": e.points_spent, "points_left": e.points_left,
                             "eliminated": e.eliminated}
                         for k, e in self.elements.items()},
            "markers": [dict(m) for m in self.markers],
            "problems": [dict(p) for p in self.problems],
        }

    def _public_tabletop(self) -> dict[str, Any]:
        return {
            "game": self.game, "seq": self.seq, "turn": self.turn, "phase": self.phase, "active": self.active,
            "ruleset": self.ruleset, "geometry": "tabletop", "sides": list(self.sides),
            "table": copy.deepcopy(self.table),
            "units": {k: {"side": u.side, "class": u.unit_class or None, "type": u.type, "name": u.name,
                          "position": dict(u.position) if u.position else None, "facing": u.facing,
                          "footprint": dict(u.footprint) if u.footprint else None, "figures": copy.deepcopy(u.figures),
                          "figure_base": u.figure_base, "turret": u.turret, "status": list(u.status)}
                      for k, u in self.units.items()},
            "markers": [dict(m) for m in self.markers],
            **copy.deepcopy(self.extra),
            "problems": [dict(p) for p in self.problems],
        }


Handler = Callable[[BoardState, dict[str, Any]], None]
HANDLERS: dict[str, Handler] = {}


def on(event_type: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[event_type] = fn
        return fn
    return register


def apply(state: BoardState, line: dict[str, Any], *, ruled: bool = False) -> BoardState:
    """Fold one line into the state (in place) and return it."""
    state.game = line["game"]
    state.seq = line["seq"]
    state.turn = line["turn"]
    state.phase = line["phase"]
    _fold_one(state, line)
    if ruled and line["type"] == "RulingIssued" and line["data"].get("decision") != "upheld":
        for correction in line["data"].get("corrections", []):
            if not isinstance(correction, dict):
                continue
            fix = {**line, "type": correction.get("type"), "data": correction.get("data", {}),
                   "side": correction.get("side", line.get("side"))}
            if fix["type"] != "RulingIssued":
                _fold_one(state, fix)
    return state


CORE_TYPES = ("GameStarted", "TurnStarted", "PhaseStarted", "DisputeRaised", "RulingIssued")
_BY_RULESET: dict[Optional[str], dict[str, Handler]] = {}


def handlers_for(ruleset_id: Optional[str]) -> dict[str, Handler]:
    """The fold of a rule system's board: the core events' handlers and its own
    (RuleSet.board_handlers); before a GameStarted names one, the core's alone."""
    found = _BY_RULESET.get(ruleset_id)
    if found is None:
        rules = find(ruleset_id)
        found = {kind: HANDLERS[kind] for kind in CORE_TYPES}
        if rules is not None:
            found.update(rules.board_handlers())
        _BY_RULESET[ruleset_id] = found
    return found


def _fold_one(state: BoardState, line: dict[str, Any]) -> None:
    kind = line["type"]
    handler = handlers_for(state.ruleset).get(kind) if isinstance(kind, str) else None
    if handler is None:
        return
    try:
        handler(state, line)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # An event that names what the board does not hold (an imported log's correction of a
        # unit never deployed, ...): the board goes on without it and says so.
        state.problems.append({"seq": line["seq"], "type": line["type"],
                               "error": f"{type(exc).__name__}: {exc}"})


def fold(lines: Iterable[dict[str, Any]], state: Optional[BoardState] = None, *,
         upto: Optional[int] = None, ruled: bool = False) -> BoardState:
    state = state if state is not None else BoardState()
    for line in lines:
        if upto is not None and line["seq"] > upto:
            break
        apply(state, line, ruled=ruled)
    return state


@on("GameStarted")
def _game_started(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    s.ruleset, s.scenario, s.date = d.get("ruleset"), d.get("scenario"), d.get("date")
    s.sides = copy.deepcopy(d.get("sides", {}))
    s.options = list(d.get("options", []))
    s.permissions = list(d.get("permissions", []))
    s.tables = d.get("tables", "none")


@on("MapDefined")
def _map_defined(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    s.maps.extend(m for m in d.get("maps", []) if m not in s.maps)
    for loc, spec in d.get("hexes", {}).items():
        s.hexes[loc] = {"terrain": spec.get("terrain", "clear"),
                        "features": list(spec.get("features", [])),
                        "elevation": spec.get("elevation", 0),
                        **{k: v for k, v in spec.items() if k not in ("terrain", "features", "elevation")}}
    s.hexsides.extend(copy.deepcopy(d.get("hexsides", [])))


@on("WeatherSet")
def _weather(s: BoardState, line: dict[str, Any]) -> None:
    s.weather = line["data"].get("weather")
    s.terrain_state = line["data"].get("terrain_state")


@on("ArtilleryMissionSet")
def _mission(s: BoardState, line: dict[str, Any]) -> None:
    s.missions[line["data"]["side"]] = line["data"]["mission"]


@on("BarrageTypesSet")
def _barrage_types(s: BoardState, line: dict[str, Any]) -> None:
    s.barrage_types[line["data"]["side"]] = list(line["data"]["allowed"])


@on("UnitDeployed")
def _deployed(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    s.units[d["unit"]] = UnitState(
        unit=d["unit"], side=line.get("side"), unit_class=d["class"], name=d.get("name"),
        location=d.get("location"), facing=d.get("facing"), morale=d.get("morale"),
        firepower=d.get("firepower"), range=d.get("range"), movement=d.get("movement"),
        attrs=copy.deepcopy(d.get("attrs", {})), deployed_seq=line["seq"], last_seq=line["seq"])


@on("ArtilleryElementAssigned")
def _element(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    s.elements[d["element"]] = ElementState(d["element"], d["side"], d["firepower"], d.get("artillery_points"))


@on("TurnStarted")
def _turn(s: BoardState, line: dict[str, Any]) -> None:
    s.active = None


@on("PhaseStarted")
def _phase(s: BoardState, line: dict[str, Any]) -> None:
    s.active = line["data"].get("active")


@on("UnitMoved")
def _moved(s: BoardState, line: dict[str, Any]) -> None:
    unit = s.units[line["data"]["unit"]]
    unit.location = line["data"]["path"][-1]
    unit.last_seq = line["seq"]


@on("UnitStatusChanged")
def _status(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    unit = s.units[d["unit"]]
    status = d["status"]
    unit.last_seq = line["seq"]
    if status in LIFTS:
        unit.status = [x for x in unit.status if x != LIFTS[status]]
        if status == "unpinned":
            unit.pinned_turns = unit.pinned_at_turn = None
    elif status in LASTING and status not in unit.status:
        unit.status.append(status)
    if status == "pinned":
        unit.pinned_turns, unit.pinned_at_turn = d.get("turns"), line["turn"]


@on("MarkerPlaced")
def _marker_placed(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    s.markers.append({k: v for k, v in d.items() if v is not None} | {"seq": line["seq"], "turn": line["turn"],
                                                                        "side": line.get("side")})


@on("MarkerRemoved")
def _marker_removed(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    for i, m in enumerate(s.markers):
        if m["marker"] == d["marker"] and m.get("location") == d.get("location") \
                and (d.get("unit") is None or m.get("unit") == d.get("unit")):
            del s.markers[i]
            return


@on("ArtilleryPointsSpent")
def _points(s: BoardState, line: dict[str, Any]) -> None:
    s.elements[line["data"]["element"]].points_spent += line["data"]["points"]


@on("ArtilleryElementEliminated")
def _element_gone(s: BoardState, line: dict[str, Any]) -> None:
    s.elements[line["data"]["element"]].eliminated = True


@on("DisputeRaised")
def _dispute(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    s.disputes[d["dispute"]] = {"about": d["about"], "claim": d["claim"], "by": d.get("by"),
                                "seq": line["seq"], "status": "open"}


@on("RulingIssued")
def _ruling(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    dispute = s.disputes.setdefault(d["dispute"], {"about": None, "claim": None, "seq": None})
    dispute.update(status="ruled", decision=d["decision"], ruling_seq=line["seq"], rule=d.get("rule"))
