"""bench/room.py's big sessions: people who each upload megabytes of docs10m and train at a big vocab (a room of
30 at vocab 32,000), measured as the room is: memory, the Merges page, a reload and a restart."""

from __future__ import annotations

import time
from pathlib import Path

import room_support as rs

LONG = 900_000  # ms: the longest wait for a page (30 people on 2 cores load slowly), as bench/room.py's
SETTLE_S = 35.0  # s: longer than the app's release timer (runtime.jobs.release_memory_every, 30 s)


def big(self, folder: Path, docs: Path) -> None:
    """``--big-people`` people each upload their own ``--big-mb`` MB of docs10m (slices a quarter MB apart, so
    no two texts are equal) and train at ``--big-vocab`` at about the same time; server RSS after − before,
    per person; then a reload and a restart, as for the room."""
    args, n = self.args, self.args.big_people
    data = docs.read_bytes()
    size, step = int(args.big_mb * 10**6), max(1, min(250_000, (len(data) - int(args.big_mb * 10**6)) // max(1, n)))
    uploads = []
    for index in range(n):
        upload = folder / f"docs-{args.big_mb:g}mb-{index:02d}.txt"
        upload.write_text(data[index * step : index * step + size].decode("utf-8", "ignore"), encoding="utf-8")
        uploads.append(upload)
    before = rs.usage(self.pid)
    contexts = [self.browser.new_context(viewport=rs.ROOM_VIEWPORT) for _ in range(n)]
    pages = [context.new_page() for context in contexts]
    usings = [rs.open_upload(page, self.url, upload, LONG) for page, upload in zip(pages, uploads)]
    for page in pages:
        rs.set_vocab(page, args.big_vocab)
    rs.idle_all(pages)
    started = time.monotonic()
    for page in pages:
        page.get_by_role("button", name="Train ▶").click()
    for page in pages:
        page.get_by_role("heading", name=rs.RESULT).wait_for(timeout=LONG * max(1, n // 2))
    rs.idle_all(pages)
    seconds, made = time.monotonic() - started, [rs.merges_made(page) for page in pages]
    time.sleep(2)
    now = rs.usage(self.pid)
    per = (now.server_mb - before.server_mb) / n
    self.report["big"] = {"people": n, "MB": args.big_mb, "vocab": args.big_vocab, "merges made": made,
                          "train wall s": seconds, "server MiB": now.server_mb,
                          "server MiB delta per person": per, "jobs MiB": now.jobs_mb}  # fmt: skip
    label = f"big ({n} x {args.big_mb:g} MB, vocab {args.big_vocab:,})"
    self.row(f"{label}: merges made", ", ".join(sorted(set(made))))
    self.row(f"{label}: all trained, from the first click", seconds, "s", 1)
    self.row(f"{label}: server RSS, and after − before per person", f"{now.server_mb:.0f} MiB, {per:.1f}", "MiB")
    # Everyone watches their merges (the sidebar's link: the same session), then goes back to Train.
    for page in pages:
        page.get_by_role("link", name="Merges").first.click()
    for page in pages:
        page.locator('[data-testid="bpe-player"]').wait_for(timeout=LONG)
    rs.idle_all(pages)
    time.sleep(2)
    merged = rs.usage(self.pid)
    per = (merged.server_mb - before.server_mb) / n
    self.report["big"]["after the Merges page"] = {"server MiB": merged.server_mb, "per person MiB": per}
    self.row(f"{label}: after the Merges page, server RSS and per person", f"{merged.server_mb:.0f} MiB, "
             f"{per:.1f}", "MiB")  # fmt: skip
    time.sleep(SETTLE_S)  # what stays: the app's release timer (every 30 s) has handed back what was freed
    settled = rs.usage(self.pid)
    per = (settled.server_mb - before.server_mb) / n
    self.report["big"]["after the Merges page, settled"] = {"server MiB": settled.server_mb, "per person MiB": per}
    self.row(f"{label}: {SETTLE_S:g} s later, server RSS and per person", f"{settled.server_mb:.0f} MiB, "
             f"{per:.1f}", "MiB")  # fmt: skip
    for page in pages:
        page.get_by_role("link", name="Train").first.click()
    rs.idle_all(pages)

    checks = [lambda page, made=made[i], using=usings[i]: rs.work_back(page, args.big_vocab, made, using=using)
              for i in range(n)]  # fmt: skip
    self.navigate("big reload", pages, lambda _, page: page.reload(wait_until="commit"), checks)
    addresses = [page.url for page in pages]
    for page in pages:
        page.close()
    self.start()
    go = lambda i, page: page.goto(rs.on_server(addresses[i], self.url), wait_until="commit")  # noqa: E731
    self.navigate("big restart", [context.new_page() for context in contexts], go, checks)
    for context in contexts:
        context.close()
