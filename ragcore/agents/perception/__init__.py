"""Perception: what a question asks for, read by rules and spaCy NER, without an LLM.

``rules`` loads the rules file, ``time`` reads time expressions, ``nlp`` loads spaCy's
NER, ``asks`` reads what a question asks for, and ``agent`` puts them together in
``PerceptionAgent.run(question) -> Perception`` (``model``).
"""

from ragcore.agents.perception.agent import MAX_QUESTION_CHARS, PerceptionAgent
from ragcore.agents.perception.asks import Asks, Focus, Measure, QuestionForm
from ragcore.agents.perception.model import Constraints, Entity, Perception
from ragcore.agents.perception.time import TimeConstraint

__all__ = [
    "MAX_QUESTION_CHARS",
    "Asks",
    "Constraints",
    "Entity",
    "Focus",
    "Measure",
    "Perception",
    "PerceptionAgent",
    "QuestionForm",
    "TimeConstraint",
]
