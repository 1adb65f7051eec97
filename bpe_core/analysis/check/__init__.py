"""Check a learner's own BPE: where its merges part from bpe_core's training, and why.

- :mod:`.core`: :func:`check_merges` and its report, :class:`MergeCheck`;
- :mod:`.replay`: the hypotheses (tie rules, counting, special tokens, pre-tokenization), each
  replayed on the learner's merges;
- :mod:`.explain`: the report's sentences (:data:`EXPLANATIONS`, plain strings with ``{}`` fields);
- :mod:`.readers`: a learner's merges from files (GPT-2, CS336, minbpe, Hugging Face) or pasted lines.

>>> from bpe_core.analysis.check import check_merges
>>> check = check_merges("low low lower", [(b"o", b"w"), (b"l", b"ow")])
>>> check.cause, check.first_difference
('none', None)
"""

from .core import MergeCheck, check_merges
from .explain import EXPLANATIONS, RULES
from .readers import LearnerMerges, read_merges, read_merges_text

__all__ = ["EXPLANATIONS", "RULES", "LearnerMerges", "MergeCheck", "check_merges", "read_merges", "read_merges_text"]
