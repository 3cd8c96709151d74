"""Scope and how filters combine: the rules every scoped call and bounded plan rests on."""

from __future__ import annotations

from datetime import date

import pytest

from ragcore import Scope, SearchFilters
from ragcore.errors import InvalidInputError, ScopeError


def test_the_default_scope_allows_everything_and_changes_no_filter():
    filters = SearchFilters(doc_types=("manual",))
    assert Scope.ALL.unrestricted and Scope() == Scope.ALL
    assert Scope.ALL.allows("anything")
    assert Scope.ALL.restrict(filters) is filters


def test_a_scope_fills_in_its_knowledge_bases_and_refuses_others():
    scope = Scope(frozenset({"manuals", "faq"}))
    assert scope.restrict(SearchFilters()).knowledge_bases == ("faq", "manuals")
    assert scope.restrict(SearchFilters(knowledge_bases=("faq",))).knowledge_bases == ("faq",)
    with pytest.raises(ScopeError, match="'secret' is outside"):
        scope.restrict(SearchFilters(knowledge_bases=("faq", "secret")))


def test_a_scope_error_reads_the_same_whether_the_knowledge_base_exists_or_not():
    scope = Scope({"manuals"})
    messages = []
    for name in ("regulations", "no-such-kb"):
        with pytest.raises(ScopeError) as caught:
            scope.check(name)
        messages.append(str(caught.value).replace(name, "NAME"))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("names", [set(), {""}, "manuals", {"ok", 3}])
def test_a_scope_of_no_usable_names_is_refused(names):
    with pytest.raises(InvalidInputError):
        Scope(names)


def test_filters_within_bounds_narrow_and_never_widen():
    bounds = SearchFilters(
        knowledge_bases=("manuals", "faq"),
        updated_after=date(2023, 1, 1),
        min_authority=3,
        sources=("FAA",),
    )
    task = SearchFilters(
        knowledge_bases=("regulations", "manuals"),
        updated_after=date(2024, 1, 1),
        updated_before=date(2024, 12, 31),
        min_authority=2,
        exclude_superseded=True,
        sources=("faa ad",),
    )
    assert task.within(bounds) == SearchFilters(
        knowledge_bases=("manuals",),
        updated_after=date(2024, 1, 1),
        updated_before=date(2024, 12, 31),
        min_authority=3,
        exclude_superseded=True,
        sources=("faa ad",),
    )
    # A task without its own filters takes the bounds whole; no bounds change nothing.
    assert SearchFilters().within(bounds) == bounds
    assert task.within(SearchFilters()) is task


@pytest.mark.parametrize(
    "task",
    [
        SearchFilters(knowledge_bases=("regulations",)),
        SearchFilters(doc_types=("faq",)),
        SearchFilters(updated_before=date(2022, 12, 31)),
        SearchFilters(sources=("EASA",)),
    ],
)
def test_filters_that_cannot_meet_the_bounds_give_none(task):
    bounds = SearchFilters(
        knowledge_bases=("manuals",),
        doc_types=("manual",),
        updated_after=date(2023, 1, 1),
        sources=("FAA",),
    )
    assert task.within(bounds) is None
