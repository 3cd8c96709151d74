"""Answerability by kind (``checks/answer_type``): an answer is of the kind the question
asks for — a figure, the asked code's meaning, a part number — whatever words it shares
with the question."""

from __future__ import annotations

from dataclasses import replace

from sources import check, document, evidence, findings, perceive

from ragcore.agents.perception.asks import AnswerType

PUMP = [
    evidence(
        1,
        "The CP-200 relief valve pressure must be set by a trained technician. It opens at 10 bar.",
        document("manual-cp200", "CP-200 pump manual"),
    )
]
SEAL = [
    evidence(
        1,
        "Replace the mechanical seal (P/N 88-2041-09) every 1500 operating hours. "
        "Order seals from the service desk.",
        document("manual-cp200", "CP-200 pump manual"),
    )
]
CODES = [
    evidence(
        1,
        "Error E4027 means the hydraulic oil pressure fell below 150 bar. "
        "Error E4031 means the platen guard is open.",
        document("manual-hp400", "HP-400 press manual"),
    )
]


def test_the_answer_type_is_read_from_the_questions_form():
    kinds = {
        "What pressure does the CP-200 relief valve open at?": AnswerType.FIGURE,
        "What does error E4027 mean on the HP-400?": AnswerType.MEANING,
        "What is the part number of the CP-200 seal?": AnswerType.PART_NUMBER,
        "How do I replace the CP-200 seal?": AnswerType.PROCEDURE,
        "Can the CP-200 run dry?": AnswerType.YES_NO,
        "How many seals does the CP-200 have?": AnswerType.COUNT,
        # who does it: the act, or who by a relative clause (``answer_types.kind``)
        "Who services the CP-200?": AnswerType.AGENT,
        "What else does the CP-200 manual say?": AnswerType.ANY,
    }
    assert {q: perceive(q).asks.answer_type for q in kinds} == kinds


def test_a_value_question_answered_without_a_figure_is_not_of_the_asked_kind():
    question = "What pressure does the CP-200 relief valve open at?"
    wrong = "The CP-200 relief valve pressure must be set by a trained technician [1]."
    assert findings(check(question, wrong, PUMP)) == [("answer_type.figure", "off_question")]
    right = "The CP-200 relief valve opens at 10 bar [1]."
    assert findings(check(question, right, PUMP)) == []


def test_a_part_number_question_needs_a_part_number_the_question_does_not_give():
    question = "What is the part number of the CP-200 seal?"
    wrong = "Order seals from the service desk [1]."
    assert ("answer_type.part_number", "off_question") in findings(check(question, wrong, SEAL))
    right = "The CP-200 mechanical seal is P/N 88-2041-09 [1]."
    assert findings(check(question, right, SEAL)) == []


def test_neither_a_figure_nor_the_documents_model_is_a_part_number():
    robot = document("faq-ra6", "Why did the RA-6 robot lose its calibration?")
    cited = [evidence(1, "The RA-6 keeps its position data alive with a backup battery.", robot)]
    answer = "The RA-6 keeps its position data alive with a backup battery [1]."
    assert ("answer_type.part_number", "off_question") in findings(
        check("battery part no?", answer, cited)
    )
    manual = document("manual-ra6", "RA-6 six-axis robot manual")
    cited = [
        evidence(1, "Replace the grease in the axis 1 to 3 gearboxes every 10000 hours.", manual)
    ]
    answer = "Replace the grease in the axis 1 to 3 gearboxes every 10000 hours [1]."
    assert ("answer_type.part_number", "off_question") in findings(
        check("What's the RA-6 part number?", answer, cited)
    )
    cited = [evidence(1, "Error E5120 means the axis 2 motor current exceeded its limit.", manual)]
    answer = "Error E5120 means the axis 2 motor current exceeded its limit [1]."
    assert ("answer_type.part_number", "off_question") in findings(
        check("What's the RA-6 part number?", answer, cited)
    )
    generator = document("manual-gx500", "GX-500 diesel generator manual")
    cited = [evidence(1, "The sump holds 62 litres of 5W-40 synthetic oil.", generator)]
    answer = "The sump holds 62 litres of 5W-40 synthetic oil [1]."
    assert ("answer_type.part_number", "off_question") in findings(
        check("What's the part number of the GX-500 oil filter?", answer, cited)
    )
    cited = [evidence(1, "The backup battery is P/N 73-0006-02; replace it every 2 years.", robot)]
    answer = "The RA-6 backup battery is P/N 73-0006-02 [1]."
    assert findings(check("battery part no?", answer, cited)) == []


