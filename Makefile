# Every target bootstraps .venv/ itself, so a fresh machine needs nothing but python3, pip and node/npm.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Byte-compile the package before each job: where PYTHONDONTWRITEBYTECODE is set (CI images often set it),
# Python would otherwise recompile every module of an editable install at every start (30 ms of `--help`).
COMPILE := $(BIN)/python -m compileall -q pi_compact

.PHONY: demo test bench fuzz venv clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)
	$(COMPILE)

# The main job on bundled data: replay a realistic session through a small window (several compactions),
# then compact a copy of it by hand; the bundled files themselves are never written.
demo: $(STAMP)
	$(COMPILE)
	rm -rf .demo && mkdir -p .demo && cp sessions_fixtures/realistic.jsonl .demo/session.jsonl
	$(BIN)/pi-compact replay sessions_fixtures/realistic.jsonl --window 16000 --out .demo/replayed.jsonl
	$(BIN)/pi-compact session compact .demo/session.jsonl --window 16000 --reserve 4000 --keep-recent 3000

test: $(STAMP)
	$(COMPILE)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(COMPILE)
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.compaction_bench
	$(BIN)/python -m bench.replay_bench
	$(BIN)/python -m bench.quality_bench

# The long fuzzing run (thousands of examples per property); `make test` runs the same properties briefly.
fuzz: $(STAMP)
	PI_COMPACT_FUZZ=1 $(BIN)/python -m pytest tests/reliability/test_fuzz.py -s

clean:
	rm -rf $(VENV) .pi-ref
