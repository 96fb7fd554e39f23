"""Streamlit side of the dashboard: session state, the per-run workspace and navigation.

Kept outside ``aieco/`` because it imports streamlit (the library never does).
"""
