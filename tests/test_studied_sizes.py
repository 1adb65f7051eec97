"""DeepSeek V4 (a Hugging Face pipeline) and Mistral 7B v3 (SentencePiece) at every size, as the studied tokenizer
of choose, languages and health.

- Cut to its first k merges, DeepSeek V4 encodes as ``tokenizers`` does with its own ``tokenizer.json`` whose
  ``merges`` are cut to k and whose ``vocab`` keeps what those merges make (the file is built here); Mistral 7B v3
  cut to its k best score ranks encodes as ``sentencepiece`` does with its ``.model`` file less the other pieces
  (the file is written here, field by field). Hypothesis texts include CJK, emoji, digits and whitespace.
- The analyses (``bpe_core.analysis.ladder``, ``choose``, ``languages``, ``health``) agree with encoding the text
  with the cut tokenizer at each size: token counts, emissions, rare tokens, premiums, never-emitted tokens.

Skips without the models' packages (requirements-models.txt) or without ``tokenizers`` / ``sentencepiece``.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_core.analysis.choose import size_curve, size_table
from bpe_core.analysis.health import NEVER_EMITTED, health_report
from bpe_core.analysis.ladder import ladder
from bpe_core.analysis.languages import language_costs, premiums_by_size
from bpe_core.encoding.sentencepiece.segmenting import score_ranks
from bpe_core.formats.protobuf import read_message
from bpe_core.reference import ReferenceDataError, reference, reference_files

DEEPSEEK_KS = (0, 700, 9_000, 127_741)
MISTRAL_KS = (0, 400, 6_000, 28_433)
TEXTS = st.lists(
    st.one_of(
        st.sampled_from(list("the quick brown fox 12345 \n\t  ,.!?'\"-")),
        st.sampled_from(list("字节对编码的词元中文日本語한국어")),
        st.sampled_from(["🙂", "👍🏽", "🇨🇳", "é", "é", "ß", "Ω", "\u200b", "  "]),
        st.characters(codec="utf-8"),
    ),
    max_size=40,
).map("".join)
FIXED = [
    "Hello, world! 你好，世界。🙂 12345 naïve café",
    "def f(x):\n    return x ** 2  # 字节对编码\n\n",
    "<｜begin▁of▁sentence｜>[INST] 东京 東京 도쿄 [/INST] 👍🏽🇨🇳",
]
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def model(name: str):  # type: ignore[no-untyped-def]
    try:
        return reference(name)
    except ReferenceDataError as error:
        pytest.skip(f"{name}: {error}")


# -- the peers, cut to k --------------------------------------------------------------------------------------


@cache
def deepseek_cut_by_tokenizers(k: int):  # type: ignore[no-untyped-def]
    """``tokenizers`` on DeepSeek's tokenizer.json with its merges cut to k and its vocab to what remains."""
    hf = pytest.importorskip("tokenizers")
    (path,) = reference_files("deepseek-v4").values()
    spec = json.loads(path.read_text(encoding="utf-8"))
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in spec["model"]["merges"]]
    made_later = {left + right for left, right in merges[k:]} - {left + right for left, right in merges[:k]}
    spec["model"]["vocab"] = {token: i for token, i in spec["model"]["vocab"].items() if token not in made_later}
    spec["model"]["merges"] = [list(merge) for merge in merges[:k]]
    return hf.Tokenizer.from_str(json.dumps(spec))


@cache
def mistral_cut_by_sentencepiece(k: int):  # type: ignore[no-untyped-def]
    """``sentencepiece`` on Mistral's .model less the pieces of score rank k and above (the file rewritten here)."""
    sentencepiece = pytest.importorskip("sentencepiece")
    (path,) = reference_files("mistral-7b-v3").values()
    data = path.read_bytes()
    dropped = {piece for piece, rank in score_ranks(model("mistral-7b-v3").model).items() if rank >= k}
    fields = read_message(data)
    ends = [field.offset for field in fields[1:]] + [len(data)]
    kept = bytearray()
    for field, end in zip(fields, ends):
        if field.number == 1:  # a piece: its own field 1 is its text
            (text,) = [sub.value for sub in read_message(field.value) if sub.number == 1]  # type: ignore[arg-type]
            if text.decode("utf-8") in dropped:  # type: ignore[union-attr]
                continue
        kept += data[field.offset : end]
    return sentencepiece.SentencePieceProcessor(model_proto=bytes(kept))


