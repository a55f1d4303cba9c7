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

# The demo store: the hand-written games of fixtures/games/ and a seeded league of generated
# games (a handful with injected violations) for the analytics pages. The league is generated
# once into $(LEAGUE) (the same seeds give the same files); importing again changes nothing.
LEAGUE ?= var/league
demo: install $(LEAGUE)/.complete
	$(BIN)/umpire import --db $(DB) fixtures/games/*.jsonl $(LEAGUE)/*.jsonl

$(LEAGUE)/.complete: | $(BIN)/umpire
	rm -rf $(LEAGUE)
	$(BIN)/umpire generate --games 30 --seed 1917 --turns 4 -o $(LEAGUE)
	$(BIN)/umpire generate --games 6 --seed 1918 --turns 4 --inject-violations 2 -o $(LEAGUE)
	touch $@

# A worker beside the server keeps the projections (analytics, board checkpoints, audit reports)
# current in the background, so that no page waits for them (docs/scaling.md).
run: demo
	@echo "Umpire: dashboard http://$(HOST):$(PORT)/  API http://$(HOST):$(PORT)/api/docs  health http://$(HOST):$(PORT)/api/health"
	$(BIN)/umpire serve --db $(DB) --host $(HOST) --port $(PORT) --public-read --worker

test: install system-packages
	scripts/with-postgres.sh $(BIN)/pytest -q -n auto --dist worksteal $(PYTEST_ARGS)

bench: install
	scripts/with-postgres.sh $(BIN)/umpire bench --write-docs

lint: install
	$(BIN)/python -m compileall -q domain projections api dashboard bench

clean:
	rm -rf $(VENV) var
