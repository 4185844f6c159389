"""Write ``sessions_fixtures/realistic.jsonl``: a long pi coding session for replays and ``make demo``.

A user and an agent work on ``ledgerline``, a fictional Python tool that turns bank CSV exports into monthly
reports: Sparkasse semicolon exports (a failing pytest run with a traceback, then the fix), Decimal totals, a
categories file, an abandoned pandas attempt (left through a branch with pi's branch summary), a speed-up,
a lint error, commits. About thirty user turns with ``read``/``edit``/``write``/``bash`` calls whose results
run to a few KB, user constraints in English and Chinese ("never edit tests/fixtures", "always run pytest
before committing", "不要修改 README"), identifiers the user names (issue numbers, versions, limits), one user
``!bash``, a ``custom_message``, a label and a session name: about 70k tokens on the active path, so a 32k
window compacts it several times.

Everything is written through :class:`pi_compact.Session`; entry ids and a fixed clock are supplied, so the file
is the same byte for byte on every run. Run: ``python sessions_fixtures/make_realistic.py [OUT]``.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

import orjson

import pi_compact.session as session_module
from pi_compact.session import Session

OUT = Path(__file__).with_name("realistic.jsonl")
CWD = "/home/dev/src/ledgerline"
SEED = 20260105
START_MS = 1_767_600_000_000  # 2026-01-05T08:00:00Z
SYSTEM_PROMPT_TOKENS = 2900
PROVIDER, MODEL, API = "anthropic", "claude-sonnet-4-5", "anthropic-messages"

# -- the provider's token counts -----------------------------------------------------------------------------
# The usage the simulated provider reports: the library's estimate as it was when this file was made (pi's
# chars / 4, CJK one token per character), frozen here so that the fixture stays the same byte for byte when
# the library's estimator changes (as sessions_fixtures/generate.py counts len // 4 itself).

_CJK_RUN = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
                      r"\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f]+")


def provider_tokens(message: dict) -> int:
    texts: list = []
    images = 0
    role = message.get("role")
    blocks = message.get("content")
    if role in ("user", "custom", "toolResult") and isinstance(blocks, str):
        texts.append(blocks)
    elif role in ("user", "custom", "toolResult", "assistant") and isinstance(blocks, list):
        for block in blocks:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind == "text":
                texts.append(block.get("text"))
            elif kind == "image" and role != "assistant":
                images += 1
            elif kind == "thinking" and role == "assistant":
                texts.append(block.get("thinking"))
            elif kind == "toolCall" and role == "assistant":
                texts += [block.get("name"), orjson.dumps(block.get("arguments")).decode()]
    elif role == "bashExecution":
        texts += [message.get("command"), message.get("output")]
    elif role in ("branchSummary", "compactionSummary"):
        texts.append(message.get("summary"))
    texts = [text for text in texts if isinstance(text, str)]
    cjk = sum(len(run) for text in texts if not text.isascii() for run in _CJK_RUN.findall(text))
    return math.ceil((sum(map(len, texts)) - cjk) / 4) + cjk + images * 1200


# -- the fictional project ------------------------------------------------------------------------------------

PARSER_PY = '''"""Read bank CSV exports into Transaction records.

Every bank writes its own dialect: column names, date formats and delimiters differ. parse_file() sniffs
the dialect from the header line and yields one Transaction per data row, in file order.
"""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Iterator

DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%m/%d/%Y")
DATE_COLUMNS = ("date", "booking date", "buchungstag", "valuta")
AMOUNT_COLUMNS = ("amount", "betrag", "value")
TEXT_COLUMNS = ("description", "verwendungszweck", "memo", "payee")


class ParseError(ValueError):
    """A row that cannot be turned into a Transaction."""

    def __init__(self, line_no: int, message: str) -> None:
        super().__init__(f"line {line_no}: {message}")
        self.line_no = line_no


@dataclass(frozen=True)
class Transaction:
    date: dt.date
    amount: Decimal
    description: str
    category: str | None = None


def parse_file(path: str | Path) -> Iterator[Transaction]:
    """Yield the transactions of one export, oldest first as the bank wrote them."""
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        columns = _columns(reader.fieldnames or [])
        for line_no, row in enumerate(reader, start=2):
            yield _row_to_transaction(row, columns, line_no)


def _columns(fieldnames: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for name in fieldnames:
        key = name.strip().lower()
        if key in DATE_COLUMNS and "date" not in found:
            found["date"] = name
        elif key in AMOUNT_COLUMNS and "amount" not in found:
            found["amount"] = name
        elif key in TEXT_COLUMNS and "text" not in found:
            found["text"] = name
    missing = {"date", "amount", "text"} - set(found)
    if missing:
        raise ParseError(1, f"no column for {', '.join(sorted(missing))} in {fieldnames!r}")
    return found


def _row_to_transaction(row: dict[str, str], columns: dict[str, str], line_no: int) -> Transaction:
    date = _parse_date(row[columns["date"]], line_no)
    amount = _parse_amount(row[columns["amount"]], line_no)
    return Transaction(date, amount, row[columns["text"]].strip())


def _parse_date(raw: str, line_no: int) -> dt.date:
    for fmt in DATE_FORMATS:
        try:
            return dt.datetime.strptime(raw.strip(), fmt).date()
        except ValueError:
            continue
    raise ParseError(line_no, f"cannot parse date {raw!r}")


def _parse_amount(raw: str, line_no: int) -> Decimal:
    text = raw.strip().replace(" ", "")
    try:
        return Decimal(text)
    except InvalidOperation:
        raise ValueError(f"line {line_no}: cannot parse amount {raw!r}") from None
'''

REPORT_PY = '''"""Monthly reports: totals per month, and per category within a month."""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from .parser import Transaction


def monthly_totals(transactions: Iterable[Transaction]) -> dict[str, float]:
    totals: dict[str, float] = defaultdict(float)
    for tx in transactions:
        totals[tx.date.strftime("%Y-%m")] += float(tx.amount)
    return dict(sorted(totals.items()))


def render(totals: dict[str, float]) -> str:
    lines = ["month      total"]
    for month, total in totals.items():
        lines.append(f"{month}  {total:10.2f}")
    return "\\n".join(lines)
'''

CLI_PY = '''"""ledgerline command line: ledgerline report FILE [--since YYYY-MM]."""

from __future__ import annotations

import argparse
import sys

from .parser import ParseError, parse_file
from .report import monthly_totals, render


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ledgerline")
    commands = parser.add_subparsers(dest="command", required=True)
    report = commands.add_parser("report", help="Totals per month.")
    report.add_argument("file")
    args = parser.parse_args(argv)
    try:
        transactions = list(parse_file(args.file))
    except (OSError, ParseError) as exc:
        print(f"ledgerline: {exc}", file=sys.stderr)
        return 2
    print(render(monthly_totals(transactions)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

TEST_PARSER_PY = '''from decimal import Decimal
from pathlib import Path

import pytest

from ledger.parser import ParseError, parse_file

FIXTURES = Path(__file__).parent / "fixtures"


def test_parse_dkb_export():
    rows = list(parse_file(FIXTURES / "dkb-2024-02.csv"))
    assert len(rows) == 41
    assert rows[0].amount == Decimal("-54.90")
    assert rows[0].description == "REWE Markt GmbH"


def test_dates_in_three_formats(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("Date,Amount,Description\\n2024-01-02,1,a\\n03.01.2024,2,b\\n01/04/2024,3,c\\n")
    assert [r.date.day for r in parse_file(path)] == [2, 3, 4]


def test_missing_column_is_reported(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("When,Amount\\n2024-01-02,1\\n")
    with pytest.raises(ParseError, match="no column for text"):
        list(parse_file(path))


def test_bad_amount_names_the_line(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("Date,Amount,Description\\n2024-01-02,12x,a\\n")
    with pytest.raises(ValueError, match="line 2"):
        list(parse_file(path))
'''

PYPROJECT = '''[project]
name = "ledgerline"
version = "0.3.2"
description = "Monthly reports from bank CSV exports"
requires-python = ">=3.11"
dependencies = []

[project.scripts]
ledgerline = "ledger.cli:main"

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-q"

[tool.ruff]
line-length = 110
'''

README_MD = """# ledgerline

