# Zhushu — `make demo` and `make test` are all a new checkout needs (Debian/Ubuntu, Python >= 3.11).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
BUILD  := build

.PHONY: demo test tei docs bench score fuzz clean

$(BIN)/python:
	@sh scripts/make-venv.sh $(PYTHON) $(VENV)

# Reinstall whenever pyproject.toml changes (the stamp name carries its checksum).
$(STAMP): pyproject.toml | $(BIN)/python
	@rm -f $(VENV)/.installed-*
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $@

# What the web and print editions and their tests need from Debian: its Chromium (never a
# downloaded browser), the CJK fonts (BabelStone Han for the Extension B characters Noto lacks)
# and poppler-utils (the PDF tests read the PDFs with pdffonts, pdftotext and pdftoppm).
# Then the print fonts: Noto Serif CJK TC as TrueType, built once into ~/.cache/zhushu/fonts
# (pipeline/render/fonts.py; about two minutes the first time, nothing after).
SYSTEM_PKGS := /usr/bin/chromium:chromium \
	/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc:fonts-noto-cjk \
	/usr/share/fonts/truetype/babelstone/BabelStoneHan.ttf:fonts-babelstone-han \
	pdftoppm:poppler-utils

## demo: convert the bundled corpus, validate it, write the web edition and the PDFs into build/
demo: $(STAMP)
	@sh scripts/need-packages.sh $(SYSTEM_PKGS)
	@$(BIN)/python -m pipeline.render.fonts
	@mkdir -p $(BUILD)
	$(BIN)/zhushu convert corpus -o $(BUILD)/tei --report $(BUILD)/convert-report.json
	$(BIN)/zhushu validate $(BUILD)/tei
	$(BIN)/zhushu render pdf $(BUILD)/tei -o $(BUILD)/pdf/vertical
	$(BIN)/zhushu render pdf $(BUILD)/tei -o $(BUILD)/pdf/horizontal --layout horizontal
	$(BIN)/zhushu render pdf $(BUILD)/tei -o $(BUILD)/pdf/siku --style siku
	# after the PDFs: each 卷's page links its PDF (--pdf-dir is relative to the site; only PDFs that exist)
	$(BIN)/zhushu render html $(BUILD)/tei -o $(BUILD)/site --pdf-dir ../pdf/vertical
	@echo "web edition: $(BUILD)/site/index.html"
	@echo "print edition: $(BUILD)/pdf/vertical/*.pdf, $(BUILD)/pdf/horizontal/*.pdf, $(BUILD)/pdf/siku/*.pdf (the 四庫 leaf)"

## test: the whole test suite (validates tei/ too; drives the web edition in headless Chromium
## and prints and reads back the PDFs)
test: $(STAMP)
	@sh scripts/need-packages.sh $(SYSTEM_PKGS)
	@$(BIN)/python -m pipeline.render.fonts
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

## score: issue 14's measure (see bench/score.py): the 經 and 注 recovered from each 四庫 注疏 of
## ../shared/kanripo against the SBCK and bare editions (character F1 after aligning, its ceiling
## and their ratio), and the share of 疏 anchored by a quote, per work (and per 卷 with PER_JUAN=1);
## WORKS="KR1d0053 master/KR1d0053" to choose; writes bench/out/score.json
score: $(STAMP)
	$(BIN)/python bench/score.py $(if $(WORKS),--works $(WORKS)) $(if $(PER_JUAN),--per-juan) $(if $(TEI),--tei $(TEI))

## fuzz: a long fuzz campaign (N=5000 inputs, default 1000; SEED=…): damaged corpus texts through
## convert, validate and text, then the whole hostile-XML matrix; failing inputs are saved under
## tests/fuzz-found/ (replayed by make test); prints the counts of each kind of failure
fuzz: $(STAMP)
	@sh scripts/need-packages.sh $(SYSTEM_PKGS)
	$(BIN)/python scripts/fuzz.py -n $(or $(N),1000) $(if $(SEED),--seed $(SEED))

clean:
	rm -rf $(BUILD) bench/out
