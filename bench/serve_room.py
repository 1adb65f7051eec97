"""A room served by several app processes behind nginx, each browser kept on one process.

    python bench/serve_room.py [--processes 2] [--people 12] [--chars 20000] [--vocab 1000] [--port 8080]
                               [--json out.json]

What it shows (README, "Serving a room"): N ``streamlit run app.py`` processes on one machine share one workspace
store (``BPE_DATA_DIR``); nginx sends each browser to one process (a cookie it sets on the first response, hashed
to pick the process: Streamlit keeps a session in the process that served its page, and an upload or a
websocket sent to another process would find no session there); a reload may come back to any process and
still finds its work, since the store is shared. Then one process is stopped and every page reloads: the
pages of the stopped process are sent to the others and get their work back from the store.

The room: ``--people`` browser contexts (one Chromium) each paste their own text and train at about the same
time, then reload. Reported: how many people each process served, how many got their own work back after a
reload and after a process was stopped, and each process's CPU-seconds and RSS. Needs nginx (Debian:
``apt-get install nginx``), playwright and /usr/bin/chromium. nginx runs as this user from a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from browser_support import CHROMIUM, CHROMIUM_ARGS, paste, streamlit_process  # noqa: E402
from room_support import RESTORE_WATCH, idle_all, merges_made, own_text, set_vocab, usage, wait_restored  # noqa: E402

NGINX_CONF = """\
# BPE Playground behind nginx: several app processes, each browser kept on one of them.
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    # The route: the cookie nginx set on this browser's first response, or a new random one for a first request.
    map $cookie_bpe_route $bpe_route {{ "" $request_id; default $cookie_bpe_route; }}
    map $http_upgrade $connection_upgrade {{ default upgrade; "" close; }}
    upstream bpe_playground {{
        hash $bpe_route consistent;   # one browser, one process (and its websocket, uploads and downloads)
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 200m;    # Streamlit's upload limit (.streamlit/config.toml)
        location / {{
            proxy_pass http://bpe_playground;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;       # Streamlit's websocket
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_read_timeout 1d;
            add_header Set-Cookie "bpe_route=$bpe_route; Path=/; Max-Age=2592000; SameSite=Lax" always;
            add_header X-BPE-Process $upstream_addr always;
        }}
    }}
}}
"""


def nginx_config(folder: Path, port: int, app_ports: list[int]) -> str:
    servers = "\n".join(f"        server 127.0.0.1:{app_port};" for app_port in app_ports)
    return NGINX_CONF.format(folder=folder, port=port, servers=servers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--people", type=int, default=12)
    parser.add_argument("--chars", type=int, default=20_000)
    parser.add_argument("--vocab", type=int, default=1000)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise SystemExit("nginx is not installed (Debian: apt-get install -y nginx)")
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="bpe-serve-"))
    env = {"BPE_DATA_DIR": str(folder / "store")}
    report: dict = {"processes": args.processes, "people": args.people}
    with ExitStack() as stack, sync_playwright() as playwright:
        servers = [stack.enter_context(streamlit_process(60, env)) for _ in range(args.processes)]
        ports = [int(url.rsplit(":", 1)[1]) for url, _ in servers]
        (folder / "nginx.conf").write_text(nginx_config(folder, args.port, ports))
        proxy = subprocess.Popen([nginx, "-c", str(folder / "nginx.conf"), "-p", str(folder), "-g", "daemon off;"])
        stack.callback(proxy.terminate)
        time.sleep(1)
        base = f"http://127.0.0.1:{args.port}"
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        before = {port: usage(process.pid) for port, (_, process) in zip(ports, servers)}
        people = []
        for index in range(args.people):
            context = browser.new_context(viewport={"width": 1280, "height": 900},
                                          permissions=["clipboard-read", "clipboard-write"])  # fmt: skip
            context.add_init_script(RESTORE_WATCH)
            page = context.new_page()
            served = []
            page.on("response", lambda response, served=served: served.append(response.headers.get("x-bpe-process")))
            page.goto(f"{base}/?corpus=paste")
            people.append((page, own_text(index, args.chars), args.vocab + index, served))
        idle_all([page for page, *_ in people])
        for page, text, vocab, _ in people:
            set_vocab(page, vocab)
            idle_all([page])
            paste(page, page.get_by_label("Paste your text"), text)
            idle_all([page])
            page.get_by_role("button", name="Train ▶").click()
        idle_all([page for page, *_ in people])
        processes = {}
        for _page, _, vocab, served in people:
            seen = {address for address in served if address}
            processes.setdefault(", ".join(sorted(seen)) or "?", []).append(vocab)
        report["people per process"] = {key: len(value) for key, value in processes.items()}
        report["trained right"] = sum(merges_made(page) == f"{vocab - 257:,}" for page, _, vocab, _ in people)

        def reload_all() -> int:
            started = time.time()
            for page, *_ in people:
                page.reload(wait_until="commit")
            timings = wait_restored([page for page, *_ in people], started)
            return sum(
                timing is not None and merges_made(page) == f"{vocab - 257:,}"
                and page.get_by_label("Paste your text").input_value() == text
                for timing, (page, text, vocab, _) in zip(timings, people)
            )  # fmt: skip

        report["own work back after a reload"] = reload_all()
        after = {port: usage(process.pid) for port, (_, process) in zip(ports, servers)}
        report["per process"] = {
            port: {"cpu_s": round(after[port].server_cpu - before[port].server_cpu, 2),
                   "jobs_cpu_s": round(after[port].jobs_cpu - before[port].jobs_cpu, 2),
                   "rss_mb": round(after[port].server_mb)}
            for port in ports
        }  # fmt: skip
        os.kill(servers[0][1].pid, signal.SIGTERM)  # one process goes away: its people are sent to the others
        servers[0][1].wait(30)
        report["own work back after a process stopped"] = reload_all()
        browser.close()
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
