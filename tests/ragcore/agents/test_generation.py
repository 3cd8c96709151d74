"""The extractive generator on real retrieved evidence, and the evidence helpers."""

from __future__ import annotations

from conftest import TODAY

from ragcore.agents.evidence import Evidence, Statement, split_statements
from ragcore.agents.generation.extractive import NO_ANSWER, ExtractiveGenerator
from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.planning.orchestrator import Orchestrator
from ragcore.text.citations import citations_in, strip_citations

perceive = PerceptionAgent(nlp=None, clock=lambda: TODAY).run


def retrieve(engine, question: str) -> tuple:
    orch = Orchestrator(engine.search, lambda: [kb.name for kb in engine.knowledge_bases()])
    try:
        p = perceive(question)
        return p, orch.execute(orch.plan(p), p, {}).evidence
    finally:
        orch.close()


def answer(engine, question: str):
    p, evidence = retrieve(engine, question)
    return ExtractiveGenerator().generate(question, evidence, p), evidence


def test_every_statement_is_a_cited_sentence_of_its_evidence(sample_engine):
    draft, evidence = answer(sample_engine, "What torque for the HP-400 platen bolts?")
    assert not draft.abstained and draft.generator == "extractive"
    by_number = {e.number: e for e in evidence}
    for statement in draft.statements:
        [n] = statement.citations
        source = " ".join(by_number[n].text.split())
        assert strip_citations(statement.text).rstrip(".") in source
    assert "52 N·m" in draft.text
    assert by_number[draft.citations[0]].document.id == "manual-hp400-v2"


def test_a_comparison_has_a_statement_per_side_and_the_relation(sample_engine):
    question = "Which compressor is louder, AC-75 or AC-110?"
    draft, evidence = answer(sample_engine, question)
    by_number = {e.number: e for e in evidence}
    cited_documents = {by_number[n].document.id for n in draft.citations}
    assert {"manual-ac75", "manual-ac110"} <= cited_documents
    assert draft.statements[-1].text.startswith(
        "The AC-110 is louder than the AC-75 (72 dB(A) vs 69 dB(A))"
    )
    assert len(draft.statements[-1].citations) == 2


def test_no_relevant_evidence_gives_an_abstention_not_an_invention(sample_engine):
    for question in (
        "What does error E9999 mean on the HP-400?",
        "What is the boiling point of mercury?",
    ):
        draft, _ = answer(sample_engine, question)
        assert draft.abstained, draft.text
        assert draft.text == NO_ANSWER and draft.statements == ()
    draft = ExtractiveGenerator().generate("What is E4027?", [], perceive("What is E4027?"))
    assert draft.abstained


def test_a_sibling_code_is_not_an_answer(sample_engine):
    """The HP-400 manual defines E4027 and E4031; asking for one never cites the other."""
    draft, _ = answer(sample_engine, "What does error E4031 mean on the HP-400?")
    assert "E4031" in draft.text and "E4027" not in draft.text


def test_statements_and_citations_are_parsed_from_text():
    text = "The torque is 52 N·m [1]. Oil every 400 h.[2] See also [1, 3].\n\n- a list item [4]"
    assert split_statements(text) == (
        Statement("The torque is 52 N·m [1].", (1,)),
        Statement("Oil every 400 h.[2]", (2,)),
        Statement("See also [1, 3].", (1, 3)),
        Statement("a list item [4]", (4,)),
    )
    assert citations_in("x [2][1] y [2; 5]") == (2, 1, 5)
    assert strip_citations("Oil every 400 h [2].") == "Oil every 400 h."


def test_evidence_exposes_its_chunk_and_document(sample_engine):
    hit = sample_engine.search("E4027", k=1)[0]
    e = Evidence(1, hit, 0.9, 0.5)
    assert (e.text, e.chunk_id, e.document) == (hit.text, hit.chunk_id, hit.document)


def _chunk(text: str, doc_id: str, title: str) -> list[Evidence]:
    from handmade import document, evidence

    return [evidence(1, text, document(doc_id, title))]


def test_a_sentence_that_leans_on_the_one_before_is_cited_with_it():
    question = "Where on the e-Series pendant do I go to install a .urcap file?"
    chunk = _chunk(
        "On the welcome screen select Settings, then System and URCaps to enter the URCaps "
        "installation screen.\n\nWelcome screen of an e-Series robot\n\nThere, click the "
        "little plus sign at the bottom to open the file selector for the urcap file.",
        "ur/install_urcap_e_series",
        "Installing a URCap on an e-Series robot",
    )
    draft = ExtractiveGenerator(max_statements=1).generate(question, chunk, perceive(question))
    # The caption between them is no antecedent; the instruction before it is.
    assert draft.text.startswith("On the welcome screen select Settings")
    assert "There, click the little plus sign" in draft.text
    assert "Welcome screen of an e-Series robot" not in draft.text


def test_an_antecedent_already_in_the_answer_is_not_repeated():
    question = "What does fault 33 on the moteus mean?"
    chunk = _chunk(
        "Fault 33 means the moteus gate driver reported an error condition. When that "
        "happens, moteus will report fault 33 until the fault 33 condition is cleared.",
        "moteus/gate-driver-faults",
        "moteus gate driver faults",
    )
    draft = ExtractiveGenerator().generate(question, chunk, perceive(question))
    assert draft.text.count("Fault 33 means the moteus gate driver") == 1


def test_no_answer_from_evidence_that_never_names_the_asked_product():
    question = "What's the max input voltage of the ODrive Pro?"
    chunk = _chunk(
        "The ODrive v3.6 accepts an input voltage of 12 V to 56 V.",
        "odrive/docs_specifications",
        "ODrive v3.6 specifications",
    )
    draft = ExtractiveGenerator().generate(question, chunk, perceive(question))
    assert draft.abstained
    assert draft.reason == "the evidence never names the ODrive Pro"


