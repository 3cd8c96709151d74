"""A table row of a manual, rendered as labelled cells, is read cell by cell: the cell
the question asks about answers, and the row's other columns do not keep it out
(issue 27, table rows read as rows)."""

from __future__ import annotations

from handmade import document, evidence, perceive

from ragcore.agents.generation.extractive import ExtractiveGenerator, _cells

HARDWARE = document("moteus/docs_reference_hardware", "Hardware Specifications")
LIMITS = (
    "Electrical Limits\n\n"
    "Name: moteus-c1; Min Voltage: 10V; Nominal: 24V; Abs Max Voltage: 51V (<= 12S); "
    "Peak Output: 20A; 3V Aux: 50mA; 5V Aux: 100mA; 12V Aux: N/A"
)


def test_the_asked_cell_of_a_row_answers_with_the_cell_naming_the_row():
    question = "whats the absolute max input voltage on a moteus-c1?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, LIMITS, HARDWARE)], perceive(question)
    )
    assert not draft.abstained
    # The row's "Peak Output" is another column's: the row is no reason to decline.
    assert draft.text == "Name: moteus-c1; Abs Max Voltage: 51V (<= 12S) [1]."


def test_only_a_row_of_labelled_cells_is_read_cell_by_cell():
    assert _cells("Name: moteus-c1; Min Voltage: 10V; Nominal: 24V") == [
        "Name: moteus-c1; Min Voltage: 10V.",
        "Name: moteus-c1; Nominal: 24V.",
    ]
    # A sentence with a colon and a semicolon is no row; nor are two cells.
    assert _cells("Power: Power is provided via the XT30 connector; it accepts 10 to 51V.") == []
    assert _cells("Name: moteus-c1; Nominal: 24V") == []