@cache
def cut(name: str, k: int):  # type: ignore[no-untyped-def]
    return model(name).truncated(k)


# -- truncation: exactly the peers' cut models -----------------------------------------------------------------


@pytest.mark.parametrize("k", DEEPSEEK_KS)
def test_deepseek_cut_to_k_merges_encodes_as_tokenizers_with_the_cut_file(k):
    ours, theirs = cut("deepseek-v4", k), deepseek_cut_by_tokenizers(k)
    for text in FIXED:
        assert ours.encode(text) == theirs.encode(text, add_special_tokens=False).ids, text
    assert len(ours.vocab) == theirs.get_vocab_size(with_added_tokens=True)
    assert ladder(model("deepseek-v4")).vocab_size(k) == len(ours.vocab)


@pytest.mark.parametrize("k", MISTRAL_KS)
def test_mistral_7b_cut_to_k_score_ranks_encodes_as_sentencepiece_with_the_cut_model(k):
    ours, theirs = cut("mistral-7b-v3", k), mistral_cut_by_sentencepiece(k)
    for text in FIXED:
        assert [ours.piece(i) for i in ours.encode(text)] == theirs.encode(text, out_type=str), text
    assert len(ours.vocab) == theirs.get_piece_size()
    assert ladder(model("mistral-7b-v3")).vocab_size(k) == len(ours.vocab)


@FAST
@given(text=TEXTS, k=st.sampled_from(DEEPSEEK_KS[:3]))
def test_deepseek_cut_matches_tokenizers_on_any_text(text, k):
    expected = deepseek_cut_by_tokenizers(k).encode(text, add_special_tokens=False).ids
    assert cut("deepseek-v4", k).encode(text) == expected


@FAST
@given(text=TEXTS, k=st.sampled_from(MISTRAL_KS[:3]))
def test_mistral_7b_cut_matches_sentencepiece_on_any_text(text, k):
    ours = cut("mistral-7b-v3", k)
    assert [ours.piece(i) for i in ours.encode(text)] == mistral_cut_by_sentencepiece(k).encode(text, out_type=str)


@pytest.mark.parametrize("name", ["deepseek-v4", "mistral-7b-v3"])
def test_a_cut_keeps_ids_and_refuses_what_it_cut_off(name):
    full, k = model(name), 500
    small = cut(name, k)
    text = FIXED[0]
    assert [small.token_bytes(i) for i in small.encode(text)] == full.segment(text).tokens_at(k)
    gone = next(i for i, first in full.first_k().items() if first > k)
    assert small.token_id(full.token_bytes(gone)) is None and gone not in small.vocab
    with pytest.raises(ValueError, match="not in this tokenizer"):
        small.decode([gone])
    with pytest.raises(ValueError, match="whole number of merges"):
        full.truncated(full.merge_steps + 1)


# -- the analyses, against encoding with the cut tokenizer ---------------------------------------------------------


HELDOUT = "\n".join(FIXED) * 3


@pytest.mark.parametrize("name, ks", [("deepseek-v4", DEEPSEEK_KS), ("mistral-7b-v3", MISTRAL_KS)])
def test_the_size_curve_and_table_count_what_the_cut_tokenizers_encode(name, ks):
    full = model(name)
    curve = size_curve(full, HELDOUT, min_uses=2)
    sized = ladder(full)
    for k in ks:
        ids = cut(name, k).encode(HELDOUT)
        assert curve.token_counts[k] == len(ids) and curve.vocab_sizes[k] == sized.vocab_size(k)
        regular = [i for i in cut(name, k).vocab if sized.first_k[i] >= 0]
        uses = Counter(ids)
        assert curve.rare_tokens[k] == sum(uses[i] < 2 for i in regular), k
    rows = size_table(full, HELDOUT, [int(curve.vocab_sizes[ks[1]]), 10**7])
    assert [row.tokens for row in rows] == [curve.token_counts[ks[1]], curve.token_counts[-1]]
    assert rows[1].note is not None and "above the largest size" in rows[1].note


