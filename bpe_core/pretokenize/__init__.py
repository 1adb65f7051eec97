"""Pre-tokenization: splitting text before BPE, for training and for encoding alike.

Text is split on special tokens, then into pre-tokens with a regex; BPE never merges across a
pre-token boundary, so the pattern decides which merges are possible at all.

- :mod:`.named`: the named patterns (tiktoken's, the open models', DeepSeek's three splits as one regex);
- :mod:`.patterns`: names and custom regexes, their time budget, splitting;
- :mod:`.ascii_split`: the named patterns' exact twins for the standard library's ``re`` on ASCII text;
- :mod:`.bmp_twin`: their twins for ``re`` on the non-ASCII stretches of the Basic Multilingual Plane;
- :mod:`.cuts`: where a text may be cut without changing its pre-tokens;
- :mod:`.counts`: a text's pre-token counts, the input to training;
- :mod:`.normalization`: Unicode normalization before everything else (NFC for Qwen), on a stream too;
- :mod:`.streaming`: pre-tokens of a stream of text, in bounded memory.

>>> from bpe_core.pretokenize import pretokenize, split_on_special
>>> pretokenize("Hello world's end!")
['Hello', ' world', "'s", ' end', '!']
>>> list(split_on_special("a<|x|>b", ["<|x|>"]))
[('a', False), ('<|x|>', True), ('b', False)]

``REGEX_TIMEOUT_SECONDS`` is re-exported to be read; to set a custom pattern's budget in code, set
``bpe_core.pretokenize.patterns.REGEX_TIMEOUT_SECONDS`` (or the environment variable ``BPE_REGEX_TIMEOUT``).
"""

from .counts import count_pretokens
from .cuts import last_safe_cut, safe_chunks
from .named import (
    CL100K_PATTERN,
    DEEPSEEK_PATTERN,
    GPT2_PATTERN,
    LLAMA3_PATTERN,
    O200K_PATTERN,
    PATTERNS,
    QWEN2_PATTERN,
    QWEN35_PATTERN,
    TEKKEN_PATTERN,
    WHITESPACE_PATTERN,
)
from .normalization import NORMALIZATIONS, Normalization, check_normalization, normalize, normalize_stream
from .patterns import (
    CHUNK_CHARS,
    REGEX_TIMEOUT_SECONDS,
    PatternTimeout,
    compile_pattern,
    compile_regex,
    is_named_pattern,
    pattern_regex,
    pretokenize,
    regex_timeout_seconds,
    shown_pattern,
    split_on_special,
)
from .streaming import STREAM_CHUNK_CHARS, replace_surrogates, stream_pretokens

__all__ = [
    "CHUNK_CHARS",
    "NORMALIZATIONS",
    "Normalization",
    "CL100K_PATTERN",
    "DEEPSEEK_PATTERN",
    "GPT2_PATTERN",
    "LLAMA3_PATTERN",
    "O200K_PATTERN",
    "QWEN2_PATTERN",
    "QWEN35_PATTERN",
    "TEKKEN_PATTERN",
    "PATTERNS",
    "REGEX_TIMEOUT_SECONDS",
    "STREAM_CHUNK_CHARS",
    "WHITESPACE_PATTERN",
    "PatternTimeout",
    "check_normalization",
    "compile_pattern",
    "compile_regex",
    "count_pretokens",
    "is_named_pattern",
    "last_safe_cut",
    "normalize",
    "normalize_stream",
    "pattern_regex",
    "pretokenize",
    "regex_timeout_seconds",
    "replace_surrogates",
    "safe_chunks",
    "shown_pattern",
    "split_on_special",
    "stream_pretokens",
]
