"""Further checks `umpire verify` runs once the schema and the chain hold (e.g. service dice)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

Verifier = Callable[[list[str], Optional[str], Optional[Path]], Iterable[str]]
VERIFIERS: list[Verifier] = []


def verifier(fn: Verifier) -> Verifier:
    VERIFIERS.append(fn)
    return fn


def extra_verifications(texts: list[str], db: Optional[str], seed: Optional[Path] = None) -> Iterator[str]:
    """Problems found by the registered verifiers, each naming its line."""
    for fn in VERIFIERS:
        yield from fn(texts, db, seed)
