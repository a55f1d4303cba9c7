"""The installation's own table pack: the file UMPIRE_TABLES names, read by every audit and
analysis Umpire makes (docs/table-packs.md)."""
from __future__ import annotations

import functools
import os
from typing import Optional

from domain.rules.tables import TablePack, load_pack_file

PACK_ENV = "UMPIRE_TABLES"


def configured_pack() -> Optional[TablePack]:
    """The user's pack the environment names (UMPIRE_TABLES, a pack file), or None. It wins over a
    game's named pack wherever Umpire audits or analyses a game, in the service and its workers as
    in `umpire audit` (whose --tables wins over it), so that a referee's own charts give the same
    verdicts everywhere. Read again when the file changes; one that cannot be read raises
    TablePackError."""
    path = os.environ.get(PACK_ENV)
    if not path:
        return None
    try:
        stat = os.stat(path)
        return _pack_file(path, stat.st_mtime_ns, stat.st_size)
    except OSError:
        return _pack_file(path, None, None)


@functools.lru_cache(maxsize=4)
def _pack_file(path: str, mtime: Optional[int], size: Optional[int]) -> TablePack:
    return load_pack_file(path)
