"""One measurement group of our store, run by ``bench.run`` in a fresh process so each has its own peak RSS.

``python -m bench.measure read FILE`` times ``Session.open`` and ``build_context()``;
``python -m bench.measure append FILE APPENDS.json --durable|--no-durable`` opens FILE (a scratch copy) and
times each append of the messages in APPENDS.json. Prints one JSON object. Imports happen before any clock
starts, as they do on pi's side.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import orjson

import pi_compact.context  # noqa: F401  (build_context imports it on first use: not part of what is timed)
from pi_compact.session import Session


def read(path: str) -> dict:
    started = time.perf_counter()
    session = Session.open(path)
    opened = time.perf_counter()
    context = session.build_context()
    built = time.perf_counter()
    return {
        "open_s": opened - started,
        "context_s": built - opened,
        "entries": len(session),
        **context_digest(context.to_json()),
    }


def context_digest(context: dict) -> dict:
    """What is compared with pi's answer: the messages' count and the sha256 of the compact JSON."""
    return {
        "messages": len(context["messages"]),
        "model": context.get("model"),
        "thinkingLevel": context.get("thinkingLevel"),
        "sha256": hashlib.sha256(orjson.dumps(context)).hexdigest(),
    }


def append(path: str, appends: str, durable: bool) -> dict:
    messages = orjson.loads(open(appends, "rb").read())
    session = Session.open(path, durable=durable)
    times, cpu_times = [], []
    for message in messages:
        started, cpu_started = time.perf_counter(), time.process_time()
        session.append_message(message)
        times.append((time.perf_counter() - started) * 1000)
        cpu_times.append((time.process_time() - cpu_started) * 1000)
    session.close()
    return {"append_ms": times, "append_cpu_ms": cpu_times}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("group", choices=("read", "append"))
    parser.add_argument("file")
    parser.add_argument("appends", nargs="?")
    parser.add_argument("--durable", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    result = read(args.file) if args.group == "read" else append(args.file, args.appends, args.durable)
    print(orjson.dumps(result).decode())


if __name__ == "__main__":
    main()
