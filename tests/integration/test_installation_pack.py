"""An installation's own charts (UMPIRE_TABLES, a pack file) reach every audit Umpire makes: the
service's reports and its workers' as `umpire audit`'s (docs/table-packs.md: "type them from your own
copy of the table sheet into a pack file and load it"), and a report stored with another pack is
made again, not served."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from api.cli import app as cli
from api.cli_app import open_ledger
from domain.rules.tables import builtin
from projections.audit_trail import AuditReports, stored_json
from projections.store import ProjectionStore
from tests.conftest import EXAMPLES
from tests.integration.test_analytics import store as store  # noqa: F401 (the fixture)

ACCEPTANCE = Path(__file__).resolve().parents[1] / "acceptance"

EXAMPLE = EXAMPLES / "first-turn-barrage.jsonl"


def club_pack(tmp_path: Path) -> Path:
    """A club's pack: the sample pack's tables under the club's own name (not illustrative)."""
    sample = builtin("sample", "infernal-machines")
    path = tmp_path / "club-charts.json"
    path.write_text(json.dumps({"pack": "club-charts", "illustrative": False, "source": "typed by the club",
                                "tables": sample.tables}), encoding="utf-8")
    return path


def stored_pack(store: ProjectionStore, game: str) -> str:
    with store.transaction() as cur:
        cur.execute(store.q("SELECT report FROM umpire_audit_reports WHERE game = ?"), (game,))
        return stored_json(cur.fetchone()[0])["table_pack"]["name"]


def test_the_service_audits_with_the_installations_pack_as_the_cli_does(tmp_path, monkeypatch):
    db = str(tmp_path / "umpire.db")
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    ledger = open_ledger(db)
    ledger.import_lines(lines)
    game = json.loads(lines[0])["game"]
    store = ProjectionStore(db)
    try:
        before, _ = AuditReports(ledger, store).answer(game)
        assert before.tables.name == "none" and stored_pack(store, game) == "none"

        pack = club_pack(tmp_path)
        monkeypatch.setenv("UMPIRE_TABLES", str(pack))
        after, lag = AuditReports(ledger, store).answer(game)    # a server started again with the club's pack
        assert lag == 0 and after.tables.name == "club-charts"
        assert stored_pack(store, game) == "club-charts"         # the report of the other pack is replaced
        cli_report = json.loads(CliRunner().invoke(cli, ["audit", str(EXAMPLE), "--format", "json"]).stdout)
        assert after.to_json() == cli_report                      # the same verdicts as `umpire audit`
        assert after.to_json()["summary"] != before.to_json()["summary"]   # the charts were read

        again, _ = AuditReports(ledger, store).answer(game)      # stored with this pack: served as stored
        assert again.to_json() == after.to_json()
    finally:
        store.close()
        ledger.close()


def test_a_server_or_worker_with_an_unreadable_pack_stops_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("UMPIRE_TABLES", str(tmp_path / "missing.json"))
    for command in (["serve", "--db", str(tmp_path / "a.db")], ["worker", "--db", str(tmp_path / "a.db")]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 2 and "UMPIRE_TABLES" in result.output and "missing.json" in result.output


def test_the_machines_analytics_read_the_installations_breakdown_table(tmp_path, monkeypatch, ledger, store):
    # the Landships! breakdown table is no part of the text (docs/table-packs.md, BREAKDOWN): with the
    # club's own pack, a breakdown check's expected chance is read from it; without one it stays unknown
    from projections.analytics import MACHINE_QUERIES
    # the CV 29's "breakdown modifier of +1" is the text's (a Mark IV's is its Landships! counter's)
    log = ACCEPTANCE / "cases_im_machines" / "cv29-breakdown-modifier.jsonl"
    ledger.import_lines(log.read_text(encoding="utf-8").splitlines())
    pack = tmp_path / "breakdowns.json"
    pack.write_text(json.dumps({"pack": "club-breakdowns", "source": "typed by the club",
                                "tables": {"BREAKDOWN": {"any": {str(n): "breakdown" if n >= 6 else "-"
                                                                 for n in range(1, 9)}}}}), encoding="utf-8")
    monkeypatch.setenv("UMPIRE_TABLES", str(pack))
    rows = MACHINE_QUERIES["vehicle-breakdowns"](ledger, store, None)["rows"]
    (cv29,) = [r for r in rows if r["type"] == "Italian CV 29 Tankette"]
    # two checks at +1: a d6 of 5 or 6 reads 6 or 7, "breakdown" in the club's table: 2 x 2/6
    assert (cv29["checks"], cv29["expected"]) == (2, round(2 * 2 / 6, 4))
    assert "club-breakdowns" in cv29["odds_from"]
