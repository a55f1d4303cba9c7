"""The tabletop core procedures as table-pack data (game-log-tabletop.md: "Core procedures the seeds
rely on but do not contain are named like `LS.<TABLE>`: `DB.BRAVERY`, `DB.SHOOT`, `DB.MELEE`,
`DB.MORALE` ... `TSATF.ACTIVATION`, `TSATF.MOVE`, `TSATF.FIRE`, `TSATF.SAVE`, `TSATF.MELEE`,
`TSATF.RALLY` ... Their outcomes are recorded and checked only when the game's table pack holds
that procedure, else `unverifiable`"). Each pack here is written by the test, `illustrative: true`:
its numbers are invented to exercise the checks, NOT Dux Bellorum's or TSATF's. The games are the
page's two examples (Examples), through `umpire audit FILE --tables PACK`."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from api.cli import app
from tests.conftest import SPEC

AVBCW = SPEC / "examples-tabletop" / "avbcw-example.jsonl"
MOG = SPEC / "examples-tabletop" / "mog-example.jsonl"
# The example's legal TSATF.FIRE shot (seq 16-18): small arms at 12.0" on the landship l-1, built
# as class 3 (seq 7: "armoured-looking 5 gives class III"); d20s [3, 17, 11, 8], 1 hit recorded.
# A save card after it (seq 21), turned for one figure ("must save in the usual TSATF manner (flip a card)").
SAVE_CARD = {"v": 1, "game": "mog-example", "seq": 21, "turn": 1, "phase": "shooting", "side": "rebels",
             "type": "CardDrawn", "data": {"deck": "main", "card": "KD", "for": "TSATF.SAVE", "subject": "r-1",
                                           "meaning": "saved"}}


def pack(tmp_path: Path, **tables) -> Path:
    path = tmp_path / "club-pack.json"
    path.write_text(json.dumps({"pack": "club-pack", "illustrative": True, "source": "invented for this test",
                                "tables": tables}))
    return path


def applications(log: Path, *extra: str) -> list[dict]:
    result = CliRunner().invoke(app, ["audit", str(log), "--format", "json", "--all", *extra])
    return json.loads(result.stdout)["applications"]


def audited(log: Path, *extra: str) -> dict[tuple[int, str], str]:
    """Each (seq, rule)'s verdict (the rules asked about here judge once a line)."""
    return {(a["seq"], a["rule"]): a["verdict"] for a in applications(log, *extra)}


def mog_with_a_save(tmp_path: Path) -> Path:
    log = tmp_path / "mog.jsonl"
    log.write_text(MOG.read_text() + json.dumps(SAVE_CARD) + "\n")
    return log


def test_a_bravery_test_and_a_shot_are_checked_against_the_pack(tmp_path):
    # Line 18-19: the car's DB.BRAVERY 2d6 [3, 4] (total 7) with BRV 8, recorded passed. Line 12-13:
    # DB.SHOOT faces [1, 1, 1, 5, 6, 4] at the militia s-mil (PRO "5"), 2 hits recorded.
    # Pack passing a total at or under BRV, hitting a face at or over PRO: 7 <= 8 passes; 5 and 6 hit.
    held = audited(AVBCW, "--tables", str(pack(tmp_path, **{"DB.BRAVERY": {"dice": "2d6", "pass": "<="},
                                                            "DB.SHOOT": {"hit": ">="}})))
    assert held[(19, "DB.BRAVERY")] == "ok" and held[(13, "DB.SHOOT")] == "ok"
    # Pack passing at or over BRV (7 >= 8 fails) and hitting only over PRO (the 6 alone): both mismatch.
    other = audited(AVBCW, "--tables", str(pack(tmp_path, **{"DB.BRAVERY": {"dice": "2d6", "pass": ">="},
                                                             "DB.SHOOT": {"hit": ">"}})))
    assert other[(19, "DB.BRAVERY")] == "mismatch" and other[(13, "DB.SHOOT")] == "mismatch"
    # `always` and `never` faces: a 1 that always hits makes 5 hits, not 2.
    ones = audited(AVBCW, "--tables", str(pack(tmp_path, **{"DB.SHOOT": {"hit": ">=", "always": [1]}})))
    assert ones[(13, "DB.SHOOT")] == "mismatch"


def test_the_none_pack_leaves_the_core_procedures_unjudged(tmp_path):
    # "else `unverifiable`": the bravery test says so; the hits against PRO and the TSATF d20s are not
    # read at all (as before the packs: the page's examples and the demo games keep their findings).
    avbcw, mog = audited(AVBCW), audited(mog_with_a_save(tmp_path))
    assert avbcw[(19, "DB.BRAVERY")] == "unverifiable"
    assert (13, "DB.SHOOT") not in avbcw and (18, "TSATF.FIRE") not in mog
    assert mog[(21, "TSATF.SAVE")] == "unverifiable"


