"""The texts Compare measures (the training text, a held-out text) and the reference tokenizers' counts.

Every text carries a digest computed once, where the text enters (a sample: once per process; an
upload or a paste: in its widget's callback), so caches are keyed on that digest and a megabyte is
never hashed again on a rerun.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import streamlit as st

from bpe_core.analysis.heldout import LineOverlap, line_overlap, sample_parts, split_sections
from playground import heldout_texts as held_out
from playground.corpora import PASTE, PASTED, SLUGS, UPLOAD, load_sample, sample_name
from playground.i18n import N_, language, t
from playground.session import Session
from playground.text import human_bytes, plain
from playground.trained import Request, Trained
from runtime.store import text_digest
from ui import tokenizer_output
from ui.compare.common import remembered

MEASURE_LIMIT = 2_000_000
"""The curve and the views measure a longer text (in characters) on a sample of about this size that keeps the start
of every part (``bpe_core.analysis.heldout.sample_parts``); the table by part counts the whole text."""

HELDOUT_LABELS = {
    held_out.DEFAULT: N_("For this tokenizer: {name}"),
    **{choice: text.name for choice, text in held_out.BUILT_IN.items()},
    held_out.SPLIT: N_("Its corpus's held-out part (Train page)"),  # short: the box cut the longer name
    **{slug: N_("Sample: {name}") for slug in SLUGS},
    PASTE: N_("Paste text… (never put in links)"),
    UPLOAD: N_("Upload a .txt file… (never put in links)"),
}


def heldout_label(choice: str, default: str | None = None) -> str:
    """A held-out choice as the selectbox shows it, in the session's language; ``default`` is the choice that
    :data:`playground.heldout_texts.DEFAULT` stands for."""
    if choice == held_out.DEFAULT:
        return t(HELDOUT_LABELS[choice], name=heldout_label(default or held_out.OWN_TEXT_DEFAULT))
    return t(HELDOUT_LABELS[choice], name=sample_name(choice)) if choice in SLUGS else t(HELDOUT_LABELS[choice])


@dataclass(frozen=True)
class Text:
    """A text as measured: when it is longer than MEASURE_LIMIT, a sample keeping the start of every part, with the
    whole text kept beside it (``whole``) for what counts it all."""

    label: str  # its role and name, for captions and legends (plain text: escape before Markdown)
    text: str
    digest: str
    truncated: bool = False
    n_bytes: int = -1  # counted when not given (``dataclasses.replace`` passes it on)
    whole: str | None = None  # the whole text when ``text`` is a sample of it
    whole_digest_: str = ""

    def __post_init__(self) -> None:
        if self.n_bytes < 0:
            object.__setattr__(self, "n_bytes", len(self.text.encode("utf-8", errors="surrogatepass")))

    @property
    def whole_text(self) -> str:
        return self.text if self.whole is None else self.whole

    @property
    def whole_digest(self) -> str:
        return self.whole_digest_ or self.digest


def make_text(label: str, text: str, digest: str = "") -> Text:
    """A Text; ``digest`` (of the whole text) is reused unless the text has to be sampled."""
    digest = digest or text_digest(text)
    if len(text) > MEASURE_LIMIT:
        sample = "".join(part.text for part in sample_parts(split_sections(text), MEASURE_LIMIT))
        return Text(label, sample, text_digest(sample), truncated=True, whole=text, whole_digest_=digest)
    return Text(label, text, digest)


def sample_text(choice: str) -> Text:
    """A built-in held-out choice or sample, labelled by its name in the session's language."""
    return replace(
        _sample_text(choice), label=heldout_label(choice) if choice in held_out.BUILT_IN else sample_name(choice)
    )


@cache
def _sample_text(choice: str) -> Text:
    """Read and hashed once per process (and shared by sessions in every language: no label)."""
    return make_text("", held_out.built_in_text(choice) if choice in held_out.BUILT_IN else load_sample(choice))


_ROLE = re.compile(r": |：")
"""Between a text's role and its name (:func:`as_role`): Chinese writes a full-width colon."""


def as_role(text: Text, role: str) -> Text:
    """``text`` labelled with what it is on the page (``training text: …``, ``held-out: …``); ``role`` is
    translated here."""
    return replace(text, label=t("{role}: {label}", role=t(role), label=text.label))


def training_text(s: Session, trained: Trained) -> Text | None:
    """The exact text ``trained`` was trained on, while it is at hand (a sample, or the session's own
    text if it still has the digest the training had; without the part it held out), else None."""
    parts = _parts(s, trained)
    return None if parts is None else as_role(parts[0], N_("training text"))


def heldout_part(s: Session, trained: Trained) -> Text | None:
    """The part of ``trained``'s corpus it held out from training (None when it held out nothing, or its
    corpus is not at hand)."""
    parts = _parts(s, trained)
    return None if parts is None or parts[1] is None else as_role(parts[1], N_("held-out part"))


def _parts(s: Session, trained: Trained) -> tuple[Text, Text | None] | None:
    """The trained and the held-out part of ``trained``'s corpus, labelled by the corpus's name (in this
    session's language); cut once per tokenizer (kept unlabelled in its extras: they may be shared)."""
    request = trained.request
    found = trained.extras.get("compare.parts")
    if found is None:
        corpus = _corpus(s, trained)
        if corpus is None:
            return None
        if request.holdout:
            train, held = held_out.split_once(corpus.text, request.text_digest, request.holdout, request.languages)
            found = (make_text("", train), make_text("", held))
        else:
            found = (corpus, None)
        trained.extras["compare.parts"] = found  # checked and cut once, not hashed on every rerun
    label = (
        sample_name(request.corpus)
        if request.corpus in SLUGS
        else (t(PASTED) if request.corpus == PASTE else request.corpus_label)
    )
    return replace(found[0], label=label), None if found[1] is None else replace(found[1], label=label)


