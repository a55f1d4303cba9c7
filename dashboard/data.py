"""What the pages read and write, through the same services as the API (api.deps.services_for).

A game's lines are read once per length of its log and kept with in-memory board snapshots,
so that stepping through a game folds at most `SNAPSHOT_EVERY` events. The snapshots are the
fold of the log (domain.board.state), as played or as ruled; the stored checkpoint projection
serves the CLI and API, which ask for one point at a time, while the dashboard asks for
neighbouring points many times a second and folds "as ruled" as well.
"""
from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Optional

from api.deps import Services, services_for
from api.problems import ProblemError
from api.recording import issue_ruling, raise_dispute
from dashboard.access import EVERYONE, Reader
from dashboard.figures import MapData, side_colours
from dashboard.geometry import HexLayout
from domain.application import ConflictError
from domain.board.state import BoardState, apply
from domain.log import LogError
from domain.rules.engine import AuditReport, RuleApplication
from domain.rulesets import find
from domain.tabletop import queries as tabletop_queries
from projections import analytics
from projections.disputes import dispute_views

SNAPSHOT_EVERY = 50
MAP_FIELDS = ("hexes", "hexsides", "maps")
LOCATION_KEYS = ("location", "target", "new_target")
# What an application may have read beside its own event: dice, and (game-log-tabletop.md, Cards)
# a card turned by a procedure as a roll is ("`for` ... DieRolled's `purpose`").
READ_TYPES = ("DieRolled", "CardDrawn")


def hex_counts(ruleset_id: Optional[str]) -> Optional[Callable[[list[dict[str, Any]]], dict[str, int]]]:
    """The numbers the rule system shows on its hexes (Infernal Machines: the turns each position
    has resisted, IM.ART.RESIST), from `RuleSet.hex_counts`; None: nothing is shown."""
    rules = find(ruleset_id)
    return rules.hex_counts() if rules is not None and rules.hex_counts is not None else None


def _locations(lines: list[dict[str, Any]]) -> set[str]:
    """Every hex a game names, so that the drawn board covers all of them."""
    out: set[str] = set()
    for line in lines:
        d = line["data"]
        out.update(d[k] for k in LOCATION_KEYS if isinstance(d.get(k), str))
        out.update(d.get("path", []) if line["type"] == "UnitMoved" else [])
        out.update(r["location"] for r in d.get("results", []) if isinstance(r, dict) and r.get("location"))
    return out


