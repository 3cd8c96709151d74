"""Whether a text only reports someone's own situation (``lexicon.first_person_report``:
"I have an APC Smart-UPS connected with a grey APC serial cable and it won't work"): a
question quoted from a FAQ, or a user's report. Documentation states its facts in the
second or third person; an answer made only of such sentences restates a problem and
asserts nothing of what was asked, whatever words it shares with the question."""

from __future__ import annotations

from collections.abc import Sequence

from ragcore.text.lexicon import pattern


def only_reports(statements: Sequence[str]) -> bool:
    """Every one of ``statements`` (citations stripped) is a first-person report."""
    report = pattern("lexicon", "first_person_report")
    return bool(statements) and all(report.match(s) for s in statements)
