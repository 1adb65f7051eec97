"""Helpers shared by the AppTest (headless) page tests: reading elements, token spans, fresh sessions."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from streamlit.testing.v1 import AppTest

from playground.session import Session
from ui.callbacks import FAILED

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
TRAIN = "pages/0_Train.py"
MERGES = "pages/1_Merges.py"
ENCODE = "pages/2_Encode.py"
TIMEOUT = 120

CAT = "toy-the-cat-in-the-hat"
SENNRICH = "toy-low-lower-newest-widest"

XSS_PROBES = (
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    '<iframe srcdoc="<script>alert(1)</script>">',
)
RAW_TAGS = ("<img", "<script", "</script", "<iframe")
# In Markdown a tag is raw unless its "<" is backslash-escaped.
RAW_MARKDOWN_TAG = re.compile(r"(?<!\\)<\s*/?\s*(img|script|iframe)", re.IGNORECASE)


def no_exception(at: AppTest) -> None:
    """No traceback, and no error from the frame's safety net (which turns a page's bug into a message)."""
    assert not at.exception, [e.value for e in at.exception]
    failed = [e.value for e in at.error if e.value.startswith(FAILED)]
    assert not failed, failed


def htmls(at: AppTest) -> list[str]:
    return [element.proto.body for element in at.get("html")]


def markdown_texts(at: AppTest) -> list[str]:
    """Every text Streamlit renders as Markdown: markdown, captions, titles and alerts."""
    kinds = ("markdown", "caption", "title", "subheader", "info", "success", "warning", "error")
    return [element.value for kind in kinds for element in getattr(at, kind)]


def assert_no_raw_tags(bodies: list[str]) -> None:
    """None of the probe tags is in these st.html bodies: in HTML any "<img" would be a tag."""
    for body in bodies:
        for tag in RAW_TAGS:
            assert tag not in body.lower(), (tag, body[:300])


def assert_no_raw_markdown_tags(texts: list[str]) -> None:
    """None of the probe tags is in these Markdown texts unless escaped as "\\<"."""
    for text in texts:
        assert not RAW_MARKDOWN_TAG.search(text), text[:300]


def vega_specs(at: AppTest) -> list[dict]:
    """Altair charts appear as UnknownElement; their Vega-Lite spec is JSON in proto.spec."""
    return [json.loads(element.proto.spec) for element in at.get("vega_lite_chart")]


def chart_rows(at: AppTest, index: int = 0) -> list[dict]:
    """The data of a chart: Streamlit ships altair's datasets as Arrow IPC in proto.datasets; a spec
    written as a dict (the Compare curve) carries its rows inline in each layer."""
    import pyarrow as pa

    element = at.get("vega_lite_chart")[index]
    rows: list[dict] = []
    for dataset in element.proto.datasets:
        rows.extend(pa.ipc.open_stream(dataset.data.data).read_pandas().to_dict("records"))
    for layer in json.loads(element.proto.spec).get("layer", []):
        rows.extend(row for row in layer.get("data", {}).get("values", []) if "text" in row)
    return rows


@dataclass
class TokenSpan:
    """One ``<span class="tok ...">`` of rendered tokens: its id attribute, classes and visible text."""

    token_id: str | None
    classes: list[str]
    text: str = ""
    inner_tags: list[str] = field(default_factory=list)  # classes of spans nested inside (e.g. tokbytes)


class _TokenSpanParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)  # text comes out unescaped, as the browser shows it
        self.spans: list[TokenSpan] = []
        self._depth = 0  # span nesting inside the current token span

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "span":
            return
        classes = (dict(attrs).get("class") or "").split()
        if self._depth:
            self._depth += 1
            self.spans[-1].inner_tags.append(" ".join(classes))
        elif "tok" in classes:
            self.spans.append(TokenSpan(dict(attrs).get("data-token-id"), classes))
            self._depth = 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.spans[-1].text += data


def token_spans(body: str) -> list[TokenSpan]:
    parser = _TokenSpanParser()
    parser.feed(body)
    parser.close()
    return parser.spans


def marked(text: str) -> str:
    """Text as the token views show it: space ·, newline ↵, tab →."""
    return text.replace(" ", "·").replace("\n", "↵").replace("\t", "→")


def fresh(page: str | None = None, **query: str) -> AppTest:
    """A new session, run once on the Train page or on ``page`` opened directly, by a link with ``query``."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    if page:
        at.switch_page(page)
    at.run()
    no_exception(at)
    return at


def unescaped(markdown: str) -> str:
    """What a person reads of Markdown escaped by playground.text.plain (backslash escapes removed)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def sess(at: AppTest) -> Session:
    """The typed session of an AppTest run (``sess(at).trained``)."""
    return Session(at.session_state)


def click_train(at: AppTest) -> AppTest:
    at.button(key="train_button").click().run()
    no_exception(at)
    return at


def trained_on(sample: str, **fields) -> AppTest:
    """A session whose Train page trained ``sample`` (a slug); session ``fields`` are set first (kind="classic")."""
    at = fresh()
    at.selectbox(key=Session.corpus.key).set_value(sample).run()
    for name, value in fields.items():
        at.session_state[getattr(Session, name).key] = value
    at.run()
    click_train(at)
    assert sess(at).trained.request.corpus == sample
    return at


def open_page(at: AppTest, page: str) -> AppTest:
    at.switch_page(page)
    at.run()
    no_exception(at)
    return at


def options_in(lang: str, monkeypatch) -> None:
    """Let AppTest read translated widgets in ``lang``: it formats their options again in the test's own
    thread, outside any script run, where ``playground.i18n.t`` would speak English and no option would match."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from playground import i18n

    inside = i18n.language
    monkeypatch.setattr(i18n, "language", lambda: inside() if get_script_run_ctx(suppress_warning=True) else lang)
