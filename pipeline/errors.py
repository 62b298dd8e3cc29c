"""One error family: every failure names the file and, where there is one, line and column.

Every problem Zhushu prints is one line, `file:line:col: level: RULE-ID: text` (1:1 for a
problem of the file as a whole, so that every editor, CI problem matcher and annotation tool
finds all of them with one pattern; `zhushu: level: RULE-ID: text` for a problem with no file,
such as a bad option). The rule ids of the problems that stop a command are listed here, once; the
validation rules and the conversion report's codes are in docs/rules.md beside them.
"""
from __future__ import annotations

# Exit codes: what a run's problems come to is decided by issues.exit_status, what a failure of
# the command itself comes to by cli._Zhushu.main; cli.py exits with them.
EXIT_OK, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2
EXIT_INTERNAL = 70                  # a bug: sysexits' EX_SOFTWARE
EXIT_INTERRUPTED = 130              # ^C: the shells' 128 + SIGINT

# Why a command could not use its input, its options or its output. Level `fatal`: the input
# (or output) is unusable and the command exits 2.
RULES = {
    "ZS-IO-001": "the input cannot be read: missing, a directory, not a regular file (a FIFO, a "
                 "device), unreadable, or larger than the size limit",
    "ZS-IO-002": "the output cannot be written (no space, no permission, read-only, missing "
                 "directory); an earlier file at that path is left as it was",
    "ZS-IO-003": "the output path is one of the inputs (the same file, through a symlink or a "
                 "hard link too): refused, nothing is overwritten",
    "ZS-SRC-001": "the source is not usable text: empty, binary, not decodable in its encoding, "
                  "or holding control characters",
    "ZS-SRC-002": "a metadata sidecar (<stem>.meta.json) is not a JSON object of strings",
    "ZS-XML-001": "not well-formed XML (or not decodable in its declared encoding)",
    "ZS-XML-002": "a DOCTYPE, DTD or entity declaration (refused in untrusted XML: XXE, billion "
                  "laughs, external DTDs)",
    "ZS-XML-003": "a processing instruction other than <?xml-model?> (a stylesheet to fetch, "
                  "processing to run)",
    "ZS-XML-004": "over a limit of untrusted XML: size, nesting depth, libxml2's bounds on a "
                  "text node, attribute or tag (pipeline/limits.py)",
    "ZS-XML-005": "not a TEI document (the root is not TEI in the TEI namespace)",
    "ZS-OPT-001": "an option value that cannot be used (control characters, bytes that are not "
                  "UTF-8, an unknown paper size …)",
    "ZS-CONV-LAYOUT": "no reader recognises the layout of the source (give --format)",
    "ZS-CONV-EMPTY": "the reader the layout was detected for recovered next to no structure (a "
                     "注疏 text with no 注 and no 疏, a 義疏 text with no category block): no output "
                     "(with --format given: a warning, and the output)",
    "ZS-ENV-001": "a program or font the command needs is not installed",
    "ZS-RENDER-001": "the stylesheet or the browser failed on this file",
    "ZS-INTERNAL": "an unexpected error inside Zhushu: a bug, please report it with the input",
}


class PipelineError(Exception):
    """Input, options or output that cannot be used. `str()` gives the one line the CLI prints."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 col: int | None = None, rule: str = "ZS-IO-001", level: str = "fatal"):
        message = one_line(message)
        super().__init__(message)
        self.message, self.file, self.line, self.col = message, file, line, col
        self.rule, self.level = rule, level

    def __str__(self) -> str:
        return located(self.file, self.line, self.col, self.level, self.rule, self.message)


def located(file: str | None, line: int | None, col: int | None, level: str, rule: str,
            message: str) -> str:
    """`file:line:col: level: RULE: message`: 1:1 for the file as a whole, and `zhushu`
    standing for a file when there is no file (and then no position)."""
    if file is None:
        return f"zhushu: {level}: {rule}: {one_line(message)}"
    return f"{display(file)}:{line or 1}:{(col or 1) if line else 1}: {level}: {rule}: {one_line(message)}"


def one_line(message: str) -> str:
    """A message folded onto one line: libxml2's messages end in a newline and some run over
    several, which would break every reader of `file:line:col:` lines."""
    return " ".join(message.split()) if ("\n" in message or "\r" in message) else message.strip()


def display(path: str) -> str:
    """A path as it can be printed: bytes that are not UTF-8 (kept by Python as surrogates) and
    control characters shown as escapes, so that a file name cannot break or forge a line."""
    if path.isprintable():
        return path
    return "".join(c if c.isprintable() else _escape(c) for c in path)


def _escape(c: str) -> str:
    cp = ord(c)
    if 0xDC80 <= cp <= 0xDCFF:                  # an undecodable byte (surrogateescape)
        return f"\\x{cp - 0xDC00:02x}"
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}"
