# DocIntel — the two commands a newcomer needs are `make demo` and `make test`.
# Every target installs what is missing first, works as root, and can be run again safely.

SHELL := /bin/bash
.DEFAULT_GOAL := help
ROOT := $(abspath .)
VENV := $(ROOT)/.venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
RUN := $(ROOT)/var/run
LOG := $(ROOT)/var/log
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml requirements.lock requirements-no-deps.txt | sha256sum | cut -c1-16)
# Fonts for the synthetic document generator (synth/FONTS.md); OCR-B is the MRZ typeface.
FONT_PACKAGES := fonts-dejavu-core fonts-dejavu-extra fonts-ocr-b fonts-liberation fonts-freefont-ttf fonts-urw-base35
# Tesseract's Latin-script model: the engine's second reading of names and addresses (accents).
OCR_PACKAGES := tesseract-ocr-script-latn
HOST_PYTHON ?= $(shell command -v python3.11 || command -v python3)

# Test database and broker: the machine's PostgreSQL and Redis (trust auth, user postgres).
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/docintel
# Django's default is production (config.settings.prod), which refuses to start without its secrets:
# the local targets that run it say development explicitly (`up` and `demo` in scripts/stack.sh and
# scripts/demo.sh); `make test` runs on config.settings.test (pyproject.toml).
bench bench-accuracy bench-capture calibration refit test-lint: export DJANGO_SETTINGS_MODULE ?= config.settings.dev

.PHONY: help setup lock system-packages test-packages vllm demo test test-lint test-unit test-integration test-gemma4 lint up down status bench bench-accuracy bench-capture bench-gpu refit calibration

help:
	@echo "make setup   install system packages (Debian) and the virtualenv at .venv/ (versions: requirements.lock)"
	@echo "make lock    rewrite requirements.lock from a fresh resolution of pyproject.toml"
	@echo "make demo    start the stack and run the bundled samples through it, printing their fields"
	@echo "make test    lint, type-check and run the whole test suite, in lanes (make test-<lane>: one)"
	@echo "make up      start Triton, a Celery worker + beat and the web server on 127.0.0.1:8000"
	@echo "             (DOCINTEL_PIPELINE_VARIANT=gemma4 make up: Gemma 4 through vLLM on CPU)"
	@echo "make vllm    install vLLM on CPU (.venv-vllm) and build the tiny Gemma 4 checkpoints"
	@echo "make down    stop what 'make up' started"
	@echo "make bench   throughput and cost benchmarks (last line: one JSON object)"
	@echo "make bench-accuracy  accuracy and engine speed benchmarks in bench/"
	@echo "make bench-capture  accuracy against capture quality, and the authenticity signals' ROC"
	@echo "make bench-gpu  Gemma 4 speed and cost per page on this machine's GPU (bench/gpu/README.md)"
	@echo "make refit   after an engine version change: refit the document-type model and the calibration"
	@echo "make calibration  refit the calibration alone (maps, layouts, thresholds per type)"

system-packages:
	@missing=""; \
	for pkg in python3-venv redis-server libgl1 libglib2.0-0 $(FONT_PACKAGES) $(OCR_PACKAGES); do \
	  dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# The browser tests (tests/e2e) drive Debian's Chromium through Playwright: Playwright's own browser
# download cannot reach its host from closed networks, so the distribution's package is the browser.
test-packages:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian package: chromium"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null; \
	}

