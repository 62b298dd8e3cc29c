# Zhushu — `make demo` and `make test` are all a new checkout needs (Debian/Ubuntu, Python >= 3.11).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
BUILD  := build

.PHONY: demo test tei docs bench clean

$(BIN)/python:
	@sh scripts/make-venv.sh $(PYTHON) $(VENV)

# Reinstall whenever pyproject.toml changes (the stamp name carries its checksum).
$(STAMP): pyproject.toml | $(BIN)/python
	@rm -f $(VENV)/.installed-*
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $@

## demo: convert the bundled corpus, validate it, write the web edition into build/
demo: $(STAMP)
	@mkdir -p $(BUILD)
	$(BIN)/zhushu convert corpus -o $(BUILD)/tei --report $(BUILD)/convert-report.json
	$(BIN)/zhushu validate $(BUILD)/tei
	$(BIN)/zhushu render html $(BUILD)/tei -o $(BUILD)/site
	@echo "web edition: $(BUILD)/site/index.html"

# What the browser tests drive: Debian's Chromium (never a downloaded browser) and CJK fonts.
BROWSER_PKGS := /usr/bin/chromium:chromium /usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc:fonts-noto-cjk

## test: the whole test suite (validates tei/ too; drives the web edition in headless Chromium)
test: $(STAMP)
	@sh scripts/need-packages.sh $(BROWSER_PKGS)
	$(BIN)/python -m pytest

## tei: regenerate the archival TEI in tei/ from corpus/ (review the diff before committing)
tei: $(STAMP)
	$(BIN)/zhushu convert corpus -o tei -q

## docs: regenerate docs/cli.md from the commands' --help
docs: $(STAMP)
	$(BIN)/python scripts/cli_docs.py > docs/cli.md

## bench: throughput of each stage on a >= 20 MB corpus (see docs/performance.md)
bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(BUILD) bench/out
