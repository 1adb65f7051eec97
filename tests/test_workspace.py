"""A tab's work on disk (ui/workspace.py, ui/trained.py's compact form): every saved field comes back equal, a
trained tokenizer comes back encoding exactly as before (byte-level and classic, stopped early, special tokens,
custom and no pre-tokenization), big texts go to blobs named by their digest, and a missing blob loses only
its own field."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core.pretokenize.superword import SUPERWORD_PATTERN, is_superword
from playground.text_files import Upload
from playground.trained import Request, train_job
from playground.trained_codec import from_bytes, to_bytes
from playground.workspace import INLINE_CHARS, decode, encode
from runtime.store import text_digest

CORPUS = "low lower newest widest<|endoftext|> 日本語の文 🙂 naïve café\n\tdef f(x): return x ** 2\n" * 40


def trained(kind: str = "byte", vocab: int = 400, pattern: str | None = "gpt2", specials=("<|endoftext|>",),
            text: str = CORPUS):  # fmt: skip
    choice = "classic" if kind == "classic" else {"gpt2": "gpt2", None: "none"}.get(pattern, "custom")
    request = Request(
        "paste",
        "pasted text",
        text_digest(text),
        kind,
        vocab,
        choice,
        None if kind == "classic" else pattern,
        () if kind == "classic" else tuple(specials),
    )
    return train_job(text, request)


CASES = {
    "byte": trained(),
    "classic": trained("classic", 120),
    "stopped early": trained(vocab=5_000),
    "no pre-tokenization": trained(pattern=None, vocab=330),
    "custom regex": trained(pattern=r"\p{L}+|\p{N}+|\s+|[^\s\p{L}\p{N}]+", vocab=350, specials=()),
    "no merges": trained(vocab=257),
    "superword": train_job(
        CORPUS,
        Request(
            "paste",
            "pasted text",
            text_digest(CORPUS),
            "superword",
            420,
            "superword",
            SUPERWORD_PATTERN,
            ("<|endoftext|>",),
            transition=60,
            max_words=3,
        ),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_trained_tokenizer_comes_back_from_its_compact_form(case):
    original = CASES[case]
    again = from_bytes(original.request, to_bytes(original))
    assert list(again.trace) == list(original.trace)
    assert (again.corpus_chars, again.corpus_bytes, again.window_text, again.stats) == (
        original.corpus_chars, original.corpus_bytes, original.window_text, original.stats)  # fmt: skip
    assert again.result.stopped_early == original.result.stopped_early and again.label == original.label
    assert again.tokenizer.byte_level == original.tokenizer.byte_level
    if not original.tokenizer.byte_level:
        assert again.tokenizer.symbols == original.tokenizer.symbols
        assert again.tokenizer.merges == original.tokenizer.merges
    else:
        assert again.tokenizer.vocab == original.tokenizer.vocab
        assert again.tokenizer.merges == original.tokenizer.merges
        assert again.tokenizer.special_tokens == original.tokenizer.special_tokens
        assert again.tokenizer.pattern == original.tokenizer.pattern
        assert again.result.settings == original.result.settings


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="low ernstid日本語🙂</>\n\t<|endoftext|>", max_size=80))
def test_the_tokenizers_that_come_back_encode_exactly_as_before(text):
    for case in ("byte", "classic", "no pre-tokenization", "superword"):
        original = CASES[case].tokenizer
        again = from_bytes(CASES[case].request, to_bytes(CASES[case])).tokenizer
        assert again.encode(text) == original.encode(text), case


def test_a_superword_tokenizer_comes_back_superword_with_its_settings_and_merges_across_words():
    original = CASES["superword"]
    again = from_bytes(original.request, to_bytes(original))
    assert is_superword(again.tokenizer) and again.request.transition == 60 and again.request.max_words == 3
    assert again.result.settings == original.result.settings and again.result.settings["kind"] == "superword"
    assert any(b" " in token.strip(b" ") for token in again.tokenizer.vocab.values())  # a token spans words
    document, blobs = encode({"trained": original})
    back = decode(document, {key: source() for key, source in blobs.items()}.get).values["trained"]
    assert back.request == original.request and back.tokenizer.merges == original.tokenizer.merges


def test_a_compact_tokenizer_is_a_fraction_of_its_objects():
    """About 80 bytes a merge for the columns (before the store compresses them)."""
    big = trained(vocab=2_000, text=CORPUS * 3 + " ".join(str(n) for n in range(20_000)))
    assert len(to_bytes(big)) < 120 * big.num_merges + 20_000


def test_every_saved_value_comes_back_and_big_things_go_to_blobs():
    long_text = "x" * (INLINE_CHARS + 1)
    upload = Upload("notes.txt", "some text", 2, text_digest("some text"))
    loaded = bpe_core.train("hello hello world", 262).tokenizer
    values = {"vocab": 600, "sizes": [300, 400], "lang": None, "talk": True, "text": long_text, "upload": upload,
              "trained": CASES["byte"], "loaded": {"mine.json": loaded}, "token": None}  # fmt: skip
    document, blobs = encode(values)
    assert len(document) < 2_000  # the document names the big things; it does not hold them
    stored = {key: source() for key, source in blobs.items()}
    assert set(stored) == {
        f"text:{text_digest(long_text)}",
        f"text:{upload.digest}",
        f"trained:{CASES['byte'].request.key}",
        *[k for k in stored if k.startswith("tokenizer:")],
    }
    back = decode(document, stored.get)
    assert not back.lost
    assert {name: back.values[name] for name in ("vocab", "sizes", "lang", "talk", "text", "upload", "token")} == {
        name: values[name] for name in ("vocab", "sizes", "lang", "talk", "text", "upload", "token")
    }
    assert back.values["trained"].request == CASES["byte"].request
    assert list(back.values["trained"].trace) == list(CASES["byte"].trace)
    assert back.values["loaded"]["mine.json"].encode("hello world") == loaded.encode("hello world")


def test_an_unchanged_document_names_the_same_blobs():
    """Keys come from content: a rerun saves the same document, so the store writes nothing again."""
    values = {"upload": Upload("a.txt", "abc", 0, text_digest("abc")), "trained": CASES["classic"]}
    assert encode(values)[0] == encode(values)[0] and set(encode(values)[1]) == set(encode(values)[1])


def test_a_missing_blob_loses_only_its_own_field_and_says_which():
    values = {"vocab": 700, "upload": Upload("a.txt", "abc", 0, text_digest("abc")), "trained": CASES["byte"]}
    document, blobs = encode(values)
    stored = {key: source() for key, source in blobs.items() if not key.startswith("trained:")}
    back = decode(document, stored.get)
    assert back.lost == ["trained"] and back.values["vocab"] == 700 and back.values["upload"].text == "abc"


@pytest.mark.parametrize(
    "document",
    [
        "",
        "{",
        "[]",
        '{"format": "other", "version": 1, "values": {}}',
        json.dumps({"format": "bpe-playground-workspace", "version": 99, "values": {}}),
        json.dumps({"format": "bpe-playground-workspace", "version": 1, "values": []}),  # raised AttributeError
        '{"format": "bpe-playground-workspace", "version": 1, "values": ' + "[" * 100_000,  # RecursionError
    ],
)
def test_a_document_of_another_kind_restores_nothing_and_says_so(document):
    back = decode(document, {}.get)
    assert back.values == {} and back.lost == ["*"]


def _damaged(data: bytes) -> list[bytes]:
    """A stored blob as a disk or another version may leave it: empty, cut short by a column's item or two, with
    bytes flipped in its header, with bytes added."""
    flipped = bytearray(data)
    flipped[6] ^= 0x55
    return [b"", data[:3], data[:-4], data[:-8], data[: len(data) // 2], bytes(flipped), data + b"\x00" * 4]


@pytest.mark.parametrize("case", ["byte", "classic", "superword"])
def test_a_damaged_blob_loses_its_field_and_nothing_else(case):
    """A fuzz found a trained blob cut short by 4 or 8 bytes read back "successfully" as fewer records (the player
    then raised IndexError), and an empty one raising struct.error; a corrupt compressed blob raised zlib.error."""
    import zlib

    values = {"vocab": 700, "trained": CASES[case], "text": "x" * (INLINE_CHARS + 1)}
    document, blobs = encode(values)
    stored = {key: source() for key, source in blobs.items()}
    key = f"trained:{CASES[case].request.key}"
    for damaged in _damaged(stored[key]):
        back = decode(document, {**stored, key: damaged}.get)
        assert back.lost == ["trained"] and back.values["vocab"] == 700, len(damaged)

    def unreadable(blob_key: str) -> bytes:
        return zlib.decompress(b"not zlib") if blob_key.startswith("text:") else stored[blob_key]

    back = decode(document, unreadable)
    assert back.lost == ["text"] and back.values["trained"].request == CASES[case].request


@pytest.mark.parametrize("value", [{"$trained": [1]}, {"$upload": "x"}, {"$loaded": 5}, {"$text": None}])
def test_a_value_of_the_wrong_shape_is_lost_alone(value):
    document = json.dumps({"format": "bpe-playground-workspace", "version": 1, "values": {"bad": value, "vocab": 3}})
    back = decode(document, {}.get)
    assert back.lost == ["bad"] and back.values == {"vocab": 3}


@pytest.mark.parametrize("fmt", ["tiktoken", "gpt2"])
def test_a_tokenizer_loaded_from_files_comes_back_from_those_files_with_its_pattern(tmp_path, fmt):
    """A loaded tokenizer is kept as the files it came from and the pattern the box chose, and loaded again: the
    same ids, the same pattern, and keeping it never derives its merges from its ranks (seconds for 200,000
    tokens, and impossible for Llama 3's)."""
    from playground.tokenizer_files import File, load_files

    made = bpe_core.train(CORPUS, 330, pattern="cl100k").tokenizer
    files = [File(path.name, path.read_bytes()) for path in bpe_core.save(made, tmp_path, fmt)]
    pattern = made.pattern if fmt == "tiktoken" else "cl100k"  # a regex typed in the box, or a named pattern
    loaded, _ = load_files(files, pattern)
    document, blobs = encode({"loaded": {"mine": loaded}})
    if fmt == "tiktoken":
        assert loaded._merges is None  # ranks kept as their file: no merges derived
    assert sorted(blobs) == sorted(f"file:{hashlib.sha256(file.data).hexdigest()}" for file in files)
    stored = {key: source() for key, source in blobs.items()}
    back = decode(document, stored.get)
    assert not back.lost
    again = back.values["loaded"]["mine"]
    assert again.pattern == loaded.pattern == made.pattern
    assert again.encode(CORPUS) == made.encode(CORPUS)
    assert decode(document, {}.get).lost == ["loaded"]  # a file gone from the store loses only this field


def test_the_restored_notice_is_worded_in_the_language_the_page_opens_in():
    """A tab's work restored, then its link read: an English tab's address opened with ``&lang=zh`` said "Your work in
    this tab was restored" in English on a Chinese page. The notice is kept unworded until the page shows it."""
    from playground import workspace
    from playground.i18n import Later, t
    from playground.session import Session

    mine = Session({})
    mine.initialize()
    mine.browser, mine.workspace, mine.lang, mine.vocab = "b" * 32, "c" * 16, "en", 321
    workspace.save(mine)
    again = Session({})
    again.initialize()
    again.browser = mine.browser
    assert workspace.restore(again, mine.workspace) is True and again.vocab == 321
    [(level, notice)] = again.notices
    assert level == "success" and isinstance(notice, Later)
    assert t(notice, lang="zh") == t("Your work in this tab was restored after the reload.", lang="zh") != t(notice)


def test_a_value_of_another_type_is_not_restored_and_is_named():
    """A document edited by hand (or by another version) with a text where the vocab size goes: the field keeps
    its own value and the notice names it (the text was put in the session, to fail later on some page)."""
    from playground import workspace
    from playground.session import Session
    from runtime.store import default_store

    session = Session({})
    session.initialize()
    session.browser = "d" * 32
    before = session.vocab
    document = json.dumps(
        {"format": "bpe-playground-workspace", "version": 1, "values": {"vocab": "abc", "talk": 1, "holdout": 10}}
    )
    default_store().save(session.browser, "e" * 16, document, {})
    assert workspace.restore(session, "e" * 16) is True
    assert session.vocab == before and session.talk is False and session.holdout == 10
    [(level, notice)] = session.notices
    assert level == "warning" and "vocab" in str(notice) and "talk" in str(notice) and "holdout" not in str(notice)
