"""What a fresh `umpire audit` process loads: its game's rule system only, and none of the
service's (FastAPI) or the tabletop's (shapely) libraries, which cost it about 0.4 s at start."""
from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import EXAMPLES

PROBE = """
import sys
from api.cli import main
sys.argv = ["umpire", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
import json
print("\\nMODULES " + json.dumps(sorted(sys.modules)))
"""


def test_an_infernal_machines_audit_loads_its_own_rule_system_only(tmp_path):
    store = str(tmp_path / "store.db")
    done = subprocess.run([sys.executable, "-c", PROBE, "import", str(EXAMPLES / "resistance-turns.jsonl"),
                           "--db", store], capture_output=True, text=True, check=True)
    done = subprocess.run([sys.executable, "-c", PROBE, "audit", "resistance-turns", "--db", store,
                           "--format", "json"], capture_output=True, text=True, check=True)
    report, _, modules = done.stdout.rpartition("\nMODULES ")
    assert json.loads(report)["game"] == "resistance-turns"      # the audit ran
    loaded = set(json.loads(modules))
    assert "domain.rules.infernal_machines.ruleset" in loaded
    unwanted = {"fastapi", "shapely", "domain.rules.dux_bellorum_avbcw", "domain.rules.landships_of_mogdonazia"}
    assert unwanted.isdisjoint(loaded), sorted(unwanted & loaded)