def test_a_part_number_answer_names_the_part_asked_about():
    pump = document("manual-cp350", "CP-350 centrifugal pump manual")
    cited = [evidence(1, "Replace the double mechanical seal (P/N 88-3510-02) every 3000 h.", pump)]
    answer = "Replace the double mechanical seal (P/N 88-3510-02) every 3000 h [1]."
    report = check("What's the P/N of the CP-350 flush filter?", answer, cited)
    assert findings(report) == [("answer_type.part_number", "off_question")]
    assert "flush filter" in report.issues[0].message
    assert findings(check("What's the P/N of the CP-350 seal kit?", answer, cited)) == []
    assert findings(check("cp-350 seal part no?", answer, cited)) == []
    right = "Can I still fit seal kit 88-2041-07 on the CP-350, or what's the right part number?"
    assert "answer_type.part_number" not in {
        rule for rule, _ in findings(check(right, answer, cited))
    }


def test_how_long_something_holds_is_answered_with_a_time():
    rule = document("reg-confined", "Confined space entry rule")
    cited = [evidence(1, "A permit is required before anyone enters a tank, pit or vessel.", rule)]
    answer = "A permit is required before anyone enters a tank, pit or vessel [1]."
    question = "how long is the entry permit good for?"
    assert findings(check(question, answer, cited)) == [("answer_type.shape", "off_question")]
    cited = [evidence(1, "An entry permit is valid for one shift.", rule)]
    assert findings(check(question, "An entry permit is valid for one shift [1].", cited)) == []


def test_a_meaning_question_needs_the_asked_code_in_the_answer_or_its_source():
    question = "What does error E4027 mean on the HP-400?"
    right = "Error E4027 means the hydraulic oil pressure fell below 150 bar [1]."
    assert findings(check(question, right, CODES)) == []
    other = [evidence(1, "The platen guard is open.", document("manual-hp400", "HP-400 press"))]
    wrong = "The platen guard is open [1]."
    assert ("answer_type.meaning", "off_question") in findings(check(question, wrong, other))


def test_an_answer_that_only_repeats_the_question_answers_nothing():
    cited = [
        evidence(
            1,
            "RTAPI: ERROR: Unexpected realtime delay on task n. The usual cause is a "
            "BASE_PERIOD set too short for the machine.",
            document("lcnc-latency", "LinuxCNC latency"),
        )
    ]
    question = "Getting 'RTAPI: ERROR: Unexpected realtime delay on task n' - what's the cause?"
    echo = "RTAPI: ERROR: Unexpected realtime delay on task n [1]."
    assert ("answer_type.echo", "off_question") in findings(check(question, echo, cited))
    right = "The usual cause is a BASE_PERIOD set too short for the machine [1]."
    assert findings(check(question, right, cited)) == []


ODRIVE = document("odrive/docs_specifications", "ODrive v3.6 specifications")
UPS = document("nut-doc/user-manual", "Network UPS Tools user manual")


def test_an_answer_from_sources_that_never_name_the_asked_product_is_about_another():
    question = "What's the max input voltage of the ODrive Pro?"
    ups = [evidence(1, "The high voltage transfer point is 132 V.", UPS)]
    answer = "The high voltage transfer point is 132 V [1]."
    assert ("answer_type.product", "wrong_entity") in findings(check(question, answer, ups))
    sibling = [evidence(1, "The ODrive v3.6 56V accepts 12 V to 56 V.", ODRIVE)]
    answer = "The ODrive v3.6 56V accepts 12 V to 56 V [1]."
    assert ("answer_type.product", "wrong_entity") in findings(check(question, answer, sibling))


def test_the_asked_product_may_be_named_by_the_document_id_title_or_section():
    question = "What input voltage range does the 24 V ODrive v3.6 accept?"
    cited = [evidence(1, "The 24 V version accepts 12 V to 24 V.", ODRIVE)]
    answer = "The 24 V version accepts 12 V to 24 V [1]."
    assert ("answer_type.product", "wrong_entity") not in findings(check(question, answer, cited))


def test_a_figure_written_against_its_unit_symbol_is_a_figure():
    question = "What's the absolute max supply voltage for a moteus-c1?"
    table = document("moteus/docs_reference_hardware", "moteus hardware reference")
    cited = [evidence(1, "Name: moteus-c1; Abs Max Voltage: 51V (<= 12S)", table)]
    answer = "Name: moteus-c1; Abs Max Voltage: 51V (<= 12S) [1]."
    assert findings(check(question, answer, cited)) == []


def test_how_much_asks_for_an_amount_and_an_answer_without_one_is_not_of_its_kind():
    question = "How much RAM does a PC need at minimum for LinuxCNC?"
    assert perceive(question).asks.answer_type == AnswerType.FIGURE
    guide = document("linuxcnc-doc-en/getting-started", "LinuxCNC Getting Started")
    cited = [
        evidence(
            1,
            "LinuxCNC should run well on a computer with the following minimum hardware. "
            "A 512 MB RAM minimum is needed.",
            guide,
        )
    ]
    vague = "LinuxCNC should run well on a computer with the following minimum hardware [1]."
    assert ("answer_type.figure", "off_question") in findings(check(question, vague, cited))
    right = "A 512 MB RAM minimum is needed [1]."
    assert ("answer_type.figure", "off_question") not in findings(check(question, right, cited))


LIGHTS = document("frc/status-lights", "Status light quick reference")


