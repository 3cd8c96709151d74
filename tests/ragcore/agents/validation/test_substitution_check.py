"""A substitution follow-up's answer is about what was put in place
(``checks/substitution``): the replaced thing's figure again, or an answer naming
neither, is ``wrong_entity``."""

from __future__ import annotations

from dataclasses import replace

from sources import document, evidence, findings, perceive

from ragcore.agents.evidence import Draft, split_statements
from ragcore.agents.perception.model import Replacement
from ragcore.agents.validation import Validator

A320 = document("manual-a320-hydraulics", "A320 hydraulic system manual")
B737 = document("manual-b737-800-hydraulics", "B737-800 hydraulic system manual")
RESERVOIR = [evidence(1, "The green reservoir holds 14 litres at the normal level.", A320)]
SYSTEMS = [
    evidence(1, "The B737-800 has two main hydraulic systems, each at 3000 psi.", B737),
    evidence(2, "The A320 has three independent hydraulic systems at 3000 psi.", A320),
]


def rules(question: str, replaced: Replacement, answer: str, cited) -> list[str]:
    perception = replace(perceive(question), replaced=(replaced,))
    draft = Draft(answer, split_statements(answer), "test")
    return [r for r, _ in findings(Validator().check(draft, cited, perception))]


BLUE = Replacement("A320 green reservoir", "A320 blue reservoir")


def test_the_replaced_things_figure_is_borrowed():
    question = "How much fluid does the A320 blue reservoir hold?"
    answer = "The green reservoir holds 14 litres at the normal level [1]."
    assert "substitution.borrowed" in rules(question, BLUE, answer, RESERVOIR)


def test_the_same_answer_to_the_question_asked_alone_is_not_checked_so():
    question = "How much fluid does the A320 green reservoir hold?"
    answer = "The green reservoir holds 14 litres at the normal level [1]."
    perception = perceive(question)
    draft = Draft(answer, split_statements(answer), "test")
    found = [r for r, _ in findings(Validator().check(draft, RESERVOIR, perception))]
    assert not [r for r in found if r.startswith("substitution.")]


def test_a_name_spelt_with_a_prefix_in_the_documents_is_named():
    question = "How many hydraulic systems does the 737-800 have?"
    name = Replacement("A320", "737-800", "MODEL")
    right = "The B737-800 has two main hydraulic systems, each at 3000 psi [1]."
    assert not [r for r in rules(question, name, right, SYSTEMS) if r.startswith("substitution.")]
    borrowed = "The A320 has three independent hydraulic systems at 3000 psi [2]."
    assert "substitution.borrowed" in rules(question, name, borrowed, SYSTEMS)


def test_an_answer_about_neither_is_no_answer_about_the_new_thing():
    question = "How much fluid does the A320 blue reservoir hold?"
    answer = "Check the reservoir fluid level with the systems depressurised [1]."
    cited = [evidence(1, "Check the reservoir fluid level with the systems depressurised.", A320)]
    assert "substitution.neither" in rules(question, BLUE, answer, cited)


def test_a_thing_told_apart_by_its_designator_alone_is_checked_by_phrase():
    b737 = [evidence(1, "Reservoir A holds 22.7 litres at the full mark.", B737)]
    question = "How much fluid does reservoir B on the B737-800 hold?"
    other = Replacement("reservoir A", "reservoir B")
    answer = "Reservoir A holds 22.7 litres at the full mark [1]."
    assert "substitution.borrowed" in rules(question, other, answer, b737)


def designator_rules(question: str, answer: str, cited) -> list[str]:
    draft = Draft(answer, split_statements(answer), "test")
    found = findings(Validator().check(draft, cited, perceive(question)))
    return [r for r, _ in found if r == "substitution.designator"]


def test_a_figure_for_another_designator_answers_no_question_asked_whole():
    # "how much does reservoir B hold?" written whole, no substitution: reservoir A's
    # figure is another thing's
    b737 = [evidence(1, "Reservoir A holds 22.7 litres at the full mark.", B737)]
    answer = "Reservoir A holds 22.7 litres at the full mark [1]."
    question = "How much fluid does reservoir B on the B737-800 hold?"
    assert designator_rules(question, answer, b737) == ["substitution.designator"]
    asked = "How much fluid does reservoir A on the B737-800 hold?"
    assert designator_rules(asked, answer, b737) == []


def test_every_designator_of_a_run_is_asked():
    cited = [evidence(1, "System B runs at 3000 psi.", B737)]
    answer = "System B runs at 3000 psi [1]."
    assert designator_rules("Do systems A and B run at 3000 psi?", answer, cited) == []
    # a statement without a figure states no other thing's figure
    plain = "Reservoir A is on the left [1]."
    cited = [evidence(1, "Reservoir A is on the left.", B737)]
    assert designator_rules("Where is reservoir B?", plain, cited) == []
