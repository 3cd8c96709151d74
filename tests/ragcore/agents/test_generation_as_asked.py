"""The extractive generator reads a question as people write it (issue 29, s41): the
words asking for the current version are no words to cover ("what oil does it take
now?"), a figure at another condition is no answer, and sides typed in lower case are
written as their documents write them."""

from __future__ import annotations

from handmade import check, document, evidence, perceive

from ragcore.agents.evidence import Draft
from ragcore.agents.generation.extractive import ExtractiveGenerator

CP350 = document("manual-cp350", "CP-350 pump manual")
AC110 = document("manual-ac110", "AC-110 compressor manual")
GX500 = document("manual-gx500", "GX-500 generator manual")


def answer(question: str, cited) -> Draft:
    return ExtractiveGenerator().generate(question, cited, perceive(question))


def test_the_words_asking_for_now_are_no_words_to_cover():
    cited = [evidence(1, "The sump holds 62 litres of 5W-40 synthetic oil.", GX500)]
    assert not answer("What oil does the GX-500 take now?", cited).abstained


def test_a_figure_at_another_condition_is_no_answer():
    cited = [evidence(1, "The GX-500 produces 500 kVA of standby power at 400 V and 50 Hz.", GX500)]
    assert answer("rated output of the GX-500 at 60 Hz?", cited).abstained
    assert not answer("rated output of the GX-500 at 50 Hz?", cited).abstained


def test_sides_typed_in_lower_case_are_written_as_their_documents_write_them():
    question = "which is louder, the cp-350 or the ac-110?"
    cited = [
        evidence(1, "The CP-350's noise level is 78 dB(A) at 1 m.", CP350),
        evidence(2, "The AC-110's noise level is 72 dB(A) at 1 m.", AC110),
    ]
    draft = answer(question, cited)
    assert "The CP-350 is louder than the AC-110" in draft.text, draft.text
    report = check(question, draft.text, cited)
    assert report.passed, report.issues