def test_a_signal_question_reads_the_codes_and_signal_numbers_it_asks_about():
    assert perceive("Toshiba VF-S11 shows trip code OC1 — what does it mean?").asks.signals == (
        "OC1",
    )
    assert perceive("The roboRIO light blinks 3 times — what does that mean?").asks.signals == (
        "3",
    )
    what_happens = "On an FNN box, what happens in evcc when the W4 contact is active?"
    assert perceive(what_happens).asks.signals == ("W4",)
    assert perceive("What input voltage does the VF-S11 accept?").asks.signals == ()


def test_a_quoted_passage_that_does_not_name_the_asked_signal_is_no_answer():
    question = "The roboRIO status light blinks 3 times — what does that mean?"
    cited = [
        evidence(1, "Blinking: Robot On and Enabled. 3 blinks: Safe Mode after a brownout.", LIGHTS)
    ]
    quoted = "Blinking: Robot On and Enabled [1]."
    assert ("answer_type.signal", "off_question") in findings(check(question, quoted, cited))
    right = "3 blinks: Safe Mode after a brownout [1]."
    assert ("answer_type.signal", "off_question") not in findings(check(question, right, cited))


def test_an_answer_in_its_own_words_may_leave_the_signal_to_its_sources():
    question = "The roboRIO status light blinks 3 times — what does that mean?"
    cited = [evidence(1, "3 blinks: Safe Mode after a brownout.", LIGHTS)]
    paraphrase = "The roboRIO is in Safe Mode after a brownout [1]."
    assert ("answer_type.signal", "off_question") not in findings(
        check(question, paraphrase, cited)
    )


def test_a_how_to_answer_gives_an_instruction():
    question = "How do I list the active errors on an ODrive and clear them?"
    assert perceive(question).asks.answer_type == AnswerType.PROCEDURE
    guide = document("odrive/docs_troubleshooting", "ODrive troubleshooting")
    cited = [
        evidence(
            1,
            "odrive/utils.py in dump_errors(odrv, clear) 78 ('axis', axis). Run odrivetool "
            "and type dump_errors(odrv0) to list the errors.",
            guide,
        )
    ]
    trace = "odrive/utils.py in dump_errors(odrv, clear) 78 ('axis', axis) [1]."
    assert ("answer_type.procedure", "off_question") in findings(check(question, trace, cited))
    steps = "Run odrivetool and type dump_errors(odrv0) to list the errors [1]."
    assert ("answer_type.procedure", "off_question") not in findings(check(question, steps, cited))


def test_a_requirement_or_a_setting_stands_for_an_instruction():
    question = "How do I enable automatic phase switching on an evcc loadpoint?"
    config = document("evcc/loadpoints", "evcc loadpoint configuration")
    cited = [evidence(1, "phases: 0 = Automatic switching enabled.", config)]
    setting = "phases: 0 = Automatic switching enabled [1]."
    assert ("answer_type.procedure", "off_question") not in findings(
        check(question, setting, cited)
    )


def test_an_amount_in_a_unit_answers_how_much_however_it_names_the_thing():
    question = "How much refrigerant is in a BC-20?"
    manual = document("manual-bc20", "BC-20 chiller manual")
    cited = [evidence(1, "The BC-20 is charged with 4.6 kg of R452A.", manual)]
    answer = "A BC-20 is charged with 4.6 kg of R452A [1]."
    assert not any(rule == "focus.phrase" for rule, _ in findings(check(question, answer, cited)))


def test_a_question_for_the_default_is_answered_by_a_statement_of_the_default():
    question = "What CAN baud rate is the ODrive set to by default?"
    assert perceive(question).asks.default
    guide = document("odrive/docs_can-guide", "ODrive CAN guide")
    cited = [
        evidence(
            1,
            "To set the desired baud rate, use odrv0.can.config.baud_rate. By default, ODrive "
            "uses 250 kbps (250000).",
            guide,
        )
    ]
    how_to_change = "To set the desired baud rate, use odrv0.can.config.baud_rate [1]."
    assert ("answer_type.default", "off_question") in findings(
        check(question, how_to_change, cited)
    )
    right = "By default, ODrive uses 250 kbps (250000) [1]."
    assert ("answer_type.default", "off_question") not in findings(check(question, right, cited))


def test_a_lights_colours_are_the_signals_a_diagnosis_question_asks_about():
    question = "The status LED on the REV hub is blinking orange and blue. What's wrong?"
    assert perceive(question).asks.signals == ("orange", "blue")
    assert perceive("Teach pendant shows C207A0 with the driver. Cause?").asks.signals == (
        "C207A0",
    )
    assert perceive("Which orange hose fits the CP-200?").asks.signals == ()
    hub = document("frc/status-lights", "Status light quick reference")
    cited = [
        evidence(1, "Magenta blinking: not connected. Orange/Blue blinking: Low Battery.", hub)
    ]
    wrong = "Magenta blinking: not connected [1]."
    assert ("answer_type.signal", "off_question") in findings(check(question, wrong, cited))
    right = "Orange/Blue blinking: Low Battery [1]."
    assert ("answer_type.signal", "off_question") not in findings(check(question, right, cited))


