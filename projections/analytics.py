"""Cross-game analytics: ammunition spent, fire orders, resistance-turn histories.

`AnalyticsFollower` is a library projection of the ledger's game events (projections/follow.py):
a worker runs it (`umpire worker`), or a read that finds no worker feeds it itself. Each page of
events is folded game by game by the game's rule system's tally (`RuleSet.analytics`; Infernal
Machines': domain/rules/infernal_machines/analytics.py) and its rows, the games' tallies and the
tracking position are written in one transaction: taking the log twice adds nothing, and
`rebuild()` from nothing gives the same rows. Memory stays bounded by one page and the tallies
of the games in it.

The data functions at the bottom (`ammunition`, `fire_orders`, `resistance`) answer
`{"rows": [...], "lag": N}`: when no worker keeps the projection they catch it up first (lag 0),
else they answer at once with the rows as they stand and `lag`, the game events the worker has
yet to take. The CLI, the API and the dashboard all read through them. The tabletop rule
systems' rows (any kind not Infernal Machines') are kept as JSON in one table
(`umpire_an_rows`) and answered by projections/analytics_tabletop.py.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any, Callable, Iterable, Optional

from domain.application import Ledger
from domain.log import read_stored_line
from domain.rulesets import find
from projections.analytics_machines import ANSWERS as MACHINE_ANSWERS
from projections.analytics_tabletop import ANSWERS as TABLETOP_ANSWERS
from projections.follow import FollowingProjection, catch_up, events_after
from projections.lease import lease_of
from projections.packs import configured_pack
from projections.views import view_of
from projections.store import ProjectionStore

KEY = "analytics"  # the projection's name for `umpire worker --projection` and its lease
# The row kinds a rule system's tally yields, as (kind, row): one table each (SCATTER updates FIRE).
AMMO, FIRE, SCATTER, RESIST = "ammo", "fire", "scatter", "resist"
PROBLEMS = "analytics-problems"
# 2: the tabletop rows; 3: tracked by the library's tracking recorder; 4: Infernal Machines' machines
# (breakdowns, fascines, vehicle losses). A store taken by an older version is taken again.
META, VERSION = "analytics-meta", 4
IM_KINDS = (AMMO, FIRE, SCATTER, RESIST)
PAGE = 5000  # events a read that catches up takes per transaction
# The answers made of kept rows: the tabletop rule systems' and Infernal Machines' machines'.
ANSWERS = {**TABLETOP_ANSWERS, **MACHINE_ANSWERS}

AMMO_COLUMNS = ("game", "seq", "element", "side", "turn", "points", "cumulative", "reason", "barrage")
FIRE_COLUMNS = ("game", "seq", "barrage", "turn", "target", "observer_via", "column_recorded",
                "column_computed", "granted", "scattered")
RESIST_COLUMNS = ("game", "seq", "hex", "turn", "event", "count")

TABLES = ("umpire_an_ammo", "umpire_an_fire", "umpire_an_resist", "umpire_an_rows", "umpire_an_games")
SCHEMA = [
    """CREATE TABLE IF NOT EXISTS umpire_an_ammo (
         game TEXT NOT NULL, seq INTEGER NOT NULL, element TEXT NOT NULL, side TEXT, turn INTEGER NOT NULL,
         points INTEGER NOT NULL, cumulative INTEGER NOT NULL, reason TEXT, barrage TEXT,
         PRIMARY KEY (game, seq))""",
    """CREATE TABLE IF NOT EXISTS umpire_an_fire (
         game TEXT NOT NULL, seq INTEGER NOT NULL, barrage TEXT NOT NULL, turn INTEGER NOT NULL, target TEXT,
         observer_via TEXT, column_recorded INTEGER NOT NULL, column_computed INTEGER NOT NULL,
         granted INTEGER NOT NULL, scattered INTEGER, PRIMARY KEY (game, seq))""",
    "CREATE INDEX IF NOT EXISTS umpire_an_fire_barrage ON umpire_an_fire (game, barrage)",
    """CREATE TABLE IF NOT EXISTS umpire_an_resist (
         game TEXT NOT NULL, seq INTEGER NOT NULL, hex TEXT NOT NULL, turn INTEGER NOT NULL,
         event TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (game, seq, hex))""",
    """CREATE TABLE IF NOT EXISTS umpire_an_rows (
         kind TEXT NOT NULL, game TEXT NOT NULL, seq INTEGER NOT NULL, n INTEGER NOT NULL, row TEXT NOT NULL,
         PRIMARY KEY (kind, game, seq, n))""",
    """CREATE TABLE IF NOT EXISTS umpire_an_games (game TEXT PRIMARY KEY, state TEXT NOT NULL)""",
]


def _insert_sql(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def create_tables(store: ProjectionStore) -> None:
    """The analytics tables (once per store object, not per query)."""
    if not getattr(store, "_analytics_tables", False):
        store.create(SCHEMA)
        store._analytics_tables = True


class AnalyticsFollower(FollowingProjection):
    """The analytics tables, kept from the game events a page at a time (rows, tallies, tracking)."""

    name = "umpire_analytics"
    key = KEY

    def setup(self) -> None:
        """Results written by an older version of the analytics lack rows it did not know (or were
        tracked elsewhere): take the log again (once; the version is stored with the results)."""
        create_tables(self.store)
        if self.store.kv_get(META, "version") != VERSION:
            self.forget()

    def forget_statements(self) -> list[tuple[str, tuple]]:
        return [*((f"DELETE FROM {table}", ()) for table in TABLES),
                ("DELETE FROM umpire_kv WHERE space = ?", (PROBLEMS,)),
                ("DELETE FROM umpire_kv WHERE space = ? AND key = ?", (META, "version")),
                ("INSERT INTO umpire_kv (space, key, value) VALUES (?, ?, ?)", (META, "version", json.dumps(VERSION)))]

    def prepare(self, events: list[Any]) -> dict[str, list[dict[str, Any]]]:
        """The page's lines, game by game, in log order."""
        by_game: dict[str, list[dict[str, Any]]] = {}
        for event in events:
            line = read_stored_line(event.line)
            by_game.setdefault(line["game"], []).append(line)
        return by_game

    def write(self, cur: Any, by_game: dict[str, list[dict[str, Any]]]) -> None:
        rows: dict[str, list[dict[str, Any]]] = {kind: [] for kind in IM_KINDS}
        tallies = self._tallies(cur, list(by_game))
        for game, lines in by_game.items():
            tally = tallies.get(game) or tallies.setdefault(game, _new_tally(game, lines[0]))
            for line in lines:
                for kind, row in self._take_line(cur, tally, line):
                    rows.setdefault(kind, []).append(row)
        self._write(cur, rows, tallies)

    def _take_line(self, cur, tally: Any, line: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The rows of one line; a line the fold cannot take is reported for its game (see
        `problems`) and left out, never stopping the projection for every other game."""
        try:
            return tally.take(line)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            self.store.kv_put(cur, PROBLEMS, f"{line['game']}/{line['seq']:09d}",
                              {"game": line["game"], "seq": line["seq"], "type": line["type"],
                               "error": f"{type(exc).__name__}: {exc}"})
            return []

    def _tallies(self, cur, games: list[str]) -> dict[str, Any]:
        out = {}
        sql = self.store.q("SELECT state FROM umpire_an_games WHERE game = ?")
        for game in games:
            cur.execute(sql, (game,))
            row = cur.fetchone()
            if row:
                out[game] = _stored_tally(json.loads(row[0]))
        return out

    def _write(self, cur, rows: dict[str, list[dict[str, Any]]], tallies: dict[str, Any]) -> None:
        q = self.store.q
        for table, kind, columns in (("umpire_an_ammo", AMMO, AMMO_COLUMNS),
                                     ("umpire_an_fire", FIRE, FIRE_COLUMNS),
                                     ("umpire_an_resist", RESIST, RESIST_COLUMNS)):
            if rows[kind]:
                cur.executemany(q(_insert_sql(table, columns)),
                                [tuple(_db_value(r[c]) for c in columns) for r in rows[kind]])
        self._write_other(cur, rows)
        for row in rows[SCATTER]:
            # A hurricane barrage tests scatter per element: it scattered if any element did.
            cur.execute(q("UPDATE umpire_an_fire SET scattered = CASE WHEN scattered = 1 THEN 1 ELSE ? END "
                          "WHERE game = ? AND barrage = ?"), (int(row["scattered"]), row["game"], row["barrage"]))
        games = list(tallies)
        for game in games:
            cur.execute(q("DELETE FROM umpire_an_games WHERE game = ?"), (game,))
        cur.executemany(q("INSERT INTO umpire_an_games (game, state) VALUES (?, ?)"),
                        [(g, json.dumps({"_ruleset": tallies[g].ruleset, **tallies[g].to_json()}, separators=(",", ":")))
                         for g in games])

    def _write_other(self, cur, rows: dict[str, list[dict[str, Any]]]) -> None:
        """The rows of every kind but Infernal Machines', as JSON: n numbers a line's rows of one kind."""
        values = []
        for kind, kept in rows.items():
            if kind in IM_KINDS:
                continue
            numbered: dict[tuple[str, int], int] = {}
            for row in kept:
                n = numbered[(row["game"], row["seq"])] = numbered.get((row["game"], row["seq"]), -1) + 1
                values.append((kind, row["game"], row["seq"], n, json.dumps(row, separators=(",", ":"))))
        if values:
            cur.executemany(self.store.q(_insert_sql("umpire_an_rows", ("kind", "game", "seq", "n", "row"))), values)


class AnalyticsProjection:
    """The analytics as a read sees them: caught up by the read itself when no worker keeps them."""

    def __init__(self, ledger: Ledger, store: ProjectionStore):
        self.ledger, self.store = ledger, store
        create_tables(store)
        self.follower = AnalyticsFollower(view_of(ledger, AnalyticsFollower)).bind(ledger, store)

    # -- following the log ----------------------------------------------------------------------
    def catch_up(self, page: int = PAGE) -> int:
        """Take every new game event, unless a worker (or another read) is doing it; return how many
        were taken here."""
        with lease_of(self.store, KEY).taken() as mine:
            if not mine:
                return 0
            self.follower.setup()
            return catch_up(self.follower, page)

    def rebuild(self, page: int = PAGE) -> int:
        """Forget every result and take the whole log again (no worker may keep the analytics meanwhile)."""
        with lease_of(self.store, KEY).taken() as mine:
            if not mine:
                raise RuntimeError("a worker keeps the analytics: stop it before rebuilding them")
            self.follower.forget()
            return catch_up(self.follower, page)

    def position(self) -> int:
        """The notification id of the last game event the analytics have taken."""
        return self.follower.view.position()

    def lag(self, game: Optional[str] = None) -> int:
        """The game events (of one game) the analytics have yet to take."""
        return events_after(self.ledger, self.position(), game)

    def refresh(self, game: Optional[str] = None) -> int:
        """Catch up when no worker keeps the analytics; the lag that is left."""
        self.catch_up()
        return self.lag(game)

    def problems(self, game: Optional[str] = None) -> list[dict[str, Any]]:
        """The events the analytics could not take, per game."""
        found = self.store.kv_all(PROBLEMS).values()
        return [p for p in found if game is None or p["game"] == game]

    # -- reading --------------------------------------------------------------------------------
    def _select(self, table: str, columns: tuple[str, ...], game: Optional[str], order: str) -> list[dict]:
        sql = f"SELECT {', '.join(columns)} FROM {table}"
        args: tuple = ()
        if game is not None:
            sql, args = sql + " WHERE game = ?", (game,)
        with self.store.transaction() as cur:
            cur.execute(self.store.q(f"{sql} ORDER BY {order}"), args)
            return [dict(zip(columns, r)) for r in cur.fetchall()]

    def ammunition_rows(self, game: Optional[str] = None) -> list[dict[str, Any]]:
        return self._select("umpire_an_ammo", AMMO_COLUMNS, game, "game, seq")

    def fire_order_rows(self, game: Optional[str] = None) -> list[dict[str, Any]]:
        rows = self._select("umpire_an_fire", FIRE_COLUMNS, game, "game, seq")
        for row in rows:
            row["granted"] = bool(row["granted"])
            row["scattered"] = None if row["scattered"] is None else bool(row["scattered"])
        return rows

    def resistance_events(self, game: Optional[str] = None) -> list[dict[str, Any]]:
        return self._select("umpire_an_resist", RESIST_COLUMNS, game, "game, hex, seq")

    def resistance_rows(self, game: Optional[str] = None) -> list[dict[str, Any]]:
        return histories(self.resistance_events(game))

    def kept_rows(self, kind: str, game: Optional[str] = None) -> list[dict[str, Any]]:
        """The rows of one tabletop kind (e.g. avbcw-shot), in game and seq order."""
        sql, args = "SELECT row FROM umpire_an_rows WHERE kind = ?", (kind,)
        if game is not None:
            sql, args = sql + " AND game = ?", (kind, game)
        with self.store.transaction() as cur:
            cur.execute(self.store.q(f"{sql} ORDER BY game, seq, n"), args)
            return [json.loads(r[0]) for r in cur.fetchall()]

    def answer(self, kind: str, game: Optional[str] = None) -> list[dict[str, Any]]:
        """A tabletop answer (projections/analytics_tabletop.py) over the rows it reads."""
        needs, derive, _ = ANSWERS[kind]
        return derive(*(self.kept_rows(k, game) for k in needs))


class NoTally:
    """The tally of a game whose rule system has no analytics of its own yet: no rows."""

    def __init__(self, game: str):
        self.game = game

    def take(self, line: dict[str, Any]) -> list:
        return []

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "NoTally":
        return cls(data["game"])


def _tally_class(ruleset_id: Optional[str]) -> type:
    rules = find(ruleset_id)
    return rules.analytics() if rules is not None and rules.analytics is not None else NoTally


def _new_tally(game: str, first: dict[str, Any]) -> Any:
    """A game's tally, made by its rule system, from the game's first line (its GameStarted)."""
    ruleset_id = first["data"].get("ruleset") if first["type"] == "GameStarted" else None
    tally = _tally_class(ruleset_id)(game)
    tally.ruleset = ruleset_id
    return _with_installation_pack(tally)


def _stored_tally(data: dict[str, Any]) -> Any:
    # A tally stored before rule systems were named is Infernal Machines' (the only one then).
    ruleset_id = data.pop("_ruleset", "infernal-machines")
    tally = _tally_class(ruleset_id).from_json(data)
    tally.ruleset = ruleset_id
    return _with_installation_pack(tally)


def _with_installation_pack(tally: Any) -> Any:
    """A tally that reads charts (`use_tables`) reads the installation's own pack (UMPIRE_TABLES) when
    there is one, as the audits do."""
    pack = configured_pack()
    if pack is not None and hasattr(tally, "use_tables"):
        tally.use_tables(pack)
    return tally


def histories(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Resistance events (ordered by game, hex, seq) as stretches: the turns a hex resisted, until
    the guns were granted, a success reset the count or the position fell (`ended_by` granted,
    reset or position-fell; None while still running at the end of the log). Fire orders refused
    on the way are listed in `refused_turns`."""
    out: list[dict[str, Any]] = []
    current: Optional[dict[str, Any]] = None
    for ev in events:
        key = (ev["game"], ev["hex"])
        if current is None or (current["game"], current["hex"]) != key or current["ended_by"]:
            current = {"game": ev["game"], "hex": ev["hex"], "from_turn": ev["turn"], "to_turn": ev["turn"],
                       "resisted_turns": [], "refused_turns": [], "count": 0, "ended_by": None,
                       "ended_seq": None}
            out.append(current)
        current["to_turn"] = ev["turn"]
        if ev["event"] == "resisted":
            current["resisted_turns"].append(ev["turn"])
            current["count"] = ev["count"]
        elif ev["event"] == "refused":
            current["refused_turns"].append(ev["turn"])
        elif ev["event"] == "reset":
            # The success erases that turn's fire too (IM.ART.RESIST.RESET): the turn did not resist.
            if ev["turn"] in current["resisted_turns"]:
                current["resisted_turns"].remove(ev["turn"])
                current["count"] -= 1
            current["ended_by"], current["ended_seq"] = ev["event"], ev["seq"]
        else:
            current["ended_by"], current["ended_seq"] = ev["event"], ev["seq"]
            current["count"] = ev["count"]
    # A hex whose only fire was the successful one never resisted.
    return [stretch for stretch in out if stretch["resisted_turns"]]


def _db_value(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else value


# -- the data functions: CLI, API and dashboard ------------------------------------------------------
def _rows(method: str) -> Callable[..., dict[str, Any]]:
    def query(ledger: Ledger, store: ProjectionStore, game: Optional[str] = None) -> dict[str, Any]:
        projection = AnalyticsProjection(ledger, store)
        lag = projection.refresh(game)
        return {"rows": getattr(projection, method)(game), "lag": lag}
    return query


ammunition = _rows("ammunition_rows")
ammunition.__doc__ = "One row per ArtilleryPointsSpent: game, element, side, turn, points, cumulative, reason, barrage."
fire_orders = _rows("fire_order_rows")
fire_orders.__doc__ = ("One row per barrage that went to the Fire Order Table: the column recorded and the "
                       "resistance-turn count computed for its hex at that time, granted, scattered.")
resistance = _rows("resistance_rows")
resistance.__doc__ = "Per hex, each stretch of resisted turns until the guns were granted, the count reset or the position fell."

QUERIES: dict[str, Callable[..., dict[str, Any]]] = {
    "ammunition": ammunition, "fire-orders": fire_orders, "resistance": resistance}


def _answer(kind: str) -> Callable[..., dict[str, Any]]:
    def query(ledger: Ledger, store: ProjectionStore, game: Optional[str] = None) -> dict[str, Any]:
        projection = AnalyticsProjection(ledger, store)
        lag = projection.refresh(game)
        return {"rows": projection.answer(kind, game), "lag": lag}
    query.__doc__ = ANSWERS[kind][1].__doc__
    return query


# The tabletop rule systems' answers (projections/analytics_tabletop.py), beside Infernal Machines'.
TABLETOP_QUERIES: dict[str, Callable[..., dict[str, Any]]] = {kind: _answer(kind) for kind in TABLETOP_ANSWERS}
# Infernal Machines' machines (projections/analytics_machines.py): breakdowns, fascines, losses.
MACHINE_QUERIES: dict[str, Callable[..., dict[str, Any]]] = {kind: _answer(kind) for kind in MACHINE_ANSWERS}


def answers_over(ledger: Ledger, store: ProjectionStore, kinds: Iterable[str],
                 games: Optional[set[str]] = None, sides: Optional[set[str]] = None) -> dict[str, list[dict[str, Any]]]:
    """Several kept-row answers at once over the rows of some games (None: every game) and sides (None:
    every side; a row without a side is kept), after one catch-up: the dashboard's filters."""
    projection = AnalyticsProjection(ledger, store)
    projection.catch_up()
    kept: dict[str, list[dict[str, Any]]] = {}
    out = {}
    for kind in kinds:
        needs, derive, _ = ANSWERS[kind]
        for need in needs:
            if need not in kept:
                kept[need] = [r for r in projection.kept_rows(need) if (games is None or r["game"] in games)
                              and (not sides or r.get("side") is None or r["side"] in sides)]
        out[kind] = derive(*(kept[need] for need in needs))
    return out

# The columns of each query's rows, in the order shown (CSV header, dashboard tables).
COLUMNS = {
    "ammunition": ("game", "element", "side", "turn", "points", "cumulative", "reason", "barrage", "seq"),
    "fire-orders": ("game", "barrage", "turn", "target", "observer_via", "column_recorded", "column_computed",
                    "granted", "scattered", "seq"),
    "resistance": ("game", "hex", "from_turn", "to_turn", "resisted_turns", "refused_turns", "count",
                   "ended_by", "ended_seq"),
    **{kind: columns for kind, (_, _, columns) in ANSWERS.items()},
}


def to_csv(kind: str, rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS[kind])
    for row in rows:
        writer.writerow([_csv_value(row.get(c)) for c in COLUMNS[kind]])
    return out.getvalue()


def _csv_value(value: Any) -> Any:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else value
