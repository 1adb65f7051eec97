"""Built-in corpora (no network): the samples a person picks, their names and slugs, and their held-out rests.
A person's own text (pasted or uploaded) is decoded in :mod:`playground.text_files`."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bpe_core.analysis.heldout import hold_out
from bpe_core.analysis.parallel import LANGUAGES, parallel_sample
from playground.i18n import N_, t

SENNRICH = " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3)

CAT_IN_THE_HAT = (
    "the cat in the hat sat on the mat. the cat sat. the hat sat on the cat. "
    "that cat! that hat! the cat in the hat came back, and the cat had a hat that sat on that mat. "
    "then the cat and the hat and the mat sat and sat and sat."
)

WIKIPEDIA_AAABDAAABAC = "aaabdaaabac"

MIXED_EN_ZH = """\
Byte-pair encoding (BPE) starts from bytes and repeatedly merges the most frequent adjacent pair.
字节对编码从字节开始，反复合并出现次数最多的相邻字节对。
A Chinese character takes three bytes in UTF-8, so the first merges often join bytes into whole characters.
一个汉字在 UTF-8 中占三个字节，所以最早的合并常常把字节拼成完整的汉字。
Then common words become single tokens: 语言模型 (language model), 分词器 (tokenizer), 中文 (Chinese).
然后常见的词变成单个词元：语言模型、分词器、中文、英文、训练、数据。
The tokenizer reads the text, the tokenizer counts the pairs, the tokenizer merges the pairs.
分词器读取文本，分词器统计字节对，分词器合并字节对，然后再统计，再合并。
Language models read tokens, not characters; 语言模型读取的是词元，而不是字符。
"""

ENCODE_SAMPLE = (
    "Tokenizers split text into tokens. Hello, world! 你好，世界。\n"
    "\tdef square(x): return x ** 2  # code, too\n"
    "Emoji: 🙂🚀 and accents: café, naïve."
)
"""The Encode page's text until the user types their own."""
ENCODE_SAMPLES = {
    "zh": (
        "分词器把文本切成词元。学而时习之，不亦说乎？Tokenizers split text into tokens.\n"
        "\tdef square(x): return x ** 2  # 代码也一样\n"
        "表情：🙂🚀，全角标点：（你好），数字 2026 年。"
    )
}
"""The Encode page's text on a first visit in an interface language (others: ENCODE_SAMPLE): a Chinese learner
first asks how Chinese is split."""

SAMPLES_DIR = Path(__file__).parent / "samples"
PARALLEL_LANGUAGES = tuple(language.code for language in LANGUAGES)
"""The built-in parallel sample's languages, in its order."""
STDLIB_MODULES = ("textwrap", "heapq", "bisect", "colorsys", "fnmatch", "shlex", "string", "json.decoder")


def _python_reference() -> str:
    """English prose: the Python language reference topics shipped with Python (pydoc_data)."""
    from pydoc_data import topics

    return "\n\n".join(topics.topics[name].strip() for name in sorted(topics.topics)) + "\n"


def _python_reference_excerpt() -> str:
    text = _python_reference()
    cut = text.find("\n\n", 60_000)
    return text[: cut + 1] if cut > 0 else text


def _chinese_classics() -> str:
    """论语, 孟子, 大学, 中庸 (public domain; from the chinese-poetry collection): Classical Chinese prose."""
    return (SAMPLES_DIR / "chinese_classics.txt").read_text(encoding="utf-8")


PARALLEL_HELD_OUT = 0.25
"""The share of each language's sentences the parallel sample corpus holds out (its last 10 of 40)."""


def parallel_parts(
    texts: dict[str, list[str]], share: float = PARALLEL_HELD_OUT
) -> tuple[dict[str, str], dict[str, str]]:
    """Each language's sentences cut into the part to train on and the part held out (the last ``share``
    of its lines, as ``bpe_core.hold_out`` cuts), one line a sentence."""
    parts = {code: hold_out("\n".join(lines) + "\n", share) for code, lines in texts.items()}
    return {code: train for code, (train, _) in parts.items()}, {code: held for code, (_, held) in parts.items()}


def _parallel_corpus() -> str:
    """The parallel sample's training part: each language's first 30 sentences, one language after the other."""
    return "".join(parallel_parts(parallel_sample())[0].values())


def _stdlib_code() -> str:
    parts = []
    for module in STDLIB_MODULES:
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        parts.append(f"# ---- {module} ----\n" + Path(spec.origin).read_text(encoding="utf-8"))
    return "\n".join(parts)


@dataclass(frozen=True)
class Sample:
    name: str  # English, marked for the catalog: show it with playground.i18n.t (or sample_name)
    description: str
    loader: Callable[[], str]
    vocab_size: int  # a sensible default for this corpus
    languages: tuple[str, ...] = ()  # a parallel text: its languages, in order, each the same number of lines

    @property
    def slug(self) -> str:
        """The sample's name in links and in the session (``corpus=python-reference-excerpt``)."""
        return sample_slug(self.name)


