"""A value asked of a key is answered by the sentence that gives the key a value, not by
one that names the key and states another figure; a value stated tersely is found beside
the sentences that only talk about it (issue 27)."""

from __future__ import annotations

import dataclasses

from handmade import document, evidence, perceive

from ragcore.agents.generation.binding import asked_keys, binds
from ragcore.agents.generation.extractive import ExtractiveGenerator

HY_VFD = document("linuxcnc-src/docs_src_man_man1_hy_vfd.1", "hy_vfd(1)")
HY_VFD_SETUP = (
    "PD164 = 2: Set register PD164 (baud rate) to 2 (19200 bps). This matches the "
    "default in the hy_vfd driver, change this if your setup has special needs.\n\n"
    "PD165 = 3: Set register PD165 (communication data method) to 3 (8n1 RTU)."
)
HY_VFD_OPTIONS = (
    "-r, --rate n: Set baud rate to n. It is an error if the rate is not one of the "
    "following: 110, 300, 600, 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200. This "
    "must match the setting in register PD164 of the Huanyang VFD (defaults to 38400)."
)


def test_the_keys_a_question_asks_the_value_of_are_read_beside_value_or_setting():
    assert asked_keys("huanyang spindle with hy_vfd - what value goes in PD164?", ["PD164"]) == (
        "PD164",
    )
    assert asked_keys("what phases value turns on auto switching?") == ("phases",)
    assert asked_keys("What readonly value do I set?") == ("readonly",)
    # No word for a value: no key asked, whatever the question names.
    assert asked_keys("What CAN baud does the ODrive use?", ["ODrive"]) == ()
    # A word that says which figure, not which key.
    assert asked_keys("what default value do I use?") == ()


def test_a_sentence_binds_a_value_to_a_key_by_assignment_or_as_an_item_under_its_heading():
    assert binds(["PD164"], "Set register PD164 (baud rate) to 2 (19200 bps).")
    assert binds(["phases"], "phases: 0 = Automatic switching enabled")
    assert not binds(
        ["PD164"], "This must match the setting in register PD164 of the Huanyang VFD."
    )
    assert not binds(["PD164"], "Set register PD1640 to 2.")  # another key
    item = "- deny: Write access is blocked with a modbus error as response"
    assert binds(["readonly"], item, heading="readonly")
    assert not binds(["readonly"], item, heading="uri")


def test_the_sentence_giving_the_asked_key_a_value_answers_over_one_naming_it():
    question = "huanyang spindle with hy_vfd - what value goes in PD164?"
    draft = ExtractiveGenerator().generate(
        question,
        [evidence(1, HY_VFD_OPTIONS, HY_VFD), evidence(2, HY_VFD_SETUP, HY_VFD)],
        perceive(question),
    )
    assert not draft.abstained
    assert "to 2 (19200 bps)" in draft.text
    assert "defaults to 38400" not in draft.text


def test_a_value_listed_under_the_keys_heading_answers():
    proxy = document("evcc-docs/en_reference_configuration_modbusproxy", "modbusproxy")
    chunk = (
        "### readonly\n\nBy setting this parameter, you can prevent Modbus write accesses "
        "by third-party systems.\n\nPossible values:\n\n"
        "- true: Write access is blocked without response\n"
        "- deny: Write access is blocked with a modbus error as response\n"
        "- false: Write access is forwarded"
    )
    question = (
        "I want the evcc modbus proxy to reject writes from other systems with a Modbus "
        "error. What readonly value do I set?"
    )
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, proxy)], perceive(question)
    )
    assert "deny" in draft.text


def test_a_value_stated_tersely_answers_when_the_sentences_sharing_more_words_give_none():
    faq = document("nut-doc/faq", "Network UPS Tools FAQ")
    chunk = (
        "The upsmon process on remote systems connects to the upsd process through the "
        "firewall, so open the firewall for remote upsmon to reach upsd.\n\n"
        "upsd listens on TCP port 3493 by default."
    )
    question = "what port do I need to open in the firewall for remote upsmon to reach upsd?"
    draft = ExtractiveGenerator().generate(question, [evidence(1, chunk, faq)], perceive(question))
    assert "3493" in draft.text


def test_a_question_without_a_focus_is_not_widened_to_terse_sentences():
    # "which port …" names no focus of its own: any terse sentence with a number of
    # the shape would do, so none is taken.
    faq = document("nut-doc/faq", "Network UPS Tools FAQ")
    chunk = (
        "The upsmon process on remote systems connects to the upsd process through the "
        "firewall, so open the firewall for remote upsmon to reach upsd.\n\n"
        "upsd listens on TCP port 3493 by default."
    )
    question = "which port do I open in the firewall for remote upsmon to reach upsd?"
    draft = ExtractiveGenerator().generate(question, [evidence(1, chunk, faq)], perceive(question))
    assert "3493" not in draft.text


