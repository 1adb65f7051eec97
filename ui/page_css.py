"""The style every page draws (in the sidebar, ``ui.frame``) and that of the sidebar's link box (its component)."""

from __future__ import annotations

from ui import stage, token_style

PAGE_STYLE = (
    "<style>" + token_style.TOKEN_CSS + ".bpe-step{margin:.35rem 0}.bpe-step-cap{color:#495057;font-size:.95rem}"
    # A multiselect's chips wrap onto more lines (Streamlit 1.67 keeps them on one, scrolled: the models chosen
    # first went out of sight, the others were cut, "cl100k_base (GP…").
    "[data-testid='stMultiSelectTagsContainer']{flex-wrap:wrap!important;overflow:visible!important;height:auto!important}"
    "[data-testid='stMultiSelect'] :is(div:has(>[data-testid='stMultiSelectTagsContainer']),"
    "div:has(>div>[data-testid='stMultiSelectTagsContainer'])){max-height:none!important;height:auto!important}"
    "</style>"
)

LINK_BOX_CSS = (
    ".bpe-link{display:flex;gap:.25rem;align-items:flex-start;background:#f0f2f6;border-radius:.5rem;"
    "padding:.45rem .35rem .45rem .6rem}\n"  # a newline: Streamlit takes a one-line string with "/" for a path
    ".bpe-link code{flex:1;font:.78rem/1.35 'Source Code Pro',ui-monospace,monospace;color:#31333f;"
    # A long link scrolls, its bar shown (four lines cut "...specials=%3C%7Cendoftext%7" off with no sign of more).
    "white-space:pre-wrap;word-break:break-all;max-height:9.5em;overflow:auto;scrollbar-width:thin;"
    "scrollbar-color:#8a8f98 transparent}"
    ".bpe-link button{border:0;background:none;cursor:pointer;font-size:1rem;line-height:1;padding:.1rem .2rem;"
    "color:#555;border-radius:.3rem}.bpe-link button:hover{background:#e0e3ea}"
    f".bpe-link.talk code{{font-size:max({stage.MIN_PX}px,{stage.VW}vw)}}"  # talk mode: as big as the rest
)
