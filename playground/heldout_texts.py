"""Held-out texts a tokenizer is measured on, never part of what it was trained on.

- Every built-in corpus has a designated held-out text (:data:`DESIGNATED`), disjoint from it by
  construction: the candidate text without the lines it shares with each corpus it is designated for
  (``bpe_core.analysis.heldout.without_lines_of``), so their overlap measures 0 (tests check all).
- A corpus can hold out the last part of its lines (the Train page's ``holdout``, percent):
  :func:`split_corpus` is the one cut, used by training (``playground.trained.train_job``) and by Compare.
- The choice :data:`DEFAULT` means "the held-out text of this tokenizer's corpus" (:func:`resolve`).

No Streamlit here: the training job imports this module.

>>> train, held = split_corpus("a\\nb\\nc\\nd\\n", 25, ("x", "y"))
>>> train, held
('a\\nc\\n', 'b\\nd\\n')
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bpe_core.analysis.heldout import SECTION_HEADING, hold_out, without_lines_of
from bpe_core.analysis.parallel import parallel_sample
from playground import caches
from playground.corpora import (
    HELDOUT_REST,
    PASTE,
    SLUGS,
    STDLIB_MODULES,
    UPLOAD,
    load_sample,
    parallel_parts,
    reference_rest,
)
from playground.i18n import N_

DEFAULT = "default"
"""The held-out choice that follows the tokenizer: its corpus's held-out part, or its designated text."""
SPLIT = "split"
"""The part of the corpus the Train page held out from training."""
DOCSTRINGS = "stdlib-docstrings"
OTHER_CODE = "stdlib-code-other"
PARALLEL_REST = "parallel-rest"
PARALLEL_ZH = "parallel-zh"
PARALLEL_EN_ZH = "parallel-en-zh"
CODE_PROSE_CHINESE = "code-prose-chinese"
"""Three parts, each opened by a ``### name`` line (``bpe_core.analysis.heldout.split_sections``): code, English
prose, Chinese, the Chinese last (a cut at the start of a long text would lose it)."""

DOCSTRING_MODULES = (
    "argparse",
    "calendar",
    "collections",
    "dataclasses",
    "difflib",
    "enum",
    "fractions",
    "functools",
    "inspect",
    "logging",
    "pathlib",
    "pprint",
    "shutil",
    "statistics",
    "tempfile",
    "threading",
    "typing",
    "zipfile",
)
"""English prose that is not in the Python reference: what these modules' docstrings say."""
OTHER_CODE_MODULES = ("calendar", "csv", "difflib", "fractions", "glob", "pprint")
"""Code that is not in the code sample (``playground.corpora.STDLIB_MODULES``)."""
assert not set(OTHER_CODE_MODULES) & set(STDLIB_MODULES)


def _module_source(name: str) -> str | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin).read_text(encoding="utf-8")


def _docstrings() -> str:
    parts = []
    for name in DOCSTRING_MODULES:
        source = _module_source(name)
        for node in ast.walk(ast.parse(source or "")):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                docstring = ast.get_docstring(node)
                if docstring:
                    parts.append(docstring)
    return "\n\n".join(parts) + "\n"


def _other_code() -> str:
    found = ((name, _module_source(name)) for name in OTHER_CODE_MODULES)
    return "\n".join(f"# ---- {name} ----\n{source}" for name, source in found if source)


def _code_prose_chinese() -> str:
    parts = {"code": _other_code(), "English prose": _docstrings(), "中文": _parallel(("zh",))()}
    # A line of a part's own that looks like a heading (difflib's docstrings have "### Unified Diff") gets one more #.
    unheaded = {name: SECTION_HEADING.sub(lambda m: "#" + m.group(0), text) for name, text in parts.items()}
    return "".join(f"### {name}\n{text.rstrip()}\n" for name, text in unheaded.items())


def _parallel(codes: tuple[str, ...]) -> Callable[[], str]:
    return lambda: "".join("\n".join(parallel_sample()[code]) + "\n" for code in codes)


@dataclass(frozen=True)
class HeldOut:
    name: str  # English, marked for the catalog: says what the text is and why it is held out
    candidate: Callable[[], str]  # the text before the lines of its corpora are taken out


