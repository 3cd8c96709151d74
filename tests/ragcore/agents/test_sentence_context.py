"""What a sentence is about, read from its context (issue 27): a table row of a manual,
rendered as labelled cells, is read cell by cell (the asked cell answers; the row's
other columns do not keep it out); a sentence under the heading of the asked code tells
of that code, and is cited after the heading."""

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


README = document("ur-ros-driver/readme", "Universal_Robots_ROS_Driver")
C207A0 = (
    "### When starting the program on the TP, I get a C207A0 error.\n"
    "Note: With the current driver version this issue can only happen when the fieldbus "
    "is enabled\nafter the ROS driver has been started. Otherwise you will run into #204 "
    "when starting the driver\nwith an enabled EtherNet/IP fieldbus.\n\n"
    "Most probably, the EtherNet/IP fieldbus is enabled in the robot's installation."
)


def test_a_code_is_told_of_under_its_heading_and_cited_after_it():
    # The sentences under "… I get a C207A0 error." never name the code: the heading
    # does, so it goes with them, and the sentence leaning on the chosen one too.
    question = "Pendant gives a C207A0 error when I start the program with the ROS driver. Cause?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, C207A0, README)], perceive(question)
    )
    assert not draft.abstained
    assert draft.text.startswith("When starting the program on the TP, I get a C207A0 error: ")
    assert "enabled EtherNet/IP fieldbus" in draft.text
    assert draft.text.count("C207A0") == 1  # the heading once, however many sentences


def test_a_decline_says_what_no_sentence_gave_when_no_attribute_is_asked():
    stepper = document("linuxcnc-src/docs_src_config_stepper-diagnostics", "Stepper Diagnostics")
    chunk = (
        "RTAPI: ERROR: Unexpected realtime delay on task n\n\n"
        "The stepper moves one step each time you jog."
    )
    question = "getting 'RTAPI: ERROR: Unexpected realtime delay on task n' - which setting?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, stepper)], perceive(question)
    )
    assert draft.abstained
    # Not "… but gives no " with nothing named.
    assert draft.reason == (
        "the sentences sharing the question's words only repeat it or tell of something else"
    )
