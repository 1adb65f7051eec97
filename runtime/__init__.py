"""The app's runtime: what runs work and keeps state, below the pages and ``ui/``.

- :mod:`runtime.jobs`: long work (training, a stranger's regex) in worker processes that can be bounded
  and killed;
- :mod:`runtime.store`: each tab's work, kept across reloads;
- :mod:`runtime.lru`: the one bounded cache.

Nothing here imports Streamlit, the pages or ``ui/``: it runs what it is given and keeps what it is
handed, so it can be tested, benchmarked and replaced (a Dask cluster, a networked database) alone.
"""
