"""A question naming a setting's key is not answered by a neighbouring key's statement
from the same chunk (``answer_types.sibling_keys``, ``answer_type.sibling_key``)."""

from __future__ import annotations

from sources import check, document, evidence, findings

from ragcore.agents.answer_types import sibling_keys
from ragcore.agents.perception.asks import read_asks

GUARD = document("ups/guard-manual", "PowerGuard daemon manual")


def test_an_answer_on_a_neighbouring_key_is_not_ok():
    question = "What charge percentage does the PowerGuard daemon halt at if low_charge is set?"
    chunk = (
        "low_charge halts at the set level. "
        "The runtime_left key halts it at 3 minutes of runtime left."
    )
    cited = [evidence(1, chunk, GUARD)]
    wrong = "The runtime_left key halts it at 3 minutes of runtime left [1]."
    assert ("answer_type.sibling_key", "wrong_entity") in findings(check(question, wrong, cited))
    right = "low_charge halts at the set level, 7 percent when shipped [1]."
    assert ("answer_type.sibling_key", "wrong_entity") not in findings(
        check(question, right, cited)
    )


def test_short_acronyms_are_no_keys_and_a_text_naming_the_asked_key_has_no_siblings():
    asks = read_asks("What IP does the PowerGuard have over USB?")
    assert sibling_keys(asks, "Over the RADIO link it is 10.0.0.2; see NOTES_FILE.") == ()
    asks = read_asks("What does leaving SEEK_RATE at 0 do?")
    assert sibling_keys(asks, "LATCH_RATE is 1 mm/s.") == ("LATCH_RATE",)
    assert sibling_keys(asks, "SEEK_RATE 0 skips the seek; LATCH_RATE is 1 mm/s.") == ()
