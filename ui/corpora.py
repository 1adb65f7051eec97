"""Built-in corpora (no network) and decoding of uploaded files."""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

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

STDLIB_MODULES = ("textwrap", "heapq", "bisect", "colorsys", "fnmatch", "shlex", "string", "json.decoder")


def _python_reference() -> str:
    """English prose: the Python language reference topics shipped with Python (pydoc_data)."""
    from pydoc_data import topics

    return "\n\n".join(topics.topics[name].strip() for name in sorted(topics.topics)) + "\n"


def _python_reference_excerpt() -> str:
    text = _python_reference()
    cut = text.find("\n\n", 60_000)
    return text[: cut + 1] if cut > 0 else text


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
    name: str
    description: str
    loader: object  # () -> str
    vocab_size: int  # a sensible default for this corpus


SAMPLES: dict[str, Sample] = {
    s.name: s
    for s in (
        Sample(
            "Python reference, excerpt (English prose, ~60 KB)",
            "The start of the Python language reference (pydoc_data.topics, shipped with Python).",
            _python_reference_excerpt,
            600,
        ),
        Sample(
            "Python reference, all (English prose, ~470 KB)",
            "All topics of the Python language reference (pydoc_data.topics).",
            _python_reference,
            2000,
        ),
        Sample(
            "Python standard library code",
            "Source of a few standard-library modules: " + ", ".join(STDLIB_MODULES) + ".",
            _stdlib_code,
            1000,
        ),
        Sample(
            "Mixed English / Chinese",
            "A short bilingual text (Chinese is 3 bytes a character).",
            lambda: MIXED_EN_ZH,
            400,
        ),
        Sample(
            "Toy: low lower newest widest",
            "Sennrich et al. (2016): low×5 lower×2 newest×6 widest×3.",
            lambda: SENNRICH,
            270,
        ),
        Sample("Toy: the cat in the hat", "A tiny repetitive sentence set.", lambda: CAT_IN_THE_HAT, 300),
        Sample("Toy: aaabdaaabac", "The Wikipedia example of byte-pair encoding.", lambda: WIKIPEDIA_AAABDAAABAC, 259),
    )
}
DEFAULT_SAMPLE = next(iter(SAMPLES))


@cache
def load_sample(name: str) -> str:
    return SAMPLES[name].loader()


class CorpusError(ValueError):
    """A corpus that cannot be trained on; the message is shown to the user."""


@dataclass(frozen=True)
class DecodedUpload:
    text: str
    replaced_bytes: int  # bytes that were not valid UTF-8 and became U+FFFD


def decode_upload(data: bytes, name: str = "file") -> DecodedUpload:
    """Decode an uploaded text file.

    Binary files (NUL bytes, or mostly control/invalid bytes) raise CorpusError; invalid UTF-8
    in an otherwise text file is replaced by U+FFFD and counted.
    """
    if not data:
        raise CorpusError(f"{name} is empty: there is nothing to train on.")
    head = data[:65536]
    if b"\x00" in head:
        raise CorpusError(
            f"{name} looks like a binary file (it contains NUL bytes), not text. Upload a .txt file."
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    replaced = _count_invalid_utf8(data)
    text = data.decode("utf-8", errors="replace")
    sample = text[:65536]
    controls = sum(1 for ch in sample if (ord(ch) < 32 and ch not in "\n\r\t\f\v") or ch == "\ufffd")
    if sample and controls / len(sample) > 0.3:
        raise CorpusError(
            f"{name} looks like a binary file ({controls / len(sample):.0%} of its start is control "
            "characters or invalid UTF-8), not text. Upload a .txt file."
        )
    return DecodedUpload(text, replaced)


_ESCAPED = re.compile("[\udc80-\udcff]")


def _count_invalid_utf8(data: bytes) -> int:
    """How many bytes are not part of a valid UTF-8 character (each becomes one escape)."""
    return len(_ESCAPED.findall(data.decode("utf-8", errors="surrogateescape")))
