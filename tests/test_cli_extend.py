"""python -m bpe_core extend (and train's --min-frequency / --max-token-length, choose's warning), run in
process through ``bpe_core.cli.main``: each writes what the library makes, in the base's own format."""

from __future__ import annotations

import json
import random

import tiktoken
import tokenizers

import bpe_core
from bpe_core.cli import main
from bpe_core.formats import load

TEXT = "A informação e o coração. Não há ação sem coração, nem nação sem informação.\n" * 12


def test_extend_a_reference_writes_tiktoken_ranks(tmp_path, capsys):
    corpus = tmp_path / "pt.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    base = bpe_core.reference("cl100k_base")
    size = len(base.vocab) + 8
    assert (
        main(
            [
                "extend",
                str(corpus),
                "--base",
                "cl100k_base",
                "--vocab-size",
                str(size),
                "--out",
                str(tmp_path / "o"),
                "--quiet",
            ]
        )
        == 0
    )
    expected = bpe_core.extend(base, TEXT, size).tokenizer
    printed = capsys.readouterr().err
    assert f"merges added:        {expected.num_merges - base.num_merges} of 8 requested" in printed
    # The file, like cl100k's own, has no special tokens: said, with how to pass them.
    assert "note: a tiktoken file holds no special tokens: the base's 5 (<|endoftext|> = 100,257" in printed
    written = load(tmp_path / "o" / "tokenizer.tiktoken", special_tokens=base.special_tokens, pattern=base.pattern)
    assert written.mergeable_ranks == expected.mergeable_ranks
    peer = tiktoken.Encoding(
        "x", pat_str=base.pattern_regex, mergeable_ranks=written.mergeable_ranks, special_tokens={}
    )
    assert peer.encode(TEXT) == expected.encode(TEXT)


def test_extend_a_tokenizer_json_appends_to_it(tmp_path, capsys):
    (source,) = bpe_core.save(
        bpe_core.train("the cat sat on the mat " * 20, 280, special_tokens=["<s>"]).tokenizer, tmp_path, "hf"
    )
    corpus = tmp_path / "pt.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "o"
    assert (
        main(
            [
                "extend",
                str(corpus),
                "--base",
                str(source),
                "--vocab-size",
                "320",
                "--out",
                str(out),
                "--quiet",
                "--max-token-length",
                "5",
            ]
        )
        == 0
    )
    written = out / "tokenizer.json"
    expected = bpe_core.extend(load(source), [TEXT], 320, max_token_length=5)
    before, after = json.loads(source.read_text()), json.loads(written.read_text())
    assert after["model"]["merges"][: len(before["model"]["merges"])] == before["model"]["merges"]
    assert len(after["model"]["merges"]) == len(before["model"]["merges"]) + len(expected.merges)
    peer = tokenizers.Tokenizer.from_file(str(written))
    assert peer.encode(TEXT + "<s>", add_special_tokens=False).ids == expected.tokenizer.encode(TEXT + "<s>")


def test_extend_refuses_an_unknown_base(tmp_path, capsys):
    corpus = tmp_path / "a.txt"
    corpus.write_text("abc", encoding="utf-8")
    assert (
        main(["extend", str(corpus), "--base", "no-such-model", "--vocab-size", "300", "--out", str(tmp_path / "o")])
        == 2
    )
    assert "no such file, nor a built-in tokenizer" in capsys.readouterr().err


def test_train_takes_the_options(tmp_path, capsys):
    corpus = tmp_path / "a.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "o"
    assert (
        main(
            [
                "train",
                str(corpus),
                "--vocab-size",
                "330",
                "--out",
                str(out),
                "--quiet",
                "--format",
                "hf",
                "--min-frequency",
                "20",
                "--max-token-length",
                "4",
            ]
        )
        == 0
    )
    expected = bpe_core.train(TEXT, 330, min_frequency=20, max_token_length=4)
    assert load(out / "tokenizer.json").merges == expected.merges
    assert "stopped early" in capsys.readouterr().err


def test_choose_warns_when_the_gain_goes_up_and_down(tmp_path, capsys):
    """Training merges first the words of a-m (more frequent), then those of n-z; on a held-out text of n-z words
    the gain of 1,000 more merges falls, then rises where the n-z merges begin: the rule's answer depends on its
    threshold, and the command line says so exactly where the library's suggestion does."""
    rng = random.Random(7)

    def words(letters: str) -> str:
        return "".join(" " + "".join(rng.choice(letters) for _ in range(5)) for _ in range(400))

    first, later = words("abcdefghijklm"), words("nopqrstuvwxyz")
    tokenizer = bpe_core.train(first * 6 + later * 3, 256 + 1800).tokenizer
    bpe_core.save(tokenizer, tmp_path / "tok", "bpe-playground")
    heldout = tmp_path / "h.txt"
    heldout.write_text(later, encoding="utf-8")
    curve = bpe_core.size_curve(tokenizer, later)
    gains = (0.05, 0.1, 0.2, 0.3)
    dips = {gain: bpe_core.suggest_size(curve, min_gain=gain).dips_at for gain in gains}
    assert any(dips.values()) and not all(dips.values())  # both cases are met
    for gain, dip in dips.items():
        args = ["choose", "--tokenizer", str(tmp_path / "tok"), "--heldout", str(heldout), "--min-gain", str(gain)]
        assert main(args) == 0
        err = capsys.readouterr().err
        assert ("warning: the gain of 1,000 more merges falls below" in err) == (dip is not None)
        assert dip is None or f"at {dip:,} and rises" in err
