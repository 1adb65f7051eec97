"""Pausing Python's cycle collector around work that makes millions of objects and no cycles.

Training builds an engine of hundreds of thousands of lists, sets and tuples, and encoding a big
text makes a list per pre-token; they form no reference cycles, so the collector can free none
of them, yet its full runs walk all of them (measured in the main thread: 0.24 s of 3.7 s of
training docs10m; about a tenth of encoding a big text). So the collector is paused meanwhile, as
Mercurial's ``util.nogc`` does.

The rule: pause only in the main thread. ``gc.disable()`` is process-wide, and a threaded server
(Streamlit runs each session's script in a thread of its own) would have every other session's
garbage wait while one encodes. The main thread is where the long work runs: the command line,
scripts, benchmarks and the app's job processes (training), which have no other sessions.
Elsewhere the collector is left alone, at a small cost, measured by encoding 10 MB of docs10m with
cl100k_base in a non-main thread, paused or not (2 cores, Python 3.11, 9 interleaved rounds, medians
of CPU seconds, and the median ratio of the rounds' wall seconds; load average 2-5 from other work;
an earlier 5-round run on a quiet machine gave ratios of 1.02 and 0.99):

====================================  =========  ==========  ============================
cl100k_base, 10 MB, non-main thread    paused     not paused  not paused / paused (range)
====================================  =========  ==========  ============================
fresh tokenizer (64,000 new pieces)    0.873 s    0.935 s     1.08 (0.95-1.20)
second encode (all from the cache)     0.555 s    0.557 s     1.01 (0.91-1.11)
====================================  =========  ==========  ============================

>>> import gc, threading
>>> with collector_paused():
...     gc.isenabled()
False
>>> seen = []
>>> def sample():
...     with collector_paused():
...         seen.append(gc.isenabled())
>>> thread = threading.Thread(target=sample); thread.start(); thread.join()
>>> seen, gc.isenabled()
([True], True)
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cycle collector for the block, if this is the main thread and it is running.

    Whatever happens inside, the collector runs again afterwards exactly if it ran before. A
    caller that frees its objects before the block ends (by reference counting) spares the
    collector's first run after it from walking them all.
    """
    if threading.current_thread() is not threading.main_thread() or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
