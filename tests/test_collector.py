"""bpe_core.collector: the cycle collector is paused only in the main thread; library calls from any
other thread (a threaded server's sessions) leave it running throughout."""

from __future__ import annotations

import gc
import random
import string
import threading

import pytest

from bpe_core import train, train_classic
from bpe_core.reference import build_reference

_rng = random.Random(5)
TEXT = " ".join("".join(_rng.choices(string.ascii_lowercase + "é中", k=_rng.randint(2, 9))) for _ in range(60_000))


def sampled_while(work) -> list[bool]:
    """``gc.isenabled()`` as another thread saw it, every few hundred microseconds, while ``work`` ran."""
    samples: list[bool] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.0002):
            samples.append(gc.isenabled())

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        work()
    finally:
        done.set()
        sampler.join()
    return samples


def in_a_thread(work):
    def run() -> None:
        errors: list[BaseException] = []

        def guarded() -> None:
            try:
                work()
            except BaseException as error:  # re-raised in the test's thread
                errors.append(error)

        thread = threading.Thread(target=guarded)
        thread.start()
        thread.join()
        if errors:
            raise errors[0]

    return run


def library_calls() -> None:
    tokenizer = build_reference("cl100k_base")  # empty caches: every pre-token is new
    tokenizer.encode(TEXT)
    list(tokenizer.encode_iterable([TEXT]))
    trained = train(TEXT, 256 + 600).tokenizer
    trained.encode(TEXT)
    train(TEXT[:20_000], 256 + 200, pattern=None)
    train_classic(TEXT[:100_000], 400)


def test_calls_from_another_thread_leave_the_collector_running():
    assert gc.isenabled()
    samples = sampled_while(in_a_thread(library_calls))
    assert len(samples) > 50  # the sampler ran throughout
    assert all(samples)
    assert gc.isenabled()


def test_calls_from_the_main_thread_pause_it_and_turn_it_back_on():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("the test runner is not in the main thread")
    samples = sampled_while(lambda: train(TEXT, 256 + 600))
    assert False in samples  # paused while the merges ran
    assert gc.isenabled()
