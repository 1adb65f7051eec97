"""What a person waits for in the browser: training from the Train page, and the merge player.

    python bench/browser.py [--corpus ../shared/corpora/docs10m.txt] [--repeat 3] [--vocab 5000,8000]
                            [--click-only] [--root DIR] [--json out.json]

Starts the app on a free port and drives Debian's Chromium (headless) with Playwright:

1. Click-to-results: paste 1 MiB of the corpus on the Train page, at each vocab size (5,000 and
   8,000), gpt2 pattern, the default special token; time from clicking Train to the results on
   screen. Each run pastes a different slice in a new session, so the app's result cache never
   answers. ``bpe_core.train``
   on the same slice, in this process, shows what the app adds on top.
2. The Merges page over thousands of merges: train the "Python reference, all" sample to a vocab
   of 8,300 (8,043 merges); click the Merges link and time it until the player has drawn its
   window (and until the script run ends), counting the websocket bytes both ways meanwhile.
3. The player's frames: play from round 0 at 4, 30, 120 and 240 rounds/s (until the last round
   or 40 s). In the page, performance.now() around the player's render() gives the work of each
   drawn frame and requestAnimationFrame deltas give the frame pace; both reported as median,
   99th percentile and max, with the messages the page sent to the server while playing (none).

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

import browser_support  # noqa: E402
from browser_support import CHROMIUM, CHROMIUM_ARGS, IDLE, open_page, paste, streamlit_server  # noqa: E402

import bpe_core  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
PASTE_BYTES = 1 << 20
PASTE_VOCABS = (5_000, 8_000)
PLAYER_SAMPLE = "Python reference, all (English prose, ~470 KB)"
PLAYER_VOCAB = 8_300  # 8,043 merges on this sample
PLAYER_SPEEDS = ("4", "30", "120", "240")  # rounds per second
PLAY_SECONDS = 40  # each speed plays from round 0 until the last round or this long
PAGE_REPEAT = 3
PLAYER = '[data-testid="bpe-player"]'
VIEWPORT = {"width": 1400, "height": 1000}

# Wraps the player's render() (the work of one drawn frame) and counts requestAnimationFrame
# deltas, both with performance.now() in the page.
INSTRUMENT = """() => {
  const player = window.__bpePlayer;
  window.__renders = []; window.__deltas = [];
  if (!player.__benchWrapped) {
    const render = player.render.bind(player);
    player.render = (...args) => { const t0 = performance.now(); const out = render(...args);
      if (window.__counting) window.__renders.push(performance.now() - t0); return out; };
    player.__benchWrapped = true;
  }
  let last = 0;
  const tick = (t) => { if (last) window.__deltas.push(t - last); last = t;
    if (window.__counting) requestAnimationFrame(tick); };
  window.__counting = true; requestAnimationFrame(tick);
}"""


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


def click_to_results(browser, url: str, text: str, vocab: int) -> float:
    """Seconds from clicking Train to the results shown, for text pasted in a fresh session."""
    page, _ = open_page(browser, url, VIEWPORT)
    wait_idle(page)
    choose_corpus(page, "Paste text")
    paste(page, page.get_by_label("Paste your text"), text)
    wait_idle(page)
    set_vocab(page, vocab)
    started = time.perf_counter()
    page.get_by_role("button", name="Train ▶").click()
    page.get_by_role("heading", name="3 · Result").wait_for(timeout=300_000)
    page.locator('[data-testid="stMetric"]').filter(has_text="Merges made").wait_for()
    seconds = time.perf_counter() - started
    page.context.close()
    return seconds


def percentiles(values: list[float]) -> dict:
    """Median, 99th percentile and max of a list of milliseconds."""
    if not values:
        return {"frames": 0, "median": 0.0, "p99": 0.0, "max": 0.0}
    ordered = sorted(values)
    return {
        "frames": len(ordered),
        "median": statistics.median(ordered),
        "p99": ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))],
        "max": ordered[-1],
    }


def train_for_player(page, url: str) -> None:
    page.goto(url)
    wait_idle(page)
    choose_corpus(page, PLAYER_SAMPLE)
    set_vocab(page, PLAYER_VOCAB)
    page.get_by_role("button", name="Train ▶").click()
    page.get_by_role("heading", name="3 · Result").wait_for(timeout=300_000)
    wait_idle(page)


def open_merges(page, sizes: list[int]) -> dict:
    """Seconds from clicking the Merges link to the player's window drawn and to the run's end,
    and the websocket bytes (both ways) meanwhile."""
    sizes.clear()
    started = time.perf_counter()
    page.get_by_role("link", name="Merges").first.click()
    page.locator(f"{PLAYER} .window .tok").first.wait_for(timeout=120_000)
    visible = time.perf_counter() - started
    wait_idle(page)
    page.wait_for_timeout(500)  # late messages of the run (the player's first report, if any)
    wait_idle(page)
    return {"visible_seconds": visible, "websocket_bytes": sum(sizes)}


def merges_page(browser, url: str, repeat: int) -> list[dict]:
    """The first visit of the Merges page, each run in a new session (a later visit may be
    answered by the browser's message cache)."""
    runs = []
    for _ in range(repeat):
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        sizes: list[int] = []

        def watch(socket, sizes=sizes) -> None:
            socket.on("framesent", lambda payload: sizes.append(len(payload)))
            socket.on("framereceived", lambda payload: sizes.append(len(payload)))

        page.on("websocket", watch)
        train_for_player(page, url)
        runs.append(open_merges(page, sizes))
        context.close()
    return runs


def play_at(page, speed: str) -> dict:
    player = page.locator(PLAYER)
    player.locator('button[data-act="first"]').click()
    player.locator("select[data-role=speed]").select_option(speed)
    page.wait_for_timeout(1_000)  # the debounced report of round 0, and its rerun
    wait_idle(page)
    page.evaluate(INSTRUMENT)
    sent: list[float] = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda _p: sent.append(time.perf_counter())))
    started = time.perf_counter()
    player.locator('button[data-act="play"]').click()
    page.wait_for_function(
        "(limit) => (window.__bpePlayer.round >= window.__bpePlayer.n && !window.__bpePlayer.playing)"
        " || performance.now() > limit",
        arg=page.evaluate("() => performance.now()") + PLAY_SECONDS * 1000,
        timeout=PLAY_SECONDS * 1000 + 30_000,
        polling=100,
    )
    seconds = time.perf_counter() - started
    if page.evaluate("() => window.__bpePlayer.playing"):
        player.locator('button[data-act="play"]').click()  # pause
    measured = page.evaluate(
        "() => { window.__counting = false; return {renders: window.__renders, deltas: window.__deltas,"
        " round: window.__bpePlayer.round}; }"
    )
    return {
        "speed": int(speed),
        "rounds_played": measured["round"],
        "seconds": seconds,
        "render_ms": percentiles(measured["renders"]),
        "frame_delta_ms": percentiles(measured["deltas"]),
        "messages_sent_while_playing": sum(1 for moment in sent if started < moment < started + seconds - 0.2),
    }


