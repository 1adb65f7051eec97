"""BPE Playground: the frame around every page (navigation, the session, links, reload).

Run: ``streamlit run app.py``. The pages live in ``pages/``; ``ui/frame.py`` says how they are framed.
"""

from ui import frame

frame.run_app()
