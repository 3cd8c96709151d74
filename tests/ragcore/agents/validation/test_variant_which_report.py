"""An answer that names what the question names but is not of the asked thing is not
``ok``: text about a sibling variant (another number after the same name,
``answer_type.variant``), a sentence that does the asked thing but names nothing of the
asked kind — or names one that does something else (``answer_type.which``), and an answer
made only of first-person reports, a FAQ's question quoted (``answer_type.report``); a
sentence on a thing that never says the state a yes/no question asks of it
(``Asks.state``)."""

from __future__ import annotations

from sources import check, document, evidence, findings, perceive

from ragcore.agents.answer_types.report import only_reports
from ragcore.agents.answer_types.variant import other_variants
from ragcore.agents.answer_types.verdict import decides
from ragcore.agents.answer_types.which import unbound_which
from ragcore.text.products import named_variants

GUIDE = document("kiln/guide", "KX kiln controller guide")


def test_a_name_and_its_number_are_read_as_a_variant_a_figure_is_not():
    assert named_variants("Does FireLog 3.2 run on a Kilnbox 7?") == (
        ("FireLog", "3.2"),
        ("Kilnbox", "7"),
    )
    assert named_variants("What does Parameter 4.11 do?") == (("Parameter", "4.11"),)
    assert named_variants("Is the Thermo 40 kW model quieter at 30 kHz?") == ()


def test_another_number_after_the_asked_name_is_a_sibling_variant():
    variants = named_variants("Does FireLog 3.2 run on a Kilnbox 7?")
    sibling = "The Kilnbox image is at example.org/firelog-3.1.4-kilnbox6.zip."
    assert other_variants(variants, sibling) == ("firelog-3.1.4", "kilnbox6")
    # the asked number given, with the name or (a version) alone, is the asked variant
    assert other_variants(variants, "FireLog 3.2 runs on the Kilnbox 7 and Kilnbox 6.") == ()
    assert other_variants(variants, sibling, ["Version 3.2 adds Kilnbox 7 support."]) == ()
    # a bare number is no proof of a variant: "7 bar" does not name the Kilnbox 7
    assert other_variants(variants, sibling, ["It runs at 7 bar."]) != ()
    # numbers run after one name name each variant: "Kilnbox 6 and 7" names the 7
    assert other_variants(variants, "FireLog runs on the Kilnbox 6 and 7.", ["FireLog 3.2"]) == ()


def test_a_sibling_variants_answer_is_not_ok():
    question = "Does FireLog 3.2 run on a Kilnbox 7?"
    text = "A ready image for the Kilnbox is firelog-3.1.4-kilnbox6.zip."
    cited = [evidence(1, text, GUIDE)]
    answer = "A ready image for the Kilnbox is firelog-3.1.4-kilnbox6.zip [1]."
    assert ("answer_type.variant", "wrong_entity") in findings(check(question, answer, cited))
    text = "FireLog 3.2 runs on the Kilnbox 7; flash firelog-3.2-kilnbox7.zip."
    cited = [evidence(1, text, GUIDE)]
    answer = f"{text[:-1]} [1]."
    assert ("answer_type.variant", "wrong_entity") not in findings(check(question, answer, cited))


def test_which_kind_does_something_is_answered_by_one_of_that_kind_doing_it():
    asks = perceive("Which KX parameter sets the ramp rate of the kiln?").asks
    assert asks.which == ("KX parameter", "sets the ramp rate of the kiln")
    # a command-line option doing it, and a parameter doing something else
    assert unbound_which(
        asks,
        "'-r' or '--rate <n>' set the ramp rate. It disables the door lock (see KX "
        "Parameter 2.04).",
    )
    assert unbound_which(asks, "Parameter 3.10 sets the ramp rate of the kiln.") is None
    assert unbound_which(asks, "Set P3.10 to the ramp rate you need.") is None
    assert perceive("Which KX parameters are there?").asks.which is None
    assert perceive("What pressure is the relief valve set at?").asks.which is None


def test_a_neighbouring_option_is_no_answer_for_which_parameter():
    question = "Which KX parameter sets the ramp rate of the kiln?"
    text = "'-r' or '--rate <n>' (default: 1) Set the ramp rate."
    cited = [evidence(1, text, GUIDE)]
    answer = f"{text} [1]"
    assert ("answer_type.which", "off_question") in findings(check(question, answer, cited))
    text = "KX parameter 3.10 sets the ramp rate of the kiln in degrees per hour."
    cited = [evidence(1, text, GUIDE)]
    answer = f"{text[:-1]} [1]."
    assert ("answer_type.which", "off_question") not in findings(check(question, answer, cited))


def test_first_person_reports_assert_nothing():
    assert only_reports(["I have a KX kiln on a grey cable and it won't start."])
    assert only_reports(["My kiln won't start.", "I'm running it as root."])
    assert not only_reports(["I/O pins are 3.3 V.", "My kiln won't start."])
    assert not only_reports(["If your kiln won't start, check the door switch."])
    question = "KX kiln won't start on the grey cable. Is there a cable that works?"
    text = "I have a KX kiln connected with a grey cable and it won't start."
    cited = [evidence(1, text, GUIDE)]
    answer = f"{text[:-1]} [1]."
    assert ("answer_type.report", "off_question") in findings(check(question, answer, cited))


def test_a_question_whether_a_thing_is_in_a_state_is_decided_by_that_state():
    question = "Is the KX kiln door switch bypassed if I open the lid hot?"
    asks = perceive(question).asks
    assert asks.state == "bypass"
    assert not decides(asks, "The KX kiln door switch is wired in series with the lid contact.")
    assert decides(asks, "The KX door switch is never bypassed, whatever the temperature.")
    assert perceive("Are shielded cables needed for the KX?").asks.state == "need"
    assert perceive("Is there a cable for the KX?").asks.state is None
    cited = [evidence(1, "The KX kiln door switch is wired in series with the lid contact.", GUIDE)]
    answer = "The KX kiln door switch is wired in series with the lid contact [1]."
    assert ("answer_type.yes_no", "off_question") in findings(check(question, answer, cited))
