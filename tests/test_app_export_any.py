"""AppTest (headless) of the Export page with loaded tokenizers that are not the trained kind (issue 25): Llama 3's
tiktoken file downloads as a tokenizer.json that ``tokenizers`` encodes with Llama 3's ids; a Hugging Face
pipeline downloads as hf and the byte-level-only formats say why they cannot hold it."""

from __future__ import annotations

import json

import pytest
from apptest_helpers import no_exception, unescaped
from test_app_compare import field
from test_app_export import SAMPLE, export_page, load

import bpe_core
from bpe_core.reference import ReferenceDataError, reference_files
from playground.session import Session
from ui.export import export_files

tokenizers = pytest.importorskip("tokenizers")


def download(at) -> bytes | None:
    buttons = at.get("download_button")
    return buttons[0].proto.data if buttons else None  # (what the button serves is checked through export_files)


def test_llama3_loaded_from_its_tiktoken_file_downloads_as_a_tokenizer_json_with_its_ids():
    try:
        (path,) = reference_files("llama3").values()
    except ReferenceDataError as error:
        pytest.skip(str(error))
    at = export_page()
    load(at, "tokenizer.model", path.read_bytes())
    ((label, loaded),) = field(at, "loaded").items()
    at.radio(key=Session.format.key).set_value("hf").run()
    no_exception(at)
    assert not at.error and not at.warning and at.get("download_button")
    ((name, data),) = export_files(loaded, "hf").items()
    theirs = tokenizers.Tokenizer.from_str(data.decode("utf-8"))
    assert name == "tokenizer.json"
    assert theirs.encode(SAMPLE, add_special_tokens=False).ids == bpe_core.reference("llama3").encode(SAMPLE)


def test_a_loaded_pipeline_downloads_as_hf_and_the_other_formats_say_why_not():
    at = export_page()
    spec = json.loads(export_files(field(at, "trained").tokenizer, "hf")["tokenizer.json"])
    spec["normalizer"] = {"type": "Lowercase"}  # no plain Tokenizer has it: loads as a pipeline
    load(at, "tokenizer.json", json.dumps(spec).encode("utf-8"))
    ((label, loaded),) = field(at, "loaded").items()
    assert type(loaded).__name__ == "PipelineTokenizer"
    # The page opens on a format that holds it (it opened on GPT-2's, with a refusal at once); a choice then stays.
    assert at.radio(key=Session.format.key).value == "hf" and not at.warning and at.get("download_button")
    for fmt in ("gpt2", "tiktoken", "bpe-playground"):
        at.radio(key=Session.format.key).set_value(fmt).run()
        no_exception(at)
        (warning,) = at.warning  # a limit of the format, not an error: the file loaded
        message = unescaped(warning.value)
        assert "cannot hold this tokenizer" in message and "normalizer: Lowercase" in message
        assert "save it as Hugging Face" in message and not at.get("download_button")
    at.radio(key=Session.format.key).set_value("hf").run()
    no_exception(at)
    assert not at.error and not at.warning and at.get("download_button")
    ((_, data),) = export_files(loaded, "hf").items()
    theirs = tokenizers.Tokenizer.from_str(data.decode("utf-8"))
    assert theirs.encode("The Cat", add_special_tokens=False).ids == loaded.encode("The Cat")


@pytest.mark.parametrize("byte_fallback", [False, True])
def test_a_sentencepiece_models_merges_are_counted_as_its_views_count_them(byte_fallback):
    """Export's line under the chooser counts a file of another family's merge steps, as its views cut it (its
    ladder): the character-level model's derived pairs outnumbered them (1,186 merges beside 1,013 steps)."""
    pytest.importorskip("sentencepiece")  # trains the model (tests/sentencepiece_support.py)
    from sentencepiece_support import train

    from bpe_core.analysis.ladder import ladder
    from bpe_core.formats.sentencepiece import parse_sentencepiece
    from playground.i18n import t
    from ui.export import size_caption

    model = parse_sentencepiece(train(byte_fallback=byte_fallback), source="trained")
    assert model.byte_level == byte_fallback
    steps = ladder(model).num_merges
    assert steps < model.num_merges  # the case that went wrong: score ranks are fewer than the pairs derived
    assert size_caption(model) == t("{n:,} tokens ({merges:,} merges).", n=len(model.vocab), merges=steps)


def test_the_refusals_of_other_families_are_the_librarys_words_and_said_in_chinese():
    """The byte-level formats' refusal of a pipeline or a SentencePiece model: in English the library's own words
    (with the format's label for hf), in Chinese translated, the pipeline's stages kept as the file names them (the
    Chinese page said only its first words in Chinese)."""
    from bpe_core.formats import not_byte_level_bpe
    from ui import export

    for name in ("deepseek-v4", "mistral-7b-v3"):
        if name not in bpe_core.reference_names():
            pytest.skip(f"{name}'s package is not installed")
        tokenizer = bpe_core.reference(name)
        library = not_byte_level_bpe(tokenizer, "gpt2")
        shown = export.export_error(ValueError(library), "gpt2")
        assert shown == library.removesuffix("save it as hf") + "save it as Hugging Face"
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("playground.i18n.language", lambda: "zh")
            chinese = export.export_error(ValueError(library), "gpt2")
        assert ("Hugging Face 流水线" if name == "deepseek-v4" else "SentencePiece 模型") in chinese
        assert "所以不能保存为这种格式" in chinese and "save it" not in chinese
        if name == "deepseek-v4":
            assert "Split('\\p{N}{1,3}', Isolated)" in chinese and "model: BPE(" in chinese