def _corpus(s: Session, trained: Trained) -> Text | None:
    """The whole corpus ``trained`` came from, if this session still has it (unlabelled)."""
    request = trained.request
    if request.corpus in SLUGS:
        return _sample_text(request.corpus)
    text = _whole_corpus(s, request)
    return None if text is None else make_text("", text, request.text_digest)


def _whole_corpus(s: Session, request: Request) -> str | None:
    """The whole text of ``request``'s corpus while it is at hand: a sample, or the session's own pasted or
    uploaded text if it still has the digest the training had."""
    if request.corpus in SLUGS:
        return load_sample(request.corpus)
    own = {UPLOAD: s.upload, PASTE: s.pasted}.get(request.corpus)
    return own.text if own is not None and own.digest == request.text_digest else None


def training_corpus(s: Session, trained: Trained) -> str | None:
    """The whole text ``trained`` was trained on (its corpus less the part held out; not cut to
    :data:`MEASURE_LIMIT`, as a measured Text is), while it is at hand."""
    request = trained.request
    text = _whole_corpus(s, request)
    if text is None or not request.holdout:
        return text
    return held_out.split_once(text, request.text_digest, request.holdout, request.languages)[0]


def default_choice(s: Session, trained: Trained | None) -> str:
    """What the held-out choice :data:`playground.heldout_texts.DEFAULT` stands for with this tokenizer. A built-in
    model or a loaded file (``trained`` None), trained on none of the built-in texts, is measured on text in the
    page's language: in Chinese, modern Chinese (a Chinese learner's Qwen and DeepSeek were measured on English prose,
    beside a curve measured on modern Chinese)."""
    if trained is None:
        return held_out.PARALLEL_ZH if language() == "zh" else held_out.resolve(held_out.DEFAULT, None, 0)
    return held_out.resolve(held_out.DEFAULT, trained.request.corpus, trained.request.holdout)


def heldout(s: Session, trained: Trained | None = None) -> Text | None:
    """The held-out text ``s.heldout`` names (for ``trained``'s corpus when it is the default); for pasted or
    uploaded text, the one given on this page; None when that text is not here."""
    choice = s.heldout if s.heldout != held_out.DEFAULT else default_choice(s, trained)
    if choice == held_out.SPLIT:
        return None if trained is None else heldout_part(s, trained)
    if choice in (PASTE, UPLOAD):
        own = s.heldout_text
        if own is None:
            return None
        name = t(PASTED) if own.name == PASTED else own.name
        return as_role(make_text(name, own.text, own.digest), N_("held-out"))
    return as_role(sample_text(choice), N_("held-out"))


def heldout_missing_message(s: Session) -> str:
    if s.heldout == PASTE:
        return t(
            "The held-out text is pasted text, which never travels in links and is not here yet: paste it in the "
            "box above to measure it. Nothing else was put in its place."
        )
    if s.heldout == UPLOAD:
        return t(
            "The held-out text is uploaded text, which never travels in links and is not here yet: upload the "
            "file above to measure it. Nothing else was put in its place."
        )
    return t(
        "This tokenizer's corpus has no held-out part here (it held nothing out, or its text is not at hand): "
        "hold out part of the corpus on the Train page, or choose another held-out text."
    )


def check_overlap(s: Session, trained: Trained | None, measured: Text) -> LineOverlap | None:
    """Say so, in a plain warning, when ``measured`` shares lines with ``trained``'s training text (a share of its
    lines found there: ``bpe_core.analysis.heldout.line_overlap``); computed once per pair of texts."""
    training = training_text(s, trained) if trained is not None else None
    if training is None:
        return None
    key = ("overlap", training.digest, measured.digest)
    found = remembered(key, lambda: line_overlap(measured.text, training.text))
    if not found.shared:
        return found
    own = trained is not None and (held := heldout_part(s, trained)) is not None and held.digest == measured.digest
    numbers: dict[str, Any] = dict(
        name=describe(measured), shared=found.shared, lines=found.lines, share=found.share, n=found.min_bytes
    )
    if own:  # the corpus's own held-out lines: advising "its held-out text" would send the reader in a circle
        message = t(
            "{name}: {shared:,} of its {lines:,} lines ({share:.1%}; lines of {n} bytes or more) also occur in the "
            "part trained on — the corpus repeats them —, so what is measured on them flatters the tokenizer a "
            "little. A text from elsewhere (“Held-out text” above) is free of them.",
            **numbers,
        )
    else:
        message = t(
            "{name} is not held out: {shared:,} of its {lines:,} lines ({share:.1%}; lines of {n} bytes or "
            "more) are also in this tokenizer's training text, so what is measured on it flatters the "
            "tokenizer. Choose a text it was not trained on: the default held-out text of its corpus is one.",
            **numbers,
        )
    st.warning(message, icon=":material/warning:")
    return found


def name(text: Text) -> str:
    """The text's name, Markdown-safe, without a sample's own note in brackets (``~60 KB`` would
    stand next to the measured size)."""
    return plain(re.sub(r" \([^()]*\)$", "", _ROLE.split(text.label, 1)[-1]))


def describe(text: Text) -> str:
    """``name (size)``, Markdown-safe."""
    return t("{name} ({size})", name=name(text), size=human_bytes(text.n_bytes))


# -- reference tokenizers -----------------------------------------------------------------------------


def reference_count(name: str, text: Text) -> int:
    """Tokens of ``text`` with a reference tokenizer (callers keep it under the text's digest)."""
    return len(tokenizer_output.reference_tokenizer(name).encode(text.text))
