"""`python -m pipeline`: the `zhushu` command (pipeline/cli.py)."""
from pipeline.cli import main

main(prog_name="zhushu")
