"""Small UI helpers shared by the Streamlit pages (app.py and pages/*).

Pages stay thin: they read the session (ui.session), call ui modules or bpe_core, and render.
"""
