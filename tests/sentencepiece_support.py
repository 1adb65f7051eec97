"""What the SentencePiece tests share: a protobuf writer for hand-made ``.model`` files (written here from the
wire format, so the tests need no ``protobuf`` package), training through ``sentencepiece`` itself, the model
files ``mistral-common`` ships, and texts that go wrong easily."""

from __future__ import annotations

import importlib.util
import io
import struct
from pathlib import Path

import pytest

from bpe_core.encoding.sentencepiece import PieceType

PARALLEL = Path(__file__).resolve().parents[1] / "bpe_core" / "data" / "parallel"


def varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int32s go out as 64-bit two's complement, as protobuf writes them
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def length_field(number: int, payload: bytes) -> bytes:
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def number_field(number: int, value: int) -> bytes:
    return varint(number << 3) + varint(value)


def piece_message(piece: str, score: float = 0.0, kind: PieceType = PieceType.NORMAL) -> bytes:
    return length_field(1, piece.encode("utf-8")) + b"\x15" + struct.pack("<f", score) + number_field(3, int(kind))


TRAINER_NUMBERS = {"model_type": 3, "byte_fallback": 35, "treat_whitespace_as_suffix": 24}
NORMALIZER_NUMBERS = {"add_dummy_prefix": 3, "remove_extra_whitespaces": 4, "escape_whitespaces": 5}


def model_bytes(
    pieces: list[tuple[str, float, PieceType]],
    trainer: dict[str, int] | None = None,
    normalizer: dict[str, int] | None = None,
    extra: bytes = b"",
) -> bytes:
    """A serialized ModelProto: the pieces, then a trainer spec (BPE unless told) and a normalizer spec."""
    trainer = {"model_type": 2, **(trainer or {})}
    normalizer = {"name": "identity", **(normalizer or {})}
    out = b"".join(length_field(1, piece_message(*entry)) for entry in pieces)
    out += length_field(2, b"".join(number_field(TRAINER_NUMBERS[key], value) for key, value in trainer.items()))
    spec = length_field(1, str(normalizer.pop("name")).encode())
    spec += b"".join(number_field(NORMALIZER_NUMBERS[key], value) for key, value in normalizer.items())
    return out + length_field(3, spec) + extra


def parallel_lines() -> list[str]:
    """The 840 sentences of the built-in parallel sample (21 languages, 12+ scripts)."""
    return [line for path in sorted(PARALLEL.glob("*.txt")) for line in path.read_text("utf-8").splitlines()]


def train(**options: object) -> bytes:
    """A BPE model trained by ``sentencepiece`` on the parallel sample, as the bytes of its ``.model`` file."""
    spm = pytest.importorskip("sentencepiece")
    buffer = io.BytesIO()
    settings = {"model_type": "bpe", "vocab_size": 1600, "character_coverage": 0.98, "minloglevel": 2, **options}
    spm.SentencePieceTrainer.train(sentence_iterator=iter(parallel_lines()), model_writer=buffer, **settings)
    return buffer.getvalue()


def mistral_models() -> list[Path]:
    """Every SentencePiece model file mistral-common ships (v1 to v7); none without mistral-common."""
    spec = importlib.util.find_spec("mistral_common")
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = Path(next(iter(spec.submodule_search_locations)))
    return sorted(path for path in folder.rglob("*.model*") if path.is_file())


TORTURE = [
    "",
    " ",
    "   ",
    "\n",
    "\t",
    " \n \t ",
    "Hello world",
    " Hello world",
    "Hello world ",
    "  Hello   world  ",
    "a\nb\n\nc",
    "tab\tseparated\tvalues",
    "line one\r\nline two",
    "😀 🎉 👍🏽 👨‍👩‍👧 🇫🇷",
    "e\u0301 n\u0303 a\u0308\u0304 \u0915\u094d\u0937",
    "Ωμέγα Привет مرحبا שלום नमस्ते ภาษาไทย 한국어 日本語 中文 ქართული Հայերեն ትግርኛ",
    "def f(x):\n    return x ** 2  # square\n",
    "if (a && b) { return c[0]->d; } // 0xFF",
    "1234567890 3.14159 1,000,000 2026-11-27",
    "x1y22z333",
    "\u2581already\u2581escaped\u2581",
    "\u2581",
    "trailing\u2581",
    "[INST] hello [/INST]",
    "<s>not special</s>",
    "[REFERENCE_DOC_3]text[REFERENCE_DOC_12]",
    "\x00\x01\x7f\u0085",
    "ꙮ𓀀𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \U0010fffd",
    "\u200b\u200d\ufeff\u00ad",
    "ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３ ｶﾀｶﾅ",
    "\u3000ideographic\u3000space",
    "①②③ ⅫⅣ ﬁ ﬀ",
    "\u00a0non-breaking\u00a0space",
    "a" * 300,
    " " * 50 + "x",
    "🙂" * 40,
    "mixed中文English日本語한국어",
    "<unk> <0x41> ▁▁▁",
    "A",
    "\U0001f9d1\u200d\U0001f4bb",
]
