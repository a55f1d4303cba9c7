# Umpire: `make run` serves the demo games; `make test` runs every test (SQLite and PostgreSQL).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
DB ?= var/umpire.db
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test bench lint system-packages install demo clean

$(BIN)/umpire: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

install: $(BIN)/umpire

# Browser tests drive Debian's chromium; PNG export (kaleido) uses it too.
system-packages:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  echo "installing chromium and chromium-driver"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi

demo: install
	$(BIN)/umpire import --db $(DB) fixtures/games/*.jsonl

run: demo
	@echo "Umpire: dashboard http://$(HOST):$(PORT)/  API http://$(HOST):$(PORT)/api/docs  health http://$(HOST):$(PORT)/api/health"
	$(BIN)/umpire serve --db $(DB) --host $(HOST) --port $(PORT) --public-read

test: install system-packages
	scripts/with-postgres.sh $(BIN)/pytest -q $(PYTEST_ARGS)

bench: install
	scripts/with-postgres.sh $(BIN)/umpire bench

lint: install
	$(BIN)/python -m compileall -q domain projections api dashboard

clean:
	rm -rf $(VENV) var
