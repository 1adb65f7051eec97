"""What a person sees: the Streamlit widgets, token rendering, charts, the player and talk mode.

Pages stay thin: they read the session (:mod:`ui.state`), call ui modules, and render. The model below
(:mod:`playground`: requests, trained records, texts, the workspace) imports no Streamlit; this package
connects it to the Streamlit run by giving it the session's language.
"""

from playground import i18n
from ui.state import session_language

i18n.set_language_source(session_language)