Monthly reports from the CSV exports of German and US banks, on the command line, with no dependencies
beyond the Python standard library.

```console
$ ledgerline report ~/Downloads/umsaetze-2024-03.csv
2024-03        -1843.22
  groceries     -412.80
  transport     -129.90
```

## Install

    pipx install ledgerline

Python 3.11 or newer is required (ledgerline reads its configuration with `tomllib`).

## Supported exports

| bank | delimiter | decimal | date | notes |
|------|-----------|---------|------|-------|
| DKB | `,` | `.` | `YYYY-MM-DD` | "Umsatzliste" export, UTF-8 |
| US banks (Chase, BoA) | `,` | `.` | `MM/DD/YYYY` | amounts may carry a thousands comma |

Other banks: open an issue with an anonymised export (five rows are enough) and the name of the bank.

## Configuration

Nothing to configure yet. The report groups by month only.

## Development

    python -m venv .venv && .venv/bin/pip install -e '.[dev]'
    .venv/bin/python -m pytest

The test fixtures in `tests/fixtures` are real exports with names and IBANs replaced; please do not
regenerate them. Releases are tagged `vX.Y.Z` on `main` and published by CI.

## Licence

MIT. See LICENSE.
"""

PAYEES = ("REWE Markt GmbH", "Stadtwerke Leipzig", "Deutsche Bahn", "Amazon EU S.a.r.L.", "Lidl Dienstleistung",
          "Spotify AB", "Miete Januar", "Vodafone GmbH", "dm-drogerie markt", "Edeka Center", "Shell Deutschland",
          "Apotheke am Markt", "Gehalt ACME GmbH", "Barmer Krankenkasse", "IKEA Deutschland")


def sparkasse_csv(rng: random.Random, rows: int) -> str:
    lines = ["Buchungstag;Valuta;Verwendungszweck;Betrag;Waehrung"]
    for i in range(rows):
        day = 1 + i * 28 // rows
        amount = rng.choice((-1, -1, -1, 1)) * rng.randint(120, 240000) / 100
        euros = f"{abs(amount):,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
        lines.append(f"{day:02d}.03.2024;{day:02d}.03.2024;{rng.choice(PAYEES)};{'-' if amount < 0 else ''}{euros};EUR")
    return "\n".join(lines) + "\n"


def formats_doc(rng: random.Random) -> str:
    parts = ["# Export formats\n\nNotes on every bank export we have seen, with anonymised sample rows. "
             "Add a section when you add a bank; keep the samples short.\n"]
    banks = (("DKB", ",", "%Y-%m-%d", "Buchungstag,Wertstellung,Buchungstext,Auftraggeber / Beguenstigter,Betrag (EUR)"),
             ("Sparkasse", ";", "%d.%m.%Y", "Buchungstag;Valuta;Verwendungszweck;Betrag;Waehrung"),
             ("Chase", ",", "%m/%d/%Y", "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #"),
             ("Bank of America", ",", "%m/%d/%Y", "Date,Description,Amount,Running Bal."),
             ("ING", ";", "%d.%m.%Y", "Buchung;Valuta;Auftraggeber/Empfaenger;Buchungstext;Verwendungszweck;Betrag;Waehrung"))
    for name, delimiter, fmt, header in banks:
        rows = []
        for i in range(12):
            day = datetime(2024, 1 + i % 12, 1 + (i * 7) % 27)
            amount = rng.randint(-250000, 90000) / 100
            text = rng.choice(PAYEES)
            rows.append(delimiter.join([day.strftime(fmt), day.strftime(fmt), text, f"{amount:.2f}", "EUR"]))
        parts.append(f"## {name}\n\nDelimiter `{delimiter}`, dates as `{fmt}`. Header:\n\n    {header}\n\n"
                     "Sample:\n\n" + "\n".join("    " + r for r in rows) + "\n")
    return "\n".join(parts)


def import_log(rng: random.Random) -> str:
    lines = []
    stamp = datetime(2026, 1, 4, 23, 0, 0)
    files = [f"/srv/imports/inbox/{bank}-{n:04d}.csv" for n, bank in
             enumerate(rng.choice(("dkb", "sparkasse", "chase", "ing")) for _ in range(150))]
    for index, name in enumerate(files):
        rows = rng.randint(40, 900)
        lines.append(f"{stamp:%Y-%m-%d %H:%M:%S},{rng.randint(100, 999)} INFO  ledger.importer: reading {name}")
        if index == 97:
            lines += [f"{stamp:%Y-%m-%d %H:%M:%S},{rng.randint(100, 999)} ERROR ledger.importer: import of {name} failed",
                      "Traceback (most recent call last):",
                      '  File "/srv/ledgerline/src/ledger/importer.py", line 41, in run',
                      "    transactions = list(parse_file(path))",
                      '  File "/srv/ledgerline/src/ledger/parser.py", line 47, in parse_file',
                      "    sample = handle.read(4096)",
                      '  File "<frozen codecs>", line 322, in decode',
                      "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe4 in position 1841: invalid continuation byte",
                      f"{stamp:%Y-%m-%d %H:%M:%S},{rng.randint(100, 999)} WARNING ledger.importer: skipping {name}; "
                      "3 files left in inbox"]
        else:
            lines.append(f"{stamp:%Y-%m-%d %H:%M:%S},{rng.randint(100, 999)} INFO  ledger.importer: {rows} transactions, "
                         f"{rng.randint(1, 14)} months, {rng.randint(0, 30)} categorised by rules")
        stamp = stamp.replace(second=(stamp.second + 7) % 60)
    lines.append("2026-01-04 23:19:02,118 INFO  ledger.importer: done: 149 files imported, 1 failed")
    return "\n".join(lines) + "\n"


def year_head(rng: random.Random, count: int) -> str:
    lines = ["Buchungstag;Valuta;Verwendungszweck;Betrag;Waehrung"]
    for i in range(count):
        amount = rng.randint(-90000, 30000) / 100
        euros = f"{abs(amount):,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
        day = 1 + i // 5
        lines.append(f"{day:02d}.01.2023;{day:02d}.01.2023;{rng.choice(PAYEES)} REF {rng.getrandbits(40):010x};"
                     f"{'-' if amount < 0 else ''}{euros};EUR")
    return "\n".join(lines) + "\n"


def pytest_header(collected: int) -> str:
    return ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.3, pytest-8.3.2, pluggy-1.5.0\n"
            f"rootdir: {CWD}\nconfigfile: pyproject.toml\ncollected {collected} items\n\n")


PYTEST_FAILURE = pytest_header(9) + '''tests/test_parser.py ....F                                               [ 55%]
tests/test_report.py ....                                                [100%]

=================================== FAILURES ===================================
_________________________ test_parse_sparkasse_export __________________________

    def test_parse_sparkasse_export():
>       rows = list(parse_file(FIXTURES / "sparkasse-2024-03.csv"))

tests/test_parser.py:44:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
src/ledger/parser.py:52: in parse_file
    yield _row_to_transaction(row, columns, line_no)
src/ledger/parser.py:71: in _row_to_transaction
    amount = _parse_amount(row[columns["amount"]], line_no)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

raw = '-1.234,56', line_no = 2

    def _parse_amount(raw: str, line_no: int) -> Decimal:
        text = raw.strip().replace(" ", "")
        try:
            return Decimal(text)
        except InvalidOperation:
>           raise ValueError(f"line {line_no}: cannot parse amount {raw!r}") from None
E           ValueError: line 2: cannot parse amount '-1.234,56'

src/ledger/parser.py:87: ValueError
=========================== short test summary info ============================
FAILED tests/test_parser.py::test_parse_sparkasse_export - ValueError: line 2: cannot parse amount '-1.234,56'
========================= 1 failed, 8 passed in 0.38s ==========================


Command exited with code 1'''


def profile_output(rng: random.Random) -> str:
    rows = [("1", "6.112", "6.112", "9.204", "9.204", "{built-in method builtins.exec}"),
            ("1", "0.000", "0.000", "9.204", "9.204", "cli.py:12(main)"),
            ("412338", "1.902", "0.000", "8.871", "0.000", "parser.py:66(_row_to_transaction)"),
            ("412338", "3.015", "0.000", "5.577", "0.000", "parser.py:74(_parse_date)"),
            ("1237014", "2.104", "0.000", "2.562", "0.000", "{built-in method strptime}")]
    funcs = ("_strptime.py:309(_strptime)", "_strptime.py:26(_getlang)", "locale.py:592(getlocale)",
             "csv.py:110(__next__)", "parser.py:81(_parse_amount)", "{method 'strip' of 'str' objects}",
             "{method 'replace' of 'str' objects}", "decimal.py:(__new__)", "re.py:289(_compile)",
             "{method 'lower' of 'str' objects}", "report.py:11(monthly_totals)", "{built-in method _locale.setlocale}")
    for _ in range(90):
        calls = rng.randint(1, 1_300_000)
        tottime = rng.random() * 0.8
        rows.append((str(calls), f"{tottime:.3f}", f"{tottime / calls:.3f}", f"{tottime * 1.4:.3f}",
                     f"{tottime * 1.4 / calls:.3f}", rng.choice(funcs)))
    head = "         14873390 function calls (14873112 primitive calls) in 9.204 seconds\n\n   Ordered by: cumulative time\n\n"
    table = "   ncalls  tottime  percall  cumtime  percall filename:lineno(function)\n"
    return head + table + "\n".join(f"{a:>9} {b:>8} {c:>8} {d:>8} {e:>8} {f}" for a, b, c, d, e, f in rows)


def git_log(rng: random.Random, count: int) -> str:
    subjects = ("Parse DKB exports", "Add --since option stub", "Fix date parsing for US exports", "Add tests for CLI",
                "Initial report command", "Read UTF-8 with BOM", "Document supported banks", "Add pyproject",
                "Handle empty files", "Rename package to ledger")
    return "\n".join(f"{rng.getrandbits(28):07x} {rng.choice(subjects)}" for _ in range(count))


# -- writing pi entries -----------------------------------------------------------------------------------------


class Clock:
    """A fake ``now`` that moves forward a few seconds at every entry."""

    def __init__(self, start_ms: int, rng: random.Random) -> None:
        self.ms = start_ms
        self.rng = rng

    def tick(self, low: float = 1.0, high: float = 9.0) -> int:
        self.ms += int(self.rng.uniform(low, high) * 1000)
        return self.ms

    def iso(self) -> str:
        stamp = datetime.fromtimestamp(self.ms / 1000, tz=timezone.utc)
        return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.ms % 1000:03d}Z"


class Writer:
    """Appends pi-shaped messages to a session with deterministic ids and times."""

    def __init__(self, session: Session, clock: Clock) -> None:
        self.session = session
        self.clock = clock
        self.count = 0

    def next_id(self) -> str:
        self.count += 1
        return hashlib.sha256(f"{SEED}:{self.count}".encode()).hexdigest()[:8]

    def append(self, kind: str, fields: dict, **options) -> dict:
        self.clock.tick()
        return self.session.append(kind, fields, entry_id=self.next_id(), **options)

    def user(self, text: str) -> dict:
        self.clock.tick(20, 90)
        return self.append("message", {"message": {"role": "user", "content": [{"type": "text", "text": text}],
                                                   "timestamp": self.clock.ms}})

    def assistant(self, text: str = "", calls: tuple = (), thinking: str = "") -> dict:
        content = [{"type": "thinking", "thinking": thinking, "thinkingSignature": "sig"}] if thinking else []
        content += [{"type": "text", "text": text}] if text else []
        for name, arguments in calls:
            content.append({"type": "toolCall", "id": f"toolu_{self.next_id()}{self.count:04d}", "name": name,
                            "arguments": arguments})
        message = {"role": "assistant", "content": content, "api": API, "provider": PROVIDER, "model": MODEL,
                   "usage": self._usage(content), "stopReason": "toolUse" if calls else "stop"}
        self.clock.tick(3, 25)
        return self.append("message", {"message": {**message, "timestamp": self.clock.ms}})

    def _usage(self, content: list) -> dict:
        context = sum(map(provider_tokens, self.session.build_context().messages))
        output = provider_tokens({"role": "assistant", "content": content})
        cached = max(0, context - 2000)
        fresh = context + SYSTEM_PROMPT_TOKENS - cached
        cost = {"input": fresh * 3e-6, "output": output * 15e-6, "cacheRead": cached * 0.3e-6, "cacheWrite": 0}
        return {"input": fresh, "output": output, "cacheRead": cached, "cacheWrite": 0,
                "totalTokens": fresh + cached + output,
                "cost": {**{k: round(v, 6) for k, v in cost.items()}, "total": round(sum(cost.values()), 6)}}

    def result(self, call: dict, text: str, *, error: bool = False, details: dict | None = None) -> dict:
        message = {"role": "toolResult", "toolCallId": call["id"], "toolName": call["name"],
                   "content": [{"type": "text", "text": text}]}
        if details is not None:
            message["details"] = details
        self.clock.tick(0.2, 4)
        return self.append("message", {"message": {**message, "isError": error, "timestamp": self.clock.ms}})

    def tools(self, text: str, *steps: tuple, thinking: str = "") -> dict:
        """One assistant message calling every tool of ``steps`` ``(name, args, result[, error])``, then the results."""
        entry = self.assistant(text, tuple((s[0], s[1]) for s in steps), thinking)
        calls = [b for b in entry["message"]["content"] if b["type"] == "toolCall"]
        for call, step in zip(calls, steps):
            error = len(step) > 3 and step[3]
            details = {"diff": _diff(step[1])} if step[0] == "edit" and not error else None
            last = self.result(call, step[2], error=error, details=details)
        return last


def _diff(arguments: dict) -> str:
    old = [f"-  {line}" for line in arguments["oldText"].splitlines()]
    new = [f"+  {line}" for line in arguments["newText"].splitlines()]
    return "\n".join(["      ...", *old, *new, "      ..."])


def read(path: str, content: str) -> tuple:
    return ("read", {"path": path}, content)


def write(path: str, content: str) -> tuple:
    return ("write", {"path": path, "content": content}, f"Successfully wrote {len(content.encode())} bytes to {path}")


def edit(path: str, old: str, new: str) -> tuple:
    return ("edit", {"path": path, "oldText": old, "newText": new}, f"Successfully replaced text in {path}.")


def bash(command: str, output: str, error: bool = False) -> tuple:
    return ("bash", {"command": command}, output, error)


# -- the conversation -------------------------------------------------------------------------------------------

RULES = """Ground rules for this whole session:
- Never edit anything under tests/fixtures: those CSVs are real (anonymised) bank exports.
- Always run pytest before committing.
- 不要修改 README.md，文档由另一位同事维护。
- Keep the public API `parse_file(path)` unchanged."""

SNIFF_OLD = '''        reader = csv.DictReader(handle)'''
SNIFF_NEW = '''        sample = handle.read(4096)
        handle.seek(0)
        delimiter = ";" if sample.count(";") > sample.count(",") else ","
        reader = csv.DictReader(handle, delimiter=delimiter)'''
AMOUNT_OLD = '''    text = raw.strip().replace(" ", "")
    try:'''
AMOUNT_NEW = '''    text = raw.strip().replace(" ", "")
    if "," in text and (text.rfind(",") > text.rfind(".")):
        # decimal comma (German exports): "-1.234,56" -> "-1234.56"
        text = text.replace(".", "").replace(",", ".")
    try:'''
DATE_OLD = '''def _parse_date(raw: str, line_no: int) -> dt.date:
    for fmt in DATE_FORMATS:'''
DATE_NEW = '''def _parse_date(raw: str, line_no: int) -> dt.date:
    text = raw.strip()
    # fast paths: strptime is ~3 us a call and dominated the profile
    if len(text) == 10 and text[4] == "-" and text[7] == "-":
        return dt.date(int(text[:4]), int(text[5:7]), int(text[8:]))
    if len(text) == 10 and text[2] == "." and text[5] == ".":
        return dt.date(int(text[6:]), int(text[3:5]), int(text[:2]))
    for fmt in DATE_FORMATS:'''
SKIP_OLD = '''        for line_no, row in enumerate(reader, start=2):
            yield _row_to_transaction(row, columns, line_no)'''
SKIP_NEW = '''        for line_no, row in enumerate(reader, start=2):
            if _is_trailer(row[columns["date"]]):
                continue
            yield _row_to_transaction(row, columns, line_no)


def _is_trailer(date: str | None) -> bool:
    """Sparkasse ends large exports with a balance line ("Kontostand ...") and sometimes a blank date."""
    return not date or not date.strip() or date.strip().startswith("Kontostand")'''

REPORT_DECIMAL = '''"""Monthly reports: totals per month, and per category within a month.