$(STAMP): pyproject.toml requirements.lock requirements-no-deps.txt
	@$(MAKE) --no-print-directory system-packages
	@test -x $(PY) || $(HOST_PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -c requirements.lock -e '.[dev]'
	$(PIP) install -q --no-deps -c requirements.lock -r requirements-no-deps.txt
	@rm -f $(VENV)/.installed-*
	@touch $@

setup: $(STAMP)
	@mkdir -p $(RUN) $(LOG)

# Rewrite requirements.lock from a fresh resolution of pyproject.toml (in a throw-away environment).
lock:
	@rm -rf $(ROOT)/var/lock-venv && $(HOST_PYTHON) -m venv $(ROOT)/var/lock-venv
	$(ROOT)/var/lock-venv/bin/pip install -q --upgrade pip
	$(ROOT)/var/lock-venv/bin/pip install -q -e '.[dev]'
	$(ROOT)/var/lock-venv/bin/pip install -q --no-deps -r requirements-no-deps.txt
	@{ sed -n '1,3p' requirements.lock; $(ROOT)/var/lock-venv/bin/pip freeze --exclude-editable; } > requirements.lock.new
	@mv requirements.lock.new requirements.lock && rm -rf $(ROOT)/var/lock-venv
	@echo "requirements.lock rewritten: review the diff and commit it"

# The real Gemma 4 engine on machines without a GPU: vLLM on CPU in .venv-vllm, the tiny checkpoints
# in var/models (scripts/vllm/install.sh; each part redone only when its inputs changed).
vllm:
	@bash scripts/vllm/install.sh

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy apps workers media servers engines config

# Two sessions: the whole suite on the reference engine, then tests/gemma4 with the gemma4 pipeline
# variant behind the same fixtures (Triton + Celery + vLLM serving the tiny Gemma 4).
# `make test` runs the lanes in order, each its own pytest session, and stops at the first red one:
# lint (ruff, mypy, missing migrations), unit (tests/unit), integration (every other folder but
# tests/gemma4: the stack, reliability, hostile input, the browser) and gemma4 (the same stack on
# Gemma 4 through vLLM on CPU). Each lane prints its time; `make test-<lane>` runs one alone.
TEST_LANES := lint unit integration gemma4
test: setup test-packages vllm
	@bash scripts/ensure_services.sh
	@for lane in $(TEST_LANES); do \
	  started=$$(date +%s); \
	  $(MAKE) --no-print-directory test-$$lane \
	    || { echo "make test: lane $$lane failed after $$(( $$(date +%s) - started )) s"; exit 1; }; \
	  echo "make test: lane $$lane passed in $$(( $$(date +%s) - started )) s"; \
	done

test-lint: lint
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) manage.py makemigrations --check --dry-run

test-unit: setup
	@bash scripts/ensure_services.sh
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) -m pytest tests/unit

test-integration: setup test-packages
	@bash scripts/ensure_services.sh
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) -m pytest tests --ignore=tests/unit --ignore=tests/gemma4

test-gemma4: setup vllm
	@bash scripts/ensure_services.sh
	DATABASE_URL=$(TEST_DATABASE_URL) DOCINTEL_PIPELINE_VARIANT=gemma4 $(PY) -m pytest tests/gemma4

up: setup
	@bash scripts/stack.sh up

down:
	@bash scripts/stack.sh down

status:
	@bash scripts/stack.sh status

demo: setup
	@bash scripts/stack.sh up
	@bash scripts/demo.sh

# Benchmarks read the real documents beside the checkout and synthetic sets made here (seeds fixed).
BENCH_SETS := $(wildcard ../shared/realdata/id_specimens) var/bench/synth
# The real sets are labelled in part (MRZ values; SROIE's merchant, date, total; the invoices' parties,
# number, dates, currency and amounts): scored on their labels only. A set missing is skipped.
REAL_EVAL_SETS := $(wildcard ../shared/realdata/id_specimens ../shared/realdata/receipts_sroie \
	../shared/realdata/einvoices ../shared/realdata/invoices_invoice2data)
# Fitting sees part of each real set (apps/extraction/holdout.py): they are scored on the rest only.
# invoice2data is never fitted on, so all of it is held out and scored whole.
HELD_OUT_SETS := $(filter-out %/invoices_invoice2data,$(REAL_EVAL_SETS))
# The e-invoices' embedded XML is never read (the reader reads the page): named "page only".
PAGE_ONLY_SETS := $(filter %/einvoices,$(REAL_EVAL_SETS))
EVAL_SETS := var/bench/all-types var/bench/independent $(REAL_EVAL_SETS)
# Recursive (=), so it is read when the recipe runs, after setup has made the virtualenv.
ENGINE_VERSION = $(shell $(PY) -c 'import engines; print(engines.ENGINE_VERSION)')
ACCURACY_RECORD = bench/results/accuracy-$(ENGINE_VERSION).json

var/bench/synth:
	$(PY) -m synth.generate $@ --count 60 --seed 4242 --profile mixed --kinds passport,id_card,td2

var/bench/all-types:
	$(PY) -m synth.generate $@ --count 90 --seed 9090 --profile mixed --jobs 2

# The independent family (htmldocs/: HTML templates printed by headless Chromium): held out of all
# fitting, measured only (docs/engine/independent-documents.md). Chromium is installed first (order-only:
# it never makes the set stale).
var/bench/independent: | test-packages
	$(PY) -m htmldocs.generate $@ --count 120 --seed 900001

