# The two commands of the compendium (see README.md):
#   make test                 set up .venv if needed, then run the test suite
#   make book [PROFILE=paper] set up .venv if needed, execute every notebook with papermill
#                             at the given parameter profile, build the book (-W), then
#                             check it offline and in headless Chromium
PROFILE ?= paper
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
NB ?=
CHROMIUM ?= /usr/bin/chromium

.PHONY: test book notebooks notebook html clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[book,test]'
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

# Execute every notebook listed in book/_toc.yml at PROFILE, then build the HTML book.
book: notebooks html

notebooks: $(STAMP)
	$(PY) book/execute.py --profile $(PROFILE)

# One notebook: make notebook NB=datasets PROFILE=smoke
notebook: $(STAMP)
	$(PY) book/execute.py --profile $(PROFILE) --only $(NB)

html: $(STAMP) $(CHROMIUM)
	$(VENV)/bin/jupyter-book build book --warningiserror --keep-going
	$(PY) book/check_offline.py book/_build/html
	$(PY) book/check_browser.py book/_build/html --chromium $(CHROMIUM)

# Headless Chromium (Debian package) opens every built page in book/check_browser.py.
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
	  echo "The browser check needs Chromium at $(CHROMIUM): install the Debian package 'chromium' (or set CHROMIUM=/path/to/chromium)" >&2; exit 1; \
	fi

clean:
	rm -rf book/_build book/generated build results .pytest_cache .hypothesis
