"""Audits of games: the auditor run over a game's lines with its table pack and readings.

The default audit of each game (its own table pack, no readings) is a projection of the game
events (`AuditFollower`, projections/follow.py): a worker audits each game a page of events
touches, up to its last event in the page, and stores the report (every application, compressed)
with the number of events it covers. `AuditReports` answers a read: the stored report when it
covers the whole game; when no worker keeps the reports, the read audits the game itself (and
stores the report); when one does, the read answers at once with the stored report and `lag`,
the events the worker has yet to audit (a game it has not reached yet is audited by the read).
Reports are also kept in memory per game and length, so readers (API, dashboard) do not decode
or audit again a log that has not grown.

Buckets: the audits are the heaviest projection, so they can be split by game between several
workers (`umpire worker --bucket K/N`): bucket K of N audits the games whose id hashes to K
(`bucket_of`, a BLAKE2 digest of the id: the same in every process and release). Each bucket is a
projection of its own (`audit_bucket`: its own tracking table and lease), so each stays
exactly-once and restartable; all buckets write the one reports table, each only its games' rows.
A worker of the whole projection and bucket workers stand by for each other (whichever runs first
keeps it); a read asks the lease of the game's bucket for every layout (N) a worker has recorded.
"""
from __future__ import annotations

import functools
import hashlib
import json
import threading
import zlib
from typing import Any, ClassVar, Iterable, Optional

import orjson

from domain.application import Ledger
from domain.rules.engine import NO_INPUTS, AuditReport, RuleApplication, Verdict, audit
from domain.rules.interpretations import Interpretations
from domain.transcoder import long_integer_in
from domain.rules.tables import TablePack, resolve
from projections.follow import FollowingProjection, games_of
from projections.packs import configured_pack
from projections.lease import worker_keeps
from projections.store import ProjectionStore

KEY = "audits"  # the projection's name for `umpire worker --projection` and its lease
LAYOUTS = "audit_buckets"  # umpire_kv space: the bucket counts (N) workers have split the audits into
AUDIT_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def game_pack(lines: list[dict[str, Any]], loaded: Optional[TablePack] = None) -> TablePack:
    """The pack a game is audited with: one loaded for this audit, else the installation's
    (UMPIRE_TABLES), else the one the game names."""
    started = lines[0]["data"] if lines and lines[0]["type"] == "GameStarted" else {}
    return resolve(started.get("tables"), loaded if loaded is not None else configured_pack(), started.get("ruleset"))


def audit_lines(lines: list[dict[str, Any]], *, tables: Optional[TablePack] = None,
                interpretations: Iterable[str] = (), on_progress=None) -> AuditReport:
    """Audit one game's lines; `tables` is a user-loaded pack, `interpretations` NAME=READING pairs."""
    return audit(lines, tables=game_pack(lines, tables),
                 interpretations=Interpretations.from_pairs(interpretations), on_progress=on_progress)


def encode_report(report: AuditReport) -> bytes:
    """A report as stored: its JSON with every application, compressed (a long game's report is
    megabytes of JSON, a tenth of that compressed)."""
    data = report.to_json(all_applications=True)
    try:
        text = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:   # an integer past 64 bits (a log may record one): json writes it exactly
        text = json.dumps(data, ensure_ascii=False).encode("utf-8")
    return zlib.compress(text, 1)


def decode_report(blob: bytes, tables: TablePack) -> AuditReport:
    """The report `encode_report` stored (its applications in seq order), with the game's pack."""
    return report_of(stored_json(blob), tables)


def stored_json(blob: bytes) -> dict[str, Any]:
    text = zlib.decompress(bytes(blob))
    # orjson reads an integer of 19 digits or more as a float: json keeps it exact
    return json.loads(text) if long_integer_in(text) else orjson.loads(text)


def report_of(data: dict[str, Any], tables: TablePack) -> AuditReport:
    applications = [RuleApplication(seq=a["seq"], rule=a["rule"], verdict=Verdict(a["verdict"]), message=a["message"],
                                    citation=a["citation"], expected=a.get("expected"), recorded=a.get("recorded"),
                                    related=a.get("related") or (), inputs=a.get("inputs") or NO_INPUTS,
                                    interpretation=a.get("interpretation"))
                    for a in data["applications"]]
    return AuditReport(game=data["game"], ruleset=data["ruleset"], tables=tables, events=data["events"],
                       applications=applications, interpretations=data["interpretations"])


