"""The check registry: every rule id belongs to exactly one registered check, every check
reports at least one rule, and every rule id is the expected finding of some test here."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from ragcore.agents.validation import Validator  # noqa: F401  (registers the checks)
from ragcore.agents.validation.registry import REGISTRY, Scope, check, rule_ids
from ragcore.types import Check

# Reported by the validator itself for a draft the generator abstained from, not by a check.
ANSWERABILITY = ("answerability.attribute_not_found", "answerability.no_evidence")


def test_every_rule_id_is_reported_by_exactly_one_registered_check():
    owners = Counter(rule for c in REGISTRY for rule in c.rules)
    assert owners, "no check registered"
    assert [rule for rule, n in owners.items() if n > 1] == []
    assert set(rule_ids()) == set(owners)
    assert all(re.fullmatch(r"[a-z_]+\.[a-z_]+", rule) for rule in owners), sorted(owners)


def test_every_registered_check_has_a_name_and_at_least_one_rule():
    assert [c.name for c in REGISTRY if not c.rules] == []
    assert len({c.name for c in REGISTRY}) == len(REGISTRY)


def test_a_rule_id_registered_twice_is_refused():
    taken = next(iter(rule_ids()))
    with pytest.raises(ValueError, match="registered twice"):
        check(Check.CONSISTENCY, Scope.ANSWER, rules=(taken,))(lambda model: ())
    assert Counter(rule for c in REGISTRY for rule in c.rules)[taken] == 1


def test_every_rule_id_is_expected_by_some_validation_test():
    here = Path(__file__)
    tests = "".join(p.read_text() for p in here.parent.glob("test_*.py") if p != here)
    expected = [*rule_ids(), *ANSWERABILITY]
    assert [rule for rule in expected if f'"{rule}"' not in tests] == []
