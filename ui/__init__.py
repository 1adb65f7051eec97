"""Small UI helpers shared by the Streamlit pages (app.py and pages/*).

Pages stay thin: they read state (ui.state), call bpe_core, and render with these helpers.
"""
