"""Dice the players can verify: the service's commit-reveal scheme (pure; no I/O).

When a game is created the service draws a secret seed and publishes `commitment(seed)`, its
SHA-256. A service roll at `seq` for `purpose` is derived from HMAC-SHA256(seed,
"{game}|{seq}|{purpose}"): the digest's bytes are read one at a time and mapped onto the die by
rejection sampling (a byte at or above the largest multiple of the face count below 256 is
skipped), so every face is equally likely. Once the seed is revealed anyone can recompute
every service roll; a changed result, die, seq or purpose no longer matches, and a seed other
than the committed one no longer hashes to the commitment. The service deals cards from the same
seed (domain/cards.py).
"""
from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

DIE = re.compile(r"^(\d*)d(6|10|20)$")
SEED_BYTES = 32


class DiceError(ValueError):
    """A die that the scheme cannot roll (not d6, d10, d20 or kdN)."""


@dataclass(frozen=True)
class Roll:
    """A service roll: the faces, their sum and the proof fields it is stored with."""

    die: str
    results: list[int]
    mac: str
    commitment: str

    @property
    def result(self) -> int:
        return sum(self.results)

    def data(self, purpose: str, subject: str | None) -> dict[str, Any]:
        """The `DieRolled` data of this roll (`results` only for several dice)."""
        out: dict[str, Any] = {"purpose": purpose, "die": self.die, "result": self.result,
                               "subject": subject, "source": "service",
                               "commitment": self.commitment, "mac": self.mac}
        if len(self.results) > 1:
            out["results"] = list(self.results)
        return out


def commitment(seed: bytes) -> str:
    """The published SHA-256 of the secret seed (lower-case hex)."""
    return hashlib.sha256(seed).hexdigest()


def parse_die(die: str) -> tuple[int, int]:
    """(count, faces) of 'd6', 'd10', 'd20' or 'kdN'."""
    match = DIE.match(die or "")
    if not match:
        raise DiceError(f"{die!r} is not a die like d6, d10, d20 or 2d6")
    count = int(match.group(1) or 1)
    if not 1 <= count <= 20:
        raise DiceError(f"{die!r}: from 1 to 20 dice")
    return count, int(match.group(2))


def message(game: str, seq: int, purpose: str) -> bytes:
    return f"{game}|{seq}|{purpose}".encode("utf-8")


def byte_stream(seed: bytes, msg: bytes) -> Iterator[int]:
    """The digest's bytes, then (in the unlikely case that they run out) further blocks
    HMAC(seed, msg|1), HMAC(seed, msg|2), ..."""
    block, digest = 0, hmac.new(seed, msg, hashlib.sha256).digest()
    while True:
        yield from digest
        block += 1
        digest = hmac.new(seed, msg + f"|{block}".encode(), hashlib.sha256).digest()


def faces(seed: bytes, msg: bytes, count: int, sides: int) -> list[int]:
    """`count` unbiased faces of a `sides`-sided die drawn from the HMAC stream."""
    limit = 256 - 256 % sides
    out: list[int] = []
    for byte in byte_stream(seed, msg):
        if byte < limit:
            out.append(byte % sides + 1)
            if len(out) == count:
                return out
    raise AssertionError("unreachable: the stream is endless")


def derive_roll(seed: bytes, game: str, seq: int, purpose: str, die: str) -> Roll:
    """The service roll for (game, seq, purpose) on `die`."""
    count, sides = parse_die(die)
    msg = message(game, seq, purpose)
    mac = hmac.new(seed, msg, hashlib.sha256).hexdigest()
    return Roll(die, faces(seed, msg, count, sides), mac, commitment(seed))


def service_rolls(lines: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for line in lines:
        if line.get("type") == "DieRolled" and (line.get("data") or {}).get("source") == "service":
            yield line


def verify_rolls(lines: Iterable[dict[str, Any]], seed: bytes) -> list[str]:
    """Every service roll recomputed from the revealed seed: the problems, each naming its seq."""
    problems = []
    committed = commitment(seed)
    for line in service_rolls(lines):
        data, seq = line["data"], line.get("seq")
        where = f"seq {seq}"
        if data.get("commitment") != committed:
            problems.append(f"{where}: the roll's commitment {data.get('commitment')!r} is not the "
                            f"SHA-256 of the revealed seed ({committed})")
            continue
        try:
            roll = derive_roll(seed, line["game"], seq, data.get("purpose", ""), data.get("die", ""))
        except DiceError as err:
            problems.append(f"{where}: {err}")
            continue
        if data.get("mac") != roll.mac:
            problems.append(f"{where}: the proof (mac) does not match game, seq and purpose")
        recorded = data.get("results") if roll.results[1:] else [data.get("result")]
        if recorded != roll.results or data.get("result") != roll.result:
            problems.append(f"{where}: recorded {data.get('result')} ({recorded}); the seed gives "
                            f"{roll.result} ({roll.results})")
    return problems
