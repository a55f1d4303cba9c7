"""Events in words, for the event list: what a person reads, not the JSON.

One describer per event type; the events whose shape differs on a tabletop (game-log-tabletop.md:
UnitDeployed and UnitMoved "tabletop form", points instead of hexes) say inches and points there.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from domain.tabletop.geometry import facings_of, path_length, path_turn, round_inches, xy

Describer = Callable[[dict[str, Any]], str]
DESCRIBE: dict[str, Describer] = {}


def says(event_type: str) -> Callable[[Describer], Describer]:
    def register(fn: Describer) -> Describer:
        DESCRIBE[event_type] = fn
        return fn
    return register


class _Fields(dict):
    """An event's data for a sentence template: a field the line lacks reads "?"."""

    def __missing__(self, key: str) -> str:
        return "?"


def template(event_type: str, sentence: str) -> None:
    """An event said by one format string over its data's fields (`{unit} loses {points} ...`)."""
    DESCRIBE[event_type] = lambda d: sentence.format_map(_Fields(d))


def describe(line: dict[str, Any]) -> str:
    """One sentence for an event."""
    fn = DESCRIBE.get(line["type"])
    if fn is not None:
        return fn(line["data"])
    fields = ", ".join(f"{k} {_short(v)}" for k, v in line["data"].items())
    return f"{_spaced(line['type'])}" + (f": {fields}" if fields else "")


def headline(line: dict[str, Any]) -> str:
    """The event with its place in the game, for lists: "12 · T1 barrage · british: ..."."""
    side = f" · {line['side']}" if line.get("side") else ""
    return f"{line['seq']} · T{line['turn']} {line['phase']}{side}: {describe(line)}"


def _spaced(name: str) -> str:
    out = "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()
    return out[:1].upper() + out[1:]