def test_a_question_for_a_code_of_one_letter_is_answered_with_one():
    question = "Which M code orients the spindle?"
    assert perceive(question).asks.code_family == "M"
    assert perceive("Which code does the HP-400 show?").asks.code_family is None
    gcode = document("linuxcnc/gcode", "LinuxCNC G-code reference")
    cited = [
        evidence(1, "spindle.M.orient-fault is the fault code input for the orient cycle.", gcode),
        evidence(2, "M19 orients the spindle to a fixed angle.", gcode),
    ]
    pin = "spindle.M.orient-fault is the fault code input for the orient cycle [1]."
    assert ("answer_type.code", "off_question") in findings(check(question, pin, cited))
    right = "M19 orients the spindle to a fixed angle [2]."
    assert ("answer_type.code", "off_question") not in findings(check(question, right, cited))


def test_a_question_on_how_the_default_changed_asks_for_the_change():
    assert not perceive("How has the ATS-400's default retransfer delay changed?").asks.default


def test_an_answer_in_its_own_words_may_leave_the_default_to_its_sources():
    question = "What is the default bleed setpoint on the BC-9?"
    manual = document("manual-bc9", "BC-9 controller manual")
    cited = [evidence(1, "The bleed setpoint is 3,000 µS/cm by default.", manual)]
    paraphrase = "The BC-9 bleeds at a setpoint of 3,000 µS/cm [1]."
    assert ("answer_type.default", "off_question") not in findings(
        check(question, paraphrase, cited)
    )


AIR_FILTERS = [
    evidence(
        1,
        "The AC-75 delivers 7.5 m³/min of free air. Replace the air filter (P/N 61-0075-11) "
        "every 2000 hours.",
        document("manual-ac75", "AC-75 compressor manual"),
    ),
    evidence(
        2,
        "The AC-110 delivers 11.0 m³/min of free air. Replace the air filter (P/N 61-0110-04) "
        "every 2000 hours.",
        document("manual-ac110", "AC-110 compressor manual"),
    ),
]


def test_part_numbers_of_models_named_side_by_side_are_asked_of_each_model():
    question = "Which part numbers are the air filters of the AC-75 and AC-110?"
    assert perceive(question).sides == ("AC-75", "AC-110")
    # a decimal figure is no part number: the flow of each is not the answer
    wrong = "The AC-75 delivers 7.5 m³/min of free air [1]. The AC-110 delivers 11.0 m³/min [2]."
    # (also: the AC-110's statement says nothing of the air the AC-75's names)
    assert findings(check(question, wrong, AIR_FILTERS)) == [
        ("sides.same_thing", "off_question"),
        ("answer_type.part_number", "off_question"),
        ("answer_type.part_number", "off_question"),
    ]
    half = (
        "AC-75: Replace the air filter (P/N 61-0075-11) every 2000 hours [1]. "
        "The AC-110 delivers 11.0 m³/min of free air [2]."
    )
    report = check(question, half, AIR_FILTERS)
    assert [(i.rule, i.entity) for i in report.issues] == [
        ("sides.same_thing", "AC-110"),  # its statement names no filter, the AC-75's does
        ("answer_type.part_number", "AC-110"),
    ]
    right = (
        "AC-75: Replace the air filter (P/N 61-0075-11) every 2000 hours [1]. "
        "AC-110: Replace the air filter (P/N 61-0110-04) every 2000 hours [2]."
    )
    assert findings(check(question, right, AIR_FILTERS)) == []


UPS_SETTINGS = [
    evidence(
        1,
        "All Smart-UPS products have a preconfigured low battery signal warning time of two "
        "minutes. There are a total of four user-changeable settings: 2, 5, 7, or 10 minutes.",
        document("apcupsd/manual", "APCUPSD user manual"),
    )
]


def test_a_question_for_the_choices_is_read_from_its_form():
    kinds = {
        "What low battery warning times can you pick on a Smart-UPS?": AnswerType.OPTIONS,
        "What tool voltages can I set for the RS485 tool communication?": AnswerType.OPTIONS,
        "Which modes are supported by the VF-S11?": AnswerType.OPTIONS,
        "What are the options for the tool parity?": AnswerType.OPTIONS,
        "What voltage can I use on the TX-2?": AnswerType.FIGURE,  # one value
    }
    assert {q: perceive(q).asks.answer_type for q in kinds} == kinds


def test_a_question_for_the_choices_is_not_answered_by_one_value():
    question = "What low battery warning times can you pick on a Smart-UPS?"
    default = (
        "All Smart-UPS products have a preconfigured low battery signal warning time of two "
        "minutes [1]."
    )
    assert ("answer_type.options", "off_question") in findings(
        check(question, default, UPS_SETTINGS)
    )
    listed = "There are four user-changeable settings: 2, 5, 7, or 10 minutes [1]."
    assert ("answer_type.options", "off_question") not in findings(
        check(question, listed, UPS_SETTINGS)
    )


