"""What a person waits for in the browser: training from the Train page, and the merge player.

    python bench/browser.py [--corpus ../shared/corpora/docs10m.txt] [--repeat 3] [--json out.json]

Starts the app on a free port and drives Debian's Chromium (headless) with Playwright:

1. Click-to-results: paste 1 MiB of the corpus on the Train page, vocab 5,000, gpt2 pattern, the
   default special token; time from clicking Train to the results on screen. Each run pastes a
   different slice in a new session, so the app's result cache never answers. ``bpe_core.train``
   on the same slice, in this process, shows what the app adds on top.
2. The player over thousands of merges: train the "Python reference, all" sample to a vocab of
   2,400 (2,143 merges), play every round at 120 rounds/s, and count the frames the player drew,
   the frames the browser delivered (requestAnimationFrame), the slowest frame, and the messages
   the page sent to the server while playing (there should be none).

Needs playwright and /usr/bin/chromium (the test command installs both) and the corpus file.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser_support import CHROMIUM, CHROMIUM_ARGS, IDLE, open_page, paste, streamlit_server  # noqa: E402

import bpe_core  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
PASTE_BYTES = 1 << 20
PASTE_VOCAB = 5_000
PLAYER_SAMPLE = "Python reference, all (English prose, ~470 KB)"
PLAYER_VOCAB = 2_400
PLAYER_SPEED = "120"  # rounds per second: the player must draw at the display's pace, not the round's
PLAYER = '[data-testid="bpe-player"]'
VIEWPORT = {"width": 1400, "height": 1000}


def utf8_slice(data: bytes, start: int, size: int) -> str:
    return data[start : start + size].decode("utf-8", errors="ignore")


def wait_idle(page, timeout: float = 180_000) -> None:
    page.wait_for_timeout(150)
    page.wait_for_selector(IDLE, timeout=timeout)


def choose_corpus(page, option: str) -> None:
    page.get_by_role("combobox", name="Corpus").click()
    page.get_by_role("option", name=option).click()
    wait_idle(page)


def set_vocab(page, size: int) -> None:
    box = page.get_by_role("spinbutton", name="Vocab size")
    box.fill(str(size))
    box.press("Enter")
    wait_idle(page)


def click_to_results(browser, url: str, text: str) -> float:
    """Seconds from clicking Train to the results shown, for text pasted in a fresh session."""
    page, _ = open_page(browser, url, VIEWPORT)
    wait_idle(page)
    choose_corpus(page, "Paste text")
    paste(page, page.get_by_label("Paste your text"), text)
    wait_idle(page)
    set_vocab(page, PASTE_VOCAB)
    started = time.perf_counter()
    page.get_by_role("button", name="Train ▶").click()
    page.get_by_role("heading", name="3 · Result").wait_for(timeout=300_000)
    page.locator('[data-testid="stMetric"]').filter(has_text="Merges made").wait_for()
    seconds = time.perf_counter() - started
    page.context.close()
    return seconds


def play_every_round(browser, url: str) -> dict:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    sent: list[float] = []  # when each websocket frame to the server was sent
    page.on("websocket", lambda socket: socket.on("framesent", lambda _frame: sent.append(time.perf_counter())))
    page.goto(url)
    wait_idle(page)
    choose_corpus(page, PLAYER_SAMPLE)
    set_vocab(page, PLAYER_VOCAB)
    page.get_by_role("button", name="Train ▶").click()
    page.get_by_role("heading", name="3 · Result").wait_for(timeout=300_000)
    wait_idle(page)
    page.get_by_role("link", name="Merges").first.click()
    wait_idle(page)
    player = page.locator(PLAYER)
    player.wait_for()
    merges = int(page.evaluate("() => window.__bpePlayer.n"))
    player.locator('button[data-act="first"]').click()
    player.locator("select[data-role=speed]").select_option(PLAYER_SPEED)
    page.wait_for_timeout(1_000)  # the debounced report of round 0, and its rerun
    wait_idle(page)
    page.evaluate(
        """() => { window.__frames = 0; const count = () => { window.__frames++; if (window.__counting)
        requestAnimationFrame(count); }; window.__counting = true; requestAnimationFrame(count); }"""
    )
    frames_before = page.evaluate("() => window.__frames")
    started = time.perf_counter()
    player.locator('button[data-act="play"]').click()
    page.wait_for_function(
        "() => window.__bpePlayer.round >= window.__bpePlayer.n && !window.__bpePlayer.playing",
        timeout=merges / float(PLAYER_SPEED) * 1000 * 3 + 10_000,
        polling=50,
    )
    seconds = time.perf_counter() - started
    browser_frames = page.evaluate("() => { window.__counting = false; return window.__frames; }") - frames_before
    stats = page.evaluate("() => window.__bpePlayer.stats")
    # The pause at the end reports the round once (after 400 ms): count only what playing sent.
    sent_while_playing = sum(1 for moment in sent if started < moment < started + seconds)
    page.screenshot(path=str(ROOT / "bench" / "results" / "player_end.png"))
    context.close()
    return {
        "merges_played": merges,
        "seconds": seconds,
        "rounds_per_second": merges / seconds,
        "player_frames_per_second": stats["playRenders"] / seconds,
        "browser_frames_per_second": browser_frames / seconds,
        "mean_frame_render_ms": stats["renderMs"] / max(1, stats["renders"]),
        "max_frame_render_ms": stats["maxRenderMs"],
        "messages_sent_while_playing": sent_while_playing,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if not args.corpus.exists():
        print(f"corpus {args.corpus} not found (pass --corpus FILE); nothing measured")
        return
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} not found: run `bash tests/run.sh` once to install it")
    from playwright.sync_api import sync_playwright

    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    data = args.corpus.read_bytes()
    slices = [utf8_slice(data, run * PASTE_BYTES, PASTE_BYTES) for run in range(args.repeat)]
    load_at_start = os.getloadavg()
    results: dict = {"load_at_start": load_at_start}
    with streamlit_server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        in_app = [click_to_results(browser, url, text) for text in slices]
        direct = []
        for text in slices:
            started = time.perf_counter()
            bpe_core.train(text, PASTE_VOCAB, special_tokens=["<|endoftext|>"])
            direct.append(time.perf_counter() - started)
        results["click_to_results"] = {"app_seconds": in_app, "bpe_core_train_seconds": direct}
        results["player"] = play_every_round(browser, url)
        browser.close()
    results["load_at_end"] = os.getloadavg()

    print(f"corpus: {args.corpus.name}; {os.cpu_count()} cores; load at start {load_at_start[0]:.2f}, "
          f"at end {results['load_at_end'][0]:.2f}")
    print(f"\nClick Train → results, 1 MiB pasted, vocab {PASTE_VOCAB:,}, gpt2 pattern ({args.repeat} runs)")
    print("| | best | median |\n|---|---:|---:|")
    print(f"| in the browser | {min(in_app):.2f} s | {statistics.median(in_app):.2f} s |")
    print(f"| bpe_core.train alone | {min(direct):.2f} s | {statistics.median(direct):.2f} s |")
    player = results["player"]
    print(f"\nMerge player, {PLAYER_SAMPLE}, vocab {PLAYER_VOCAB:,}, {PLAYER_SPEED} rounds/s")
    print("| merges played | seconds | rounds/s | frames drawn/s | browser frames/s | mean / max frame ms "
          "| messages to server while playing |\n|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {player['merges_played']:,} | {player['seconds']:.1f} | {player['rounds_per_second']:.0f} "
          f"| {player['player_frames_per_second']:.1f} | {player['browser_frames_per_second']:.1f} "
          f"| {player['mean_frame_render_ms']:.1f} / {player['max_frame_render_ms']:.1f} "
          f"| {player['messages_sent_while_playing']} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
