"""The player's model (ui/player_model.js) run in Node without a browser: a token made of some of a character's
bytes names the character it belongs to (round 0 of a Chinese text shows ⟨E5⟩⟨AD⟩⟨A6⟩: which character is
that?), compared with Python's own UTF-8 decoding over random texts (hypothesis). Skips without Node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

NODE = shutil.which("node")
SOURCE = (Path(__file__).resolve().parents[1] / "ui" / "player_model.js").read_text(encoding="utf-8")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node.js to run the player's JavaScript")

# For each case (the text's bytes, a token's start and end), what Model.wholeCharacters says.
RUNNER = """
const vm = require("vm");
const context = { TextDecoder, document: {} };
vm.runInNewContext(process.argv[1] + "\\n;globalThis.Model = Model;", context);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const whole = context.Model.prototype.wholeCharacters;
console.log(JSON.stringify(cases.map(([bytes, s, e]) => whole.call({ atoms: Uint8Array.from(bytes) }, s, e))));
"""


def _characters_of(data: bytes, start: int, stop: int) -> str:
    """The characters of ``data`` (valid UTF-8) that bytes start..stop belong to, by Python's decoder."""
    text, out, offset = data.decode(), [], 0
    for ch in text:
        size = len(ch.encode())
        if offset < stop and start < offset + size:
            out.append(ch)
        offset += size
    return "".join(out)


@settings(max_examples=40)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=12), st.data()), min_size=1, max_size=6))
def test_a_partial_token_names_the_characters_it_belongs_to(draws):
    cases, expected = [], []
    for text, data in draws:
        raw = text.encode("utf-8", errors="surrogatepass")
        if any(0xD800 <= ord(ch) <= 0xDFFF or ch == "\ufffd" for ch in text):
            continue  # not valid UTF-8 (shown as bytes, with no character), or the mark the model leaves out
        start = data.draw(st.integers(0, len(raw) - 1))
        stop = data.draw(st.integers(start + 1, len(raw)))
        cases.append([list(raw), start, stop])
        expected.append(_characters_of(raw, start, stop))
    if not cases:
        return
    run = subprocess.run([NODE, "-e", RUNNER, SOURCE], input=json.dumps(cases), capture_output=True, text=True,
                         timeout=60, check=True)  # fmt: skip
    assert json.loads(run.stdout) == expected


def test_the_bytes_of_xue_name_xue():
    raw = "学习".encode()
    run = subprocess.run([NODE, "-e", RUNNER, SOURCE], input=json.dumps([[list(raw), 1, 2], [list(raw), 0, 1]]),
                         capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    assert json.loads(run.stdout) == ["学", "学"]


# Model's marks (textPieces, the player's token labels) against the one renderer's (ui/token_html.text_pieces).
MARKS_RUNNER = """
const vm = require("vm");
const context = { TextDecoder, document: {} };
vm.runInNewContext(process.argv[1] + "\\n;globalThis.textPieces = textPieces;", context);
const [texts, marks] = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(texts.map((text) => { const out = []; context.textPieces(text, marks, out); return out; })))
"""


@settings(max_examples=30)
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=20), min_size=1, max_size=20))
def test_the_player_marks_the_characters_the_one_renderer_marks(texts):
    """Spaces other than U+0020 (no-break, ideographic) were blank boxes in both: they are marks in both now."""
    from ui import invisible_marks, token_html

    texts = [*texts, "a\u00a0b\u3000c\u202fd\u2009e\u200bf\u202eg h\n"]
    given_to_node = json.dumps([texts, invisible_marks.mark_table()])
    run = subprocess.run(
        [NODE, "-e", MARKS_RUNNER, SOURCE], input=given_to_node, capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(run.stdout) == [[list(piece) for piece in token_html.text_pieces(text)] for text in texts]
