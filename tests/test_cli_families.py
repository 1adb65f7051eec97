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
