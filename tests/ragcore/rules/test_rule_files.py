"""Every rules file of word sets and patterns loads, and every pattern keeps to its
examples (the way LanguageTool's PatternRuleTest keeps thousands of rules honest)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ragcore.agents.attributes import Attribute, default_attributes
from ragcore.agents.perception.asks import read_asks
from ragcore.errors import ConfigError
from ragcore.text.lexicon import LEXICON_FILES, PatternRule, load_rule_file, rule_file

PATTERNS = [
    pytest.param(rule, id=f"{name}:{rule.name}")
    for name in LEXICON_FILES
    for rule in rule_file(name).patterns.values()
]


@pytest.mark.parametrize("rule", PATTERNS)
def test_every_pattern_finds_its_examples_and_not_its_counter_examples(rule: PatternRule):
    assert rule.matches, f"{rule.name} has no example it must find"
    missed = [text for text in rule.matches if not rule.regex.search(text)]
    wrong = [text for text in rule.rejects if rule.regex.search(text)]
    assert (missed, wrong) == ([], [])


def test_a_bad_entry_names_the_file_and_the_key(tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[patterns.broken]\nregex = "(unclosed"\nmatches = ["x"]\n')
    with pytest.raises(ConfigError, match=r"bad\.toml:patterns\.broken\.regex"):
        load_rule_file(bad)
    bad.write_text('[words.twice]\nwords = ["a", "b", "a"]\n')
    with pytest.raises(ConfigError, match=r"bad\.toml:words\.twice\.words.*listed twice"):
        load_rule_file(bad)
    bad.write_text('[patterns.ref]\nregex = "{words.none}"\nmatches = ["x"]\n')
    with pytest.raises(ConfigError, match="names no word set"):
        load_rule_file(bad)


def test_a_word_set_in_a_pattern_is_an_alternation_longest_first(tmp_path: Path):
    path = tmp_path / "sets.toml"
    path.write_text(
        '[words.unit]\nwords = ["h", "hours"]\n'
        '[patterns.every]\nregex = "every \\\\d+ {words.unit}\\\\b"\nmatches = ["every 5 hours"]\n'
    )
    rule = load_rule_file(path).patterns["every"]
    assert rule.regex.search("every 5 hours").group(0) == "every 5 hours"


AGENTS = Path(__file__).resolve().parents[3] / "ragcore" / "agents"
LONGEST_LIST = 10


def test_no_module_under_agents_spells_out_a_long_word_list():
    """Word lists live in rules/*.toml: a literal list, tuple, set or space-separated
    string of more than ~10 words in an agents module belongs in a rules file."""
    long_ones = []
    for module in sorted(AGENTS.rglob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        exports = {  # a module's __all__ names its API, not words
            id(n.value)
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign)
            and any(getattr(t, "id", "") == "__all__" for t in n.targets)
        }
        for node in ast.walk(tree):
            if id(node) in exports:
                continue
            if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
            ):
                size = len(node.elts)
            elif isinstance(node, ast.Dict) and all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys
            ):
                size = len(node.keys)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "terms":
                args = [a for a in node.args if isinstance(a, ast.Constant)]
                size = len(str(args[0].value).split()) if args else 0
            else:
                continue
            if size > LONGEST_LIST:
                long_ones.append(f"{module.relative_to(AGENTS.parent)}:{node.lineno} ({size})")
    assert long_ones == []


ATTRIBUTES = default_attributes().attributes


@pytest.mark.parametrize("attribute", ATTRIBUTES, ids=lambda a: a.name)
def test_every_attribute_is_asked_and_addressed_by_its_examples(attribute: Attribute):
    assert attribute.example_questions and attribute.example_answers
    not_asked = [q for q in attribute.example_questions if attribute not in read_asks(q).attributes]
    not_addressed = [t for t in attribute.example_answers if not attribute.addressed_by(t)]
    assert (not_asked, not_addressed) == ([], [])