def test_a_how_to_answer_in_the_questions_own_words_gives_no_step():
    question = "How do I do a manual battery runtime calibration on a Smart-UPS?"
    manual = document("apcupsd/manual", "APCUPSD user manual")
    cited = [
        evidence(
            1,
            "Perform a Runtime Calibration. This is a manual procedure and should not be "
            "confused with the calibration performed through PowerChute. Disconnect the "
            "load and let the UPS run on battery until it turns off completely.",
            manual,
        )
    ]
    own_words = (
        "Perform a Runtime Calibration. This is a manual procedure and should not be "
        "confused with the calibration performed through PowerChute [1]."
    )
    assert ("answer_type.procedure", "off_question") in findings(check(question, own_words, cited))
    step = "Let the UPS run on battery until it turns off completely [1]."
    assert ("answer_type.procedure", "off_question") not in findings(check(question, step, cited))


def test_the_focus_of_a_what_x_is_question_must_be_named():
    question = "What CAN baud rate is the ODrive set to by default?"
    asks = perceive(question).asks
    assert asks.focus is not None and asks.focus.wanted == {"baud", "rate"}
    cited = [
        evidence(
            1,
            "By default, CAN is enabled on the ODrive, where Axis 0 has ID 0. By default, "
            "the ODrive CAN baud rate is 250 kbps.",
            document("odrive/can-guide", "CAN Bus Guide for ODrive"),
        )
    ]
    other = "By default, CAN is enabled on the ODrive, where Axis 0 has ID 0 [1]."
    assert ("focus.phrase", "off_question") in findings(check(question, other, cited))
    right = "By default, the ODrive CAN baud rate is 250 kbps [1]."
    assert ("focus.phrase", "off_question") not in findings(check(question, right, cited))


STEPPERS = [
    evidence(
        1,
        "The most common reason in a new installation for a stepper motor not to move is "
        "that the step and direction signals are exchanged. If you press the jog keys "
        "alternately and the stepper moves one step each time, there is your clue.",
        document("linuxcnc/stepper-diagnostics", "Stepper Diagnostics"),
    )
]


def test_a_symptom_and_whats_wrong_asks_for_a_cause_unless_it_names_a_signal():
    question = (
        "Stepper only moves one step each time I jog, always in the same direction. What's wrong?"
    )
    assert perceive(question).asks.answer_type == AnswerType.CAUSE
    light = "The status LED on the hub is blinking orange and blue. What's wrong?"
    assert perceive(light).asks.answer_type != AnswerType.CAUSE  # the light's meaning


def test_a_sentence_pointing_at_a_clue_names_no_cause():
    question = (
        "Stepper only moves one step each time I jog, always in the same direction. What's wrong?"
    )
    clue = (
        "If you press the jog keys alternately and the stepper moves one step each time, "
        "there is your clue [1]."
    )
    assert ("answer_type.cause", "off_question") in findings(check(question, clue, STEPPERS))
    cause = (
        "The most common reason for a stepper motor not to move is that the step and "
        "direction signals are exchanged [1]."
    )
    assert ("answer_type.cause", "off_question") not in findings(check(question, cause, STEPPERS))


def test_a_step_told_to_the_reader_is_an_instruction_verb_not_any_verb():
    question = "How do I do a manual battery runtime calibration on a Smart-UPS?"
    faq = [
        evidence(
            1,
            "First, you need to realize that the UPS stores data about the battery. "
            "You need to completely drain the UPS while it has a good ground.",
            document("nut/faq", "NUT FAQ"),
        )
    ]
    realize = "First, you need to realize that the UPS stores data about the battery [1]."
    assert ("answer_type.procedure", "off_question") in findings(check(question, realize, faq))
    drain = "You need to completely drain the UPS while it has a good ground [1]."
    assert ("answer_type.procedure", "off_question") not in findings(check(question, drain, faq))


def test_how_much_is_not_answered_by_bare_numbers_or_the_questions_own_figure():
    question = "How much current can the UR e-Series tool flange supply at 24 V?"
    ros = [
        evidence(
            1,
            "roslaunch ur_robot_driver ur5e_bringup.launch tool_voltage:=24 "
            "tool_baud_rate:=115200. The tool flange supplies up to 600 mA at 24 V.",
            document("ur/tool_communication", "Tool communication on an e-Series robot"),
        )
    ]
    settings = "roslaunch ur_robot_driver ur5e_bringup.launch tool_voltage:=24 [1]."
    assert ("answer_type.figure", "off_question") in findings(check(question, settings, ros))
    amount = "The tool flange supplies up to 600 mA at 24 V [1]."
    assert ("answer_type.figure", "off_question") not in findings(check(question, amount, ros))


