"""How long the decision views take: choose a vocab size, languages and health, against the curve view in the
same run, for a 32k tokenizer and 1 MB of held-out text.

    python bench/views.py [--corpus ../shared/corpora/docs10m.txt] [--rounds 5] [--browser]

The tokenizer is trained at vocab 32,000 on the first 5 MB of the corpus; the held-out text is its last 1 MB.

1. Computation, in this process: each view's work, through the functions the views call (``ui.compare``'s, on
   the library), cold (the views' result cache emptied before each; reference tokenizers built beforehand,
   as a running server keeps them), ``--rounds`` rounds interleaved, the curve first in each round; then
   a rerun of each view through its cache (``ui.compare.common.remembered``), which should cost nothing.
2. ``--browser``: the same in Chromium on a fresh server: upload the 5 MB, train at 32,000, go to Compare,
   upload the 1 MB held-out file on the curve view (timed until the curve is drawn: the baseline), then click
   each view and time the click until the script run ends with its content on screen (reference tokenizers
   off, so the curve is the line alone), then each once more (cached).

Not a test: run it by hand, once, on a quiet machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import bpe_core  # noqa: E402
from bpe_core.analysis.parallel import parallel_sample  # noqa: E402
from playground.session import REFERENCES, Session  # noqa: E402
from runtime.store import text_digest  # noqa: E402
from ui.compare import choose, common, curve, health, premiums, texts  # noqa: E402
from ui.compare.common import Subject  # noqa: E402
from ui.tokenizer_output import reference_tokenizer  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
TRAIN_BYTES, HELDOUT_BYTES, VOCAB = 5_000_000, 1_000_000, 32_000
SIZES = [8_000, 16_000, 32_000]
CUT = 8_000


def texts_of(path: Path) -> tuple[str, str]:
    data = path.read_bytes()
    return (data[:TRAIN_BYTES].decode("utf-8", errors="ignore"),
            data[-HELDOUT_BYTES:].decode("utf-8", errors="ignore"))  # fmt: skip


def views(tokenizer, heldout: texts.Text, training: texts.Text) -> dict:
    """Each view's computation, as the view asks for it (every call goes through the views' cache)."""
    subject = Subject("trained", tokenizer, "32k", "bench-32k", None)
    s = Session({})
    s.initialize()
    s.sizes = SIZES
    parallel = premiums.Parallel(parallel_sample(), "bench-parallel", "parallel sample")
    measured = [
        premiums.Measured("32k", tokenizer, "bench-32k"),
        premiums.Measured("8k", tokenizer, "bench-32k", CUT),
        *(premiums.Measured(name, reference_tokenizer(name), f"reference-{name}") for name in REFERENCES),
    ]

    def chooser() -> None:
        found = choose.curve(subject, heldout, s.min_uses)
        suggestion = bpe_core.suggest_size(found, min_gain=s.min_gain / 100)
        choose.chart(found, choose.rows(s, subject, heldout, sorted({*SIZES, suggestion.vocab_size})), suggestion)

    def languages() -> None:
        for item in measured:
            premiums.costs(item, parallel, "en")

    def overlap() -> None:
        key = ("overlap", training.digest, heldout.digest)
        common.remembered(key, lambda: bpe_core.line_overlap(heldout.text, training.text))

    def tokenizer_health() -> None:
        found = health.report(subject, heldout)
        health.chart(found)

    return {
        "curve (baseline)": lambda: curve.line(subject, heldout),
        "choose a size": chooser,
        "languages (5 tokenizers, 21 x 40 sentences)": languages,
        "health": tokenizer_health,
        "held-out overlap check": overlap,
    }


def computation(tokenizer, heldout: texts.Text, training: texts.Text, rounds: int) -> None:
    work = views(tokenizer, heldout, training)
    cold: dict[str, list[float]] = {name: [] for name in work}
    for _ in range(rounds):
        for name, run in work.items():
            common._results.clear()  # cold: nothing computed before
            started = time.perf_counter()
            run()
            cold[name].append(time.perf_counter() - started)
    warm = {}
    for name, run in work.items():
        run()
        started = time.perf_counter()
        run()
        warm[name] = time.perf_counter() - started
    print(f"\n| view computation ({rounds} rounds, cold) | median | range | rerun (cached) |")
    print("|---|---:|---:|---:|")
    for name, seconds in cold.items():
        print(
            f"| {name} | {statistics.median(seconds):.3f} s | {min(seconds):.3f}–{max(seconds):.3f} s | "
            f"{warm[name] * 1000:.2f} ms |"
        )


def browser(path: Path, train: str, heldout: str) -> None:
    from browser_support import CHROMIUM, CHROMIUM_ARGS, open_page, streamlit_server, wait_idle
    from playwright.sync_api import sync_playwright

    folder = Path("/tmp") / "bpe-bench-views"
    folder.mkdir(exist_ok=True)
    (folder / "train.txt").write_text(train, encoding="utf-8")
    (folder / "heldout.txt").write_text(heldout, encoding="utf-8")
    labels = {"curve": "Curve", "choose": "Choose a size", "languages": "Languages", "health": "Health"}
    seen = {"curve": '[data-testid="stTable"]', "choose": '[data-testid="stAlertContentSuccess"]',
            "languages": '[data-testid="stTable"]', "health": "table.health"}  # fmt: skip
    with streamlit_server() as url, sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page, _ = open_page(chromium, f"{url}/?corpus=upload&vocab={VOCAB}&refs=", {"width": 1400, "height": 1400})
        wait_idle(page)
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(folder / "train.txt"))
        wait_idle(page, 120_000)
        started = time.perf_counter()
        page.get_by_role("button", name="Train ▶").click()
        page.get_by_role("heading", name="3 · Result").wait_for(timeout=300_000)
        seconds = time.perf_counter() - started
        print(f"\nChromium: trained {VOCAB:,} on {len(train.encode()):,} bytes in {seconds:.1f} s")
        page.get_by_role("link", name="Compare").first.click()
        wait_idle(page, 120_000)
        page.get_by_role("combobox", name="Held-out text").click()
        page.get_by_role("option", name="Upload a .txt file… (never put in links)").click()
        wait_idle(page)
        times: dict[str, list[float]] = {view: [] for view in labels}
        started = time.perf_counter()  # the curve, cold: from the held-out upload to the curve's table
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(folder / "heldout.txt"))
        wait_idle(page, 120_000)
        page.locator(seen["curve"]).first.wait_for(timeout=120_000)
        times["curve"].append(time.perf_counter() - started)
        for visit in range(2):
            for view in ("choose", "languages", "health", "curve")[: 4 if visit else 3]:
                started = time.perf_counter()
                page.get_by_role("radiogroup").get_by_text(labels[view], exact=True).click()
                wait_idle(page, 120_000)
                page.locator(seen[view]).first.wait_for(timeout=120_000)
                times[view].append(time.perf_counter() - started)
                page.screenshot(path=str(folder / f"{view}.png"))
        chromium.close()
    print(
        "\n| view in Chromium: click → content, run over (the curve: held-out upload → curve) | first visit | again "
        "(cached) |"
    )
    print("|---|---:|---:|")
    for view, seconds in times.items():
        print(f"| {labels[view]} | {seconds[0]:.2f} s | {seconds[1]:.2f} s |")
    print(f"(screenshots in {folder})")


def decision(tokenizer, heldout: texts.Text) -> None:
    """The chooser's figures and the languages view's premiums, as the views show them (default settings)."""
    subject = Subject("trained", tokenizer, "32k", "bench-32k", None)
    s = Session({})
    s.initialize()
    found = choose.curve(subject, heldout, s.min_uses)
    suggestion = bpe_core.suggest_size(found, min_gain=s.min_gain / 100)
    print("\n" + choose.suggestion_text(found, suggestion))
    print(
        "\n| vocab size | tokens | bytes/token | tokens/1k chars | gain of 1,000 more | embedding params (768, tied) "
        "| rare (< 10 uses) |\n|---:|---:|---:|---:|---:|---:|---:|"
    )
    for row in choose.rows(s, subject, heldout, sorted({*SIZES, suggestion.vocab_size})):
        print(
            f"| {row.vocab_size:,} | {row.tokens:,} | {row.bytes_per_token:.3f} | {row.tokens_per_1000_chars:.1f} | "
            f"{row.gain:.2%} | {row.embedding_parameters:,} | {row.rare_tokens:,} |"
        )
    parallel = premiums.Parallel(parallel_sample(), "bench-parallel", "parallel sample")
    found_costs = [(name, premiums.costs(premiums.Measured(name, tok, key), parallel, "en")) for name, tok, key in
                   [("docs10m 32k", tokenizer, "bench-32k"),
                    *((name, reference_tokenizer(name), f"reference-{name}") for name in REFERENCES)]]  # fmt: skip
    print("\n| language | " + " | ".join(name for name, _ in found_costs) + " |")
    print("|---|" + "---:|" * len(found_costs))
    for index, row in enumerate(found_costs[0][1].rows):
        cells = [f"{costs.rows[index].tokens_per_sentence:.1f} ({costs.rows[index].premium:.2f})"
                 for _, costs in found_costs]  # fmt: skip
        print(f"| {premiums.language_name(row.code)} | " + " | ".join(cells) + " |")
    print("| max/min · Gini | " + " | ".join(f"{c.max_min_ratio:.2f} · {c.gini:.3f}" for _, c in found_costs) + " |")
    print("(tokens per sentence (premium against English), the built-in sample: 40 sentences a language)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--browser", action="store_true", help="also time the views in Chromium")
    args = parser.parse_args()
    train, heldout = texts_of(args.corpus)
    started = time.perf_counter()
    tokenizer = bpe_core.train(train, VOCAB, special_tokens=["<|endoftext|>"]).tokenizer
    print(
        f"trained {VOCAB:,} on the first {len(train.encode()):,} bytes in {time.perf_counter() - started:.1f} s; "
        f"held-out: the last {len(heldout.encode()):,} bytes"
    )
    for name in REFERENCES:
        reference_tokenizer(name)  # a server builds them once and keeps them
    computation(
        tokenizer,
        texts.make_text("held-out", heldout, text_digest(heldout)),
        texts.make_text("training", train, text_digest(train)),
        args.rounds,
    )
    decision(tokenizer, texts.make_text("held-out", heldout, text_digest(heldout)))
    if args.browser:
        browser(args.corpus, train, heldout)


if __name__ == "__main__":
    main()
