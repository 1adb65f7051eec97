"""``python -m bpe_core encode --reference NAME`` takes every built-in model: the open models' ids equal their own
libraries' (each skips without its package); a name registered but not loadable by reference() (DeepSeek V4, Mistral
7B v3) is a one-line error saying how to load its file, never a traceback."""

from __future__ import annotations

import pytest
import test_open_models as own  # the models' own libraries (each skips when absent)
from open_model_texts import all_texts

from bpe_core.cli import main
from bpe_core.reference import reference_names, reference_spec

OPEN = [
    name
    for name in reference_names()
    if reference_spec(name).family != "OpenAI" and reference_spec(name).kind != "file"
]
REGISTERED_ONLY = [name for name in reference_names() if reference_spec(name).kind == "file"]


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


@pytest.mark.parametrize("name", REGISTERED_ONLY)
def test_a_registered_model_reference_cannot_build_is_a_plain_error(name, tmp_path, capsys):
    path = tmp_path / "text.txt"
    path.write_text("hello", encoding="utf-8")
    assert main(["encode", str(path), "--reference", name]) == 2
    err = capsys.readouterr().err
    assert name in err and "bpe_core.load" in err and "Traceback" not in err
