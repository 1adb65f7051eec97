"""What the Compare views show, computed from a tokenizer and a text (no Streamlit here).

- :mod:`.sizes`: what a vocab size is, and the merges it means;
- :mod:`.curves`: a text at every vocab size in one pass (token counts, bytes per token);
- :mod:`.side_by_side`: one text at chosen sizes, and the tokens that differ between two views;
- :mod:`.vocabulary`: the vocabulary explorer's table, usage and length histogram;
- :mod:`.merge_tree`: a token's merge tree (``from bpe_core.analysis import merge_tree``);
- :mod:`.overlap`: two vocabularies compared by bytes, by script and length (``bpe_core.vocabulary_overlap``);
- :mod:`.check`: a learner's own merges against bpe_core's training, and why they differ (``bpe_core.check_merges``).

>>> import bpe_core
>>> from bpe_core import analysis
>>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
>>> analysis.token_counts_by_size(tokenizer, "aaabdaaabac"), analysis.vocab_size_of(tokenizer)
([11, 9, 7, 5], 259)
"""

from .curves import bytes_per_token, bytes_per_token_curve, pretoken_counts, sample_curve, token_counts_by_size
from .side_by_side import boundary_offsets, changed_tokens, tokens_at_size
from .sizes import BASE_VOCAB, merges_for_vocab_size, vocab_size_of
from .vocabulary import TokenInfo, length_histogram, never_emitted, token_usage, vocabulary_rows

__all__ = [
    "BASE_VOCAB",
    "TokenInfo",
    "boundary_offsets",
    "bytes_per_token",
    "bytes_per_token_curve",
    "changed_tokens",
    "length_histogram",
    "merges_for_vocab_size",
    "never_emitted",
    "pretoken_counts",
    "sample_curve",
    "token_counts_by_size",
    "token_usage",
    "tokens_at_size",
    "vocab_size_of",
    "vocabulary_rows",
]