Amounts stay Decimal end to end (never float): a report must add up to the cent.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Callable, Iterable

from .parser import Transaction

CENT = Decimal("0.01")
UNCATEGORISED = "(uncategorised)"


def monthly_totals(
    transactions: Iterable[Transaction], categorise: Callable[[Transaction], str | None] = lambda tx: None
) -> dict[str, dict[str, Decimal]]:
    """{month: {category: total}}, months and categories sorted."""
    totals: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for tx in transactions:
        month = tx.date.strftime("%Y-%m")
        totals[month][categorise(tx) or UNCATEGORISED] += tx.amount
    return {month: dict(sorted(cats.items())) for month, cats in sorted(totals.items())}


def render(totals: dict[str, dict[str, Decimal]]) -> str:
    lines = []
    for month, categories in totals.items():
        month_total = sum(categories.values(), Decimal(0))
        lines.append(f"{month}  {month_total.quantize(CENT):>12}")
        for category, total in categories.items():
            lines.append(f"  {category:<24}{total.quantize(CENT):>12}")
    return "\\n".join(lines)
'''

REPORT_PANDAS = '''"""Monthly reports with pandas."""

from __future__ import annotations

import pandas as pd

from .parser import Transaction


def monthly_totals(transactions, categorise=lambda tx: None):
    frame = pd.DataFrame(
        [{"month": tx.date.strftime("%Y-%m"), "category": categorise(tx) or "(uncategorised)", "amount": tx.amount}
         for tx in transactions]
    )
    grouped = frame.groupby(["month", "category"])["amount"].sum()
    return {month: grouped[month].to_dict() for month in grouped.index.levels[0]}
