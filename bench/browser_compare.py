"""What a person waits for on the Compare page, in Chromium: a deep link on a fresh server, and the
curve after uploading a 1 MB held-out text.

    python bench/browser_compare.py [--before DIR] [--repeat 3] [--corpus ../shared/corpora/docs10m.txt]

1. Deep link: start a fresh server, open
   ``/Compare?corpus=python-reference-excerpt&vocab=600&pattern=gpt2&view=curve&heldout=reference-rest``
   with all three reference tokenizers. On that first open the tokenizer is trained and the
   reference vocabularies are loaded.
2. Held-out upload: in that session choose "Upload" as the held-out text and upload 1 MB of the corpus
   (each repetition a different slice; every server is fresh, so no cache answers); timed from handing
   the file to the page.

For both, two moments: **curve** -- a caption naming the measured text is on screen with the chart
(its lines drawn; the reference points may still be counting), and **complete** -- the script run has
ended (reference points in) and the browser has painted two more frames. **floor** is what any page
costs: a fresh server, the Train page opened, until its run ends.

``--before DIR`` measures another checkout (e.g. ``git worktree add /tmp/compare-before 5a09dc1``)
in the same run, alternating with this one, so a busy machine slows both alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import browser_support  # noqa: E402
from browser_support import CHROMIUM, CHROMIUM_ARGS, IDLE, open_page, streamlit_server  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
UPLOAD_BYTES = 1 << 20
LINK = (
    "/Compare?corpus=python-reference-excerpt&vocab=600&pattern=gpt2&view=curve&heldout=reference-rest"
    "&refs=gpt2,cl100k_base,o200k_base"
)
CHART = '[data-testid="stVegaLiteChart"]'
CAPTION = '[data-testid="stCaptionContainer"]'
TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
VIEWPORT = {"width": 1400, "height": 1600}
TIMEOUT = 180_000
FIGURES = ("floor", "deep_link_curve", "deep_link_complete", "upload_curve", "upload_complete")


def seconds_to_curve_and_complete(page, caption_text: str, started: float) -> tuple[float, float]:
    page.locator(CAPTION).filter(has_text=caption_text).first.wait_for(timeout=TIMEOUT)
    page.locator(f"{CHART} canvas, {CHART} svg").first.wait_for(timeout=TIMEOUT)
    page.evaluate(TWO_FRAMES)
    curve = time.perf_counter() - started
    page.wait_for_timeout(100)  # the run may go on (reference points): let the page mark it running
    page.wait_for_selector(IDLE, timeout=TIMEOUT)
    page.evaluate(TWO_FRAMES)
    return curve, time.perf_counter() - started


def floor(browser) -> float:
    """Seconds to open the Train page on a fresh server until its run ends: the cost of any page."""
    with streamlit_server() as url:
        started = time.perf_counter()
        page, _ = open_page(browser, url, VIEWPORT)
        page.get_by_role("button", name="Train").first.wait_for(timeout=TIMEOUT)
        page.wait_for_selector(IDLE, timeout=TIMEOUT)
        page.evaluate(TWO_FRAMES)
        seconds = time.perf_counter() - started
        page.context.close()
    return seconds


def measure(browser, root: Path, upload: Path) -> dict:
    """One checkout: the floor, then a fresh server's deep-linked curve, then the uploaded curve."""
    browser_support.ROOT = root  # streamlit_server runs app.py from this folder
    result = {"floor": floor(browser)}
    with streamlit_server() as url:
        started = time.perf_counter()
        page, _ = open_page(browser, url + LINK, VIEWPORT)
        result["deep_link_curve"], result["deep_link_complete"] = seconds_to_curve_and_complete(
            page, "Python reference", started
        )
        page.get_by_role("combobox", name="Held-out text").click()
        page.get_by_role("option", name="Upload").first.click()
        page.wait_for_timeout(150)
        page.wait_for_selector(IDLE, timeout=TIMEOUT)
        started = time.perf_counter()
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').last.set_input_files(str(upload))
        result["upload_curve"], result["upload_complete"] = seconds_to_curve_and_complete(page, upload.name, started)
        page.context.close()
    return result


def cell(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} [{min(values):.2f}–{max(values):.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--before", type=Path, help="another checkout to measure alternately (e.g. main before)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not args.corpus.exists():
        print(f"corpus {args.corpus} not found (pass --corpus FILE); nothing measured")
        return
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} not found: run `bash tests/run.sh` once to install it")
    from playwright.sync_api import sync_playwright

    data = args.corpus.read_bytes()
    roots = {"now": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    results: dict[str, list[dict]] = {name: [] for name in roots}
    with tempfile.TemporaryDirectory(prefix="bpe-bench-") as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for run in range(args.repeat):
            piece = data[run * UPLOAD_BYTES : (run + 1) * UPLOAD_BYTES].decode("utf-8", "ignore").encode()
            for name, root in roots.items():
                upload = Path(tmp) / f"heldout-{name}-{run}.txt"
                upload.write_bytes(piece)
                results[name].append(measure(browser, root, upload))
                print(name, {key: round(value, 2) for key, value in results[name][-1].items()}, flush=True)
        browser.close()

    print(f"\nCompare page in Chromium, {args.repeat} runs each, alternating; seconds, median [min–max]")
    print("| checkout | " + " | ".join(FIGURES) + " |\n|---|" + "---:|" * len(FIGURES))
    for name, runs in results.items():
        print(f"| {name} ({roots[name]}) | " + " | ".join(cell([run[key] for run in runs]) for key in FIGURES) + " |")
    if args.before:
        print("\nbefore / now, per run, median [min–max]:")
        for key in FIGURES:
            ratios = [b[key] / a[key] for a, b in zip(results["now"], results["before"])]
            print(f"- {key}: {statistics.median(ratios):.1f}x [{min(ratios):.1f}–{max(ratios):.1f}]")


if __name__ == "__main__":
    main()