# Throughput and cost (bench/run.py, ~10 minutes on 2 cores): the last line printed is one JSON object
# (cpu_ms_per_doc, dispatch_efficiency, preprocess_speedup, e2e_p50_ms, e2e_p95_ms); results in bench/results/.
# Then the soak (bench/soak.py): an hour at 80 % of the capacity it measures (SOAK_SECONDS to shorten it).
SOAK_SECONDS ?= 3600
bench: setup vllm
	@bash scripts/ensure_services.sh
	$(PY) bench/run.py
	$(PY) bench/gemma4_stack.py
	$(PY) bench/soak.py --seconds $(SOAK_SECONDS)

# Accuracy and engine speed on the synthetic and real sets (long: OCR of every document).
bench-accuracy: setup var/bench/synth var/bench/all-types var/bench/independent
	$(PY) bench/mrz_accuracy.py $(BENCH_SETS)
	$(PY) bench/extract_engines.py $(BENCH_SETS)
	$(PY) bench/engine_speed.py var/bench/all-types $(wildcard ../shared/realdata/receipts_sroie)
	$(PY) manage.py evaluate $(EVAL_SETS) $(foreach d,$(REAL_EVAL_SETS),--partial-labels-in $(d)) \
		$(foreach d,$(HELD_OUT_SETS),--held-out-in $(d)) $(foreach d,$(PAGE_ONLY_SETS),--note $(d) "page only") \
		--plot var/bench/reliability.png --coverage-plot docs/images/coverage-accuracy.png --record $(ACCURACY_RECORD)
	$(PY) bench/capture_gate.py --out bench/results/capture-gate.json
	$(PY) bench/accuracy_table.py $(ACCURACY_RECORD)
	$(PY) bench/accuracy_table.py $(ACCURACY_RECORD) --readme
	$(PY) bench/api_throughput.py

# Capture quality and authenticity (docs/capture-quality.md, docs/field-glyphs.md; ~17 minutes on
# 2 cores): field accuracy against each capture measure with the thresholds it suggests, and each
# authenticity signal's ROC.
bench-capture: setup
	$(PY) bench/capture_quality.py
	$(PY) bench/authenticity.py
	$(PY) bench/field_glyphs.py

# A new engine version refits both fitted artefacts, each on its own seeds (docs/engine/doctype-model.md):
# the document-type model on synth seeds 3000-3019 (3090-3091 held out), then the confidence
# calibration (maps split by evidence, the layouts fitted on, a threshold per type chosen out of fold
# at 99 % precision: docs/decisions.md) on generated seeds 11-12, the independent family's seed
# 800001 (a calibration seed, never one of its evaluation seeds) and the part of each real set not held out
# (apps/extraction/holdout.py). Long: OCR of about 2,000 documents.
DOCTYPE_TEXTS = var/doctype/synth-texts-$(ENGINE_VERSION).jsonl
DOCTYPE_KINDS = receipt,invoice,proof_of_address,bank_statement,other,passport,receipt,invoice,proof_of_address,bank_statement,other,id_card,td2,driver_license
CALIBRATION_SETS = var/calibration/s11 var/calibration/s12 var/calibration/html-800001
REAL_FIT_SETS := $(wildcard ../shared/realdata/id_specimens ../shared/realdata/receipts_sroie ../shared/realdata/einvoices)

var/calibration/s%:
	$(PY) -m synth.generate $@ --count 136 --seed $* --jobs 2

var/calibration/html-%: | test-packages
	$(PY) -m htmldocs.generate $@ --count 60 --seed $*

refit: setup $(CALIBRATION_SETS)
	$(PY) -m apps.extraction.doctype_fit build $(DOCTYPE_TEXTS) --seeds 3000-3019,3090-3091 --count 70 \
		--kinds $(DOCTYPE_KINDS)
	$(PY) -m apps.extraction.doctype_fit fit $(DOCTYPE_TEXTS) --holdout-seeds 3090-3091
	$(MAKE) --no-print-directory calibration

# The calibration alone (what `refit` runs after the document-type model): reads the cache of
# engine outputs (var/eval-cache), so after a first run it takes seconds.
calibration: setup $(CALIBRATION_SETS)
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) manage.py calibrate $(CALIBRATION_SETS) $(REAL_FIT_SETS) \
		$(foreach d,$(REAL_FIT_SETS),--held-out-in $(d) --partial-labels-in $(d)) \
		--name isotonic-$(ENGINE_VERSION)-s11-12-html800001-real
	@echo "refitted: commit engines/models/doctype-$(ENGINE_VERSION).npz and apps/extraction/artefacts/calibration.json"

# Gemma 4 E4B with random bf16 weights on this machine's GPU (no install; torch + transformers there).
bench-gpu:
	PYTHON=$${PYTHON:-python3} bench/gpu/run.sh $(ARGS)