HP400_CHANGES = [
    evidence(
        1,
        "The platen bolt torque was raised from 45 N·m to 52 N·m after cracked washers were "
        "found, and the oil change interval was shortened from 500 to 400 operating hours.",
        document("manual-hp400", "HP-400 press manual"),
    )
]


def test_a_why_question_needs_the_reason_in_the_clause_about_what_it_asks():
    question = "Why was the HP-400 oil change interval shortened?"
    assert perceive(question).asks.answer_type == AnswerType.REASON
    both = (
        "The platen bolt torque was raised from 45 N·m to 52 N·m after cracked washers were "
        "found, and the oil change interval was shortened from 500 to 400 operating hours [1]."
    )
    # the reason given is the torque's; the interval's clause gives none
    assert ("answer_type.reason", "off_question") in findings(check(question, both, HP400_CHANGES))
    torque = "Why was the HP-400 platen bolt torque raised?"
    assert ("answer_type.reason", "off_question") not in findings(
        check(torque, both, HP400_CHANGES)
    )


def test_a_restated_change_gives_no_reason_and_a_reason_in_a_sentence_of_its_own_does():
    question = "Why did AD 2025-03-11 reduce the LEAP-1A fan blade inspection interval?"
    cited = [
        evidence(
            1,
            "The directive was issued after two reports of blade leading-edge damage. It "
            "reduces the interval of the fan blade visual inspection from 750 to 500 cycles.",
            document("reg-ad-2025-03-11", "AD 2025-03-11"),
        )
    ]
    restated = "AD 2025-03-11 reduces the interval of the fan blade visual inspection [1]."
    assert ("answer_type.reason", "off_question") in findings(check(question, restated, cited))
    reason = (
        "The directive was issued after two reports of blade leading-edge damage [1]. It "
        "reduces the interval of the fan blade visual inspection from 750 to 500 cycles [1]."
    )
    assert ("answer_type.reason", "off_question") not in findings(check(question, reason, cited))


def test_the_reason_for_a_change_the_other_way_is_no_reason_for_the_asked_one():
    cited = [
        evidence(
            1,
            "With the new synthetic oil, the oil change interval was extended from 250 to 500 "
            "running hours.",
            document("manual-gx500", "GX-500 generator manual"),
        )
    ]
    extended = (
        "With the new synthetic oil, the oil change interval was extended from 250 to 500 "
        "running hours [1]."
    )
    shortened = "Why was the GX-500 oil change interval shortened?"
    assert ("answer_type.reason", "off_question") in findings(check(shortened, extended, cited))
    asked = "Why was the GX-500 oil change interval extended?"
    assert ("answer_type.reason", "off_question") not in findings(check(asked, extended, cited))


def test_a_why_question_about_no_change_is_not_judged_by_its_reason_words():
    # why a thing is as it is is explained in too many ways to read
    question = "Why shouldn't the DS-12 be run above 6 bar?"
    cited = [
        evidence(
            1,
            "Pressures above 6 bar produce a fine mist that drifts away from the dust source.",
            document("manual-ds12", "DS-12 dust suppression manual"),
        )
    ]
    answer = "Above 6 bar the nozzles make a mist so fine that it drifts away [1]."
    assert ("answer_type.reason", "off_question") not in findings(check(question, answer, cited))


def test_the_value_shape_is_read_from_the_asked_head_noun():
    shapes = {
        "what port do I need to open in the firewall for remote NUT clients to reach upsd?": "port",
        "What IP should the roboRIO have when I'm plugged in over USB?": "address",
        "What serial line settings does an APC Smart-UPS talk at?": "serial_settings",
        "With an FNN control box, what feed-in limit applies when the S2 contact is active?": (
            "limit"
        ),
        "How do I open a port in the firewall?": None,
        "What does the port setting do?": None,
    }
    assert {q: perceive(q).asks.value_shape for q in shapes} == shapes


def test_an_answer_without_a_value_of_the_asked_shape_does_not_answer():
    # Sentences of the NUT user manual (benchmarks/manuals/docs/nut-doc).
    question = "What port do I need to open in the firewall for remote NUT clients to reach upsd?"
    cited = [
        evidence(
            1,
            "Any other NUT client connects to the upsd process on the system which manages "
            "the UPS, via this TCP port. By default, upsd will only listen to localhost port "
            "3493/tcp.",
            UPS,
        )
    ]
    wrong = (
        "Any other NUT client connects to the upsd process on the system which manages "
        "the UPS, via this TCP port [1]."
    )
    assert ("answer_type.shape", "off_question") in findings(check(question, wrong, cited))
    right = "By default, upsd will only listen to localhost port 3493/tcp [1]."
    assert ("answer_type.shape", "off_question") not in findings(check(question, right, cited))