def put_report(store: ProjectionStore, cur: Any, game: str, events: int, blob: bytes, *, replace: bool = False) -> None:
    """Store a game's report unless one of a longer log is stored already (or `replace` it: one made
    with another pack)."""
    keep_longer = "" if replace else " WHERE umpire_audit_reports.events < excluded.events"
    cur.execute(store.q("INSERT INTO umpire_audit_reports (game, events, report) VALUES (?, ?, ?) "
                        "ON CONFLICT (game) DO UPDATE SET events = excluded.events, report = excluded.report"
                        + keep_longer), (game, events, blob))


def stored_events(store: ProjectionStore, game: str) -> int:
    """How many events the game's stored report covers (0: none is stored)."""
    with store.transaction() as cur:
        cur.execute(store.q("SELECT events FROM umpire_audit_reports WHERE game = ?"), (game,))
        row = cur.fetchone()
    return int(row[0]) if row else 0


class AuditFollower(FollowingProjection):
    """The stored reports as a projection of the game events (see above)."""

    name = "umpire_audits"
    key = KEY

    def forget_statements(self) -> list[tuple[str, tuple]]:
        return [("DELETE FROM umpire_audit_reports", ())]

    @classmethod
    def stands_by_for(cls, store: ProjectionStore) -> bool:
        """Bucket workers keep the audits: this whole-projection keeper stands by."""
        return any(kept_buckets(store).values())

    def prepare(self, events: list[Any]) -> list[tuple[str, int, bytes]]:
        return self.audit_games(games_of(events))

    def audit_games(self, games: list[str]) -> list[tuple[str, int, bytes]]:
        """Each game the page touches, audited up to its last event stored now (a report is a
        function of the log's first events alone: one that covers more than the page does no harm,
        and the next pages find the game audited already), unless a stored report covers it; a
        game the auditor cannot take is left to the reads, which say why."""
        out = []
        for game in games:
            last = self.ledger.last_seq(game)
            if stored_events(self.store, game) >= last:
                continue
            try:
                out.append((game, last, encode_report(audit_lines(self.ledger.lines(game, upto=last)))))
            except AUDIT_ERRORS:
                continue
        return out

    def write(self, cur: Any, prepared: list[tuple[str, int, bytes]]) -> None:
        for game, events, blob in prepared:
            put_report(self.store, cur, game, events, blob)


# -- buckets -----------------------------------------------------------------------------------------
def bucket_of(game: str, buckets: int) -> int:
    """The bucket of a game among `buckets`: a BLAKE2 digest of its id, stable across processes and
    runs (unlike Python's hash) and even over ids that differ in one digit (unlike a CRC's low bits)."""
    return int.from_bytes(hashlib.blake2b(game.encode("utf-8"), digest_size=8).digest(), "big") % buckets


def parse_bucket(text: str) -> tuple[int, int]:
    """`K/N` (bucket K of N, counted from 0) as (K, N); ValueError saying what is wrong."""
    index, sep, count = text.partition("/")
    if not sep or not index.strip().isdigit() or not count.strip().isdigit():
        raise ValueError(f"{text!r} is not K/N (bucket K of N, e.g. 0/2)")
    k, n = int(index), int(count)
    if not 0 <= k < n:
        raise ValueError(f"bucket {k} of {n}: K counts from 0 to N-1")
    return k, n


class AuditBucket(AuditFollower):
    """The audits of the games of one bucket (see above): made by `audit_bucket`."""

    index: ClassVar[int] = 0
    buckets: ClassVar[int] = 1

    def setup(self) -> None:
        """Record the layout, so that reads know which leases to ask."""
        with self.store.transaction() as cur:
            cur.execute(self.store.q("INSERT INTO umpire_kv (space, key, value) VALUES (?, ?, 'true') "
                                     "ON CONFLICT (space, key) DO NOTHING"), (LAYOUTS, str(self.buckets)))

    @classmethod
    def stands_by_for(cls, store: ProjectionStore) -> bool:
        """A worker keeps the whole projection: this bucket's keeper stands by."""
        return worker_keeps(store, KEY)

    def prepare(self, events: list[Any]) -> list[tuple[str, int, bytes]]:
        return self.audit_games([game for game in games_of(events) if bucket_of(game, self.buckets) == self.index])

    def forget_statements(self) -> list[tuple[str, tuple]]:
        with self.store.transaction() as cur:
            cur.execute("SELECT game FROM umpire_audit_reports")
            games = [game for (game,) in cur.fetchall() if bucket_of(game, self.buckets) == self.index]
        return [("DELETE FROM umpire_audit_reports WHERE game = ?", (game,)) for game in games]