def play_every_speed(browser, url: str) -> dict:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    train_for_player(page, url)
    page.get_by_role("link", name="Merges").first.click()
    wait_idle(page)
    page.locator(PLAYER).wait_for()
    merges = int(page.evaluate("() => window.__bpePlayer.n"))
    speeds = [play_at(page, speed) for speed in PLAYER_SPEEDS]
    page.screenshot(path=str(ROOT / "bench" / "results" / "player_end.png"))
    context.close()
    return {"merges": merges, "speeds": speeds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--vocab", default=",".join(map(str, PASTE_VOCABS)), help="click-to-results vocab sizes")
    parser.add_argument("--player-only", action="store_true", help="skip the click-to-results runs")
    parser.add_argument("--click-only", action="store_true", help="only the click-to-results runs")
    parser.add_argument("--root", type=Path, help="serve the app of another checkout (e.g. main before a change)")
    args = parser.parse_args()
    if args.root:
        browser_support.ROOT = args.root.resolve()  # streamlit_server runs app.py from this folder
    if not args.corpus.exists():
        print(f"corpus {args.corpus} not found (pass --corpus FILE); nothing measured")
        return
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} not found: run `bash tests/run.sh` once to install it")
    from playwright.sync_api import sync_playwright

    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    vocabs = [] if args.player_only else [int(size) for size in args.vocab.split(",")]
    data = args.corpus.read_bytes()
    slices = [utf8_slice(data, run * PASTE_BYTES, PASTE_BYTES) for run in range(args.repeat)]
    load_at_start = os.getloadavg()
    results: dict = {"load_at_start": load_at_start, "click_to_results": {}}
    with streamlit_server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for vocab in vocabs:  # the app and the library alternate, so a busy machine slows both alike
            in_app, direct = [], []
            for text in slices:
                in_app.append(click_to_results(browser, url, text, vocab))
                started = time.perf_counter()
                bpe_core.train(text, vocab, special_tokens=["<|endoftext|>"])
                direct.append(time.perf_counter() - started)
            results["click_to_results"][vocab] = {"app_seconds": in_app, "bpe_core_train_seconds": direct}
        if not args.click_only:
            results["merges_page"] = merges_page(browser, url, args.repeat)
            results["player"] = play_every_speed(browser, url)
        browser.close()
    results["load_at_end"] = os.getloadavg()

    print(
        f"corpus: {args.corpus.name}; {os.cpu_count()} cores; load at start {load_at_start[0]:.2f}, "
        f"at end {results['load_at_end'][0]:.2f}"
    )
    for vocab, runs in results["click_to_results"].items():
        in_app, direct = runs["app_seconds"], runs["bpe_core_train_seconds"]
        print(f"\nClick Train → results, 1 MiB pasted, vocab {vocab:,}, gpt2 pattern ({args.repeat} runs)")
        print("| | best | median | max |\n|---|---:|---:|---:|")
        for name, values in (("in the browser", in_app), ("bpe_core.train alone", direct)):
            print(f"| {name} | {min(values):.2f} s | {statistics.median(values):.2f} s | {max(values):.2f} s |")
    if args.click_only:
        _write(args.json, results)
        return
    page = results["merges_page"]
    print(f"\nMerges page, {PLAYER_SAMPLE}, vocab {PLAYER_VOCAB:,} ({args.repeat} runs)")
    print("| | median | range |\n|---|---:|---:|")
    for name, key, unit in (("player drawn", "visible_seconds", "s"), ("websocket bytes", "websocket_bytes", "")):
        values = [run[key] for run in page]
        fmt = (lambda v: f"{v:.2f} s") if unit else (lambda v: f"{v / 1000:,.0f} KB")
        print(f"| {name} | {fmt(statistics.median(values))} | {fmt(min(values))}–{fmt(max(values))} |")
    player = results["player"]
    print(
        f"\nMerge player, {player['merges']:,} merges: ms per frame (render = work in render(); "
        "pace = requestAnimationFrame delta)"
    )
    print(
        "| rounds/s | rounds played | frames | render median / p99 / max | pace median / p99 / max "
        "| messages while playing |\n|---:|---:|---:|---:|---:|---:|"
    )
    for row in player["speeds"]:
        render, pace = row["render_ms"], row["frame_delta_ms"]
        print(
            f"| {row['speed']} | {row['rounds_played']:,} | {render['frames']:,} "
            f"| {render['median']:.2f} / {render['p99']:.2f} / {render['max']:.1f} "
            f"| {pace['median']:.1f} / {pace['p99']:.1f} / {pace['max']:.1f} "
            f"| {row['messages_sent_while_playing']} |"
        )
    _write(args.json, results)


def _write(path: Path | None, results: dict) -> None:
    if path:
        path.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
