"""One Issue for the converter and the validator: one line each, one exit status."""
from pipeline.errors import EXIT_INVALID, EXIT_OK, EXIT_UNUSABLE
from pipeline.issues import Issue, exit_status
from pipeline.model import Pos
from pipeline.report import Report


def test_a_conversion_issue_prints_as_a_validation_issue():
    report = Report("a.txt")
    report.warn("ZS-CONV-LEMMA", "lemma not found\nhere", Pos(3, 4))
    report.error("ZS-CONV-LOSSLESS", "differs")
    assert report.lines() == [str(Issue("a.txt", 3, 4, "warning", "ZS-CONV-LEMMA", "lemma not found here")),
                              "a.txt:1:1: error: ZS-CONV-LOSSLESS: differs"]
    assert str(report.issues[0]) == "a.txt:3:4: warning: ZS-CONV-LEMMA: lemma not found here"
    # the report's JSON keeps its own names: the rule is `code`, no position is null
    assert report.to_dict()["issues"][1] == {"level": "error", "code": "ZS-CONV-LOSSLESS",
                                             "message": "differs", "line": None, "col": None}


def test_exit_status_is_the_worst_level_found():
    def issues(*levels):
        return [Issue("a.xml", 0, 0, level, "ZS-X", "m") for level in levels]
    assert exit_status(issues()) == EXIT_OK
    assert exit_status(issues("warning")) == EXIT_OK
    assert exit_status(issues("warning"), strict=True) == EXIT_INVALID
    assert exit_status(issues("warning", "error")) == EXIT_INVALID
    assert exit_status(issues("error", "fatal", "warning")) == EXIT_UNUSABLE
