"""A follow-up's rewrite is read from what its turns' readings found: no second spaCy pass."""

from __future__ import annotations

import json
from datetime import date

import pytest

from ragcore.agents.perception.agent import PerceptionAgent, referents
from ragcore.agents.perception.conversation import (
    Referent,
    summarise,
    turn_state,
    turn_summary,
)
from ragcore.agents.perception.model import Entity
from ragcore.types import EntitySource

pytestmark = pytest.mark.model


@pytest.fixture
def agent(monkeypatch):
    """The agent with the installed spaCy model; ``agent.spacy_runs`` counts its passes."""
    agent = PerceptionAgent(clock=lambda: date(2026, 12, 2))
    agent.warm_up()
    agent.spacy_runs = 0  # type: ignore[attr-defined]
    run_spacy = agent._spacy_entities

    def counted(text, taken):
        agent.spacy_runs += 1  # type: ignore[attr-defined]
        return run_spacy(text, taken)

    monkeypatch.setattr(agent, "_spacy_entities", counted)
    return agent


def test_the_named_entities_of_a_rewrite_are_those_read_where_it_names_them_again(agent):
    first = agent.run("Does the FAA require a borescope check of the CFM56-7B?")
    assert Entity("FAA", "ORG", EntitySource.SPACY, 9, 12) in first.entities
    runs = agent.spacy_runs
    rewrite = "Does the FAA require a borescope check of the LEAP-1A?"
    read = agent.run(rewrite, read_before=referents(first.entities))
    assert agent.spacy_runs == runs  # no second pass
    assert [(e.text, e.label, e.source) for e in read.entities] == [
        ("LEAP-1A", "MODEL", EntitySource.PATTERN),  # the rules still read identifiers
        ("FAA", "ORG", EntitySource.SPACY),  # found again where the rewrite names it
    ]
    # a name the rewrite no longer holds is not carried over
    elsewhere = agent.run(
        "Is a borescope check of the LEAP-1A required?", read_before=[("FAA", "ORG")]
    )
    assert [e.text for e in elsewhere.entities] == ["LEAP-1A"]


def test_the_next_turn_reads_the_previous_rewrite_as_it_was_read(agent):
    """A session's next turn reads the previous turn's rewrite again from the entities its
    turn was recorded with: the same reading, from the agent's recent readings."""
    first = agent.run("How often must the FAA borescope check of the CFM56-7B be done?")
    follow = agent.run("And on the LEAP-1A?")
    found = agent.follow_up(follow, first, (turn_state(first.question, summarise(first)),))
    assert found is not None
    rewritten = agent.run(found.question, read_before=referents(follow.entities, first.entities))
    summary = summarise(rewritten) | turn_summary(rewritten, (), True)
    kept = turn_state(rewritten.question, json.loads(json.dumps(summary)))  # as stored
    runs = agent.spacy_runs
    assert kept.names == (Referent("FAA", "ORG"),)
    again = agent.run(kept.question, read_before=referents(kept.names))
    assert again is rewritten
    assert agent.spacy_runs == runs
    # read as a new question, the same text runs spaCy (and is kept apart)
    assert agent.run(kept.question) is not rewritten
    assert agent.spacy_runs == runs + 1
