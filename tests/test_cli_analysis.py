"""python -m bpe_core choose | languages | health: plain tables on stdout whose numbers are the
library's, and one-line errors with exit status 2."""

from __future__ import annotations

import re

import pytest
from test_cli import SMALL_TEXT, run

import bpe_core
from bpe_core.analysis.choose import size_table
from bpe_core.analysis.health import health_report
from bpe_core.analysis.languages import language_costs, parallel_sample

HELDOUT = "The quick brown dog naps.\n学而时习之。 def g(y):\n    return y + 1\n" * 4


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    directory = tmp_path_factory.mktemp("analysis-cli")
    tokenizer = bpe_core.train(SMALL_TEXT, 400, special_tokens=["<|endoftext|>"]).tokenizer
    bpe_core.save(tokenizer, directory / "tok", "bpe-playground")
    (directory / "heldout.txt").write_text(HELDOUT, encoding="utf-8")
    return directory, tokenizer


def lines_of(result) -> list[str]:
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    return result.stdout.decode("utf-8").splitlines()


def test_choose_prints_the_table_and_the_suggestion(saved):
    directory, tokenizer = saved
    args = ["--tokenizer", "tok", "--heldout", "heldout.txt", "--sizes", "300, 257,100000", "--d-model", "64"]
    lines = lines_of(run("choose", *args, "--untied", cwd=directory))
    rows = size_table(tokenizer, HELDOUT, [300, 257, 100_000], d_model=64, tied=False)
    assert lines[0].split()[:2] == ["vocab", "size"]
    for line, row in zip(lines[1:4], rows):
        cells = line.split()
        assert cells[:3] == [f"{row.vocab_size:,}", f"{row.tokens:,}", f"{row.bytes_per_token:,.3f}"]
        assert f"{row.gain:.2%}" in cells and f"{row.embedding_parameters:,}" in cells
    assert lines[3].endswith(f"above the largest size ({rows[2].vocab_size}): measured at {rows[2].vocab_size}")
    assert re.match(r"suggested: [0-9,]+\. [0-9,]+ is the largest vocab size where 1,000 more merges", lines[-1])


def test_languages_on_the_sample_and_on_a_directory(tmp_path):
    lines = lines_of(run("languages", "--reference", "gpt2"))
    costs = language_costs(bpe_core.reference("gpt2"), parallel_sample())
    assert len(lines) == 1 + 21 + 2
    for line, row in zip(lines[1:], costs.rows):
        assert line.startswith(row.code) and line.split()[-1] == f"{row.premium:.2f}"
        assert f" {row.tokens:,} " in line
    assert lines[-1] == f"premium vs en: max/min {costs.max_min_ratio:.2f}, Gini {costs.gini:.3f}"
    (tmp_path / "en.txt").write_text("Good morning.\nThank you.\n", encoding="utf-8")
    (tmp_path / "de.txt").write_text("Guten Morgen.\nDanke.\n", encoding="utf-8")
    lines = lines_of(run("languages", "--reference", "cl100k_base", "--texts", str(tmp_path), "--baseline", "de"))
    assert [line.split()[0] for line in lines[1:3]] == ["de", "en"] and lines[-1].startswith("premium vs de:")


def test_health_counts_and_lists(saved):
    lines = lines_of(run("health", "--reference", "gpt2", "--list", "2"))
    assert re.search(r"^partial character\s+285$", "\n".join(lines), re.MULTILINE)
    assert re.search(r"^not valid UTF-8 alone\s+59$", "\n".join(lines), re.MULTILINE)
    assert "  b' \\xe2\\x80'  bytes 20 E2 80: unexpected end of data at byte 1" in "\n".join(lines)
    directory, tokenizer = saved
    lines = lines_of(
        run("health", "--tokenizer", "tok", "--heldout", "heldout.txt", "--threshold", "0.1", cwd=directory)
    )
    counts = health_report(tokenizer, HELDOUT, intermediate_threshold=0.1).counts()
    for name in ("never emitted", "intermediate"):
        assert any(re.fullmatch(rf"{name}\s+{counts[name]:,}", line) for line in lines), name


@pytest.mark.parametrize(
    "args, message",
    [
        (("choose", "--reference", "gpt2"), "the following arguments are required: --heldout"),
        (("choose", "--reference", "gpt2", "--heldout", "missing.txt"), "missing.txt: No such file"),
        (("choose", "--reference", "gpt2", "--heldout", "held.txt", "--sizes", "8k"), "--sizes: '8k' is not a vocab"),
        (("choose", "--reference", "gpt2", "--heldout", "held.txt", "--sizes", ", ,"), "--sizes: ', ,' names no vocab"),
        (("choose", "--reference", "gpt2", "--heldout", "empty.txt"), "the held-out text is empty"),
        (("languages", "--reference", "gpt2", "--texts", "nowhere"), "--texts nowhere: not a directory"),
        (("languages", "--reference", "gpt2", "--texts", "texts"), r"fr\.txt has 1 line, but de\.txt has 2"),
        (("languages", "--reference", "gpt2", "--texts", "texts", "--baseline", "xx"), "baseline language 'xx'"),
        (("health", "--reference", "gpt5"), "unknown reference tokenizer 'gpt5'"),
        (("health", "--reference", "gpt2", "--threshold", "3"), "between 0 and 1"),
    ],
)
def test_errors_are_one_line_with_exit_status_2(tmp_path, args, message):
    (tmp_path / "held.txt").write_text("some text", encoding="utf-8")
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "de.txt").write_text("Eins.\nZwei.\n", encoding="utf-8")
    if "--baseline" not in args:
        (tmp_path / "texts" / "fr.txt").write_text("Un.\n", encoding="utf-8")
    result = run(*args, cwd=tmp_path)
    stderr = result.stderr.decode("utf-8")
    assert result.returncode == 2
    assert stderr.count("\n") == 1 and stderr.startswith("python -m bpe_core: error: "), stderr
    assert re.search(message, stderr), stderr
