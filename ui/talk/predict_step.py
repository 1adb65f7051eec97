"""Talk step 12: the audience predicts the next merge. The Merges page's player in its predict mode
(``ui/player_predict.js``) on a toy text short enough to read from the back of the room: it stops before each
round, someone calls out the pair they think wins, the speaker presses its number and Enter, and the counts
(and the tie rule, when it decided) are shown; Enter again asks the next round. Keyboard only, as a talk is."""

from __future__ import annotations

import streamlit as st

from playground.i18n import t
from ui import merge_frames
from ui.player import merge_player
from ui.talk import data

PREDICT_CORPUS = "toy-the-cat-in-the-hat"
PREDICT_VOCAB = 280
PLAYER_KEY = "bpe.talk_predict_player"  # not step 4's player: each keeps its own round


def predict_next_merge() -> None:
    trained = data.trained(PREDICT_CORPUS, "byte", PREDICT_VOCAB)
    if trained is None:
        return
    st.markdown(t("Call out a pair, then press its number and Enter."))  # one line: the player fills a 720p slide
    payload = {**merge_frames.player_payload(trained, 0, 30), "predict": True}
    merge_player(payload, key=PLAYER_KEY, compact=True)
