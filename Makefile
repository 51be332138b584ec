# The two commands of the compendium (see README.md):
#   make test                 set up .venv if needed, then run the test suite
#   make book [PROFILE=paper] set up .venv if needed, execute every notebook with papermill
#                             at the given parameter profile, then build the book (-W)
PROFILE ?= paper
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
NB ?=

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

html: $(STAMP)
	$(VENV)/bin/jupyter-book build book --warningiserror --keep-going
	$(PY) book/check_offline.py book/_build/html

clean:
	rm -rf book/_build book/generated build results .pytest_cache .hypothesis
