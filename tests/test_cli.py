"""python -m bpe_core: train, encode and decode in a subprocess, and one-line errors with exit 2."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import CORPORA

import bpe_core
from bpe_core import formats
from bpe_core.reference import reference

REPO = Path(__file__).resolve().parents[1]

SMALL_TEXT = (
    "The quick brown fox jumps over the lazy dog.<|endoftext|>\n"
    "Le renard brun rapide saute par-dessus le chien paresseux.\n"
    "学而时习之，不亦说乎？有朋自远方来，不亦乐乎？\n"
    "def add(a, b):\n    return a + b  # 👍🏽\n\n\n   trailing   \n"
) * 20


def run(
    *args: str, stdin: bytes | None = None, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    # The CLI must not rely on the locale. No small regex budget here: one that a sane custom pattern could exceed on
    # a busy machine would fail a test by the clock; only the runaway pattern's test sets one (below).
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "ascii"} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "bpe_core", *args], input=stdin, capture_output=True, cwd=cwd, env=env, timeout=120
    )


def ids_of(output: bytes) -> list[int]:
    return [int(word) for word in output.split()]


@pytest.fixture(scope="module")
def trained_dir(tmp_path_factory) -> tuple[Path, Path, subprocess.CompletedProcess]:
    directory = tmp_path_factory.mktemp("cli")
    text_path = directory / "small.txt"
    text_path.write_text(SMALL_TEXT, encoding="utf-8")
    out = directory / "tok"
    result = run(
        "train",
        str(text_path),
        "--vocab-size",
        "400",
        "--out",
        str(out),
        "--special",
        "<|endoftext|>",
        "--format",
        "all",
    )
    return text_path, out, result


def test_train_writes_every_format_and_a_summary(trained_dir):
    text_path, out, result = trained_dir
    assert result.returncode == 0, result.stderr
    assert result.stdout == b""  # stdout stays free for data; everything human goes to stderr
    stderr = result.stderr.decode("utf-8")
    # stderr is a pipe, not a terminal: plain progress lines, no bar redrawn with \r
    assert "\r" not in stderr and re.search(r"^reading: 100% .*\n^merging: 100% 143/143 \[", stderr, re.MULTILINE)
    for label in ("merges made:", "training time:", "unique", "bytes per token", "files written:"):
        assert label in stderr
    assert sorted(path.name for path in out.iterdir()) == [
        "bpe-playground.json",
        "merges.txt",
        "tokenizer.json",
        "tokenizer.tiktoken",
        "vocab.json",
    ]
    tokenizer = formats.load(out)
    training = formats.read_training_metadata(out)
    assert training["vocab_size"] == 400 and training["special_tokens"] == ["<|endoftext|>"]
    # The summary's token count is what encoding the training text really gives.
    assert training["tokens_on_training_text"] == len(tokenizer.encode(SMALL_TEXT))
    assert f"{training['tokens_on_training_text']:,} tokens" in stderr


def test_encode_and_decode_round_trip_with_every_format(trained_dir):
    text_path, out, _ = trained_dir
    expected = formats.load(out).encode(SMALL_TEXT)
    special_id = str(formats.load(out).special_tokens["<|endoftext|>"])
    for fmt, extra in (
        ("bpe-playground", []),
        ("hf", []),
        ("gpt2", []),
        ("tiktoken", ["--special-id", "<|endoftext|>", special_id, "--pattern", "gpt2"]),
    ):
        encoded = run("encode", str(text_path), "--tokenizer", str(out), "--format", fmt, *extra)
        assert encoded.returncode == 0, encoded.stderr
        assert ids_of(encoded.stdout) == expected, fmt
    # tiktoken files hold no pattern: one that is no known model's is refused without --pattern, never guessed
    refused = run("encode", str(text_path), "--tokenizer", str(out), "--format", "tiktoken")
    assert refused.returncode == 2 and b"holds no pre-tokenization pattern" in refused.stderr
    assert b"Traceback" not in refused.stderr
    ids_path = text_path.with_name("ids.txt")
    ids_path.write_bytes(encoded.stdout)
    decoded = run("decode", str(ids_path), "--tokenizer", str(out))
    assert decoded.returncode == 0, decoded.stderr
    assert decoded.stdout.decode("utf-8") == SMALL_TEXT


@pytest.mark.parametrize("pattern", ["cl100k", "none"])
def test_pattern_option_reaches_training_and_tiktoken_loading(tmp_path, pattern):
    text_path = tmp_path / "small.txt"
    text_path.write_text(SMALL_TEXT, encoding="utf-8")
    options = ["--pattern", pattern, "--format", "tiktoken", "--format", "bpe-playground", "--quiet"]
    trained = run("train", str(text_path), "--vocab-size", "300", "--out", "tok", *options, cwd=tmp_path)
    assert trained.returncode == 0, trained.stderr
    assert "\r" not in trained.stderr.decode("utf-8")  # --quiet: no progress bar
    tokenizer = formats.load(tmp_path / "tok")
    assert tokenizer.pattern == (None if pattern == "none" else pattern)
    encoded = run("encode", "small.txt", "--tokenizer", "tok/tokenizer.tiktoken", "--pattern", pattern, cwd=tmp_path)
    assert ids_of(encoded.stdout) == tokenizer.encode(SMALL_TEXT)


def test_encode_stdin_with_a_reference_tokenizer():
    encoded = run("encode", "--reference", "cl100k_base", stdin=SMALL_TEXT.encode("utf-8"))
    assert encoded.returncode == 0, encoded.stderr
    assert ids_of(encoded.stdout) == reference("cl100k_base").encode(SMALL_TEXT)
    decoded = run("decode", "-", "--reference", "cl100k_base", stdin=encoded.stdout)
    assert decoded.stdout.decode("utf-8") == SMALL_TEXT


def test_streamed_encoding_of_a_big_file_equals_encoding_it_whole(tmp_path):
    # Several read chunks, with a special token and multi-byte characters at chunk edges.
    source = CORPORA / "tinyshakespeare.txt"
    base = source.read_text(encoding="utf-8")[:150_000] if source.exists() else SMALL_TEXT * 40
    text = base[:65_530] + "<|endoftext|>" + "é" * 5 + base[65_530:131_070] + "学" * 9 + base[131_070:]
    path = tmp_path / "big.txt"
    path.write_text(text, encoding="utf-8")
    output = tmp_path / "ids.txt"
    encoded = run("encode", str(path), "--reference", "gpt2", "-o", str(output))
    assert encoded.returncode == 0, encoded.stderr
    assert ids_of(output.read_bytes()) == reference("gpt2").encode(text)


def test_decode_keeps_characters_split_across_batches_whole(tmp_path):
    # 5000 ids of one 3-byte character spelled byte by byte: batches of 4096 cut a character in two.
    gpt2 = reference("gpt2")
    byte_ids = [gpt2.mergeable_ranks[bytes([byte])] for byte in "学".encode()]
    ids = byte_ids * 5000
    decoded = run("decode", "--reference", "gpt2", stdin=" ".join(map(str, ids)).encode())
    assert decoded.returncode == 0, decoded.stderr
    assert decoded.stdout.decode("utf-8") == "学" * 5000


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        ((), None, "the following arguments are required"),
        (("train", "missing.txt", "--vocab-size", "300", "--out", "o"), None, "missing.txt: No such file"),
        (("train", "small.txt", "--vocab-size", "many", "--out", "o"), None, "invalid int value: 'many'"),
        (("train", "small.txt", "--vocab-size", "100", "--out", "o"), None, r"--vocab-size 100 is too small"),
        (
            ("train", "small.txt", "--vocab-size", "256", "--out", "o", "--special", "<s>"),
            None,
            r"\+ 1 special token\)",
        ),
        (
            ("train", "small.txt", "--vocab-size", "300", "--out", "o", "--pattern", "cl100k_base", "--quiet"),
            None,
            "a pattern's name. the names are gpt2, .* cl100k_base's is cl100k",
        ),
        (("encode", "small.txt", "--tokenizer", "bytes.tiktoken"), None, "no known model's .* give --pattern: a regex"),
        (
            ("train", "small.txt", "--vocab-size", "300", "--out", "o", "--pattern", "(["),
            None,
            "invalid pre-tokenization pattern",
        ),
        (("train", "small.txt", "--vocab-size", "300", "--out", "o", "--format", "xml"), None, "invalid choice: 'xml'"),
        (("train", "small.txt", "--vocab-size", "300", "--out", "small.txt"), None, "exists and is not a directory"),
        (("encode", "small.txt"), None, "one of the arguments --tokenizer --reference is required"),
        (("encode", "small.txt", "--reference", "gpt5"), None, "unknown reference tokenizer 'gpt5'"),
        (("encode", "small.txt", "--tokenizer", "nowhere"), None, "nowhere: no such file or directory"),
        (("encode", "small.txt", "--tokenizer", "broken.json"), None, r"broken.json, line 1: invalid JSON"),
        (("encode", "-", "--reference", "gpt2"), b"ok \xff\xfe", "standard input is not UTF-8 text"),
        (("decode", "-", "--reference", "gpt2"), b"15496 11 world", "line 1: 'world' is not a token id"),
        (("decode", "-", "--reference", "gpt2"), b"15496 99999999", "token id 99999999 is not in this tokenizer"),
        (("decode", "-", "--reference", "gpt2"), b"9007199254740993", r"9007199254740993 .* ids run from 0 to 50256"),
        (("encode", "small.txt", "--tokenizer", "list-pre.json"), None, r"field pre_tokenizer: .* not a list"),
        (("encode", "small.txt", "--tokenizer", "empty.zip"), None, r"empty.zip: no tokenizer files in the zip"),
        (("encode", "small.txt", "--tokenizer", "bad.zip"), None, r"bad.zip: not a valid zip file"),
        (
            ("encode", "-", "--tokenizer", "bytes.tiktoken", "--pattern", r"([\w ]|[\w ])+!|[\s\S]"),
            b"a" * 3000,
            r"pattern '\(\[\\w .* took more than 0.2 s .* BPE_REGEX_TIMEOUT",
        ),
        (("encode", "small.txt", "--tokenizer", "bytes.tiktoken", "--pattern", r"\w+|\W"), None, "must be a positive"),
    ],
)
def test_errors_are_one_line_with_exit_status_2(tmp_path, args, stdin, message):
    (tmp_path / "small.txt").write_text(SMALL_TEXT, encoding="utf-8")
    (tmp_path / "broken.json").write_text('{"format": "bpe-playground", ', encoding="utf-8")
    tokenizer = reference("gpt2").truncated(0)
    (hf_path,) = formats.save_hf(tokenizer, tmp_path / "hf.json")
    document = json.loads(hf_path.read_text(encoding="utf-8"))
    document["pre_tokenizer"] = document["pre_tokenizer"]["pretokenizers"]
    (tmp_path / "list-pre.json").write_text(json.dumps(document), encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "empty.zip", "w") as archive:
        archive.writestr("notes.txt", "no tokenizer here")
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04 and then nothing")
    formats.save_tiktoken(tokenizer, tmp_path / "bytes.tiktoken")
    env = {"BPE_REGEX_TIMEOUT": "soon"} if "must be a positive" in message else None
    if "took more than" in message:
        env = {"BPE_REGEX_TIMEOUT": "0.2"}  # the runaway fails fast; it backtracks for ages, so 0.2 s is no race
    result = run(*args, stdin=stdin, cwd=tmp_path, env=env)
    stderr = result.stderr.decode("utf-8")
    assert result.returncode == 2
    assert stderr.count("\n") == 1 and stderr.startswith("python -m bpe_core: error: "), stderr
    assert re.search(message, stderr), stderr
    assert "Traceback" not in stderr


def test_train_streams_several_files_and_globs(tmp_path):
    from bpe_core.training.corpus import train_files

    (tmp_path / "parts").mkdir()
    for index in range(3):
        (tmp_path / "parts" / f"{index}.txt").write_text(SMALL_TEXT[index * 500 :], encoding="utf-8")
    (tmp_path / "extra.md").write_text(SMALL_TEXT[:700], encoding="utf-8")
    result = run("train", "parts/*.txt", "extra.md", "--vocab-size", "350", "--out", "tok", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    training = formats.read_training_metadata(tmp_path / "tok")
    assert training["source"] == ["parts/*.txt", "extra.md"]
    assert training["sources"] == ["parts/0.txt", "parts/1.txt", "parts/2.txt", "extra.md"]
    expected = train_files([tmp_path / "parts" / "*.txt", tmp_path / "extra.md"], 350)
    assert formats.load(tmp_path / "tok").merges == expected.merges


def test_training_metadata_is_json_serialisable_and_complete(trained_dir):
    _, out, _ = trained_dir
    document = json.loads((out / "bpe-playground.json").read_text(encoding="utf-8"))
    assert {"source", "source_bytes", "merges", "seconds", "unique_pretokens", "stopped_early"} <= set(
        document["training"]
    )


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-be", "utf-32"])
def test_input_with_a_byte_order_mark_is_decoded(tmp_path, encoding):
    text = "Hello wörld 学而 👍🏽\r\nline two\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    path = tmp_path / "input.txt"
    path.write_bytes(data)
    from_file = run("encode", str(path), "--reference", "gpt2")
    from_stdin = run("encode", "-", "--reference", "gpt2", stdin=data)
    assert from_file.returncode == from_stdin.returncode == 0, from_file.stderr
    assert ids_of(from_file.stdout) == ids_of(from_stdin.stdout) == reference("gpt2").encode(text)
    # Training on the file, as on standard input and as the app's upload does (the file was refused: "not UTF-8").
    trained = run("train", str(path), "--vocab-size", "270", "--out", str(tmp_path / "tok"))
    assert trained.returncode == 0, trained.stderr
    assert formats.load(tmp_path / "tok").merges == bpe_core.train(text, 270).merges


def test_a_zipped_gpt2_pair_loads(tmp_path):
    tokenizer = reference("gpt2")
    files = formats.save_gpt2(tokenizer.truncated(500), tmp_path / "pair")
    with zipfile.ZipFile(tmp_path / "tokenizer-gpt2.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            archive.write(file, f"folder/{file.name}")
    result = run("encode", "-", "--tokenizer", str(tmp_path / "tokenizer-gpt2.zip"), stdin=b"hello there")
    assert result.returncode == 0, result.stderr
    assert ids_of(result.stdout) == tokenizer.truncated(500).encode("hello there")