@pytest.mark.parametrize("name, k", [("deepseek-v4", 9_000), ("mistral-7b-v3", 6_000)])
def test_languages_cut_to_a_size_count_what_the_cut_tokenizer_encodes(name, k):
    full = model(name)
    texts = {"en": ["Good morning, how are you?", "I like tea."], "zh": ["早上好，你好吗？", "我喜欢茶。🙂"]}
    size = ladder(full).vocab_size(k)
    costs = language_costs(full, texts, vocab_size=size)
    small = cut(name, k)
    expected = {code: sum(len(small.encode(line)) for line in lines) for code, lines in texts.items()}
    assert {row.code: row.tokens for row in costs.rows} == expected
    curve = premiums_by_size(full, texts)
    assert curve.vocab_sizes[k] == size
    assert {code: int(counts[k]) for code, counts in curve.token_counts.items()} == expected
    assert curve.premiums["zh"][k] == pytest.approx(costs.row("zh").premium)


@pytest.mark.parametrize("name, k", [("deepseek-v4", 700), ("mistral-7b-v3", 400)])
def test_health_of_a_cut_model_lists_the_tokens_its_encoding_never_emits(name, k):
    small = cut(name, k)  # small enough to list every token here
    report = health_report(small, HELDOUT)
    used = Counter(small.encode(HELDOUT))
    sized = ladder(small)
    regular = [i for i in small.vocab if sized.first_k[i] >= 0]
    assert {row.id for row in report.rows_of(NEVER_EMITTED)} == {i for i in regular if not used[i]}
    assert report.counts_by_size[NEVER_EMITTED][-1] == sum(not used[i] for i in regular)
    for row in report.rows_of(NEVER_EMITTED)[:50]:
        assert row.emitted == 0 and row.token == small.token_bytes(row.id)
    # the counts at a smaller size are the smaller cut's own
    smaller = cut(name, k // 2)
    used_smaller = Counter(smaller.encode(HELDOUT))
    regular_smaller = [i for i in smaller.vocab if sized.first_k[i] >= 0]
    expected = sum(not used_smaller[i] for i in regular_smaller)
    assert report.counts_by_size[NEVER_EMITTED][k // 2] == expected
    assert np.array_equal(report.vocab_sizes, sized.sizes)


# -- health's static classes for a family with no whole-token rule ---------------------------------------------------


def test_a_pipeline_token_its_merges_never_build_is_never_built_at_every_size_it_is_in():
    from bpe_core.analysis.reachability import MERGE_ORDER, NEVER_BUILT
    from bpe_core.pipeline import AddedTokens, PipelineTokenizer, decoders, pre_tokenizers
    from bpe_core.pipeline.models import BPE

    vocab = {"a": 0, "b": 1, "ab": 2, "ba": 3, "aba": 4, "bab": 5}
    # "bab" is made by the last merge, "ba" + "b"; but in "bab" the pair "ab" (rank 0) merges first, so they never meet
    model = BPE(vocab, [("a", "b"), ("ab", "a"), ("b", "a"), ("ba", "b")])
    tokenizer = PipelineTokenizer(None, pre_tokenizers.Whitespace(), model, decoders.Fuse(), AddedTokens([]))
    assert tokenizer.encode("bab") == [1, 2] and tokenizer.encode("ba") == [3]
    report = health_report(tokenizer, "bab ba aba")
    assert {row.id for row in report.rows_of(NEVER_BUILT)} == {5}
    assert MERGE_ORDER not in report.counts()  # (tiktoken's whole-token rule: not this family's)
    assert report.counts_by_size[NEVER_BUILT].tolist() == [0, 0, 0, 0, 1]  # in the vocabulary from the 4th merge
    assert {row.id for row in report.rows_of(NEVER_EMITTED)} == {0, 5}  # "a" only inside "ab", "aba"; "bab" never


def test_the_command_line_chooses_a_size_of_mistral_7b_as_the_cut_model_counts(tmp_path, capsys):
    from bpe_core.cli import main as cli_main

    full = model("mistral-7b-v3")
    size = ladder(full).vocab_size(MISTRAL_KS[2])
    heldout = tmp_path / "heldout.txt"
    heldout.write_text(HELDOUT, encoding="utf-8")
    assert cli_main(["choose", "--reference", "mistral-7b-v3", "--heldout", str(heldout), "--sizes", str(size)]) == 0
    lines = [line.split() for line in capsys.readouterr().out.splitlines()]
    (row,) = [cells for cells in lines if cells and cells[0] == f"{size:,}"]  # (numbers right-aligned)
    assert row[1] == f"{len(cut('mistral-7b-v3', MISTRAL_KS[2]).encode(HELDOUT)):,}"
