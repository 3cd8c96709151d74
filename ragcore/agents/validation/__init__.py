"""Validation: the fact checker. It never rewrites an answer; it judges and reports.

The house, room by room:

- ``model``: the answer and its cited sources parsed once (``parse_answer``): per
  statement its citations (leaning ones resolved), cited evidence, content terms, the
  entity it is about, its figure check and support score. What the question asks is
  ``Perception.asks``: no check reads the question text.
- ``registry``: every check, in order, with the rule ids it reports; ``report``: the
  ``Issue``s (each naming its rule), grouped into a ``CheckResult`` per check.
- ``checks/``: one module per concern —
  **traceability**: ``citations`` (every key statement cites a retrieved passage;
  nothing joined on after the last citation), ``figures`` (value, unit and entity of
  each figure, ``figures``; a claim without one bound to its source sentence's entity,
  ``binding``), ``names`` (no invented proper names), ``numbers`` (every number and
  count backed), ``support`` (content terms covered, or close in meaning: ``semantic``;
  so is every clause);
  **timeliness**: ``timeliness`` (inside the asked interval, not superseded, not
  outranked by a newer, at least as authoritative document);
  **consistency**: ``sides`` (a comparison backs every side), ``focus`` (the answer
  gives what is asked: the attribute, the form's focus and measure, the asked side,
  kind and subject), ``relations`` ("louder than", "raises … from", "more often",
  rankings agree with the figures).
- Word sets and shared patterns: ``rules/lexicon.toml`` (``ragcore.text.lexicon``);
  attributes, contrasts and comparatives: ``rules/attributes.toml``.
"""

from ragcore.agents.validation.report import CheckResult, Issue, ValidationReport
from ragcore.agents.validation.validator import Validator

__all__ = ["CheckResult", "Issue", "ValidationReport", "Validator"]
