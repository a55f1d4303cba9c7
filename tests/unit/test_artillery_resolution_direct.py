"""Direct fire by on-map artillery guns (IM.ART section L)."""
from __future__ import annotations

from tests.artillery_helpers import ArtyLog, verdicts


def gun_fire(phase="offensive-small-arms-fire", firepower=20, pinned=False, guns=2):
    log = ArtyLog()
    for i in range(guns):
        log.unit(f"gun{i}", "british", "artillery-gun", "1:1005")
    if pinned:
        log.status("gun0", "pinned")
    log.barrage_phase(1)
    log.phase_start(phase, "british")
    log.add("SmallArmsFired", {"attack": "a1", "firers": [f"gun{i}" for i in range(guns)], "target": "1:1010",
                               "firepower": firepower, "range": 5}, side="british")
    return log


def test_guns_fire_directly_outside_barrage_phase():
    # "it may conduct direct anti-tank or small arms fire in the appropriate fire phase (but not during the barrage phase)"
    assert verdicts(gun_fire().audit(), "IM.ART.DIRECT.REQS") == {"ok"}
    assert "violation" in verdicts(gun_fire(phase="barrage").audit(), "IM.ART.DIRECT.REQS")
    assert "violation" in verdicts(gun_fire(pinned=True).audit(), "IM.ART.DIRECT.REQS")


def test_guns_combine_at_ten():
    # "they combine their firepower values when firing at light targets ... a small arms firepower value of 10"
    assert verdicts(gun_fire(firepower=20).audit(), "IM.ART.DIRECT.AT_VS_SAF") == {"ok"}
    assert verdicts(gun_fire(firepower=40).audit(), "IM.ART.DIRECT.AT_VS_SAF") == {"mismatch"}


def test_gun_fires_in_both_phases():
    # "may still conduct ... fire during the defensive fire phases of the opposing player's turn (and vice versa)"
    log = gun_fire(guns=1, firepower=10)
    log.phase_start("defensive-small-arms-fire", "german")
    log.add("SmallArmsFired", {"attack": "a2", "firers": ["gun0"], "target": "1:1010", "firepower": 10,
                               "range": 5}, side="british")
    assert verdicts(log.audit(), "IM.ART.DIRECT") == {"ok"}


def test_gun_smoke_needs_scenario():
    # "On-map artillery guns may also fire smoke shells if these are available in the scenario"
    def case(permissions):
        log = ArtyLog(permissions=permissions)
        log.barrage_phase(1)
        log.phase_start("offensive-anti-tank-fire", "british")
        log.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010", "source": "artillery-gun"}, side="british")
        return verdicts(log.audit(), "IM.ART.DIRECT.SMOKE")
    assert case(["smoke"]) == {"ok"} and case([]) == {"violation"}
