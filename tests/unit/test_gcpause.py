"""The collector held off for a batch comes back as it was: after the last of nested or
concurrent holders, and only if it was enabled before the first (domain/gcpause.py)."""
from __future__ import annotations

import gc
import threading

from domain.gcpause import collector_paused


def test_the_collector_is_off_while_held_and_back_on_after_the_last_holder():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_disabled_before_stays_disabled():
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_holders_in_two_threads_share_the_pause():
    inside, release = threading.Event(), threading.Event()

    def hold():
        with collector_paused():
            inside.set()
            release.wait(5)

    other = threading.Thread(target=hold)
    other.start()
    inside.wait(5)
    with collector_paused():
        pass
    assert not gc.isenabled()  # the other thread still holds it
    release.set()
    other.join(5)
    assert gc.isenabled()


def test_an_exception_in_the_batch_gives_the_collector_back():
    try:
        with collector_paused():
            raise ValueError("a bad line")
    except ValueError:
        pass
    assert gc.isenabled()