@dataclass
class GameView:
    """One game as the dashboard shows it, built from its lines as stored at `last`."""

    game: str
    lines: list[dict[str, Any]]
    _snapshots: dict[bool, list[tuple[int, dict[str, Any]]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def last(self) -> int:
        return self.lines[-1]["seq"] if self.lines else 0

    def line(self, seq: int) -> dict[str, Any]:
        return self.lines[seq - 1]

    def clamp(self, seq: Any) -> int:
        try:
            seq = int(seq)
        except (TypeError, ValueError):
            return self.last
        return min(max(seq, 1), self.last)

    @cached_property
    def final(self) -> BoardState:
        state = BoardState()
        for line in self.lines:
            apply(state, line)
        return state

    @cached_property
    def rules(self):
        """The game's installed rule system (its GameStarted.ruleset), or None."""
        started = next((l["data"] for l in self.lines if l["type"] == "GameStarted"), {})
        return find(started.get("ruleset"))

    @cached_property
    def geometry(self) -> str:
        """ "hex" or "tabletop": how the game's rule system places things (its RuleSet's geometry);
        a rule system that is not installed is drawn as the hex board always was."""
        return self.rules.geometry if self.rules is not None else "hex"

    @cached_property
    def renderer(self) -> str:
        """The name of the dashboard renderer the game's rule system names (RuleSet.renderer),
        else its geometry's (dashboard/renderers.py)."""
        return (self.rules.renderer if self.rules is not None else None) or self.geometry

    @property
    def tabletop(self) -> bool:
        """Drawn to scale in inches: a tabletop game once its table is defined (before any
        TableDefined there is no table to scale, and the empty hex board is shown)."""
        return self.geometry == "tabletop" and self.final.table is not None

    @cached_property
    def measure(self) -> str:
        """The game's reading of `measure` (game-log-tabletop.md, Interpretations: `closest`, the
        default, or `centre`), chosen as NAME=READING in GameStarted.options."""
        for option in self.final.options:
            if isinstance(option, dict) and option.get("interpretation") == "measure":
                return str(option.get("reading"))
            if isinstance(option, str):
                name, _, reading = option.removeprefix("interpretation:").partition("=")
                if name == "measure" and reading:
                    return reading
        return "closest"

    def tabletop_board(self, seq: int, ruled: bool = False, state: Optional[BoardState] = None) -> dict[str, Any]:
        """A tabletop board's public JSON after `seq` (its `state`, when folded already), on the
        game's final table: the figure keeps one terrain for the whole game, as the hex map does,
        even before TableDefined."""
        board = (state or self.board(seq, ruled)).public()
        final = self.final
        return {**board, "geometry": "tabletop", "table": board.get("table") or final.table,
                "sides": list(final.sides)}

    def shot(self, seq: int, ruled: bool = False, state: Optional[BoardState] = None
             ) -> Optional[tabletop_queries.ShotView]:
        """A ShotFired's range and arc on a tabletop (on the board after it: its `state`, when
        folded already) as the game's readings measure them (GameStarted.options, else the
        defaults); None for another event, or a shot whose shooter or target is not on the table."""
        line = self.line(seq)
        if line["type"] != "ShotFired" or not self.tabletop:
            return None
        board = state or self.board(seq, ruled)
        board.table = board.table or self.final.table
        try:
            return tabletop_queries.shot_view(board, self.lines[:seq], line["data"],
                                              tabletop_queries.readings(self.final.options))
        except (tabletop_queries.QueryError, KeyError, TypeError):
            return None

    @cached_property
    def attacks(self) -> dict[str, dict[str, Any]]:
        """Attack id -> its ShotFired's data: what a ShotResolved, a roll or a card about it names."""
        return {l["data"]["attack"]: l["data"] for l in self.lines
                if l["type"] == "ShotFired" and isinstance(l["data"].get("attack"), str)}

    @cached_property
    def map(self) -> MapData:
        board = self.final
        return MapData(list(board.maps), dict(board.hexes), list(board.hexsides), _locations(self.lines))

    @cached_property
    def layout(self) -> HexLayout:
        return self.map.layout()

    @cached_property
    def colours(self) -> dict[str, str]:
        return side_colours(self.final.sides)

    @cached_property
    def targets(self) -> dict[str, str]:
        """Barrage id -> the hex it was declared on."""
        return {l["data"]["barrage"]: l["data"]["target"] for l in self.lines
                if l["type"] == "BarrageDeclared" and l["data"].get("target")}

    @cached_property
    def barrage_sides(self) -> dict[str, Optional[str]]:
        return {l["data"]["barrage"]: l["data"].get("side") or l.get("side") for l in self.lines
                if l["type"] == "BarrageDeclared"}

    @cached_property
    def has_rulings(self) -> bool:
        return any(l["type"] == "RulingIssued" for l in self.lines)

    @cached_property
    def segments(self) -> list[dict[str, Any]]:
        """Where each turn and each phase begins: the jump list."""
        out, previous = [], (None, None)
        for line in self.lines:
            turn, phase = line["turn"], line["phase"]
            if turn != previous[0]:
                out.append({"turn": turn, "phase": None, "seq": line["seq"], "active": None})
            if (turn, phase) != previous and not (turn != previous[0] and phase == "start"):
                active = line["data"].get("active") if line["type"] == "PhaseStarted" else None
                out.append({"turn": turn, "phase": phase, "seq": line["seq"], "active": active})
            previous = (turn, phase)
        return out

    def _snapshot_list(self, ruled: bool) -> list[tuple[int, dict[str, Any]]]:
        with self._lock:
            if ruled not in self._snapshots:
                state, snaps = BoardState(), [(0, _strip(BoardState().to_json()))]
                for line in self.lines:
                    apply(state, line, ruled=ruled)
                    if line["seq"] % SNAPSHOT_EVERY == 0:
                        snaps.append((line["seq"], _strip(state.to_json())))
                self._snapshots[ruled] = snaps
            return self._snapshots[ruled]

    def board(self, seq: int, ruled: bool = False) -> BoardState:
        """The board after event `seq` (without the map, which `map` holds), as played or as ruled."""
        snaps = self._snapshot_list(ruled)
        at, data = snaps[min(seq // SNAPSHOT_EVERY, len(snaps) - 1)]
        state = BoardState.from_json({**data, "hexes": {}, "hexsides": [], "maps": []})
        for line in self.lines[at:seq]:
            if line["type"] != "MapDefined":
                apply(state, line, ruled=ruled)
            else:
                state.seq, state.turn, state.phase = line["seq"], line["turn"], line["phase"]
        return state

    def resistance(self, seq: int) -> Optional[dict[str, int]]:
        counts = hex_counts(self.lines[0]["data"].get("ruleset") if self.lines else None)
        return counts(self.lines[:seq]) if counts is not None else None

    def dice(self, seqs: list[int]) -> list[dict[str, Any]]:
        """The rolls and cards among `seqs`."""
        return [self.line(s) for s in sorted(set(seqs)) if 1 <= s <= self.last and self.line(s)["type"] in READ_TYPES]

    def dice_for(self, seq: int, related: list[int]) -> list[dict[str, Any]]:
        """The dice (and cards) an application read: those it relates, and the rolls about the
        event's subject recorded just before it (a step's rolls come right before its outcome)."""
        d = self.line(seq)["data"]
        subject = d.get("barrage") or d.get("attack") or d.get("subject") or d.get("unit")
        before = []
        for s in range(seq - 1, 0, -1):
            line = self.line(s)
            if line["type"] not in READ_TYPES or line["data"].get("subject") != subject:
                break
            before.append(s)
        return self.dice([seq, *related, *(before if subject else [])])

    def read_by(self, applications: dict[int, list[RuleApplication]]) -> dict[int, list[RuleApplication]]:
        """Roll or card seq -> the applications of later events that read it: the same dice the
        rules panel shows beside an application (`dice_for`), and any seq its inputs name."""
        out: dict[int, list[RuleApplication]] = {}
        for seq, apps in sorted(applications.items()):
            for app in apps:
                named = {d["seq"] for d in self.dice_for(app.seq, app.related)}
                named |= {d["seq"] for d in self.dice(input_seqs(app.inputs))}
                for roll in sorted(named - {app.seq}):
                    out.setdefault(roll, []).append(app)
        return out


def input_seqs(inputs: Optional[dict[str, Any]]) -> list[int]:
    """The seqs an application's inputs name: under `seq`, `seqs` or a key ending in `_seq(s)`
    (a value such as `roll` is a face, not a line, and is not read as one)."""
    out: list[int] = []
    for key, value in (inputs or {}).items():
        if key in ("seq", "seqs") or key.endswith(("_seq", "_seqs")):
            values = value if isinstance(value, list) else [value]
            out += [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    return out


def finding_seqs(applications: dict[int, list[RuleApplication]]) -> list[int]:
    """The events with a finding (an application whose verdict is not ok), in log order."""
    return sorted(seq for seq, apps in applications.items() if any(a.verdict.value != "ok" for a in apps))


def adjacent_finding(findings: list[int], seq: int, step: int) -> Optional[int]:
    """The next (`step` 1) or previous (`step` -1) event with a finding from `seq`, None past the
    last or before the first; `findings` sorted (as `finding_seqs` gives them)."""
    if step > 0:
        return next((s for s in findings if s > seq), None)
    return next((s for s in reversed(findings) if s < seq), None)


def _strip(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in MAP_FIELDS}


class DashboardData:
    """The store as the pages see it: as `reader` may see it (every read goes through `summaries`
    or `view`, which leave out the games the reader does not see)."""

    def __init__(self, db: Optional[str]):
        self.services: Services = services_for(db)
        self.reader: Reader = EVERYONE
        self._views: OrderedDict[str, GameView] = OrderedDict()
        self._apps: dict[str, tuple[int, dict[int, list[RuleApplication]]]] = {}
        self._readers: dict[str, tuple[int, dict[int, list[RuleApplication]]]] = {}
        self._lock = threading.Lock()

    def scoped(self, reader: Reader) -> "DashboardData":
        """The same store and caches, as `reader` sees them (one per request)."""
        scoped = copy.copy(self)
        scoped.reader = reader
        return scoped

    # -- games ------------------------------------------------------------------------------------
    def summaries(self):
        return [g for g in self.services.ledger.games() if self.reader.sees(g.game)]

    def view(self, game: str) -> Optional[GameView]:
        """The game as stored now (re-read when its log has grown); None for an unknown game or
        one the reader does not see."""
        if not self.reader.sees(game):
            return None
        last = self.services.ledger.last_seq(game)
        if not last:
            return None
        with self._lock:
            view = self._views.get(game)
            if view is not None and view.last == last:
                self._views.move_to_end(game)
                return view
        view = GameView(game, list(self.services.ledger.iter_lines(game)))
        with self._lock:
            self._views[game] = view
            while len(self._views) > 16:
                self._views.popitem(last=False)
        return view

    def report(self, view: GameView) -> AuditReport:
        return self.services.audits.report(view.game, view.lines)

    def applications(self, view: GameView) -> dict[int, list[RuleApplication]]:
        """The game's rule applications by the seq they judge (kept for the latest log length)."""
        cached = self._apps.get(view.game)
        if cached is None or cached[0] != view.last:
            by_seq: dict[int, list[RuleApplication]] = {}
            for app in self.report(view).applications:
                by_seq.setdefault(app.seq, []).append(app)
            cached = self._apps[view.game] = (view.last, by_seq)
        return cached[1]

    def readers(self, view: GameView) -> dict[int, list[RuleApplication]]:
        """Roll or card seq -> the applications that read it (kept for the latest log length)."""
        cached = self._readers.get(view.game)
        if cached is None or cached[0] != view.last:
            cached = self._readers[view.game] = (view.last, view.read_by(self.applications(view)))
        return cached[1]

    def findings(self, view: GameView) -> list[int]:
        return finding_seqs(self.applications(view))

    def game_rows(self) -> list[dict[str, Any]]:
        """Every game with its audit summary and its open disputes."""
        rows = []
        for g in self.summaries():
            view = self.view(g.game)
            summary = self.report(view).to_json()["summary"] if view else {}
            disputes = self.disputes(g.game) if view else []
            rows.append({"game": g.game, "scenario": g.scenario, "date": g.date, "sides": g.sides,
                         "events": g.events, "turns": g.last_turn, "summary": summary,
                         "open_disputes": [d["dispute"] for d in disputes if d["status"] == "open"]})
        return rows

    # -- disputes ---------------------------------------------------------------------------------
    def disputes(self, game: str) -> list[dict[str, Any]]:
        view = self.view(game)
        if view is None:
            return []
        return list(dispute_views(view.lines, self.report(view), lambda seq: view.board(max(seq, 0))))

    def raise_dispute(self, game: str, about: int, claim: str) -> dict[str, Any]:
        """A DisputeRaised by the signed-in holder (a player or better), as POST .../disputes does."""
        def write():
            principal = self.reader.may("player", game)
            if not claim or not claim.strip():
                raise ProblemError(422, "invalid-event", "say what is disputed (the claim)", field="claim")
            return raise_dispute(self.services, principal, game, int(about), claim.strip(), None)
        return _written(write)

    def issue_ruling(self, game: str, body: dict[str, Any]) -> dict[str, Any]:
        """A RulingIssued by the signed-in referee, as POST .../rulings does."""
        return _written(lambda: issue_ruling(self.services, self.reader.may("referee", game), game, body))

    # -- analytics --------------------------------------------------------------------------------
    def analytics(self, scenarios: list[str], sides: list[str], years: list[str]) -> dict[str, list[dict[str, Any]]]:
        """Ammunition and fire-order rows of the games that pass the filters (empty filter: all)."""
        games = {g.game: g for g in self.summaries()
                 if (not scenarios or g.scenario in scenarios) and (not years or (g.date or "")[:4] in years)
                 and (not sides or set(g.sides) & set(sides))}
        ledger, store = self.services.ledger, self.services.store
        spends = [r for r in analytics.ammunition(ledger, store)["rows"]
                  if r["game"] in games and (not sides or r.get("side") in sides)]
        requests = [r for r in analytics.fire_orders(ledger, store)["rows"] if r["game"] in games]
        if sides:
            requests = [r for r in requests if self._barrage_side(r["game"], r["barrage"]) in sides]
        return {"spends": spends, "requests": [
            {**r, "column": r["column_recorded"], "computed": r.get("column_computed")} for r in requests]}

    def _barrage_side(self, game: str, barrage: str) -> Optional[str]:
        view = self.view(game)
        return view.barrage_sides.get(barrage) if view else None

    def filter_options(self) -> dict[str, list[str]]:
        games = self.summaries()
        return {"scenarios": sorted({g.scenario for g in games if g.scenario}),
                "sides": sorted({s for g in games for s in g.sides}),
                "years": sorted({(g.date or "")[:4] for g in games if g.date})}


def _written(write) -> dict[str, Any]:
    """Run a write; its refusal (bad token, unknown dispute, a bad event) as {"error": message}."""
    try:
        return {"event": write()}
    except ProblemError as err:
        return {"error": getattr(err, "detail", None) or str(err)}
    except (ConflictError, LogError, ValueError, KeyError) as err:
        return {"error": str(err)}


_DATA: dict[str, DashboardData] = {}
_DATA_LOCK = threading.Lock()


def data_for(db: Optional[str]) -> DashboardData:
    """One DashboardData per store per process (like the API's services)."""
    with _DATA_LOCK:
        key = db or ""
        if key not in _DATA:
            _DATA[key] = DashboardData(db)
        return _DATA[key]