def _short(value: Any) -> str:
    if _is_point(value):
        return _point(value)
    if isinstance(value, list):
        return ", ".join(_short(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_short(v)}" for k, v in value.items())
    return str(value)


def _join(items: list[Any]) -> str:
    return ", ".join(str(i) for i in items) or "none"


# -- tabletop values (game-log-tabletop.md, Table and points: a point is {"x", "y"} in inches) --------
def _is_point(value: Any) -> bool:
    return isinstance(value, Mapping) and "x" in value and "y" in value


def _point(value: Any) -> str:
    # Table and points: coordinates are "as precise as the recorder likes": tenths at least, all the digits given
    x, y = xy(value)
    return f"({_coordinate(x)}, {_coordinate(y)})"


def _coordinate(value: float) -> str:
    return f"{value:.1f}" if round(value, 1) == value else f"{value:g}"


def _inches(length: Any) -> str:
    # game-log-tabletop.md, Measuring: a computed distance is rounded half-up to 0.1"
    return f'{round_inches(float(length)):.1f}"'


def _where(d: dict[str, Any]) -> str:
    """A hex location, or a point in inches."""
    return _point(d["position"]) if _is_point(d.get("position")) else str(d.get("location"))


@says("GameStarted")
def _game(d):
    sides = " vs ".join(d.get("sides", {}))
    return f"Game started: {d.get('scenario')} ({d.get('date')}), {sides}, table pack {d.get('tables', 'none')}"


@says("MapDefined")
def _map(d):
    maps = [m if isinstance(m, str) else m.get("map", m.get("id")) for m in d.get("maps", [])]
    return (f"Map {_join(maps)} defined: {len(d.get('hexes', {}))} hexes with terrain, "
            f"{len(d.get('hexsides', []))} hexsides")


@says("WeatherSet")
def _weather(d):
    return f"Weather {d.get('weather')}, ground {d.get('terrain_state')}"


@says("ArtilleryMissionSet")
def _mission(d):
    return f"{d['side']} artillery mission: {d['mission']}"


@says("BarrageTypesSet")
def _types(d):
    return f"{d['side']} may fire {_join(d['allowed'])} barrages"


@says("UnitDeployed")
def _deployed(d):
    if _is_point(d.get("position")):
        size = d.get("footprint") or {}
        kind = d.get("type") or d.get("class")
        return (f"{d['unit']}{f' ({kind})' if kind else ''} deployed at {_point(d['position'])} facing "
                f"{d.get('facing', 0)}°, base {_inches(size.get('w', 0))} × {_inches(size.get('d', 0))}")
    return f"{d['unit']} ({d['class']}) deployed at {d.get('location') or 'off map'}"


@says("ArtilleryElementAssigned")
def _element(d):
    points = f", {d['artillery_points']} artillery points" if d.get("artillery_points") is not None else ""
    return f"Artillery element {d['element']} ({d['side']}) assigned, firepower {d['firepower']}{points}"


@says("MarkerPlaced")
def _marker(d):
    on = f" on {d['unit']}" if d.get("unit") else ""
    turns = f" for {d['turns']} turns" if d.get("turns") else ""
    radius = f", radius {_inches(d['radius'])}" if d.get("radius") else ""
    return f"{d['marker']} marker placed at {_where(d)}{on}{turns}{radius}"


@says("MarkerRemoved")
def _unmarker(d):
    return f"{d['marker']} marker removed from {_where(d)}"


@says("TurnStarted")
def _turn(d):
    return f"Turn {d['turn']} begins"


@says("PhaseStarted")
def _phase(d):
    active = f" ({d['active']} player turn)" if d.get("active") else ""
    return f"{d['phase']} phase{active}"


@says("UnitMoved")
def _moved(d):
    path = d["path"]
    mode = f" ({d['mode']})" if d.get("mode") else ""
    if _is_point(path[0]):
        return f"{d['unit']} moved {_point(path[0])} → {_point(path[-1])}{mode}, {_inches(path_length(path))}{_turned(path)}"
    return f"{d['unit']} moved {path[0]} → {path[-1]}{mode}, {len(path) - 1} hexes"


def _turned(path: list[dict[str, Any]]) -> str:
    """game-log-tabletop.md, UnitMoved: its turn is the sum of the smallest rotations between
    successive facings (a point's `f`; omitted: unchanged)."""
    facings = [f for f in facings_of(path) if f is not None]
    if len(facings) < 2:
        return ""
    return f", facing {facings[0]:g}° → {facings[-1]:g}° (turned {path_turn(facings):g}°)"


@says("UnitStatusChanged")
def _status(d):
    turns = f" for {d['turns']} turns" if d.get("turns") else ""
    cause = f" ({d['cause']})" if d.get("cause") else ""
    return f"{d['unit']} {d['status']}{turns}{cause}"


@says("MoraleChecked")
def _morale(d):
    return f"Morale check for {_join(d.get('units', []))}: {'passed' if d.get('passed') else 'failed'}"


@says("DieRolled")
def _die(d):
    rolls = f" ({'+'.join(str(r) for r in d['results'])})" if d.get("results") else ""
    about = f" for {d['subject']}" if d.get("subject") else ""
    return f"Rolled {d['die']}: {d['result']}{rolls}{about}, {d['purpose']}"


@says("Spotted")
def _spotted(d):
    return f"{d['spotter']} {'spots' if d.get('spotted') else 'fails to spot'} {d['target']}"


@says("SmallArmsFired")
def _fired(d):
    return (f"Small arms {d.get('attack')}: {_join(d.get('firers', []))} fire at {d.get('target')} "
            f"(firepower {d.get('firepower')}, range {d.get('range')})")


@says("SmallArmsResolved")
def _sa_resolved(d):
    results = "; ".join(f"{r.get('unit')} {r.get('result')}" for r in d.get("results", []))
    return f"Small arms {d.get('attack')} resolved: {results or 'no effect'}"


@says("HexObserved")
def _observed(d):
    who = d.get("observer") or "nobody (automatic)"
    return f"{d['target']} observed by {who} via {d.get('via')}"


@says("BarrageDeclared")
def _barrage(d):
    target = d.get("target") or f"element {d.get('target_element')}"
    sustained = ", sustained" if d.get("sustained") else ""
    kind = d.get("barrage_type") or "untyped"   # an objective's destruction may name no barrage type
    return (f"Barrage {d['barrage']} declared on {target}: {kind} "
            f"{str(d.get('ammunition', '')).upper()} {d.get('mission')} by {_join(d.get('elements', []))}"
            f"{sustained}")


@says("ArtilleryPointsSpent")
def _points(d):
    why = f" ({d['reason']})" if d.get("reason") else ""
    return f"{d['element']} spends {d['points']} artillery points{why}"


@says("CommunicationTested")
def _comm(d):
    return (f"Barrage {d['barrage']}: {d['link']} link "
            f"{'in communication' if d['in_communication'] else 'out of communication'}")


@says("FireOrderChecked")
def _fot(d):
    return (f"Barrage {d['barrage']}: fire order {'granted' if d['granted'] else 'refused'} "
            f"(column {d['column']})")


@says("ScatterTested")
def _scatter(d):
    if d.get("scattered"):
        return f"Barrage {d['barrage']} scatters to {d.get('new_target')}"
    return f"Barrage {d['barrage']} on target"


@says("BarrageResolved")
def _resolved(d):
    results = "; ".join(f"{r.get('location')} {r.get('result')}" for r in d.get("results", []))
    return f"Barrage {d['barrage']} resolved at firepower {d.get('firepower')}: {results or 'nothing'}"


@says("BarrageCancelled")
def _cancelled(d):
    return f"Barrage {d['barrage']} cancelled: {d.get('reason')}"


@says("ArtilleryElementEliminated")
def _element_gone(d):
    return f"Artillery element {d['element']} eliminated"


@says("DisputeRaised")
def _dispute(d):
    by = f" by {d['by']}" if d.get("by") else ""
    return f"Dispute {d['dispute']} raised{by} about event {d['about']}: {d['claim']}"


@says("RulingIssued")
def _ruling(d):
    fixes = f", {len(d.get('corrections', []))} correction(s)" if d.get("corrections") else ""
    return f"Ruling on {d['dispute']}: {d['decision']}{fixes}"


# -- the tabletop games (game-log-tabletop.md: the shared events, then AVBCW's and Mogdonazia's) -------
@says("TableDefined")
def _table(d):
    kinds = sorted({f.get("kind") for f in d.get("features", [])})
    wind = f", wind toward {d['wind']}°" if d.get("wind") is not None else ""
    return (f'Table {d.get("width"):g}" × {d.get("depth"):g}": {len(d.get("features", []))} features'
            f" ({_join(kinds)}){wind}")


@says("ShotFired")
def _shot(d):
    what = " ".join(str(w) for w in (d.get("rating"), d.get("weapon_class")) if w)
    part = f" ({d['target_part']})" if d.get("target_part") else ""
    weapon = f" with {d['weapon']}" if d.get("weapon") else ""
    return (f"{d.get('shooter')} shoots at {d.get('target')}{part}{weapon} (attack {d.get('attack')}): "
            f"{d.get('dice')} {what + ' ' if what else ''}dice at range {_inches(d.get('range', 0))}")


@says("ShotResolved")
def _shot_resolved(d):
    counts = [f"{d[k]} {k}" for k in ("hits", "ones", "twenties") if d.get(k) is not None]
    return f"Attack {d.get('attack')} resolved: {_join(counts)}"


template("CohesionLost", "{unit} loses {points} cohesion ({cause})")
template("HitCardResolved", "Attack {attack} on {target}: card {card} gives {outcome}")
template("CriticalHit", "{unit} critical hit ({chart} chart, {result}): {effect}")
template("VehicleDamaged", "{vehicle} damaged ({cause}): {result}")
template("LeadershipPointsPlaced", "{from} gives {points} leadership points to {to}")


@says("CohesionRestored")
def _cohesion_restored(d):
    by = f" by {d['by']}" if d.get("by") else ""
    return f"{d['unit']} regains {d['points']} cohesion{by}"


@says("AmmoStateChanged")
def _ammo(d):
    weapon = f" ({d['weapon']})" if d.get("weapon") else ""
    return f"{d['unit']}{weapon} ammunition {d['state']} ({d.get('cause') or d.get('by')})"


@says("BraveryTested")
def _bravery(d):
    lent = f" lent by {d['brv_from']}" if d.get("brv_from") else ""
    return (f"{d['unit']} tests bravery ({d.get('why')}) against BRV {d.get('brv')}{lent}: "
            f"{'passed' if d.get('passed') else 'failed'}")


@says("DeckDefined")
def _deck(d):
    cards = d["cards"] if isinstance(d.get("cards"), str) else f"{len(d.get('cards', []))} cards"
    return f"Deck {d['deck']} defined: {cards}"


@says("DeckShuffled")
def _shuffled(d):
    returned = d.get("returned")
    back = "all cards" if returned == "all" else f"{_join(returned or [])}"
    return f"Deck {d['deck']} shuffled, {back} returned"


@says("CardDrawn")
def _card(d):
    meaning = f": {d['meaning']}" if d.get("meaning") else ""
    about = f" about {d['subject']}" if d.get("subject") else ""
    return f"Card {d['card']} drawn from {d['deck']} for {d.get('for')}{about}{meaning}"


@says("VehicleBuilt")
def _built(d):
    return (f"{d['unit']} built: {d.get('kind')}, looks {d.get('looks')}, {d.get('speed_dice')} speed dice, "
            f"class {d.get('target_class')}, crew {d.get('crew')}, {len(d.get('weapons', []))} weapons")


@says("BreakdownTested")
def _breakdown(d):
    if d.get("kind") == "restart":
        outcome = "restarts" if d.get("restarted") else "does not restart"
    else:
        outcome = "breaks down" if d.get("broke_down") else "holds"
    return f"{d['unit']} {d.get('kind')} test ({d.get('terrain')}): {outcome}"


@says("MarkerMoved")
def _marker_moved(d):
    name = " ".join(str(w) for w in (d.get("marker"), d.get("id")) if w) or "marker"
    return f"{name} moved {_short(d.get('from'))} → {_short(d.get('to'))}"


@says("ArmyListed")
def _army(d):
    units = [f"{u.get('unit')} {u.get('type')}" for u in d.get("units", [])]
    rules = f", army rules {_join([r.get('rule') for r in d['army_rules']])}" if d.get("army_rules") else ""
    return f"{d.get('side')} army listed: {_join(units)}{rules}, {d.get('total')} points"