@functools.cache
def audit_bucket(index: int, buckets: int) -> type[AuditBucket]:
    """The projection of bucket `index` of `buckets` (one class per bucket: its tracking table and
    lease are named after it, `umpire_audits_KofN` and `audits-KofN`)."""
    if not 0 <= index < buckets:
        raise ValueError(f"bucket {index} of {buckets}: K counts from 0 to N-1")
    return type(f"AuditBucket{index}of{buckets}", (AuditBucket,),
                {"name": f"umpire_audits_{index}of{buckets}", "key": f"{KEY}-{index}of{buckets}",
                 "index": index, "buckets": buckets, "__module__": __name__})


def layouts(store: ProjectionStore) -> list[int]:
    """The bucket counts workers have split the audits into on this store (usually one, or none)."""
    return sorted(int(n) for n in store.kv_all(LAYOUTS))


def kept_buckets(store: ProjectionStore, game: Optional[str] = None) -> dict[type[AuditBucket], bool]:
    """Each bucket of every recorded layout (only the game's bucket of each, if given), and whether
    a worker keeps it now."""
    buckets = [audit_bucket(bucket_of(game, n) if game is not None else k, n)
               for n in layouts(store) for k in ([0] if game is not None else range(n))]
    return {cls: worker_keeps(store, cls.key) for cls in buckets}


def audits_kept(store: ProjectionStore, game: str) -> bool:
    """Whether a worker keeps the game's audit now (the whole projection, or the game's bucket)."""
    return worker_keeps(store, KEY) or any(kept_buckets(store, game).values())


class AuditReports:
    """The default audit of each game, as a read gets it (see above)."""

    def __init__(self, ledger: Ledger, store: ProjectionStore):
        self.ledger, self.store = ledger, store
        self._lock = threading.Lock()
        self._reports: dict[str, tuple[int, AuditReport]] = {}

    def report(self, game: str, lines: list[dict[str, Any]]) -> AuditReport:
        """The game's report for these lines (its whole log as the reader has it)."""
        return self.answer(game, lines)[0]

    def answer(self, game: str, lines: Optional[list[dict[str, Any]]] = None) -> tuple[AuditReport, int]:
        """The game's report and how many of its events it has yet to cover (see above)."""
        last = len(lines) if lines is not None else self.ledger.last_seq(game)
        kept = self._kept(game, last)
        if kept is not None:
            return kept, 0
        covered = stored_events(self.store, game)
        other_pack = False
        if covered == last or (covered and audits_kept(self.store, game)):
            stored = self._stored(game, covered)
            if stored is not None:
                return stored, last - covered
            other_pack = covered <= last
        report = audit_lines(lines if lines is not None else self.ledger.lines(game, upto=last))
        if not audits_kept(self.store, game):
            with self.store.transaction() as cur:
                put_report(self.store, cur, game, report.events, encode_report(report), replace=other_pack)
        self._keep(game, report)
        return report, 0

    def _kept(self, game: str, events: int) -> Optional[AuditReport]:
        with self._lock:
            kept = self._reports.get(game)
        return kept[1] if kept and kept[0] == events else None

    def _keep(self, game: str, report: AuditReport) -> None:
        with self._lock:
            self._reports[game] = (report.events, report)

    def _stored(self, game: str, events: int) -> Optional[AuditReport]:
        """The stored report, unless it was made with another pack than the game's now (the
        installation's pack changed): then None, and the game is audited again."""
        kept = self._kept(game, events)
        if kept is not None:
            return kept
        with self.store.transaction() as cur:
            cur.execute(self.store.q("SELECT report FROM umpire_audit_reports WHERE game = ?"), (game,))
            blob = cur.fetchone()[0]
        pack, data = game_pack(self.ledger.lines(game, upto=1)), stored_json(blob)
        if data.get("table_pack") != pack.describe():
            return None
        report = report_of(data, pack)
        self._keep(game, report)
        return report