def test_a_procedure_is_answered_with_its_steps_kept_together_within_its_paragraph():
    question = "How do I do a manual battery runtime calibration on a Smart-UPS?"
    chunk = _chunk(
        "Do a manual battery runtime calibration of the Smart-UPS as follows. Stop the "
        "apcupsd software and disconnect the serial cable. Attach a 30% load and pull the "
        "plug. Leave it until it turns off completely.\n\nThe Smart-UPS front panel has "
        "four LEDs.",
        "apcupsd/manual",
        "apcupsd manual: maintaining a Smart-UPS",
    )
    draft = ExtractiveGenerator().generate(question, chunk, perceive(question))
    [statement] = draft.statements
    assert "Stop the apcupsd software" in statement.text
    assert "turns off completely" in statement.text
    assert "four LEDs" not in statement.text  # the next paragraph is no step of it


def test_a_why_question_is_answered_by_the_sentence_giving_the_reason(sample_engine):
    draft, _ = answer(sample_engine, "Why was the LEAP-1A fan blade inspection interval reduced?")
    assert "two reports of blade leading-edge damage" in draft.text
    # a reason about something else of the subject's is none ("to prevent wet stacking")
    other, _ = answer(sample_engine, "Why was the GX-500 oil change interval extended?")
    assert "synthetic oil" in other.text and "wet stacking" not in other.text


def test_a_plural_in_ing_asks_what_its_singular_says(sample_engine):
    draft, _ = answer(
        sample_engine, "Which one tolerates hotter bearings, the CP-200 or the CP-350?"
    )
    assert "Bearing temperature must stay below 80 °C" in draft.text
    assert "fluid temperature" not in draft.text


def test_models_side_by_side_are_each_answered_with_the_kind_asked(sample_engine):
    draft, _ = answer(
        sample_engine, "Which part numbers are the air filters of the AC-75 and AC-110?"
    )
    assert "61-0075-11" in draft.text and "61-0110-04" in draft.text
    assert "m³/min" not in draft.text  # a flow is no part number


def test_each_side_is_answered_by_the_sentence_naming_the_asked_thing_as_asked(sample_engine):
    question = "Which needs the compressor oil more often, the AC-110 or the AC-75?"
    draft, _ = answer(sample_engine, question)
    assert "every 6000 hours" in draft.text and "every 4000 hours or once a year" in draft.text
    assert "oil level" not in draft.text  # the daily check is no oil change


def test_models_typed_in_lower_case_are_each_answered(sample_engine):
    draft, _ = answer(sample_engine, "noise levels of the ac-75 and ac-110?")
    assert "69 dB(A)" in draft.text and "72 dB(A)" in draft.text


def test_a_question_for_the_choices_is_answered_with_the_sentence_that_lists_them():
    question = "What low battery warning times can you pick on a Smart-UPS?"
    chunk = _chunk(
        "All Smart-UPS products have a preconfigured low battery signal warning time of two "
        "minutes (the factory default setting). There are a total of four user-changeable "
        "settings: 2, 5, 7, or 10 minutes. Total runtime depends on battery capacity and load.",
        "apcupsd/manual",
        "APCUPSD user manual",
    )
    draft = ExtractiveGenerator().generate(question, chunk, perceive(question))
    # The default alone is one value, not the choices: the next sentence, listing them,
    # goes with it.
    assert "2, 5, 7, or 10 minutes" in draft.text
    assert "Total runtime" not in draft.text


def test_the_sentence_naming_the_asked_focus_is_preferred_to_one_about_the_subject():
    question = "What Max Jitter from the latency test is good enough for software stepping?"
    chunk = _chunk(
        "The latency test shows how well the computer keeps time for software stepping. "
        "If your Max Jitter number is less than about 15 to 20 microseconds, the computer "
        "gives very nice results with software stepping.",
        "linuxcnc/latency",
        "LinuxCNC latency test",
    )
    draft = ExtractiveGenerator(max_statements=1).generate(question, chunk, perceive(question))
    assert "15 to 20 microseconds" in draft.text


def test_a_sentence_under_a_heading_naming_the_asked_thing_is_cited_after_the_heading():
    question = "What CAN baud rate is the ODrive set to by default?"
    chunk = _chunk(
        "Cyclic messages are sent by ODrive on a timer. Default Rate (ms): 100 for the "
        "heartbeat.\n\nUse the correct CAN baud rate\n\nBy default, ODrive uses 250 kbps "
        "(250000) but the tutorial is using 500 kbps.",
        "odrive/can-guide",
        "CAN Bus Guide for ODrive",
    )
    draft = ExtractiveGenerator(max_statements=1).generate(question, chunk, perceive(question))
    # "Default Rate" names the head of "CAN baud rate"; the heading names all of it.
    assert draft.text.startswith("Use the correct CAN baud rate: By default, ODrive uses 250 kbps")


def test_the_generator_chooses_a_sentence_holding_a_value_of_the_asked_shape():
    # Sentences of the NUT user manual: both name upsd's TCP port, one gives it.
    question = "What TCP port does upsd listen on for NUT clients?"
    chunk = _chunk(
        "The upsd process listens for NUT clients on a TCP port, set by LISTEN in upsd.conf "
        "when upsd should listen on another address. By default, upsd will only listen to "
        "localhost port 3493/tcp.",
        "nut-doc/user-manual-ar01s06.html",
        "Network UPS Tools user manual: security",
    )
    draft = ExtractiveGenerator(max_statements=1).generate(question, chunk, perceive(question))
    assert "3493/tcp" in draft.text
