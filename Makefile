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

# The main job on bundled data, short: compact a copy of a recorded session to fit a small window and show
# the tokens before and after and the start of the summary. `make demo FULL=1` prints the whole summary and
# replays the session through the same window (several compactions). The bundled files are never written.
FULL ?=
demo: $(STAMP)
	$(COMPILE)
	rm -rf .demo && mkdir -p .demo && cp sessions_fixtures/realistic.jsonl .demo/session.jsonl
	@echo
	@echo "A recorded coding session (sessions_fixtures/realistic.jsonl), compacted to fit a 16,000-token window:"
	@$(BIN)/pi-compact session compact .demo/session.jsonl --window 16000 $(if $(FULL),--full-summary,)
ifneq ($(FULL),)
	$(BIN)/pi-compact replay sessions_fixtures/realistic.jsonl --window 16000 --out .demo/replayed.jsonl
else
	@echo "More: make demo FULL=1 (the whole summary, and a replay through the same window);"
	@echo "      $(BIN)/pi-compact session show .demo/session.jsonl (the tree, with the new compaction entry)"
endif

test: $(STAMP)
	$(COMPILE)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(COMPILE)
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.compaction_bench
	$(BIN)/python -m bench.replay_bench
	$(BIN)/python -m bench.quality_bench
	$(BIN)/python -m bench.cli_bench
	$(BIN)/python -m bench.redact_bench
	$(BIN)/python -m bench.tokens_bench
	$(BIN)/python -m bench.hang_guards_bench
	$(BIN)/python -m bench.import_bench

# The long fuzzing run (thousands of examples per property); `make test` runs the same properties briefly.
fuzz: $(STAMP)
	PI_COMPACT_FUZZ=1 $(BIN)/python -m pytest tests/reliability/test_fuzz.py -s

clean:
	rm -rf $(VENV) .pi-ref
