"""What a person waits for on the Compare page, in Chromium: a deep link on a fresh server, and the
curve after uploading a 1 MB held-out text.

    python bench/browser_compare.py [--before DIR] [--repeat 3] [--corpus ../shared/corpora/docs10m.txt]

1. Deep link: start a fresh server, open
   ``/Compare?corpus=python-reference-excerpt&vocab=600&pattern=gpt2&view=curve&heldout=reference-rest``
   (with all three reference tokenizers) and time until the curve chart is drawn and the page is idle.
   A fresh server each time: the tokenizer is trained and the references are loaded on that first open.
2. Held-out upload: in that session choose "Upload" as the held-out text and upload 1 MB of the corpus
   (a different slice each time, so no cache answers); time from handing the file to the page until
   the chart with the new text is drawn and the page is idle.

"Drawn" means: the script run has finished, a caption names the measured text, the chart has a canvas
or svg, and the browser has painted two more frames (so chart rendering on the main thread counts).
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


def drawn(page, caption_text: str, timeout: float = 120_000) -> None:
    """Wait until a finished run shows a caption with ``caption_text`` and a rendered chart."""
    page.locator(CAPTION).filter(has_text=caption_text).first.wait_for(timeout=timeout)
    page.wait_for_selector(IDLE, timeout=timeout)
    page.locator(f"{CHART} canvas, {CHART} svg").first.wait_for(timeout=timeout)
    page.evaluate(TWO_FRAMES)


def measure(browser, root: Path, upload: Path) -> dict:
    """One fresh server from ``root``: seconds to the deep-linked curve, then to the uploaded curve."""
    browser_support.ROOT = root  # streamlit_server runs app.py from this folder
    with streamlit_server() as url:
        started = time.perf_counter()
        page, _ = open_page(browser, url + LINK, VIEWPORT)
        drawn(page, "Python reference")
        deep_link = time.perf_counter() - started
        page.get_by_role("combobox", name="Held-out text").click()
        page.get_by_role("option", name="Upload").first.click()
        page.wait_for_timeout(150)
        page.wait_for_selector(IDLE)
        chooser = page.locator('[data-testid="stFileUploaderDropzoneInput"]').last
        started = time.perf_counter()
        chooser.set_input_files(str(upload))
        drawn(page, upload.name)
        uploaded = time.perf_counter() - started
        page.context.close()
    return {"deep_link": deep_link, "upload_curve": uploaded}


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
    roots = {"this checkout": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    results: dict[str, list[dict]] = {name: [] for name in roots}
    with tempfile.TemporaryDirectory(prefix="bpe-bench-") as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for run in range(args.repeat):
            for name, root in roots.items():
                upload = Path(tmp) / f"heldout-{name.split()[0]}-{run}.txt"
                piece = data[run * UPLOAD_BYTES : (run + 1) * UPLOAD_BYTES]  # each server is fresh: same text for both
                upload.write_bytes(piece.decode("utf-8", "ignore").encode())
                results[name].append(measure(browser, root, upload))
                print(name, {key: round(value, 2) for key, value in results[name][-1].items()}, flush=True)
        browser.close()

    print(f"\nCompare page in Chromium, {args.repeat} runs each, alternating (seconds: median [min–max])")
    print("| checkout | deep link, fresh server | curve after a 1 MB held-out upload |\n|---|---:|---:|")
    for name, runs in results.items():
        cells = []
        for key in ("deep_link", "upload_curve"):
            values = [run[key] for run in runs]
            cells.append(f"{statistics.median(values):.2f} [{min(values):.2f}–{max(values):.2f}]")
        print(f"| {name} ({roots[name]}) | {' | '.join(cells)} |")
    if args.before:
        for key in ("deep_link", "upload_curve"):
            ratios = [b[key] / a[key] for a, b in zip(results["this checkout"], results["before"])]
            print(f"{key}: before / now = {statistics.median(ratios):.1f}x [{min(ratios):.1f}–{max(ratios):.1f}]")


if __name__ == "__main__":
    main()
