"""Generators and oracles shared by the fuzz tests (tests/test_fuzz_*.py, tests/test_hostile_xml.py,
tests/test_xxe.py) and by the long campaign (scripts/fuzz.py, `make fuzz N=…`).

- hostile_xml: attacks × encodings of the XML that validate/text/render read, and the traps (a local
  HTTP server, a secret file, a FIFO tripwire) that prove nothing was fetched or read.
- mutations: damaged source texts made from the bundled corpus, for convert.
- oracle: what every run must satisfy (exit codes, one-line messages, no traceback; after exit 0:
  lossless, deterministic, valid) and the in-process way of running the CLI.
"""
