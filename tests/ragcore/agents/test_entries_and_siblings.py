"""Sentence choice on real manual text: what a numbered signal means is told by its
entry, which shares few of the question's words; a product's figure is read from its
own row, not from a sibling's row beside it."""

from __future__ import annotations

from handmade import check, document, evidence, perceive

from ragcore.agents.generation.extractive import ExtractiveGenerator
from ragcore.text.products import sibling_named

NO_MOTION = document("moteus/docs_troubleshooting_no-motion", "Troubleshooting No Motion")
FAULTS = (
    "Position Mode Fault: If the diagnostic channel responded OK, then to identify the "
    "problem you must look at the current reported mode and fault status. They will be "
    "present as the first two items in the servo_stats telemetry channel. Common problems "
    "when first attempting control are:\n\n"
    '- "39 (outside bounds)": servopos.position_min and servopos.position_max are either '
    "not configured, or the motor starting position is outside the configured bounds.\n"
    '- "33 (motor not configured)": the motor has not been calibrated.'
)


def test_a_numbered_signal_is_answered_by_its_entry():
    question = (
        "servo_stats shows fault 39 right after I send a d pos from tview and the motor "
        "doesn't budge. what does 39 mean?"
    )
    cited = [evidence(1, FAULTS, NO_MOTION)]
    draft = ExtractiveGenerator().generate(question, cited, perceive(question))
    assert not draft.abstained
    assert "39 (outside bounds)" in draft.text and "33" not in draft.text
    assert check(question, draft.text, cited).passed


def test_a_number_named_in_passing_is_no_entry_of_the_signal():
    question = "servo_stats shows fault 39 after a d pos from tview. what does 39 mean?"
    passing = "The bracket takes a 39 mm bolt through the mounting plate."
    cited = [evidence(1, passing, NO_MOTION)]
    assert ExtractiveGenerator().generate(question, cited, perceive(question)).abstained


HARDWARE = document("moteus/docs_reference_hardware", "Hardware Reference")
ROWS = (
    "Name: moteus-c1; Min Voltage: 10V; Max Voltage: 51V; Abs Max Voltage: 51V (<= 12S).\n"
    "Name: moteus-r4; Min Voltage: 10V; Max Voltage: 44V; Abs Max Voltage: 44V (<= 10S)."
)


def test_a_products_figure_is_read_from_its_own_row_not_a_siblings():
    question = "thinking about a moteus-r4 off a 12S pack. what's the abs max voltage on it?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, ROWS, HARDWARE)], perceive(question)
    )
    assert "44V" in draft.text
    assert "moteus-c1" not in draft.text and "51V" not in draft.text


def test_a_sibling_is_the_same_family_with_another_designation():
    assert sibling_named("moteus-r4", "Name: moteus-c1; Abs Max Voltage: 51V") == "moteus-c1"
    assert sibling_named("moteus-r4", "moteus-c1 and moteus-r4 alike") is None
    assert sibling_named("ODrive", "the ODrive v3.6 board") is None  # no designation
