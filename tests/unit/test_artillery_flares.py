"""Flares and emergencies (Infernal Machines, Liaison officer (LNO))."""
from tests.artillery_procedure_helpers import Game, at, failing, found, run


def emergency(game: Game, attacks: int = 3) -> Game:
    # "a targeted hexagon occupied by an enemy has been attacked by friendly forces three or more
    # times, all of which have failed to produce a 'pinned' or 'eliminated' result"
    game.turn_start(1)
    game.fire_phase()
    for n in range(attacks):
        game.small_arms(f"a-{n}")
    return game


def lno_comm_fails(game: Game, observer: str = "b-lno", via: str = "liaison-officer") -> Game:
    game.barrage_phase(2).observe(via=via, observer=observer)
    game.declare("b-2", observer=observer)
    game.comm("b-2", 2, link="lno-fo" if observer == "b-lno" else "fo-artillery")
    return game


def test_flare_in_emergency_accepted():
    # "If the communication test fails at that moment, the liaison officer ... may send up a flare.
    # A result of 1 or 2 on a six-sided die indicates that the off-map artillery sees the flare";
    # 1:1010 is 4 hexes from the LNO in 1:1006.
    game = lno_comm_fails(emergency(Game()))
    game.roll("IM.ART.LNO.FLARE", 1, "b-2", "british")
    game.fire("b-2")
    assert failing(run(game)) == []


def test_flare_without_emergency_is_violation():
    game = lno_comm_fails(emergency(Game(), attacks=2))
    game.roll("IM.ART.LNO.FLARE", 1, "b-2", "british")
    flare_seq = len(game.lines)
    game.fire("b-2")
    assert found(run(game), "IM.ART.LNO.EMERGENCY") == [(flare_seq, "IM.ART.LNO.EMERGENCY", "violation")]


def test_pinned_result_ends_the_emergency():
    game = emergency(Game())
    game.small_arms("a-pin", result="pinned")
    lno_comm_fails(game)
    game.roll("IM.ART.LNO.FLARE", 2, "b-2", "british")
    game.fire("b-2")
    assert [v for _, _, v in found(run(game), "IM.ART.LNO.EMERGENCY")] == ["violation"]


def test_flare_roll_three_does_not_fire():
    game = lno_comm_fails(emergency(Game()))
    game.roll("IM.ART.LNO.FLARE", 3, "b-2", "british")
    resolved = game.fire("b-2")
    report = run(game)
    # "A result of 1 or 2 ... indicates that the off-map artillery sees the flare": firing after a 3 is illegal
    assert (at(resolved) - 2, "IM.ART.LNO.FLARE", "violation") in found(report, "IM.ART.LNO.FLARE")
    assert not [f for f in found(report, "IM.ART.COMM") if f[2] == "violation"]


def test_flare_calls_destruction_only():
    game = emergency(Game())
    game.barrage_phase(2).observe(via="liaison-officer", observer="b-lno")
    game.declare("b-2", observer="b-lno", mission="neutralisation")
    game.comm("b-2", 1, link="lno-fo")
    game.roll("IM.ART.LNO.FLARE", 1, "b-2", "british")
    assert [v for _, r, v in found(run(game), "IM.ART.LNO.FLARE")] == ["violation"]


def test_fo_flare_needs_lno_out():
    # "If an emergency situation arises and the liaison officer is pinned or eliminated, then (and only
    # then) the forward observer may send up a flare".
    game = lno_comm_fails(emergency(Game()), observer="b-fo", via="forward-observer")
    game.roll("IM.ART.LNO.FLARE", 1, "b-2", "british")
    flare_seq = len(game.lines)
    assert found(run(game), "IM.ART.LNO.FLARE_FO") == [(flare_seq, "IM.ART.LNO.FLARE_FO", "violation")]
    pinned = emergency(Game())
    pinned.add("UnitStatusChanged", {"unit": "b-lno", "status": "pinned"}, side="german")
    lno_comm_fails(pinned, observer="b-fo", via="forward-observer")
    pinned.roll("IM.ART.LNO.FLARE", 1, "b-2", "british")
    assert found(run(pinned), "IM.ART.LNO.FLARE_FO") == []


def test_flare_at_distance_three_is_ambiguous():
    # IM.ART.LNO.FLARE ⚠: "at a distance of 4 hexagons" (exactly 4, or up to 4?); 1:1009 is 3 from 1:1006.
    game = lno_comm_fails(emergency(Game()))
    game.cancel("b-2", "no-communication")
    game.roll("IM.ART.LNO.FLARE", 2, "b-lno", "british")
    declared = game.declare("b-3", "1:1009", observer="b-lno", elements=["obm-2"], flare=True)
    game.fire("b-3", "1:1009")
    assert found(run(game), "IM.ART.LNO.FLARE") == [(at(declared), "IM.ART.LNO.FLARE", "ambiguous")]
    assert found(run(game, flare_distance="up-to-4"), "IM.ART.LNO.FLARE") == []
    assert found(run(game, flare_distance="exactly-4"), "IM.ART.LNO.FLARE") == [
        (at(declared), "IM.ART.LNO.FLARE", "violation")]


def test_flare_on_own_hex_is_violation():
    game = lno_comm_fails(emergency(Game()))
    game.cancel("b-2", "no-communication")
    game.roll("IM.ART.LNO.FLARE", 2, "b-lno", "british")
    declared = game.declare("b-3", "1:1006", observer="b-lno", elements=["obm-2"], flare=True)
    assert (at(declared), "IM.ART.LNO.FLARE", "violation") in found(run(game), "IM.ART.LNO.FLARE")