def test_an_address_question_is_answered_with_an_address_not_the_word():
    # Sentences of the FRC roboRIO network troubleshooting page.
    question = "What IP should the roboRIO have when I'm plugged in over USB?"
    text = (
        "Using the USB connection, verify that the roboRIO has an IP address on the ethernet "
        "interface. As long as there is only one roboRIO connected to the PC, it should be "
        "configured as 172.22.11.2."
    )
    cited = [evidence(1, text, LIGHTS)]
    wrong = (
        "Using the USB connection, verify that the roboRIO has an IP address on the ethernet "
        "interface [1]."
    )
    assert ("answer_type.shape", "off_question") in findings(check(question, wrong, cited))
    right = "It should be configured as 172.22.11.2 [1]."
    assert ("answer_type.shape", "off_question") not in findings(check(question, right, cited))


def test_a_count_of_blinks_before_the_word_is_the_asked_signal():
    question = "roboRIO status LED is doing 3 blinks - what does it mean?"
    assert perceive(question).asks.signals == ("3",)


def test_how_much_current_is_answered_in_amperes_not_by_a_batterys_charge():
    # A sentence of the FRC docs: a battery's volts and ampere-hours are no current.
    question = "How much current can the VRM's 5V outputs supply on an FRC robot?"
    assert perceive(question).asks.value_shape == "current"
    # "the current firmware version" asks for a version, not a current
    assert perceive("What is the current firmware version?").asks.value_shape == "version"
    text = (
        "The power supply for an FRC robot is a single 12V 18Ah Sealed Lead Acid (SLA) "
        "battery, capable of meeting the high current demands of an FRC robot."
    )
    cited = [evidence(1, text, LIGHTS)]
    assert ("answer_type.shape", "off_question") in findings(check(question, f"{text} [1]", cited))


# -- issue 27 item 3: what the question names, and the kind it asks, in the answer ------
THERMISTORS = document("odrive/docs_thermistors", "Thermistors")
ROBORIO = document("frc-docs/roborio-networking", "roboRIO networking")


def test_an_acronym_or_key_the_question_names_is_read_by_perception():
    assert perceive("Can I hook a PTC thermistor up to the ODrive?").asks.named_terms == ("PTC",)
    assert perceive("With PT100s instead of PT1000s, what do I change?").asks.named_terms == (
        "PT100",
        "PT1000",
    )
    assert perceive("What does leaving HOME_SEARCH_VEL at 0 do?").asks.named_terms == (
        "HOME_SEARCH_VEL",
    )
    # models, codes, products and units are read by their own rules
    assert perceive("What RPM does the CP-200 run at on the ODrive v3.6?").asks.named_terms == ()


def test_an_answer_whose_text_and_sources_never_name_the_asked_acronym_is_off_the_question():
    question = "Can I hook a PTC thermistor up to the ODrive?"
    limits = [
        evidence(
            1,
            "The ODrive starts current limiting when temp_limit_lower is exceeded.",
            THERMISTORS,
        )
    ]
    answer = "The ODrive starts current limiting when temp_limit_lower is exceeded [1]."
    assert ("answer_type.named_term", "off_question") in findings(check(question, answer, limits))
    ntc = [evidence(1, "The ODrive only supports the NTC type thermistor, not PTC.", THERMISTORS)]
    answer = "The ODrive only supports the NTC type thermistor, not PTC [1]."
    assert ("answer_type.named_term", "off_question") not in findings(check(question, answer, ntc))


def test_the_asked_acronym_may_be_named_by_the_sources_or_as_a_code_of_its_letters():
    question = "What IP should the roboRIO have over USB?"
    usb = [evidence(1, "Over USB, the roboRIO is configured as 172.22.11.2.", ROBORIO)]
    answer = "The roboRIO is configured as 172.22.11.2 [1]."
    assert ("answer_type.named_term", "off_question") not in findings(check(question, answer, usb))
    radio = [evidence(1, "Connected to the radio, it should be 10.TE.AM.2.", ROBORIO)]
    answer = "Connected to the radio, it should be 10.TE.AM.2 [1]."
    assert ("answer_type.named_term", "off_question") in findings(check(question, answer, radio))
    question = "Which PD register of the Huanyang VFD sets the baud rate?"
    register = [evidence(1, "The baud rate is set in PD164 of the Huanyang VFD.", ROBORIO)]
    answer = "The baud rate is set in PD164 of the Huanyang VFD [1]."
    found = findings(check(question, answer, register))
    assert ("answer_type.named_term", "off_question") not in found


def test_a_fault_number_asked_what_it_is_asks_its_meaning():
    asks = perceive("moteus keeps throwing fault 34 when the load decelerates, what is that?").asks
    assert (asks.answer_type, asks.signals) == (AnswerType.MEANING, ("34",))
    assert perceive("What is that valve for?").asks.answer_type == AnswerType.PURPOSE


def test_a_question_for_a_settings_value_is_not_answered_by_a_sentence_that_only_names_it():
    question = "What's the default MAXAGE value in upsd.conf?"
    assert perceive(question).asks.value_shape == "value"
    nut = document("nut-doc/upsd.conf", "upsd.conf")
    named = [evidence(1, "Some drivers need more time than the default MAXAGE allows.", nut)]
    answer = "Some drivers need more time than the default MAXAGE allows [1]."
    assert ("answer_type.shape", "off_question") in findings(check(question, answer, named))
    given = [evidence(1, "MAXAGE defaults to 15 seconds.", nut)]
    answer = "MAXAGE defaults to 15 seconds [1]."
    assert ("answer_type.shape", "off_question") not in findings(check(question, answer, given))


