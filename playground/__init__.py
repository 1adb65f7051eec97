"""The app's model, without Streamlit: what a person asked for and what was made of it.

- :mod:`.session` and :mod:`.fields`: every value a session keeps, declared once (type, default, URL form, whether
  a reload keeps it); :mod:`.links` reads and writes links from those declarations alone.
- :mod:`.train_form`: the Train settings checked and turned into a :class:`.trained.Request`, before any work.
- :mod:`.trained`: a request, the training job (runs in worker processes and on Dask), and the trained record;
  :mod:`.packed_trace`: its merge records packed as columns.
- :mod:`.corpora` and :mod:`.heldout_texts`: built-in corpora, uploads, and the held-out texts Compare measures on.
- :mod:`.workspace`: a tab's work as stored on disk (``runtime.store``), and back.
- :mod:`.i18n` and :mod:`.text`: every sentence in English or 简体中文, and user text kept as text.

Arrows point down: ``pages`` → ``ui`` → ``playground`` → ``runtime``, ``bpe_core``. A test checks that no module
here imports Streamlit, so job processes and Dask workers load it quickly.
"""
