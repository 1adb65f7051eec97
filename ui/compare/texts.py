"""The texts Compare measures (the training text, a held-out text) and the reference tokenizers' counts.

Every text carries a digest computed once, where the text enters (a sample: once per process; an
upload or a paste: in its widget's callback), so caches are keyed on that digest and a megabyte is
never hashed again on a rerun.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

from runtime.store import text_digest
from ui import encoding as enc
from ui.corpora import HELDOUT_REST, PASTE, PASTED, SLUGS, UPLOAD, load_sample, reference_rest, sample_name
from ui.i18n import N_, t
from ui.session import Session
from ui.text import human_bytes, plain
from ui.trained import Request, Trained

MEASURE_LIMIT = 2_000_000
"""Texts longer than this (in characters) are measured on their first MEASURE_LIMIT characters."""
REFERENCE_REST = N_("Python reference after the excerpt")

HELDOUT_LABELS = {
    HELDOUT_REST: N_("Python reference after the excerpt (never in the excerpt sample)"),
    **{slug: N_("Sample: {name}") for slug in SLUGS},
    PASTE: N_("Paste text… (never put in links)"),
    UPLOAD: N_("Upload a .txt file… (never put in links)"),
}


def heldout_label(choice: str) -> str:
    """A held-out choice as the selectbox shows it, in the session's language."""
    return t(HELDOUT_LABELS[choice], name=sample_name(choice)) if choice in SLUGS else t(HELDOUT_LABELS[choice])


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


def sample_text(choice: str) -> Text:
    """A built-in held-out choice or sample, labelled by its name in the session's language."""
    name = t(REFERENCE_REST) if choice == HELDOUT_REST else sample_name(choice)
    return replace(_sample_text(choice), label=name)


@cache
def _sample_text(choice: str) -> Text:
    """Read and hashed once per process (and shared by sessions in every language: no label)."""
    return make_text("", reference_rest() if choice == HELDOUT_REST else load_sample(choice))


def as_role(text: Text, role: str) -> Text:
    """``text`` labelled with what it is on the page (``training text: …``, ``held-out: …``); ``role`` is
    translated here."""
    return replace(text, label=f"{t(role)}: {text.label}")


def training_text(s: Session, trained: Trained) -> Text | None:
    """The exact text ``trained`` was trained on, while it is at hand (a sample, or the session's own
    text if it still has the digest the training had), else None."""
    request = trained.request
    if request.corpus in SLUGS:
        return as_role(sample_text(request.corpus), N_("training text"))
    found = trained.extras.get("compare.training_text")
    if found is None:
        text = training_corpus(s, request)
        if text is not None:
            name = s.upload.name if request.corpus == UPLOAD and s.upload is not None else PASTED
            found = make_text(name, text, request.text_digest)
            trained.extras["compare.training_text"] = found  # checked once, not hashed on every rerun
    if found is None:
        return None
    return as_role(replace(found, label=t(found.label)) if found.label == PASTED else found, N_("training text"))


def training_corpus(s: Session, request: Request) -> str | None:
    """The whole text ``request`` was trained on (not cut to :data:`MEASURE_LIMIT`), while it is at hand: a sample,
    or the session's own pasted or uploaded text if it still has the digest the training had."""
    if request.corpus in SLUGS:
        return load_sample(request.corpus)
    own = {UPLOAD: s.upload, PASTE: s.pasted}.get(request.corpus)
    return own.text if own is not None and own.digest == request.text_digest else None


def heldout(s: Session) -> Text | None:
    """The held-out text ``s.heldout`` names; for pasted or uploaded text, the one given on this page."""
    if s.heldout in (PASTE, UPLOAD):
        own = s.heldout_text
        if own is None:
            return None
        name = t(PASTED) if own.name == PASTED else own.name
        return as_role(make_text(name, own.text, own.digest), N_("held-out"))
    return as_role(sample_text(s.heldout), N_("held-out"))


def heldout_missing_message(s: Session) -> str:
    if s.heldout == PASTE:
        return t("The held-out text is pasted text, which never travels in links and is not here yet: paste it in the "
                 "box above to measure it. Nothing else was put in its place.")
    return t("The held-out text is uploaded text, which never travels in links and is not here yet: upload the file "
             "above to measure it. Nothing else was put in its place.")


def name(text: Text) -> str:
    """The text's name, Markdown-safe, without a sample's own note in brackets (``~60 KB`` would
    stand next to the measured size)."""
    return plain(re.sub(r" \([^()]*\)$", "", text.label.split(": ", 1)[-1]))


def describe(text: Text) -> str:
    """``name (size)``, Markdown-safe."""
    return f"{name(text)} ({human_bytes(text.n_bytes)})"


# -- reference tokenizers -----------------------------------------------------------------------------


def reference_count(name: str, text: Text) -> int:
    """Tokens of ``text`` with a reference tokenizer (callers keep it under the text's digest)."""
    return len(enc.reference_tokenizer(name).encode(text.text))