def test_a_cable_length_or_payload_question_asks_for_a_figure_of_that_attribute():
    for question, attribute in (
        ("max CAN cable length for the ODrive at 1 Mbps?", "length"),
        ("What's the max payload of a UR10e?", "payload"),
    ):
        asks = perceive(question).asks
        assert (asks.answer_type, [a.name for a in asks.attributes]) == (
            AnswerType.FIGURE,
            [attribute],
        )
    can = [evidence(1, "CAN 2.0b supports 1 Mbps.", ODRIVE)]
    answer = "CAN 2.0b supports 1 Mbps [1]."
    found = findings(check("max CAN cable length for the ODrive at 1 Mbps?", answer, can))
    assert ("focus.attribute", "off_question") in found


def test_a_purpose_question_is_answered_by_a_sentence_that_names_the_thing_and_its_use():
    question = "what's the hems section in evcc.yaml for?"
    asks = perceive(question).asks
    assert (asks.answer_type, asks.focus and asks.focus.phrase) == (
        AnswerType.PURPOSE,
        "the hems section",
    )
    evcc = document("evcc-docs/configuration", "evcc.yaml configuration")
    other = [evidence(1, "This section documents the YAML-based configuration.", evcc)]
    answer = "This section documents the YAML-based configuration [1]."
    assert ("answer_type.purpose", "off_question") in findings(check(question, answer, other))
    hems = [evidence(1, "The hems section configures external control of consumption.", evcc)]
    answer = "The hems section configures external control of consumption [1]."
    assert ("answer_type.purpose", "off_question") not in findings(check(question, answer, hems))
    question = "what is upssched actually for?"
    nut = document("nut-doc/upssched", "upssched")
    told = [evidence(1, "Now that upssched knows how the timers work, give it a job.", nut)]
    answer = "Now that upssched knows how the timers work, give it a job [1]."
    assert ("answer_type.purpose", "off_question") in findings(check(question, answer, told))


def test_an_answer_from_a_sibling_collection_while_the_named_one_was_shown_is_not_ok():
    question = "What port is the evcc web interface on by default?"
    apcupsd = document("apcupsd/manual", "apcupsd manual")
    evcc = document("evcc-docs/docs_installation", "Installation")
    shown = [
        evidence(1, "The default NISPORT is 3551, the official apcupsd networking port.", apcupsd),
        evidence(2, "evcc is installed as a service and started at boot.", evcc),
    ]
    answer = "The default NISPORT is 3551, the official apcupsd networking port [1]."
    assert ("answer_type.source", "wrong_entity") in findings(check(question, answer, shown))
    # the named collection cited: nothing to say; nor for ids without a folder
    answer = "evcc is installed as a service and started at boot [2]."
    assert ("answer_type.source", "wrong_entity") not in findings(check(question, answer, shown))
    flat = [evidence(1, "The web interface listens on port 7070.", document("manual-x", "X"))]
    answer = "The web interface listens on port 7070 [1]."
    assert ("answer_type.source", "wrong_entity") not in findings(check(question, answer, flat))


def test_the_asked_acronym_may_be_named_by_the_documents_source():
    question = "What did the FAA directive issued in 2023 require for CFM56-7B HPT blades?"
    ad = replace(document("reg-ad-2023-14-05", "AD 2023-14-05: CFM56-7B HPT blades"), source="FAA")
    cited = [evidence(1, "It requires a borescope inspection within 500 flight cycles.", ad)]
    answer = "It requires a borescope inspection within 500 flight cycles [1]."
    assert ("answer_type.named_term", "off_question") not in findings(
        check(question, answer, cited)
    )
    unsourced = [
        evidence(
            1,
            "It requires a borescope inspection within 500 flight cycles.",
            replace(ad, source=""),
        )
    ]
    assert ("answer_type.named_term", "off_question") in findings(
        check(question, answer, unsourced)
    )


def test_the_source_a_question_names_is_not_a_term_the_answer_must_name():
    """ "according to the FAA" names where the answer should come from (the credibility
    checks judge that), not a thing the answer is about."""
    question = "Which probe do I use for the CFM56-7B, according to the FAA?"
    manual = document("cfm56-borescope", "CFM56-7B borescope inspection")
    cited = [evidence(1, "Use a 6 mm articulating probe through borescope port S7.", manual)]
    answer = "Use a 6 mm articulating probe through borescope port S7 [1]."
    assert ("answer_type.named_term", "off_question") not in findings(
        check(question, answer, cited)
    )
    named = "Which probe do I use for the CFM56-7B over USB, according to the FAA?"
    assert ("answer_type.named_term", "off_question") in findings(check(named, answer, cited))