BUILT_IN: dict[str, HeldOut] = {
    HELDOUT_REST: HeldOut(
        N_("Python reference after the excerpt, without the excerpt's lines (English prose)"), reference_rest
    ),
    DOCSTRINGS: HeldOut(
        N_("Docstrings of standard-library modules (English prose that is not in the Python reference)"), _docstrings
    ),
    OTHER_CODE: HeldOut(
        N_("Source of other standard-library modules (code that is not in the code sample)"), _other_code
    ),
    PARALLEL_REST: HeldOut(
        N_("Parallel sample, sentences 31–40 of each language (held out from its training part)"),
        lambda: "".join(parallel_parts(parallel_sample())[1].values()),
    ),
    PARALLEL_ZH: HeldOut(
        N_("Modern Chinese: the 40 Chinese sentences of the parallel sample (not in the classics)"), _parallel(("zh",))
    ),
    PARALLEL_EN_ZH: HeldOut(
        N_("The English and Chinese sentences of the parallel sample (not in the bilingual sample)"),
        _parallel(("en", "zh")),
    ),
    CODE_PROSE_CHINESE: HeldOut(
        N_("Code, English prose and Chinese, three parts (### lines): other modules, docstrings, modern Chinese"),
        _code_prose_chinese,
    ),
}
DESIGNATED: dict[str, str] = {
    "python-reference-excerpt": HELDOUT_REST,
    "python-reference-all": DOCSTRINGS,
    "python-standard-library-code": OTHER_CODE,
    "mixed-english-chinese": PARALLEL_EN_ZH,
    "chinese-classics": PARALLEL_ZH,
    "parallel-sample": PARALLEL_REST,
}
"""The held-out text of each built-in corpus; the toy corpora are measured on English prose."""
for _slug in SLUGS:
    DESIGNATED.setdefault(_slug, HELDOUT_REST)
OWN_TEXT_DEFAULT = HELDOUT_REST
"""Pasted or uploaded text with nothing held out is measured on English prose (checked for overlap)."""
CHOICES = (DEFAULT, *BUILT_IN, SPLIT, *SLUGS, PASTE, UPLOAD)
"""What the session's ``heldout`` holds."""


@cache
def built_in_text(choice: str) -> str:
    """A built-in held-out text (read once per process): its candidate without the lines it shares with the
    corpora it is designated for."""
    text = BUILT_IN[choice].candidate()
    for slug, designated in DESIGNATED.items():
        if designated == choice:
            text = without_lines_of(text, load_sample(slug))
    return text


def resolve(choice: str, corpus: str | None, holdout: int) -> str:
    """The held-out choice :data:`DEFAULT` stands for, for a tokenizer trained on ``corpus`` (None: not
    trained here) holding out ``holdout`` percent; other choices stand for themselves.

    >>> resolve(DEFAULT, "python-reference-all", 0), resolve(DEFAULT, "paste", 10), resolve(DEFAULT, None, 0)
    ('stdlib-docstrings', 'split', 'reference-rest')
    """
    if choice != DEFAULT:
        return choice
    if holdout:
        return SPLIT
    return DESIGNATED.get(corpus or "", OWN_TEXT_DEFAULT)


def parallel_texts(text: str, languages: tuple[str, ...]) -> dict[str, str]:
    """A parallel corpus's text cut back into its languages: one after the other, each the same number of
    lines (ValueError when the lines do not divide evenly)."""
    lines = text.splitlines(keepends=True)
    per, rest = divmod(len(lines), len(languages) or 1)
    if rest or not per:
        raise ValueError(f"{len(lines):,} lines cannot be {len(languages)} languages of equal length")
    return {code: "".join(lines[i * per : (i + 1) * per]) for i, code in enumerate(languages)}


def split_corpus(text: str, holdout: int, languages: tuple[str, ...] = ()) -> tuple[str, str]:
    """``(train, heldout)``: the corpus without the last ``holdout`` percent of its lines, and those lines;
    a parallel corpus (``languages``) holds out the last lines of each language, so every language is both
    trained on and measured. ``holdout=0`` holds out nothing."""
    if not holdout:
        return text, ""
    if not languages:
        return hold_out(text, holdout / 100)
    parts = [hold_out(part, holdout / 100) for part in parallel_texts(text, languages).values()]
    return "".join(train for train, _ in parts), "".join(held for _, held in parts)


def split_once(text: str, digest: str, holdout: int, languages: tuple[str, ...] = ()) -> tuple[str, str]:
    """:func:`split_corpus` of ``text`` (whose digest is ``digest``), cut once and read from
    ``playground.caches.SPLITS`` by the Train page's limits, the training job and Compare's texts.

    >>> split_once("a\\nb\\nc\\nd\\n", "doc-abcd", 25) is split_once("a\\nb\\nc\\nd\\n", "doc-abcd", 25)
    True
    """
    if not holdout:
        return text, ""
    return caches.SPLITS.get_or_compute((digest, holdout, languages), lambda: split_corpus(text, holdout, languages))
