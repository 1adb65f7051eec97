"""The texts Compare measures (the training text, a held-out text) and the reference tokenizers' counts.

Every text carries a digest computed once, where the text enters (a sample: once per process; an
upload or a paste: in its widget's callback), so caches are keyed on that digest and a megabyte is
never hashed again on a rerun.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from ui import encoding as enc
from ui.corpora import (
    HELDOUT_REST,
    PASTE,
    SLUGS,
    UPLOAD,
    CorpusError,
    Upload,
    decode_upload,
    load_sample,
    reference_rest,
)
from ui.session import Session
from ui.text import human_bytes, plain
from ui.trained import Trained, text_digest

MEASURE_LIMIT = 2_000_000
"""Texts longer than this (in characters) are measured on their first MEASURE_LIMIT characters."""
BIG_PASTE = 50_000
"""A bigger pasted held-out text is moved out of its box (widget values travel on every rerun)."""
PASTED = "pasted text"

HELDOUT_LABELS = {
    HELDOUT_REST: "Python reference after the excerpt (never in the excerpt sample)",
    **{slug: f"Sample: {sample.name}" for slug, sample in SLUGS.items()},
    PASTE: "Paste text… (never put in links)",
    UPLOAD: "Upload a .txt file… (never put in links)",
}


@dataclass(frozen=True)
class Text:
    """A text as measured: its start when it is longer than MEASURE_LIMIT."""

    label: str  # its role and name, for captions and legends (plain text: escape before Markdown)
    text: str
    digest: str
    truncated: bool = False
    n_bytes: int = -1  # counted when not given (``dataclasses.replace`` passes it on)

    def __post_init__(self) -> None:
        if self.n_bytes < 0:
            object.__setattr__(self, "n_bytes", len(self.text.encode("utf-8", errors="surrogatepass")))


def make_text(label: str, text: str, digest: str = "") -> Text:
    """A Text; ``digest`` (of the whole text) is reused unless the text has to be cut."""
    if len(text) > MEASURE_LIMIT:
        text = text[:MEASURE_LIMIT]
        return Text(label, text, text_digest(text), truncated=True)
    return Text(label, text, digest or text_digest(text))


@cache
def sample_text(choice: str) -> Text:
    """A built-in held-out choice or sample (labelled by its name), read and hashed once per process."""
    if choice == HELDOUT_REST:
        return make_text("Python reference after the excerpt", reference_rest())
    return make_text(SLUGS[choice].name, load_sample(choice))


def as_role(text: Text, role: str) -> Text:
    """``text`` labelled with what it is on the page (``training text: …``, ``held-out: …``)."""
    return replace(text, label=f"{role}: {text.label}")


def training_text(s: Session, trained: Trained) -> Text | None:
    """The exact text ``trained`` was trained on, while it is at hand (a sample, or the session's own
    text if it still has the digest the training had), else None."""
    request = trained.request
    if request.corpus in SLUGS:
        return as_role(sample_text(request.corpus), "training text")
    found = trained.extras.get("compare.training_text")
    if found is None:
        own = s.upload if request.corpus == UPLOAD else None
        if own is not None and own.digest == request.text_digest:
            found = make_text(f"training text: {own.name}", own.text, own.digest)
        elif request.corpus == PASTE and s.pasted_text and text_digest(s.pasted_text) == request.text_digest:
            found = make_text("training text: pasted text", s.pasted_text, request.text_digest)
        if found is not None:
            trained.extras["compare.training_text"] = found  # checked once, not hashed on every rerun
    return found


def heldout(s: Session) -> Text | None:
    """The held-out text ``s.heldout`` names; for pasted or uploaded text, the one given on this page."""
    if s.heldout in (PASTE, UPLOAD):
        own = s.heldout_text
        if own is None:
            return None
        return make_text(f"held-out: {own.name}", own.text, own.digest)
    return as_role(sample_text(s.heldout), "held-out")


def heldout_missing_message(s: Session) -> str:
    what = "pasted" if s.heldout == PASTE else "uploaded"
    return (
        f"The held-out text is {what} text, which never travels in links and is not here yet: "
        f"{'paste it in the box' if s.heldout == PASTE else 'upload the file'} above to measure it. "
        "Nothing else was put in its place."
    )


# -- widgets' callbacks: the text is decoded and hashed here, once ----------------------------------


def store_paste(s: Session) -> None:
    text = s.heldout_box or ""
    s.heldout_text = Upload(PASTED, text, 0, text_digest(text)) if text else None
    if len(text) > BIG_PASTE:
        s.heldout_box = ""
        s.notice("info", f"Held-out text stored ({len(text):,} characters). The box was cleared so the text is "
                 "not re-sent on every click; paste again to replace it.")


def store_upload(s: Session) -> None:
    if s.heldout_file is None:
        return
    try:
        s.heldout_text = decode_upload(s.heldout_file.getvalue(), s.heldout_file.name)
    except CorpusError as error:
        s.heldout_text = None
        s.notice("error", plain(error, limit=500))


def forget_own_text(s: Session) -> None:
    """A new held-out choice: pasted and uploaded text are separate choices, so neither stands in for the other."""
    s.heldout_text = None


def describe(text: Text) -> str:
    """``label (size)``, Markdown-safe."""
    return f"{plain(text.label.split(': ', 1)[-1])} ({human_bytes(text.n_bytes)})"


# -- reference tokenizers -----------------------------------------------------------------------------


def reference_count(name: str, text: Text) -> int:
    """Tokens of ``text`` with a reference tokenizer (callers keep it under the text's digest)."""
    return len(enc.reference_tokenizer(name).encode(text.text))
