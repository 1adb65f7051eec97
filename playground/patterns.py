"""The pre-tokenization patterns a person picks, and what the pages call them: every named pattern of
``bpe_core.pretokenize`` (OpenAI's, the open models', whitespace), none, or a custom regex (the Train page only).

>>> PATTERN_CHOICES[:3], PATTERN_CHOICES[-2:]
(('gpt2', 'cl100k', 'o200k'), ('none', 'custom'))
"""

from __future__ import annotations

from bpe_core.pretokenize import PATTERNS
from playground.i18n import N_

PATTERN_LABELS: dict[str, str] = {
    "gpt2": N_("gpt2 (GPT-2 regex)"),
    "cl100k": N_("cl100k (GPT-4 regex)"),
    "o200k": N_("o200k (GPT-4o and Llama 4 regex)"),
    "llama3": N_("llama3 (Llama 3 regex)"),
    "qwen2": N_("qwen2 (Qwen 2 and 2.5 regex)"),
    "qwen3.5": N_("qwen3.5 (Qwen 3.5 and 3.6 regex)"),
    "tekken": N_("tekken (Mistral Tekken regex)"),
    "deepseek": N_("deepseek (DeepSeek V4's three splits)"),
    "whitespace": N_("whitespace (runs of non-space / space)"),
    "none": N_("none (merges may cross words)"),
    "custom": N_("custom regex…"),
}
"""Catalog keys: show one with ``t``. A test holds the named ones to ``bpe_core.pretokenize.PATTERNS``."""

PATTERN_CHOICES: tuple[str, ...] = (*PATTERNS, "none", "custom")
"""The Train page's choices (and a link's ``pattern``): every named pattern, none, or the custom regex."""
NAMED_OR_NONE: tuple[str, ...] = (*PATTERNS, "none")
"""Where a custom regex cannot be given (the Check page)."""