def sample_slug(name: str) -> str:
    """A short, URL-safe name for a built-in sample.

    >>> sample_slug("Python reference, excerpt (English prose, ~60 KB)")
    'python-reference-excerpt'
    >>> sample_slug("Toy: aaabdaaabac")
    'toy-aaabdaaabac'
    """
    return re.sub(r"[^a-z0-9]+", "-", name.split("(")[0].lower()).strip("-")


SAMPLES: dict[str, Sample] = {
    s.name: s
    for s in (
        Sample(
            N_("Python reference, excerpt (English prose, ~60 KB)"),
            N_("The start of the Python language reference (pydoc_data.topics, shipped with Python)."),
            _python_reference_excerpt,
            600,
        ),
        Sample(
            N_("Python reference, all (English prose, ~470 KB)"),
            N_("All topics of the Python language reference (pydoc_data.topics)."),
            _python_reference,
            2000,
        ),
        Sample(
            N_("Python standard library code"),
            N_(
                "Source of a few standard-library modules: textwrap, heapq, bisect, colorsys, fnmatch, shlex, string, "
                "json.decoder."
            ),
            _stdlib_code,
            1000,
        ),
        Sample(
            N_("Mixed English / Chinese"),
            N_("A short bilingual text (Chinese is 3 bytes a character)."),
            lambda: MIXED_EN_ZH,
            400,
        ),
        Sample(
            # Trains in about a second: 2,000 makes whole characters and common words (君子, 不亦).
            N_("Chinese classics (the Four Books, ~220 KB)"),
            N_(
                "Classical Chinese prose, public domain: 论语, 孟子, 大学, 中庸 (from the chinese-poetry collection). "
                "A character is 3 bytes in UTF-8, so the first merges build characters."
            ),
            _chinese_classics,
            2000,
        ),
        Sample(
            N_("Parallel sample (21 languages × 40 sentences)"),
            N_(
                "The same everyday sentences in 21 languages, written for this project: the first 30 of each language "
                "(the other 10 are held out). Train it parity-aware to give every language a fair share of the "
                "merges."
            ),
            _parallel_corpus,
            1000,
            PARALLEL_LANGUAGES,
        ),
        Sample(
            N_("Toy: low lower newest widest"),
            N_("Sennrich et al. (2016): low×5 lower×2 newest×6 widest×3."),
            lambda: SENNRICH,
            270,
        ),
        Sample(N_("Toy: the cat in the hat"), N_("A tiny repetitive sentence set."), lambda: CAT_IN_THE_HAT, 300),
        Sample(
            N_("Toy: aaabdaaabac"),
            N_("The Wikipedia example of byte-pair encoding."),
            lambda: WIKIPEDIA_AAABDAAABAC,
            259,
        ),
    )
}
DEFAULT_SAMPLE = next(iter(SAMPLES))
SLUGS: dict[str, Sample] = {sample.slug: sample for sample in SAMPLES.values()}
assert len(SLUGS) == len(SAMPLES), "sample slugs must be unique"
DEFAULT_SLUG = SAMPLES[DEFAULT_SAMPLE].slug
LANGUAGE_SLUGS = {"zh": "chinese-classics"}
"""The sample a first visit starts on in an interface language (others start on ``DEFAULT_SLUG``): a Chinese learner
on Chinese text. A link always carries its corpus, so this changes no link's meaning."""
assert set(LANGUAGE_SLUGS.values()) <= set(SLUGS)
PASTE = "paste"
UPLOAD = "upload"
PASTED = N_("pasted text")
"""What a pasted text is called (its ``Upload.name``; shown with playground.i18n.t)."""
CORPUS_CHOICES = (*SLUGS, PASTE, UPLOAD)
"""What the session's ``corpus`` holds: a sample's slug, or the user's own pasted or uploaded text."""
HELDOUT_REST = "reference-rest"
"""Held-out choice: the Python reference after its excerpt (text the excerpt sample never saw)."""


def sample_name(slug: str, lang: str | None = None) -> str:
    """The display name of a corpus choice, in the session's language (or ``lang``).

    >>> sample_name("toy-aaabdaaabac"), sample_name(PASTE)
    ('Toy: aaabdaaabac', 'pasted text')
    """
    if slug in SLUGS:
        return t(SLUGS[slug].name, lang=lang)
    own = {PASTE: PASTED, UPLOAD: N_("uploaded file")}
    return t(own[slug], lang=lang) if slug in own else slug


def load_sample(name: str) -> str:
    """The text of a built-in sample, by slug or by name."""
    return _load((SLUGS.get(name) or SAMPLES[name]).name)


@cache
def _load(name: str) -> str:
    # Loaded once per process and shared read-only by every session.
    return SAMPLES[name].loader()


def reference_rest() -> str:
    """The Python reference after its excerpt: held-out text for a tokenizer trained on the excerpt."""
    names = list(SAMPLES)
    excerpt, full = load_sample(names[0]), load_sample(names[1])
    return full.removeprefix(excerpt)