def test_a_sentence_sharing_only_its_documents_title_is_not_near_enough():
    guide = document("odrive/docs_can-guide", "CAN Bus Guide for ODrive")
    chunk = "Wiring the bus to the ODrive is described below.\n\nSpeed: 250 kbps; value: 250000"
    question = "what CAN baud does the ODrive use out of the box?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, guide)], perceive(question)
    )
    assert "250" not in draft.text


def test_what_a_thing_is_for_is_found_in_the_sentence_leaning_on_the_one_naming_it():
    thermistors = document("odrive/docs_thermistors", "Thermistors")
    chunk = (
        "Every thermistor and voltage divider circuit on the GPIO pin is different, so the "
        "ODrive must know how to relate the voltage at the GPIO pin to a temperature. "
        "While not strictly necessary, it is a good idea to add a capacitor as shown as "
        "well. This will help reduce the effect of electrical noise."
    )
    question = (
        "Motor thermistor divider on the odrive GPIO: what is the extra capacitor in the "
        "schematic actually for?"
    )
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, thermistors)], perceive(question)
    )
    assert "reduce the effect of electrical noise" in draft.text
    assert draft.text.startswith("While not strictly necessary")  # cited after what it leans on


def test_a_purpose_said_in_a_sentence_opening_with_its_job_leans_on_the_one_before():
    integrator = document("linuxcnc-doc-en/LinuxCNC_Integrator", "LinuxCNC Integrator Manual")
    chunk = (
        "The Hardware Abstraction Layer (HAL) of LinuxCNC includes a debounce component. "
        "This component has a single input pin and a single output pin. Its job is to "
        "monitor the input and to send an output after the input has activated for a "
        "programmed delay period."
    )
    question = "what does the HAL debounce component do?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, integrator)], perceive(question)
    )
    assert "programmed delay period" in draft.text


def test_a_yes_no_answer_may_name_the_subject_by_its_documents_title():
    overview = document("frc-docs/control-system-hardware", "Hardware Component Overview")
    hub = document("frc-docs/wiring-pneumatics-ph", "Wiring Pneumatics - REV Pneumatic Hub")
    question = "can i mix 12v and 24v solenoids on one rev pneumatic hub?"
    draft = ExtractiveGenerator().generate(
        question,
        [
            # retrieved below the hub's own wiring page
            dataclasses.replace(
                evidence(
                    1,
                    "The REV Pneumatic Hub is a standalone module that is capable of "
                    "switching both 12V and 24V pneumatic solenoid valves.",
                    overview,
                ),
                score=0.6,
            ),
            evidence(
                2,
                "The PH is capable of powering either 12V or 24V solenoids, but all solenoids "
                "connected to a single PH must be the same voltage.",
                hub,
            ),
        ],
        perceive(question),
    )
    assert "must be the same voltage" in draft.text


def test_the_command_a_sentence_introduces_on_a_line_of_its_own_is_part_of_it():
    no_motion = document("moteus/docs_troubleshooting_no-motion", "Troubleshooting No Motion")
    chunk = (
        "Once the cause of the fault has been identified, it can be cleared by sending:"
        "\n\n`d stop`\n\nThen the command in question can be attempted again."
    )
    question = "how do I clear a fault in tview so I can send d pos again?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, no_motion)], perceive(question)
    )
    assert "sending: `d stop`" in draft.text


def test_a_terse_figure_of_the_asked_attribute_but_another_thing_is_no_answer():
    vessels = document("reg-pressure-vessels", "Pressure vessel inspection rule")
    chunk = (
        "Air receivers and other pressure vessels in a workshop are covered by this rule. "
        "Inspect them every 12 months."
    )
    question = "How often do portable ladders and scaffolding have to be inspected?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, vessels)], perceive(question)
    )
    assert "12 months" not in draft.text


def test_each_value_the_document_gives_the_asked_key_is_an_answer_however_few_words_it_shares():
    loadpoints = document("evcc-docs/en_reference_configuration_loadpoints", "Loadpoints")
    chunk = (
        "### phases\n\nThe value controls whether the automatic phase switching is enabled "
        "or disabled.\n\n"
        "phases: 1 or 3 = Automatic switching disabled, and the set value is fixed\n\n"
        "phases: 0 = Automatic switching enabled"
    )
    question = (
        "evcc loadpoint with a 1p/3p switching charger, what phases value turns on auto switching?"
    )
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, loadpoints)], perceive(question)
    )
    assert "phases: 0 = Automatic switching enabled" in draft.text
