"""The verifiable-dice scheme: commitment, unbiased derivation, recomputation after the reveal."""
from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from domain.dice import DiceError, commitment, derive_roll, faces, message, parse_die, verify_rolls

SEED = bytes(range(32))
OTHER_SEED = bytes(range(1, 33))


def service_line(seed: bytes, seq: int, purpose: str = "IM.ART.SCATTER.DRUMFIRE", die: str = "d6",
                 game: str = "g-1") -> dict:
    roll = derive_roll(seed, game, seq, purpose, die)
    return {"v": 1, "game": game, "seq": seq, "turn": 1, "phase": "barrage", "side": "british",
            "type": "DieRolled", "data": roll.data(purpose, "b-1")}


def test_commitment_is_the_sha256_of_the_seed():
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_a_roll_is_the_first_accepted_byte_of_the_hmac_mapped_onto_the_die():
    roll = derive_roll(SEED, "g-1", 7, "IM.SPOT.ROLL", "d10")
    digest = hmac.new(SEED, b"g-1|7|IM.SPOT.ROLL", hashlib.sha256).digest()
    first_ok = next(b for b in digest if b < 250)  # 250 = the largest multiple of 10 within a byte
    assert roll.results == [first_ok % 10 + 1]
    assert roll.mac == digest.hex()
    assert roll.commitment == commitment(SEED)


def test_a_byte_above_the_last_full_round_of_faces_is_skipped_not_folded():
    # Find a message whose digest starts with a byte >= 252: for a d6 it must be rejected.
    for seq in range(1, 5000):
        digest = hmac.new(SEED, message("g-1", seq, "p"), hashlib.sha256).digest()
        if digest[0] >= 252:
            break
    else:
        pytest.fail("no digest starting with a byte >= 252 in 5000 tries")
    accepted = [b for b in digest if b < 252]
    assert faces(SEED, message("g-1", seq, "p"), 1, 6) == [accepted[0] % 6 + 1]
    assert derive_roll(SEED, "g-1", seq, "p", "d6").result == accepted[0] % 6 + 1


def test_every_face_is_about_equally_likely():
    counts = Counter(derive_roll(SEED, "g-1", seq, "p", "d6").result for seq in range(1, 6001))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    expected = 1000
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 20.5  # the 0.1% point of chi-square with 5 degrees of freedom


def test_several_dice_give_their_faces_and_the_sum():
    roll = derive_roll(SEED, "g-1", 3, "LS.MORALE", "2d6")
    assert len(roll.results) == 2 and all(1 <= f <= 6 for f in roll.results)
    data = roll.data("LS.MORALE", "u-1")
    assert data["result"] == sum(roll.results) and data["results"] == roll.results
    assert data["source"] == "service"


def test_the_roll_depends_on_game_seq_and_purpose():
    base = derive_roll(SEED, "g-1", 1, "p", "d20").mac
    assert derive_roll(SEED, "g-2", 1, "p", "d20").mac != base
    assert derive_roll(SEED, "g-1", 2, "p", "d20").mac != base
    assert derive_roll(SEED, "g-1", 1, "q", "d20").mac != base


@pytest.mark.parametrize("die", ["d4", "6", "d", "0d6", "21d6", ""])
def test_dice_the_scheme_does_not_roll_are_refused(die):
    with pytest.raises(DiceError):
        parse_die(die)


def test_untouched_service_rolls_verify():
    lines = [service_line(SEED, seq) for seq in range(1, 20)]
    assert verify_rolls(lines, SEED) == []


def test_a_changed_result_fails_verification_naming_its_seq():
    lines = [service_line(SEED, seq) for seq in range(1, 6)]
    lines[2]["data"]["result"] = lines[2]["data"]["result"] % 6 + 1
    problems = verify_rolls(lines, SEED)
    assert len(problems) == 1 and problems[0].startswith("seq 3:")


def test_a_roll_moved_to_another_seq_or_purpose_fails_verification():
    moved = service_line(SEED, 4)
    moved["seq"] = 5
    renamed = service_line(SEED, 6)
    renamed["data"]["purpose"] = "IM.ART.FOT.ROLL"
    problems = verify_rolls([moved, renamed], SEED)
    assert {p.split(":")[0] for p in problems} == {"seq 5", "seq 6"}


def test_another_seed_than_the_committed_one_fails_verification():
    lines = [service_line(SEED, 1)]
    problems = verify_rolls(lines, OTHER_SEED)
    assert problems and "commitment" in problems[0]


def test_table_rolls_are_not_recomputed():
    table = {"v": 1, "game": "g-1", "seq": 1, "turn": 1, "phase": "barrage", "side": "british",
             "type": "DieRolled", "data": {"purpose": "p", "die": "d6", "result": 6, "source": "table"}}
    assert verify_rolls([table], SEED) == []
