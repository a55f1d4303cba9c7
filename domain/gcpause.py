"""The cyclic garbage collector held off while a batch is checked and stored.

An import builds tens of thousands of objects (the lines, their checked forms, the aggregates'
events, the stored rows) that all live until the batch is stored, and none of them in a cycle:
reference counting frees them. The cyclic collector, which runs each time enough new objects
have survived, walks the whole heap every time the survivors have grown by a quarter: five
walks of everything during a 10,000-line import, a fifth of its time, freeing nothing. Holding
it off for the batch leaves one walk, after it.

Process-wide, as the collector is: nested and concurrent batches (threads of the API) hold it
off together, and it is enabled again when the last one ends (if it was enabled before the first).
"""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_lock = threading.Lock()
_holders = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_enabled:
                gc.enable()
