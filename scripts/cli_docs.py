"""Write docs/cli.md from the commands' own --help (tests/test_docs.py checks it is current).

    python scripts/cli_docs.py > docs/cli.md
"""
import click

from pipeline.cli import main


def walk(cmd, name, parent=None):
    # Contexts chained as click makes them, so settings such as -h/--help are inherited.
    ctx = click.Context(cmd, info_name=name, parent=parent, terminal_width=100,
                        max_content_width=100, **cmd.context_settings)
    yield ctx
    if isinstance(cmd, click.Group):
        for sub in sorted(cmd.commands):
            yield from walk(cmd.commands[sub], sub, ctx)


def render() -> str:
    out = ["# Command-line reference", "",
           "Generated from `--help` by `scripts/cli_docs.py`; `make docs` refreshes it.", ""]
    for ctx in walk(main, "zhushu"):
        out += [f"## {ctx.command_path}", "", "```", ctx.command.get_help(ctx).rstrip(), "```", ""]
    return "\n".join(out)


if __name__ == "__main__":
    print(render(), end="")
