"""The command line's encode and decode take every family the library loads: a Hugging Face pipeline file (what
``extend`` writes for DeepSeek V4) gives ``tokenizers``' ids and text back. Both commands refused it, saying it was
a SentencePiece model."""

from __future__ import annotations

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from bpe_core.cli import main as cli_main

TEXT = "Hello wörld, héllo World!\n  spaces\tand 1234 digits 你好世界"


def test_encode_and_decode_a_pipeline_file_as_tokenizers_does(tmp_path, capsys):
    hf = Tokenizer(models.BPE(unk_token="[UNK]"))
    hf.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()])
    hf.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    hf.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    hf.train_from_iterator([TEXT] * 20, trainers.BpeTrainer(vocab_size=120, special_tokens=["[UNK]"]))
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    source = tmp_path / "in.txt"
    source.write_text(TEXT, encoding="utf-8")

    assert cli_main(["encode", str(source), "--tokenizer", str(path)]) == 0
    printed = capsys.readouterr().out
    expected = hf.encode(TEXT, add_special_tokens=False).ids
    assert [int(word) for word in printed.split()] == expected
    ids = tmp_path / "ids.txt"
    ids.write_text(printed)
    assert cli_main(["decode", str(ids), "--tokenizer", str(path)]) == 0
    assert capsys.readouterr().out == hf.decode(expected)


def test_overlap_takes_a_tiktoken_file_of_no_known_model_and_names_the_built_in_ones(tmp_path, capsys):
    """Comparing vocabularies needs no pattern: it asked for one ("pass pattern=..."), which overlap has no option for.
    A name that is neither a file nor a built-in tokenizer lists the built-in ones."""
    from bpe_core import formats, reference

    (path,) = formats.save_tiktoken(reference("gpt2").truncated(300), tmp_path / "small.tiktoken")
    assert cli_main(["overlap", str(path), "gpt2", "--list", "0"]) == 0
    assert "Jaccard" in capsys.readouterr().out
    assert cli_main(["overlap", "gpt2", "gpt4"]) == 2
    assert "gpt4: no such file, nor a built-in tokenizer (gpt2, cl100k_base" in capsys.readouterr().err


def test_a_special_token_flag_takes_one_token_and_both_commands_spell_it_alike(tmp_path, capsys):
    """``train --special TOKEN FILE`` took FILE for a second token ("the following arguments are required: FILE");
    extend spelled it ``--special-token``: both take both spellings, one token a flag."""
    corpus = tmp_path / "c.txt"
    corpus.write_text("the cat sat<|endoftext|>the hat\n" * 30, encoding="utf-8")
    out = tmp_path / "o"
    args = ["train", "--special", "<|endoftext|>", str(corpus), "--special-token", "<|pad|>", "--vocab-size", "270"]
    assert cli_main([*args, "--out", str(out), "--quiet"]) == 0
    from bpe_core import formats

    tokenizer = formats.load(out)
    assert list(tokenizer.special_tokens) == ["<|endoftext|>", "<|pad|>"]
    capsys.readouterr()
    extended = tmp_path / "e"
    extend = ["extend", str(corpus), "--base", str(out), "--special", "<|cell|>", "--vocab-size", "275"]
    assert cli_main([*extend, "--out", str(extended), "--quiet"]) == 0
    printed = capsys.readouterr().err
    assert f"<|cell|> = {tokenizer.n_vocab}" in printed  # after the highest id in use
    assert "new ids:             none" in printed  # no pair was left to merge (it said "268 to 267")