'''

CATEGORIES_PY = '''"""Category rules: which payees belong to which category, read from a TOML file.

The file is ``~/.config/ledgerline/categories.toml`` unless LEDGERLINE_CATEGORIES names another one::

    [categories]
    groceries = ["REWE", "Lidl", "Edeka"]
    transport = ["Deutsche Bahn", "Shell"]

A transaction gets the first category one of whose payee substrings occurs in its description.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .parser import Transaction

DEFAULT_PATH = Path("~/.config/ledgerline/categories.toml")
ENV_VAR = "LEDGERLINE_CATEGORIES"


@dataclass(frozen=True)
class Rules:
    patterns: tuple[tuple[str, str], ...] = ()
    """(substring, category) pairs, in file order."""

    def categorise(self, tx: Transaction) -> str | None:
        for substring, category in self.patterns:
            if substring.casefold() in tx.description.casefold():
                return category
        return None


def rules_path() -> Path:
    return Path(os.environ.get(ENV_VAR) or DEFAULT_PATH).expanduser()


def load_rules(path: Path | None = None) -> Rules:
    """The rules of ``path`` (default: rules_path()); no file means no rules."""
    path = path or rules_path()
    if not path.is_file():
        return Rules()
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    table = data.get("categories", {})
    pairs = [(str(s), str(category)) for category, substrings in table.items() for s in substrings]
    return Rules(tuple(pairs))
'''

TEST_CATEGORIES_PY = '''import datetime as dt
from decimal import Decimal

from ledger.categories import ENV_VAR, Rules, load_rules
from ledger.parser import Transaction


def tx(description: str) -> Transaction:
    return Transaction(dt.date(2024, 3, 1), Decimal("-1.00"), description)


def test_first_matching_category_wins(tmp_path):
    path = tmp_path / "categories.toml"
    path.write_text('[categories]\\ngroceries = ["REWE", "Lidl"]\\nshops = ["Markt"]\\n')
    rules = load_rules(path)
    assert rules.categorise(tx("REWE Markt GmbH")) == "groceries"
    assert rules.categorise(tx("Apotheke am Markt")) == "shops"
    assert rules.categorise(tx("Spotify AB")) is None


def test_missing_file_means_no_rules(tmp_path):
    assert load_rules(tmp_path / "nope.toml") == Rules()


def test_env_var_overrides_the_default_path(tmp_path, monkeypatch):
    path = tmp_path / "mine.toml"
    path.write_text('[categories]\\nrent = ["Miete"]\\n')
    monkeypatch.setenv(ENV_VAR, str(path))
    assert load_rules().categorise(tx("Miete Januar")) == "rent"
'''

CHANGELOG = '''# Changelog

All notable changes to ledgerline are documented here. The format follows Keep a Changelog, and the project
uses semantic versioning.

## 0.3.2 - 2025-12-18
### Fixed
- US exports with `MM/DD/YYYY` dates were read as day-first (#51).
- A UTF-8 byte order mark at the start of a file no longer ends up in the first column name.

## 0.3.1 - 2025-11-30
### Added
- `ledgerline report` prints totals per month.
### Fixed
- Empty exports (header only) no longer crash the report (#39).

## 0.3.0 - 2025-11-02
### Added
- DKB exports (comma-separated, `YYYY-MM-DD` dates).
- `parse_file()` yields `Transaction` records; `ParseError` names the line.
### Changed
- The package is now `ledger` (was `ledgerline_core`).

## 0.2.0 - 2025-09-14
### Added
- First public version: a single-bank parser and a `--help` that lists nothing useful.
'''


def conversation(w: Writer, rng: random.Random) -> None:
    explore(w)
    march = sparkasse_csv(rng, 200)
    sparkasse(w, march)
    decimal_report(w, rng)
    pandas_then_back(w)
    categories(w, rng)
    speed(w, rng)
    since_option(w)
    lint_and_release(w)
    nightly_import(w, rng)
    trailer_lines(w)
    wrap_up(w)


def explore(w: Writer) -> None:
    w.user("I'm working on ledgerline: it reads bank CSV exports and prints monthly reports. Read "
           "src/ledger/parser.py, src/ledger/report.py and src/ledger/cli.py and explain how parsing works today.\n\n"
           + RULES)
    w.tools("Let me get an overview of the repository first.",
            bash("rg --files | sort", "CHANGELOG.md\nLICENSE\nREADME.md\ndocs/formats.md\npyproject.toml\n"
                 "src/ledger/__init__.py\nsrc/ledger/cli.py\nsrc/ledger/parser.py\nsrc/ledger/report.py\n"
                 "tests/conftest.py\ntests/fixtures/dkb-2024-02.csv\ntests/fixtures/sparkasse-2024-03.csv\n"
                 "tests/fixtures/us-2023-12.csv\ntests/test_parser.py\ntests/test_report.py\n"),
            read("README.md", README_MD), read("docs/formats.md", formats_doc(w.clock.rng)))
    w.tools("Now the three modules.", read("src/ledger/parser.py", PARSER_PY),
            read("src/ledger/report.py", REPORT_PY), read("src/ledger/cli.py", CLI_PY))
    w.assistant(
        "Here is how parsing works today.\n\n"
        "**Entry point.** `parse_file(path)` opens the file with `encoding=\"utf-8-sig\"` (so a byte order mark is "
        "dropped) and wraps it in a `csv.DictReader` with the default comma delimiter. It is a generator: one "
        "`Transaction` per data row, in file order, and nothing is read until you iterate.\n\n"
        "**Column detection.** `_columns()` maps the header names, case-insensitively, to three roles: a date "
        "column (`date`, `booking date`, `buchungstag`, `valuta`), an amount column (`amount`, `betrag`, `value`) "
        "and a text column (`description`, `verwendungszweck`, `memo`, `payee`). The first match wins; a missing "
        "role raises `ParseError(1, ...)`, so a wrong file fails on line 1 with the header in the message.\n\n"
        "**Rows.** `_row_to_transaction()` parses the date with three `strptime` formats in turn (`%Y-%m-%d`, "
        "`%d.%m.%Y`, `%m/%d/%Y`) and the amount with `Decimal` after removing spaces. Note two inconsistencies:\n"
        "1. a bad date raises `ParseError`, but a bad amount raises a plain `ValueError` — the CLI only catches "
        "`ParseError`, so a bad amount ends in a traceback;\n"
        "2. `Decimal` is used for parsing, but `report.monthly_totals()` converts every amount to `float` and sums "
        "floats, so totals can be off by a cent on large files.\n\n"
        "**The CLI.** `ledgerline report FILE` parses the whole file into a list and prints `render()` of the "
        "monthly totals; `OSError` and `ParseError` become one line on stderr and exit code 2.\n\n"
        "Only comma-separated files with a dot as decimal separator work today, i.e. DKB and the US exports. "
        "I've noted your rules: nothing under tests/fixtures gets edited, pytest runs before every commit, "
        "README.md stays untouched, and `parse_file(path)` keeps its signature.")


def sparkasse(w: Writer, march: str) -> None:
    w.user("Add support for Sparkasse exports: semicolon-delimited, decimal comma (amounts like `-1.234,56`), "
           "dates like `05.03.2024`. There's a real export in tests/fixtures/sparkasse-2024-03.csv. "
           "This is issue #42.")
    w.tools("Let me look at the fixture and the existing tests.",
            bash("ls -la tests/fixtures", "total 64\ndrwxr-xr-x 2 dev dev  4096 Jan  4 17:02 .\n"
                 "drwxr-xr-x 3 dev dev  4096 Jan  4 17:02 ..\n-rw-r--r-- 1 dev dev  3411 Nov  2 10:15 dkb-2024-02.csv\n"
                 f"-rw-r--r-- 1 dev dev {len(march.encode()):5d} Jan  4 17:02 sparkasse-2024-03.csv\n"
                 "-rw-r--r-- 1 dev dev   734 Dec 18 09:40 us-2023-12.csv\n"),
            read("tests/fixtures/sparkasse-2024-03.csv", march), read("tests/test_parser.py", TEST_PARSER_PY))
    test = ('\n\ndef test_parse_sparkasse_export():\n    rows = list(parse_file(FIXTURES / "sparkasse-2024-03.csv"))\n'
            '    assert len(rows) == 200\n    assert rows[0].date.isoformat() == "2024-03-01"\n'
            '    assert all(isinstance(r.amount, Decimal) for r in rows)\n')
    w.tools("The export uses `;` and German number formatting. I'll sniff the delimiter from the first 4 KB "
            "and add a test against the fixture (reading it only).",
            edit("src/ledger/parser.py", SNIFF_OLD, SNIFF_NEW),
            edit("tests/test_parser.py", "        list(parse_file(path))\n",
                 "        list(parse_file(path))\n" + test),
            bash("python -m pytest -q", PYTEST_FAILURE, True))
    w.tools("", edit("src/ledger/parser.py", AMOUNT_OLD, AMOUNT_NEW), thinking=(
        "The delimiter works now (the row was split correctly: raw = '-1.234,56'), but _parse_amount hands "
        "'-1.234,56' straight to Decimal. I need to normalise decimal commas: when the last comma comes after the "
        "last dot, dots are thousands separators. Must not break '1,234.56' (US exports)."))
    w.tools("", bash("python -m pytest -q", "..........                                                     [100%]\n"
                     "10 passed in 0.41s\n"))
    w.assistant("Sparkasse exports parse now (#42):\n\n- `parse_file()` sniffs the delimiter from the first 4 KB "
                "(`;` when semicolons outnumber commas);\n- `_parse_amount()` understands decimal commas: when the last "
                "comma comes after the last dot, dots are thousands separators (`-1.234,56` → `-1234.56`), so US "
                "amounts like `1,234.56` are unaffected;\n- dates like `05.03.2024` already matched `%d.%m.%Y`.\n\n"
                "The first test run failed with `ValueError: line 2: cannot parse amount '-1.234,56'` — the decimal "
                "comma — fixed by the second edit. All 10 tests pass. The fixture was only read.")


def decimal_report(w: Writer, rng: random.Random) -> None:
    w.user("Good. Commit it, and mention #42 in the message.")
    w.tools("", bash("python -m pytest -q && git add src/ledger/parser.py tests/test_parser.py && "
                             "git commit -m 'Parse Sparkasse semicolon exports with decimal commas (#42)'",
                             "..........                                                     [100%]\n10 passed in 0.40s\n"
                             "[main 4be1c07] Parse Sparkasse semicolon exports with decimal commas (#42)\n"
                             " 2 files changed, 19 insertions(+), 2 deletions(-)\n"))
    committed = w.assistant("Committed as 4be1c07 after a green test run.")
    w.append("label", {"targetId": committed["id"], "label": "sparkasse-done"})
    w.user("The report still uses float. Amounts must be Decimal end to end, never float. Show totals with "
           "exactly 2 decimals, and break each month down by category (use None as category for now).")
    report_tests = ("from decimal import Decimal\n\nfrom ledger.parser import parse_file\n"
                    "from ledger.report import monthly_totals, render\n\n\n"
                    "def test_totals_are_decimal(fixtures):\n"
                    "    totals = monthly_totals(parse_file(fixtures / 'dkb-2024-02.csv'))\n"
                    "    assert all(isinstance(v, Decimal) for cats in totals.values() for v in cats.values())\n")
    output = "\n".join(f"2024-02  {rng.randint(-400000, 300000) / 100:>12.2f}\n  (uncategorised)         "
                       f"{rng.randint(-400000, 300000) / 100:>12.2f}" for _ in range(1))
    w.tools("I'll rewrite the report module around Decimal.", read("src/ledger/report.py", REPORT_PY),
            read("tests/test_report.py", report_tests))
    w.tools("", write("src/ledger/report.py", REPORT_DECIMAL),
            edit("src/ledger/cli.py", "    print(render(monthly_totals(transactions)))",
                 "    print(render(monthly_totals(transactions)))  # categories come later"),
            bash("python -m pytest -q", "..........                                                     [100%]\n"
                 "10 passed in 0.39s\n"),
            bash("python -m ledger.cli report tests/fixtures/dkb-2024-02.csv", output))
    w.assistant("`report.py` now keeps `Decimal` throughout: totals are summed as `Decimal`, quantized to `0.01` "
                "only when printed (`CENT`), and `monthly_totals()` returns `{month: {category: total}}` with an "
                "optional `categorise` callable (everything is `(uncategorised)` until we have rules). Tests pass.")


def pandas_then_back(w: Writer) -> None:
    anchor = w.session.leaf_id
    w.user("Would pandas make the report code simpler? Try it quickly.")
    pip_log = "\n".join(f"Collecting {p}\n  Downloading {p}-{v}-cp312-cp312-manylinux_2_17_x86_64.whl ({s} MB)"
                        for p, v, s in (("pandas", "2.2.3", "12.7"), ("numpy", "2.2.1", "16.4"),
                                        ("python-dateutil", "2.9.0", "0.2"), ("pytz", "2024.2", "0.5"),
                                        ("tzdata", "2024.2", "0.3")))
    w.tools("", bash("pip install pandas", pip_log + "\nSuccessfully installed numpy-2.2.1 pandas-2.2.3 "
                     "python-dateutil-2.9.0 pytz-2024.2 tzdata-2024.2\n"),
            write("src/ledger/report.py", REPORT_PANDAS),
            bash("python -X importtime -m ledger.cli report tests/fixtures/dkb-2024-02.csv 2>&1 | tail -3",
                 "import time:      1873 |     611243 | pandas\nimport time:       402 |     611998 | ledger.report\n"
                 "2024-02      -1843.22\n"))
    w.assistant("The pandas version is 12 lines shorter, but the CLI's import time goes from 45 ms to 612 ms and "
                "the install pulls in ~35 MB (pandas + numpy).")
    w.user("No — that's far too heavy for a small CLI. Go back to the Decimal version.")
    w.session.move_leaf(anchor)
    w.clock.tick(30, 60)
    summary = ("## Goal\nTry pandas for the monthly report.\n\n## Progress\n### Done\n- [x] `pip install pandas` "
               "(pandas 2.2.3, numpy 2.2.1)\n- [x] Rewrote src/ledger/report.py with a pandas groupby\n\n"
               "## Key Decisions\n- **Abandoned**: import time 45 ms → 612 ms and ~35 MB of dependencies; the user "
               "wants the stdlib Decimal version.\n\n<modified-files>\nsrc/ledger/report.py\n</modified-files>")
    # what Session.append_branch_summary writes, with our own id
    w.append("branch_summary", {"fromId": anchor, "summary": summary, "details": {"readFiles": [],
             "modifiedFiles": ["src/ledger/report.py"]}, "fromHook": False}, parent_id=anchor)


def categories(w: Writer, rng: random.Random) -> None:
    w.user("Where do categories come from right now?")
    w.tools("", bash("grep -rn categor src tests", "src/ledger/report.py:1:\"\"\"Monthly reports: totals per month, "
                     "and per category within a month.\nsrc/ledger/report.py:19:    transactions: Iterable[Transaction],"
                     " categorise: Callable[[Transaction], str | None] = lambda tx: None\n"
                     "src/ledger/report.py:25:        totals[month][categorise(tx) or UNCATEGORISED] += tx.amount\n"))
    w.assistant("Nowhere yet: `monthly_totals()` takes a `categorise` callable, and the CLI passes none, so "
                "everything lands in `(uncategorised)`.")
    w.user("Read the category rules from `~/.config/ledgerline/categories.toml`, overridable with the "
           "LEDGERLINE_CATEGORIES environment variable. Format: a `[categories]` table mapping a category to a list "
           "of payee substrings; matching is case-insensitive and the first match wins. Use tomllib — don't add "
           "any new dependencies.")
    w.tools("", write("src/ledger/categories.py", CATEGORIES_PY.replace("import os\n", "import os\nimport sys\n")),
            edit("src/ledger/cli.py", "from .report import monthly_totals, render",
                 "from .categories import load_rules\nfrom .report import monthly_totals, render"),
            edit("src/ledger/cli.py", "    print(render(monthly_totals(transactions)))  # categories come later",
                 "    rules = load_rules()\n    print(render(monthly_totals(transactions, rules.categorise)))"),
            write("tests/test_categories.py", TEST_CATEGORIES_PY))
    lint = ("src/ledger/categories.py:16:8: F401 [*] `sys` imported but unused\n   |\n15 | import os\n"
            "16 | import sys\n   |        ^^^ F401\n17 | import tomllib\n   |\n   = help: Remove unused import: `sys`\n\n"
            "Found 1 error.\n[*] 1 fixable with the `--fix` option.\n\n\nCommand exited with code 1")
    w.tools("", bash("python -m pytest -q", ".............                                                  [100%]\n"
                     "13 passed in 0.44s\n"), bash("ruff check src tests", lint, True))
    w.tools("", edit("src/ledger/categories.py", "import os\nimport sys\n", "import os\n"),
            bash("ruff check src tests && python -m pytest -q", "All checks passed!\n"
                 ".............                                                  [100%]\n13 passed in 0.43s\n"))
    w.assistant("Categories come from `categories.toml` now (`ledger/categories.py`): `LEDGERLINE_CATEGORIES` "
                "overrides the default path, a missing file means no rules, matching is case-insensitive and the "
                "first match wins. ruff flagged an unused `import sys` (F401), removed. 13 tests pass.")
    w.clock.tick(60, 120)
    w.append("message", {"message": {"role": "bashExecution", "command": "git status --short",
                                     "output": " M src/ledger/cli.py\n?? src/ledger/categories.py\n"
                                               "?? tests/test_categories.py\n",
                                     "exitCode": 0, "cancelled": False, "truncated": False, "timestamp": w.clock.ms}})
    w.user("Commit this too.")
    w.tools("", bash("python -m pytest -q && git add src/ledger/cli.py src/ledger/categories.py "
                     "tests/test_categories.py && git commit -m 'Category rules from categories.toml'",
                     ".............                                                  [100%]\n13 passed in 0.42s\n"
                     "[main 91d0e3a] Category rules from categories.toml\n 3 files changed, 88 insertions(+), "
                     "2 deletions(-)\n create mode 100644 src/ledger/categories.py\n"
                     " create mode 100644 tests/test_categories.py\n"))
    w.assistant("Committed as 91d0e3a (tests green first).")
    w.user("Show me the last few commits.")
    w.tools("", bash("git log --oneline -12", "91d0e3a Category rules from categories.toml\n"
                     "4be1c07 Parse Sparkasse semicolon exports with decimal commas (#42)\n" + git_log(rng, 10)))
    w.assistant("The two commits of today are on top: 91d0e3a (categories) and 4be1c07 (Sparkasse, #42).")


def speed(w: Writer, rng: random.Random) -> None:
    w.user("Parsing a full-year export (412,338 rows, 48 MB, /tmp/year-2023.csv) takes 9.2 s. Profile it. "
           "Target: under 2 s for that file, without changing results.")
    w.tools("", bash("head -150 /tmp/year-2023.csv", year_head(rng, 149)))
    w.tools("", bash("python -m cProfile -s cumtime -m ledger.cli report /tmp/year-2023.csv | head -100",
                     profile_output(rng)))
    w.tools("`_parse_date` dominates: `strptime` is called up to three times per row. I'll add fast paths for the "
            "two fixed-width formats before falling back to `strptime`.",
            edit("src/ledger/parser.py", DATE_OLD, DATE_NEW),
            bash("time python -m ledger.cli report /tmp/year-2023.csv > /tmp/after.txt && "
                 "diff /tmp/before.txt /tmp/after.txt && echo same", "same\n\nreal\t0m1.71s\nuser\t0m1.62s\n"
                 "sys\t0m0.08s\n"),
            bash("python -m pytest -q", ".............                                                  [100%]\n"
                 "13 passed in 0.40s\n"))
    w.assistant("The full-year file now takes 1.71 s (was 9.2 s) with identical output (`diff` of the two reports "
                "is empty). The fast paths slice `YYYY-MM-DD` and `DD.MM.YYYY` directly; anything else still goes "
                "through `strptime`.")


def since_option(w: Writer) -> None:
    w.user("Add a `--since 2024-01` option to the report command: months before it are skipped. "
           "必须保持 `parse_file` 的签名不变，过滤放在 report 里做。")
    cli = CLI_PY.replace("from .report import monthly_totals, render",
                         "from .categories import load_rules\nfrom .report import monthly_totals, render")
    w.tools("", read("src/ledger/cli.py", cli))
    w.tools("", edit("src/ledger/cli.py", '    report.add_argument("file")',
                     '    report.add_argument("file")\n    report.add_argument("--since", metavar="YYYY-MM", '
                     'help="Skip months before this one.")'),
            edit("src/ledger/report.py", "    for tx in transactions:\n        month = tx.date.strftime(\"%Y-%m\")",
                 "    for tx in transactions:\n        month = tx.date.strftime(\"%Y-%m\")\n"
                 "        if since and month < since:\n            continue"),
            edit("tests/test_report.py", "    assert all(isinstance(v, Decimal)",
                 "    assert all(isinstance(v, Decimal)"),
            bash("python -m pytest -q", "..............                                                 [100%]\n"
                 "14 passed in 0.45s\n"))
    w.assistant("`ledgerline report FILE --since 2024-01` skips earlier months; the filter lives in "
                "`monthly_totals(..., since=...)`, and `parse_file(path)` is unchanged. 14 tests pass.")


def lint_and_release(w: Writer) -> None:
    w.clock.tick(300, 600)
    w.append("custom_message", {"customType": "ci-status", "content": "CI for ledgerline@main: job `lint` failed "
                                "(ruff), job `test` passed.", "display": True})
    w.user("CI says lint failed. Check it.")
    lint = ("tests/test_categories.py:14:111: E501 Line too long (118 > 110)\n"
            "src/ledger/report.py:19:111: E501 Line too long (117 > 110)\nFound 2 errors.\n\n\nCommand exited with code 1")
    w.tools("", bash("ruff check .", lint, True))
    w.tools("", edit("src/ledger/report.py", "    transactions: Iterable[Transaction], categorise:",
                     "    transactions: Iterable[Transaction],\n    categorise:"),
            edit("tests/test_categories.py", "    path.write_text('[categories]\\ngroceries = [\"REWE\", \"Lidl\"]",
                 "    path.write_text(\n        '[categories]\\ngroceries = [\"REWE\", \"Lidl\"]"),
            bash("ruff check . && python -m pytest -q", "All checks passed!\n"
                 "..............                                                 [100%]\n14 passed in 0.44s\n"))
    w.assistant("Two E501 (line too long) errors, both wrapped. ruff and pytest are green.")
    w.user("Add a CHANGELOG entry for 0.4.0 and bump the version. Don't touch README.md.")
    entry = ("## 0.4.0 - 2026-01-05\n### Added\n- Sparkasse exports: `;` delimiter, decimal commas (#42).\n"
             "- Categories from `~/.config/ledgerline/categories.toml` (`LEDGERLINE_CATEGORIES`).\n"
             "- `ledgerline report --since YYYY-MM`.\n### Changed\n- Totals are `Decimal`, printed with 2 decimals.\n"
             "- Date parsing is 5x faster on large files.\n\n")
    w.tools("", read("CHANGELOG.md", CHANGELOG), read("pyproject.toml", PYPROJECT))
    w.tools("", edit("CHANGELOG.md", "## 0.3.2 - 2025-12-18", entry + "## 0.3.2 - 2025-12-18"),
            edit("pyproject.toml", 'version = "0.3.2"', 'version = "0.4.0"'),
            bash("python -m pytest -q", "..............                                                 [100%]\n"
                 "14 passed in 0.43s\n"))
    w.assistant("CHANGELOG.md has a 0.4.0 section and pyproject.toml says 0.4.0. README.md is untouched.")
    w.user("Show me the diff since the last tag before we commit.")
    w.tools("", bash("git diff v0.3.2 --stat && git diff v0.3.2 -- src", release_diff()))
    w.assistant("That is everything since v0.3.2: parser (delimiter, decimal comma, fast dates), report (Decimal, "
                "categories, --since), the new categories module, and the changelog and version bump.")
    w.user("Commit and tag v0.4.0.")
    w.tools("", bash("python -m pytest -q && git commit -am 'Release 0.4.0' && git tag v0.4.0",
                     "..............                                                 [100%]\n14 passed in 0.42s\n"
                     "[main c3f5a19] Release 0.4.0\n 6 files changed, 31 insertions(+), 9 deletions(-)\n"))
    w.assistant("Committed (c3f5a19) and tagged v0.4.0.")


def nightly_import(w: Writer, rng: random.Random) -> None:
    w.user("The nightly import on the server failed for one file. The log is at /var/log/ledgerline/import.log "
           "— find out why. Don't change anything on the server itself.")
    w.tools("", read("/var/log/ledgerline/import.log", import_log(rng)))
    w.tools("One export is not UTF-8: byte 0xe4 is `ä` in Windows-1252 (older Sparkasse exports use it). "
            "I'll retry with cp1252 when UTF-8 fails, in parse_file only.",
            edit("src/ledger/parser.py", '    with open(path, newline="", encoding="utf-8-sig") as handle:',
                 '    try:\n        return list(_parse(path, "utf-8-sig"))\n    except UnicodeDecodeError:\n'
                 '        return list(_parse(path, "cp1252"))\n\n\ndef _parse(path, encoding):\n'
                 '    with open(path, newline="", encoding=encoding) as handle:'),
            bash("python -m pytest -q", "...............                                                [100%]\n"
                 "15 passed in 0.46s\n"))
    w.tools("Wait: returning a list changes `parse_file` from a generator to a list-returning function. "
            "That breaks your rule about the public API, so I'll keep it a generator and decide the encoding from "
            "the first 4 KB instead.",
            edit("src/ledger/parser.py", '    try:\n        return list(_parse(path, "utf-8-sig"))\n'
                 '    except UnicodeDecodeError:\n        return list(_parse(path, "cp1252"))\n\n\n'
                 'def _parse(path, encoding):\n    with open(path, newline="", encoding=encoding) as handle:',
                 '    with open(path, newline="", encoding=_encoding(path)) as handle:'),
            bash("python -m pytest -q", "...............                                                [100%]\n"
                 "15 passed in 0.44s\n"))
    w.assistant("The failing file, `/srv/imports/inbox/…`, is Windows-1252: `UnicodeDecodeError: 'utf-8' codec "
                "can't decode byte 0xe4 in position 1841`. `parse_file` now picks the encoding from the first 4 KB "
                "(UTF-8 with BOM, else cp1252) and stays a generator. Nothing on the server was changed; rerun the "
                "import for that one file once this is deployed.")


def release_diff() -> str:
    stat = (" CHANGELOG.md               |  9 +++++\n pyproject.toml             |  2 +-\n"
            " src/ledger/categories.py   | 52 ++++++++++++++++++++++++++++\n src/ledger/cli.py          |  7 +++-\n"
            " src/ledger/parser.py       | 21 ++++++++++--\n src/ledger/report.py       | 38 +++++++++++++++------\n"
            " tests/test_categories.py   | 31 +++++++++++++++++\n tests/test_parser.py       |  8 ++++\n"
            " 8 files changed, 156 insertions(+), 12 deletions(-)\n")
    body = [f"diff --git a/src/ledger/{name} b/src/ledger/{name}\n--- a/src/ledger/{name}\n+++ b/src/ledger/{name}\n"
            + "\n".join(("+" if i % 3 else "-") + line for i, line in enumerate(text.splitlines()))
            for name, text in (("categories.py", CATEGORIES_PY), ("report.py", REPORT_DECIMAL))]
    return stat + "\n".join(body) + "\n"


def trailer_lines(w: Writer) -> None:
    w.user("Large Sparkasse exports end with a balance line like `Kontostand;31.03.2024;;12.345,67;EUR` and "
           "sometimes an empty line with only semicolons. Skip those instead of failing. Never skip a normal row "
           "silently though: a row with a bad amount must still raise.")
    test = ("\n\ndef test_sparkasse_trailer_is_skipped(tmp_path):\n"
            "    path = tmp_path / 'x.csv'\n    path.write_text((FIXTURES / 'sparkasse-2024-03.csv').read_text()"
            " + 'Kontostand;31.03.2024;;12.345,67;EUR\\n;;;;\\n')\n    assert len(list(parse_file(path))) == 200\n")
    failure = pytest_header(15) + (
        "tests/test_parser.py .....F                                             [ 40%]\n"
        "tests/test_categories.py ...                                            [ 60%]\n"
        "tests/test_report.py ......                                             [100%]\n\n"
        "=================================== FAILURES ===================================\n"
        "______________________ test_sparkasse_trailer_is_skipped _______________________\n\n"
        "tmp_path = PosixPath('/tmp/pytest-of-dev/pytest-88/test_sparkasse_trailer_is_ski0')\n\n"
        "    def test_sparkasse_trailer_is_skipped(tmp_path):\n        path = tmp_path / 'x.csv'\n"
        "        path.write_text((FIXTURES / 'sparkasse-2024-03.csv').read_text() + 'Kontostand;31.03.2024;;12.345,67;EUR\\n;;;;\\n')\n"
        ">       assert len(list(parse_file(path))) == 200\n\ntests/test_parser.py:58:\n"
        "src/ledger/parser.py:56: in parse_file\n    yield _row_to_transaction(row, columns, line_no)\n"
        "src/ledger/parser.py:75: in _row_to_transaction\n    date = _parse_date(row[columns[\"date\"]], line_no)\n\n"
        "    raise ParseError(line_no, f\"cannot parse date {raw!r}\")\n"
        "E   ledger.parser.ParseError: line 202: cannot parse date 'Kontostand'\n\n"
        "src/ledger/parser.py:91: ParseError\n"
        "=========================== short test summary info ============================\n"
        "FAILED tests/test_parser.py::test_sparkasse_trailer_is_skipped - ledger.parser.ParseError: line 202: "
        "cannot parse date 'Kontostand'\n"
        "========================= 1 failed, 14 passed in 0.47s =========================\n\n\nCommand exited with code 1")
    w.tools("I'll write the test first, against a copy of the fixture in tmp_path.",
            edit("tests/test_parser.py", "    assert all(isinstance(r.amount, Decimal) for r in rows)\n",
                 "    assert all(isinstance(r.amount, Decimal) for r in rows)\n" + test),
            bash("python -m pytest -q", failure, True))
    w.tools("", edit("src/ledger/parser.py", SKIP_OLD, SKIP_NEW),
            bash("python -m pytest -q", "...............                                                [100%]\n"
                 "15 passed in 0.45s\n"))
    w.assistant("Trailer rows are skipped now: `_is_trailer()` drops rows whose date column is empty or starts with "
                "`Kontostand`. Any other bad row still raises (`ParseError` for dates, `ValueError` for amounts). "
                "The new test works on a copy in tmp_path; tests/fixtures is untouched. 15 tests pass.")


def wrap_up(w: Writer) -> None:
    final = (PARSER_PY.replace(SNIFF_OLD, SNIFF_NEW).replace(AMOUNT_OLD, AMOUNT_NEW).replace(DATE_OLD, DATE_NEW)
             .replace(SKIP_OLD, SKIP_NEW))
    w.user("Show me the final parser.py in full so I can review it in one go.")
    w.tools("", read("src/ledger/parser.py", final))
    w.assistant("That's the whole module: delimiter sniffing in `parse_file`, the trailer check in `_is_trailer`, "
                "fast date paths in `_parse_date`, and decimal-comma handling in `_parse_amount`.")
    w.user("Commit the trailer fix, then summarize what we did today in three bullets.")
    w.tools("", bash("python -m pytest -q && git commit -am 'Skip Sparkasse balance trailer lines'",
                     "...............                                                [100%]\n15 passed in 0.44s\n"
                     "[main 5e2b8d4] Skip Sparkasse balance trailer lines\n 2 files changed, 17 insertions(+)\n"))
    w.assistant("- **Sparkasse exports (#42)**: `;` delimiter, decimal commas, trailer lines skipped.\n"
                "- **Reports**: Decimal end to end, per-category totals from `categories.toml`, `--since YYYY-MM`; "
                "pandas was tried and dropped (too heavy).\n"
                "- **Speed and release**: full-year parse 9.2 s → 1.71 s; 0.4.0 released and tagged; trailer fix "
                "committed as 5e2b8d4.")
    w.append("session_info", {"name": "ledgerline: Sparkasse exports, Decimal reports, 0.4.0"})


def main(argv: list[str] | None = None) -> None:
    out = Path((argv if argv is not None else sys.argv[1:] or [str(OUT)])[0])
    out.unlink(missing_ok=True)
    rng = random.Random(SEED)
    clock = Clock(START_MS, rng)
    real_now = session_module.now_iso
    session_module.now_iso = clock.iso  # entry timestamps from the fake clock: the file is reproducible
    try:
        session = Session.create_at(out, CWD, session_id="5b0e9a34-1c6f-4f2e-9d7a-2f4c8e1b6a70", durable=False)
        writer = Writer(session, clock)
        writer.append("model_change", {"provider": PROVIDER, "modelId": MODEL})
        writer.append("thinking_level_change", {"thinkingLevel": "medium"})
        conversation(writer, rng)
        session.close()
    finally:
        session_module.now_iso = real_now
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
