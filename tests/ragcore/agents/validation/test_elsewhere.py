"""An answer about another thing only is ``no_answer`` (``validation.elsewhere``): a
figure bound to another model, with the asked model named by neither the answer nor a
cited document, says the documents gave nothing about the asked one."""

from __future__ import annotations

from dataclasses import replace

from sources import check, document, evidence, perceive

from ragcore.agents.evidence import Draft, split_statements
from ragcore.agents.perception.model import Replacement
from ragcore.agents.validation import Validator
from ragcore.agents.validation.elsewhere import about_another

HP400 = [
    evidence(
        1,
        "Error E4031 means the oil temperature exceeded 65 °C; clean the oil cooler fins.",
        document("manual-hp400", "HP-400 press manual"),
    )
]
BOTH = [
    *HP400,
    evidence(
        2,
        "The VM-3000 spindle must be warmed up for 10 minutes.",
        document("manual-vm3000", "VM-3000 mill manual"),
    ),
]
ANSWER = "Error E4031 means the oil temperature exceeded 65 °C [1]."


def _draft(text: str) -> Draft:
    return Draft(text, split_statements(text), "test")


def test_another_models_figure_with_the_asked_model_nowhere_is_about_another():
    question = "What does E4031 mean on the VM-3000?"
    report = check(question, ANSWER, HP400)
    assert not report.passed  # the 65 °C is the HP-400's (wrong_entity)
    assert about_another(perceive(question), _draft(ANSWER), HP400, report) == "VM-3000"


def test_an_answer_citing_a_document_about_the_asked_model_stays_uncertain():
    question = "What does E4031 mean on the VM-3000?"
    report = check(question, ANSWER, HP400)
    assert about_another(perceive(question), _draft(ANSWER), BOTH, report) is None


def test_a_passing_answer_is_never_about_another():
    question = "What does E4031 mean on the HP-400?"
    report = check(question, ANSWER, HP400)
    assert report.passed
    assert about_another(perceive(question), _draft(ANSWER), HP400, report) is None


def test_a_substitute_the_answer_never_names_is_what_it_leaves_out():
    reservoirs = [
        evidence(
            1,
            "The A320 green reservoir holds 14 litres.",
            document("manual-a320", "A320 hydraulics manual"),
        )
    ]
    question = "How much fluid does the A320 blue reservoir hold?"
    green = "The A320 green reservoir holds 14 litres [1]."
    perception = replace(
        perceive(question),
        replaced=(Replacement("A320 green reservoir", "A320 blue reservoir"),),
    )
    report = Validator().check(_draft(green), reservoirs, perception)
    assert not report.passed  # substitution.borrowed
    assert about_another(perception, _draft(green), reservoirs, report) == "A320 blue reservoir"


def test_one_of_the_asked_models_named_keeps_the_answer_about_the_asked_thing():
    codes = [
        evidence(
            1,
            "On the KT-5 trip unit, E21 indicates a short-time protection trip.",
            document("faq-switchgear", "Switchgear fault codes"),
        )
    ]
    question = "What does fault E21 indicate on the ATS-400's AC-3 controller?"
    answer = "On the AC-3 controller, E21 indicates a short-time protection trip [1]."
    report = check(question, answer, codes)
    assert about_another(perceive(question), _draft(answer), codes, report) is None
