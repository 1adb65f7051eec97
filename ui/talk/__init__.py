"""The Talk page's guided talk: ten steps (``steps``), each drawing what ``data`` computes. Talk mode
itself (the stage's CSS, the keys) is ``ui.stage``, which every page uses."""
