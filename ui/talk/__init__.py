"""Talk mode and the guided talk: the stage (``stage``: CSS that hides the app's chrome and sizes
every text for a projector), the keys (``keys``: a small browser component) and the ten steps of
the guided talk (``steps``, drawing what ``data`` computes)."""
