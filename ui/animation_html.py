"""The merge animation as one self-contained HTML file, for slides or a USB stick.

The file holds the same player as the Merges page (player_model.js, player_window.js, player.js
and their CSS) and its payload (``ui.merge_frames.player_payload``), all inline: it opens from
``file://`` with no network at all (a Content-Security-Policy forbids any request) and plays with
the same keys. The payload is embedded as JSON in a ``<script type="application/json">`` with
``<``, ``>``, ``&``, U+2028 and U+2029 escaped, so no token can end the script element; the player
draws tokens with textContent.
"""

from __future__ import annotations

import functools
import html
import json
from pathlib import Path

from playground.i18n import language
from playground.i18n import t as translate
from playground.learn.code_view import code_view
from ui import token_style
from ui.merge_frames import TIE_RULE

_HERE = Path(__file__).parent
# One ES module: the data, the window, then the player and its default export.
PLAYER_JS = "\n".join(
    (_HERE / name).read_text(encoding="utf-8")
    for name in (
        "player_model.js",
        "player_window.js",
        "player_code.js",
        "player_predict.js",
        "player_panel.js",
        "player.js",
    )
)
PLAYER_CSS = "\n".join(
    (
        (_HERE / "player.css").read_text(encoding="utf-8"),
        token_style.TOKEN_CSS,
        token_style.talk_token_css(".bpe-player.talk"),
    )
)

_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})

# The player calls nothing outside the file; 'none' makes sure of it (fonts are the system's).
_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"

_BOOT = """
mountPlayer({
  data: JSON.parse(document.getElementById("bpe-data").textContent),
  parentElement: document.getElementById("player"),
});
document.querySelector(".bpe-player").focus();
"""


def player_labels(lang: str | None = None) -> dict[str, str]:
    """The player's words in ``lang`` (default: the session's); player.js fills ``{name}`` placeholders."""
    t = functools.partial(translate, lang=lang)
    return {
        "first": t("First round (Home)"),
        "prev": t("Step back (←)"),
        "playPause": t("Play / pause (space)"),
        "next": t("Step forward (→)"),
        "last": t("Last round (End)"),
        "play": t("▶ Play"),
        "pause": t("⏸ Pause"),
        "speed": t("Speed"),
        "speedTitle": t("Rounds per second (+ / −)"),
        "perSecond": t("{s} rounds/s"),
        "perSecondOne": t("1 round/s"),
        "round": t("Round"),
        "roundOf": t("Round {k} / {n}"),
        "runnerUps": t("Runner-ups:"),
        "keys": t(
            "Keys: space play / pause · ← → step · Home / End first / last round · + − speed · c code · "
            "click a token to pick its word"
        ),
        "zeroBytes": t("Round 0: the text as raw bytes, before any merge. Press ▶ or →."),
        "zeroClassic": t("Round 0: the text as raw characters + </w>, before any merge. Press ▶ or →."),
        "figures": t("new token id {id} · pair count {count} · occurrences replaced {replaced}"),
        "tie": t("(tie)"),
        "tieAt": t("Tie at count {count}: {rule}."),
        "tieRule": t(TIE_RULE),  # with_labels gives the training's own
        "codeTitle": t("The code beside the window: a short trainer, stepped with the player (c)"),
        "codeTop": t("top = {count}"),
        "codeTied": t("{n} pairs tied: the rule picks {pair}"),
        "codeAlone": t("only {pair} has it"),
        "codeRule": t("→ {pair}"),
        "codeRecord": t("merge {k}: {pair}"),
        "codeMerge": t("new token {token} · {replaced} replaced · in the window: {words}"),
        "codeNoWord": t("not in the window"),
        "predictAsk": t("Round {k}: which pair is merged? Click it, or press its number and Enter."),
        "predictHow": t("The counts are hidden until you choose."),
        "predictOnly": t("Round {k}: only {pair} is left, so it is merged: nothing to guess. Enter: play it."),
        "predictOnlyDone": t("Only {pair} was left ({count}): not scored."),
        "predictRight": t("Right: {pair} ({count})."),
        "predictRightTie": t("It tied: {rule}."),
        "predictWrong": t("Not this time: {pair} had the highest count ({count})."),
        "predictRule": t("Same count as {pair} ({count}), but {rule}."),
        "predictScore": t("Score: {right} of {total}. Enter: next round."),
        "predictScoreLast": t("Score: {right} of {total}. That was the last round."),
        "predictEnd": t("The training is over. Score: {right} of {total}."),
        "byte": t("{n} byte"),
        "bytes": t("{n} bytes"),
        "partOf": t("part of “{chars}”"),
        "symbol": t("{n} symbol"),
        "symbols": t("{n} symbols"),
    }


def with_labels(payload: dict, *, talk: bool = False, lang: str | None = None) -> dict:
    """The payload with the player's words (and talk mode's big type when ``talk``), the tie rule of its training
    and the short trainer beside it (``playground.learn.code_view``), in ``lang`` (default: the session's)."""
    lang = lang or language()
    labels = {**player_labels(lang), "tieRule": translate(payload.get("tieRule", TIE_RULE), lang=lang)}
    code = (
        code_view(payload.get("mode", "bytes"), payload.get("rule", "greatest"), lang) if payload.get("coded") else None
    )
    return {**payload, "labels": labels, "talk": talk, "code": code}


def script_json(value: object) -> str:
    """JSON that is safe inside a ``<script>`` element: nothing in it can close the element.

    >>> script_json({"t": "</script><b>&\\u2028"})
    '{"t": "\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026\\\\u2028"}'
    """
    return json.dumps(value, ensure_ascii=False).translate(_SCRIPT_SAFE)


def animation_html(payload: dict, title: str, lang: str | None = None) -> str:
    """The whole animation as one HTML document (str; save it as UTF-8).

    ``payload`` is ``ui.merge_frames.player_payload(...)``; ``title`` is shown as the heading (text,
    escaped); ``lang`` is the language of its labels (default: the session's; give it when called
    outside the script's thread, as a download button's data function is).
    """
    lang = lang or language()
    for source, closing in ((PLAYER_JS, "</script"), (PLAYER_CSS, "</style")):
        if closing in source.lower():
            raise ValueError(f"the player's source contains {closing!r}: it cannot be inlined")
    heading = html.escape(title)
    return (
        "<!doctype html>\n"
        f'<html lang="{lang}"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{heading} · BPE merges</title>\n"
        f"<style>body{{margin:16px auto;max-width:1200px;padding:0 12px;font-family:{token_style.SANS_FONTS}}}"
        f"h1{{font-size:1.4rem}}\n{PLAYER_CSS}</style>\n"
        f"</head><body><h1>{heading}</h1>\n"
        '<div id="player"></div>\n'
        f'<script type="application/json" id="bpe-data">{script_json(with_labels(payload, lang=lang))}</script>\n'
        f'<script type="module">\n{PLAYER_JS}\n{_BOOT}</script>\n'
        "</body></html>\n"
    )
