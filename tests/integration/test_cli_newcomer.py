"""The `umpire` command a newcomer meets: one line and exit 2 for every mistake, never a traceback,
and a store is created only by the commands that write one (and they say so)."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli import app
from tests.conftest import EXAMPLES, ROOT, example_lines, pg_server

runner = CliRunner()
UMPIRE = Path(sys.executable).with_name("umpire")


def run(*args, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """The installed `umpire` entry point in a child process, in `cwd`."""
    env = {k: v for k, v in os.environ.items() if k != "UMPIRE_DB"}
    return subprocess.run([str(UMPIRE), *map(str, args)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def assert_one_line_error(result, *words: str) -> str:
    """Exit 2, exactly one line on stderr starting `umpire:`, naming `words`, and no traceback."""
    stderr = result.stderr
    code = getattr(result, "returncode", getattr(result, "exit_code", None))
    assert code == 2, (code, result.stdout, stderr)
    assert "Traceback" not in result.stdout + stderr
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("umpire: "), stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def store(tmp_path) -> str:
    db = str(tmp_path / "umpire.db")
    assert invoke("import", EXAMPLES / "resistance-turns.jsonl", "--db", db).exit_code == 0
    return db


def test_importing_a_file_that_is_not_utf8_names_the_line_and_byte_and_creates_nothing(tmp_path):
    texts = example_lines("resistance-turns")
    data = ("\n".join(texts[:2]) + "\n").encode() + texts[2].encode().replace(b"setup", b"s\xe9tup") + b"\n"
    (tmp_path / "latin1.jsonl").write_bytes(data)
    column = texts[2].index("setup") + 2
    line = assert_one_line_error(run("import", "latin1.jsonl", "--db", "var/x.db", cwd=tmp_path),
                                 "latin1.jsonl", "line 3", "not UTF-8", "0xe9", f"byte {column} of the line")
    assert "created" not in line and not (tmp_path / "var").exists()


def test_exporting_into_a_folder_that_does_not_exist(store, tmp_path):
    result = invoke("export", "resistance-turns", "--db", store, "-o", tmp_path / "no-such" / "out.jsonl")
    assert_one_line_error(result, "no-such")
    assert not (tmp_path / "no-such").exists()


def test_a_postgresql_server_that_never_answers_fails_within_seconds(tmp_path):
    with socket.socket() as silent:  # accepts TCP connections (backlog) and never speaks
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        start = time.monotonic()
        result = run("games", "--db", f"postgresql://u:secret@127.0.0.1:{port}/x", cwd=tmp_path)
        elapsed = time.monotonic() - start
    line = assert_one_line_error(result, f"127.0.0.1:{port}/x", "timeout")
    assert "secret" not in line
    assert elapsed < 10, elapsed


def test_a_refused_postgresql_port_and_a_missing_database_are_one_line(tmp_path):
    assert_one_line_error(run("games", "--db", "postgresql://u@127.0.0.1:1/x", cwd=tmp_path), "refused")
    missing = pg_server().rsplit("/", 1)[0] + "/umpire_no_such_database"
    assert_one_line_error(invoke("import", EXAMPLES / "resistance-turns.jsonl", "--db", missing),
                          "umpire_no_such_database", "does not exist")


@pytest.mark.parametrize("port", ["0", "99999", "abc", "-1"])
def test_serve_refuses_an_invalid_port_before_opening_anything(tmp_path, port):
    result = run("serve", "--db", "x.db", "--port", port, cwd=tmp_path)
    assert_one_line_error(result, f"--port {port}", "1 to 65535")
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_kind_of_store_is_refused_and_creates_no_folder(tmp_path):
    for command in (["games"], ["import", EXAMPLES / "resistance-turns.jsonl"]):
        assert_one_line_error(run(*command, "--db", "mysql://x", cwd=tmp_path), "mysql", "postgresql://")
    assert list(tmp_path.iterdir()) == []


READERS = {
    "export": ["export", "g"], "games": ["games"], "state": ["state", "g"], "audit": ["audit", "g"],
    "analytics": ["analytics", "ammunition"], "charts": ["analytics", "charts", "out"],
    "token list": ["token", "list"], "token revoke": ["token", "revoke", "abc"], "reveal": ["reveal", "g"],
    "reach": ["reach", "g", "u"], "sight": ["sight", "g", "1:0101", "1:0102"],
}


@pytest.mark.parametrize("command", sorted(READERS))
def test_a_command_that_reads_a_store_that_does_not_exist_says_so_and_creates_nothing(tmp_path, command):
    missing = tmp_path / "nonexistent-dir" / "x.db"
    assert_one_line_error(invoke(*READERS[command], "--db", missing), f"no store at {missing}")
    assert list(tmp_path.iterdir()) == []


def test_verify_against_a_named_store_needs_it_but_the_default_may_be_absent(tmp_path):
    log = EXAMPLES / "resistance-turns.jsonl"
    assert_one_line_error(run("verify", log, "--db", "nowhere/x.db", cwd=tmp_path), "no store at nowhere/x.db")
    assert_one_line_error(run("verify-dice", log, "--db", "nowhere/x.db", cwd=tmp_path), "no store at")
    alone = run("verify", log, cwd=tmp_path)
    assert alone.returncode == 0 and "chain intact" in alone.stdout, alone.stderr
    assert list(tmp_path.iterdir()) == []


def test_import_and_token_issue_create_the_store_and_say_so_once(tmp_path):
    first = run("import", EXAMPLES / "resistance-turns.jsonl", "--db", "var/league/x.db", cwd=tmp_path)
    assert first.returncode == 0 and first.stderr == "umpire: created store var/league/x.db\n", first.stderr
    again = run("import", EXAMPLES / "resistance-turns.jsonl", "--db", "var/league/x.db", cwd=tmp_path)
    assert again.returncode == 0 and "created" not in again.stderr
    issued = run("token", "issue", "--role", "viewer", "--db", "tokens.db", cwd=tmp_path)
    assert issued.returncode == 0 and issued.stderr.startswith("umpire: created store tokens.db\n")
    assert "viewer" in run("token", "list", "--db", "tokens.db", cwd=tmp_path).stdout


def test_an_import_whose_first_file_is_refused_creates_no_store(tmp_path):
    bad = tmp_path / "bad.jsonl"
    lines = (EXAMPLES / "resistance-turns.jsonl").read_text(encoding="utf-8").splitlines()
    bad.write_text("\n".join([lines[0], lines[1].replace('"seq":2', '"seq":"2"'), *lines[2:]]) + "\n",
                   encoding="utf-8")
    refused = run("import", bad, "--db", "var/x.db", cwd=tmp_path)
    assert_one_line_error(refused, "line 2: seq")
    assert "nothing of this file was stored" in refused.stderr and "created" not in refused.stderr
    assert not (tmp_path / "var" / "x.db").exists()


def test_serve_creates_its_store_and_says_so(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([str(UMPIRE), "serve", "--db", "var/new.db", "--port", str(port)], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr.readline() == "umpire: created store var/new.db\n"
        assert (tmp_path / "var" / "new.db").is_file()
    finally:
        proc.terminate()
        proc.wait(30)
        proc.stderr.close()


def test_version_comes_from_the_installed_package(tmp_path):
    result = run("--version", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == f"umpire {version('umpire')}\n"
    assert version("umpire") in (ROOT / "pyproject.toml").read_text()


@pytest.mark.parametrize("command", [["games"], ["state", "resistance-turns"], ["audit", "resistance-turns"],
                                     ["reach", "resistance-turns", "g-1"],
                                     ["sight", "resistance-turns", "1:0101", "1:0102"],
                                     ["analytics", "ammunition"]])
def test_format_takes_only_its_documented_choices(store, command):
    result = invoke(*command, "--db", store, "--format", "xml")
    assert result.exit_code == 2 and "Invalid value for '--format'" in result.stderr
    assert "Traceback" not in result.output


def test_format_defaults_to_text_where_there_is_a_text_form(store):
    games = invoke("games", "--db", store)
    assert games.exit_code == 0 and games.stdout.startswith("resistance-turns\tinfernal-machines\t")
    state = invoke("state", "resistance-turns", "--db", store, "--at", "18")
    assert state.stdout.startswith("resistance-turns after seq 18: turn 1")
    as_json = json.loads(invoke("state", "resistance-turns", "--db", store, "--at", "18", "--format", "json").stdout)
    assert as_json["seq"] == 18
    audit = invoke("audit", "resistance-turns", "--db", store)
    assert audit.stdout.startswith("resistance-turns (infernal-machines), 37 events")
    analytics = invoke("analytics", "ammunition", "--db", store)  # rows of data only: JSON, or CSV
    assert json.loads(analytics.stdout)["rows"] == json.loads(
        invoke("analytics", "ammunition", "--db", store, "--format", "json").stdout)["rows"]