def test_a_tsatf_fire_roll_and_a_save_card_are_checked_against_the_pack(tmp_path):
    # Small arms at class III: hits on 3 or less to 12", on 1 beyond. d20s [3, 17, 11, 8]: one hit (the 3).
    # Save cards: red saved, black a casualty; the King of Diamonds is red.
    log = mog_with_a_save(tmp_path)
    held = audited(log, "--tables", str(pack(tmp_path, **{
        "TSATF.FIRE": {"small-arms": {"III": [[12, 3], [24, 1]], "any": [[24, 1]]}},
        "TSATF.SAVE": {"red": "saved", "black": "casualty"}})))
    assert held[(18, "TSATF.FIRE")] == "ok" and held[(21, "TSATF.SAVE")] == "ok"
    # A column hitting on 11 or less makes 3 hits (3, 11, 8), not 1; the King alone a casualty.
    other = audited(log, "--tables", str(pack(tmp_path, **{
        "TSATF.FIRE": {"small-arms": [[18, 11]]}, "TSATF.SAVE": {"KD": "casualty", "any": "saved"}})))
    assert other[(18, "TSATF.FIRE")] == "mismatch" and other[(21, "TSATF.SAVE")] == "mismatch"
    # A pack without the shot's column or range band cannot read it.
    beyond = audited(log, "--tables", str(pack(tmp_path, **{"TSATF.FIRE": {"small-arms": [[6, 11]]}})))
    assert beyond[(18, "TSATF.FIRE")] == "unverifiable"


def test_a_pack_of_the_wrong_shape_is_refused_naming_the_file_table_and_shape(tmp_path):
    wrong = {"DB.BRAVERY": {"dice": "2d6", "pass": "under"},
             "DB.SHOOT": {"hit": ">=", "always": ["six"]},
             "TSATF.FIRE": {"rifle": [[12, 5], [6, 3]]},
             "TSATF.SAVE": {"red": 1},
             "TSATF.MOVE": {"zulu": {"dice": 0}},
             "TSATF.MELEE": {"dice": "d6", "win": ">"},
             "DB.MORALE": {"two": 1}}
    expected = {"DB.BRAVERY": "tables.DB.BRAVERY.pass: one of", "DB.SHOOT": "tables.DB.SHOOT.always: a list of die",
                "TSATF.FIRE": "tables.TSATF.FIRE.rifle[1]: the bands ascend", "TSATF.SAVE": "tables.TSATF.SAVE.red: a "
                "meaning", "TSATF.MOVE": "tables.TSATF.MOVE.zulu.dice", "TSATF.MELEE": "tables.TSATF.MELEE.dice: dice "
                "as NdM", "DB.MORALE": "tables.DB.MORALE.two: the key is a number"}
    for name, table in wrong.items():
        path = pack(tmp_path, **{name: table})
        result = CliRunner().invoke(app, ["audit", str(AVBCW), "--tables", str(path)])
        assert result.exit_code == 2, name
        assert str(path) in result.output and expected[name] in result.output and "expected" in result.output, \
            result.output


def written(tmp_path: Path, lines: list[dict]) -> Path:
    log = tmp_path / "game.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return log


def test_melee_hits_are_checked_against_the_opponents_pro(tmp_path):
    # tests/unit/test_avbcw_melee.py's charge: r-inf rolls 5 DB.MELEE dice, s-inf 2, every face a 3,
    # no hits recorded; the militia's PRO is "5", the regulars' "5".
    from tests.unit.test_avbcw_melee import fight, melee, resolve
    game = melee()
    fight(game)
    seq = resolve(game, 5, 2)
    log = written(tmp_path, game.lines)
    def melee_verdicts(*extra: str) -> list[str]:
        return [a["verdict"] for a in applications(log, *extra) if (a["seq"], a["rule"]) == (seq, "DB.MELEE")]
    # hitting at or over PRO: a 3 never hits a PRO 5; at or under PRO: every 3 would (5 and 2 hits, not 0).
    assert melee_verdicts("--tables", str(pack(tmp_path, **{"DB.MELEE": {"hit": ">="}}))) == ["ok", "ok"]
    assert melee_verdicts("--tables", str(pack(tmp_path, **{"DB.MELEE": {"hit": "<="}}))) == ["mismatch", "mismatch"]
    assert melee_verdicts() == []


def test_a_tesla_rifle_is_read_on_the_dervish_rifle_column(tmp_path):
    # "Roll 3D20 as Dervish rifle weapon": the pack's column `dervish-rifle`, at l-1 (class III) 10" away;
    # d20s [20, 3, 7], 1 hit recorded: on 3 or less one hit (the 3), on 7 or less two.
    from tests.unit.test_mog_contraptions import rebels, resolved, shot
    from tests.unit.test_mog_vehicles import game, line, turn
    shooting = line("PhaseStarted", {"phase": "shooting", "active": None}, phase="shooting")
    lines = game(*turn(1), shooting, shot("r-1/tesla", 3), *resolved([20, 3, 7], 1, twenties=1),
                 setup=rebels(("r-1/tesla", "tesla-rifle")))
    log = written(tmp_path, lines)
    seq = lines[-1]["seq"]   # the ShotResolved (MOG.TESLA also judges its 20s there, and the turn's end)
    hits = {face: [a["message"] for a in applications(log, "--tables", str(pack(
        tmp_path, **{"TSATF.FIRE": {"dervish-rifle": [[24, face]]}}))) if (a["seq"], a["rule"]) == (seq, "MOG.TESLA")
        and "d20s [20, 3, 7] on column dervish-rifle" in a["message"]] for face in (3, 7)}
    assert hits[3] == ["a-1: 1 hits, the d20s [20, 3, 7] on column dervish-rifle at 10.0\": hits on 3 or less"]
    assert hits[7][0].startswith("a-1 records 1 hits; the d20s [20, 3, 7] on column dervish-rifle") and \
        hits[7][0].endswith("give 2")
