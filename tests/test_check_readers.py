"""A learner's merges from files (bpe_core.analysis.check.readers), written by the real writers where one is
installed (Hugging Face tokenizers), by hand in minbpe's and CS336's formats otherwise; and the ``check``
command in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from naive_ties import minbpe_train
from tutorial_trainers import ENDOFTEXT, GPT2, tutorial_train

import bpe_core
from bpe_core.analysis.check import read_merges, read_merges_text
from bpe_core.formats import FormatError
from bpe_core.reference import reference_files

REPO = Path(__file__).resolve().parents[1]
TEXT = ("The cat sat on the mat. The dog sat on the log... 学而时习之，不亦说乎？" + ENDOFTEXT) * 6 + "aaaa   bbb"


def gpt2_text(token: bytes) -> str:
    from naive_ties import gpt2_alphabet

    table = gpt2_alphabet()
    return "".join(table[b] for b in token)


def hf_trained(tmp_path: Path, n_merges: int = 40):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=257 + n_merges,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=[ENDOFTEXT],
        show_progress=False,
    )
    tokenizer.train_from_iterator(TEXT.split(ENDOFTEXT), trainer)
    return tokenizer


def test_hf_tokenizer_json_and_its_gpt2_files(tmp_path):
    tokenizer = hf_trained(tmp_path)
    tokenizer.save(str(tmp_path / "tokenizer.json"))
    tokenizer.model.save(str(tmp_path))  # vocab.json + merges.txt, as GPT-2 writes them
    from_json = read_merges(tmp_path / "tokenizer.json")
    from_txt = read_merges(tmp_path / "merges.txt", tmp_path / "vocab.json")
    expected = bpe_core.train(TEXT, 297, special_tokens=[ENDOFTEXT], tie_break="hf").merges
    assert from_json.merges == from_txt.merges == expected
    assert (from_json.format, from_json.special_tokens, from_txt.format) == ("hf", [ENDOFTEXT], "gpt2")


def test_minbpe_model_file(tmp_path):
    merges = minbpe_train(TEXT, 30, GPT2, [ENDOFTEXT])
    ids = {bytes([b]): b for b in range(256)}
    lines = ["minbpe v1", GPT2, "1", f"{ENDOFTEXT} 286"]
    for rank, (left, right) in enumerate(merges):
        lines.append(f"{ids[left]} {ids[right]}")
        ids[left + right] = 256 + rank
    (tmp_path / "toy.model").write_text("\n".join(lines) + "\n", encoding="utf-8")
    learner = read_merges(tmp_path / "toy.model")
    assert (learner.merges, learner.special_tokens, learner.pattern) == (merges, [ENDOFTEXT], GPT2)


def test_cs336_files_bytes_literals_and_str_vocab(tmp_path):
    merges = tutorial_train(TEXT, 25)
    vocab = {i: bytes([i]) for i in range(256)} | {256 + r: a + b for r, (a, b) in enumerate(merges)}
    (tmp_path / "merges.txt").write_text("".join(f"{a!r} {b!r}\n" for a, b in merges), encoding="utf-8")
    (tmp_path / "vocab.txt").write_text(str(vocab), encoding="utf-8")
    (tmp_path / "vocab.json").write_text(json.dumps({i: str(t) for i, t in vocab.items()}), encoding="utf-8")
    assert read_merges(tmp_path / "merges.txt", tmp_path / "vocab.txt").merges == merges
    assert read_merges(tmp_path / "merges.txt", tmp_path / "vocab.json").merges == merges
    tuples = "".join(f"{pair!r}\n" for pair in merges)
    assert read_merges_text(tuples).merges == merges and read_merges_text(tuples).format == "bytes"


def test_cs336_gpt2_alphabet_files(tmp_path):
    merges = tutorial_train(TEXT, 25)
    text = "".join(f"{gpt2_text(a)} {gpt2_text(b)}\n" for a, b in merges)
    vocab = {gpt2_text(bytes([i])): i for i in range(256)} | {
        gpt2_text(a + b): 256 + r for r, (a, b) in enumerate(merges)
    }
    (tmp_path / "merges.txt").write_text(text, encoding="utf-8")
    (tmp_path / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    assert read_merges(tmp_path / "merges.txt", tmp_path / "vocab.json").merges == merges


def test_pasted_lines_plain_and_classic():
    assert read_merges_text("t h\r\nth e\n\n").merges == [(b"t", b"h"), (b"th", b"e")]
    assert read_merges_text("é t\n").merges == [("é".encode(), b"t")]  # no GPT-2 mark: plain UTF-8
    assert read_merges_text("é t\n", alphabet="gpt2").merges == [(b"\xe9", b"t")]
    assert read_merges_text("es t\nest </w>\n").merges == [(b"es", b"t"), (b"est", b"</w>")]
    assert read_merges_text("t h  \nth e \n").merges == [(b"t", b"h"), (b"th", b"e")]  # a paste's trailing spaces


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("t h e\n", "line 1: expected two tokens separated by one space"),
        ("t h\nth  e\n", "line 2: expected two tokens separated by one space"),
        ("  newest\n", "a space in a token is written Ġ, as GPT-2's merges.txt does"),
        ("b't' 'h'\n", "line 1: expected two bytes literals"),
        ("\n\n", "holds no merges"),
        ('{"vocab": {}}', "is JSON but not a Hugging Face tokenizer.json"),
        ('{"model": {"merges": ["a b c"]}}', "merge 0 is not two tokens"),
        ("minbpe v1\nx\n0\n97 300\n", "line 4: id 300 is not a byte or an earlier merge"),
        ("minbpe v1\nx\nmany\n", "then the number of special tokens"),
    ],
)
def test_refusals_say_what_was_wrong(text, message):
    with pytest.raises(FormatError, match=message):
        read_merges_text(text)


def test_a_vocab_from_another_training_is_refused(tmp_path):
    (tmp_path / "merges.txt").write_text("t h\nth e\n", encoding="utf-8")
    (tmp_path / "vocab.json").write_text(json.dumps({"t": 0, "h": 1, "th": 2}), encoding="utf-8")
    with pytest.raises(FormatError, match="does not hold b'the', the token merge 1 makes"):
        read_merges(tmp_path / "merges.txt", tmp_path / "vocab.json")


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "ascii"}
    return subprocess.run([sys.executable, "-m", "bpe_core", *args], capture_output=True, env=env, timeout=120)


def test_cli_check_reports_the_cause(tmp_path):
    (tmp_path / "corpus.txt").write_text(TEXT, encoding="utf-8")
    merges = tutorial_train(TEXT, 30, tie="first")
    (tmp_path / "merges.txt").write_text("".join(f"{gpt2_text(a)} {gpt2_text(b)}\n" for a, b in merges), "utf-8")
    done = run(
        "check",
        "--text",
        str(tmp_path / "corpus.txt"),
        "--merges",
        str(tmp_path / "merges.txt"),
        "--specials",
        ENDOFTEXT,
    )
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0, done.stderr
    expected = bpe_core.analysis.check.check_merges(TEXT, merges, [ENDOFTEXT])
    assert f"first difference: merge {expected.first_difference + 1} (rank {expected.first_difference})" in out
    assert "cause: tie-break" in out and expected.explanation in out and "<- differs" in out and "yours" in out


def test_cli_check_of_bpe_cores_own_merges_and_errors(tmp_path):
    (tmp_path / "corpus.txt").write_text(TEXT, encoding="utf-8")
    bpe_core.save(bpe_core.train(TEXT, 300, special_tokens=[ENDOFTEXT]).tokenizer, tmp_path / "tok", "hf")
    done = run("check", "--text", str(tmp_path / "corpus.txt"), "--merges", str(tmp_path / "tok" / "tokenizer.json"))
    assert done.returncode == 0 and b"43 merges checked: no difference" in done.stdout, done.stderr
    bad = run("check", "--text", str(tmp_path / "corpus.txt"), "--merges", str(tmp_path / "missing.txt"))
    assert bad.returncode == 2 and bad.stderr.count(b"\n") == 1 and b"missing.txt: no such file" in bad.stderr


def test_gpt2s_own_merges_txt_reads_whole_lines_starting_with_a_parenthesis_as_tokens():
    """GPT-2's vocab.bpe (its merges.txt) has "( )", "(' s"...: such a line was read as Python bytes literals and the
    whole file refused ("expected two bytes literals"); read as two tokens, every merge is GPT-2's own."""
    gpt2 = bpe_core.reference("gpt2")
    text = reference_files("gpt2")["vocab.bpe"].read_text("utf-8")
    assert "\n( )\n" in text
    learner = read_merges_text(text, source="vocab.bpe")
    assert learner.merges == gpt2.merges and learner.format == "gpt2"
    assert read_merges_text("b'(' b')'\n(b'a', b'b')").merges == [(b"(", b")"), (b"a", b"b")]  # literals still
    with pytest.raises(FormatError, match="two bytes literals"):
        read_merges_text("(b'a', b'b', b'c')")
