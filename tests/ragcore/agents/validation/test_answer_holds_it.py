"""An answer holds what is asked, or it is not ``ok`` (issue 27, the outsider-written
manual questions): a statement leaning on a block it leaves out (``answer_type.block``),
an answer on another option of a manual page (``answer_type.option``), one on what a
setting does when given for a question on its absence (``answer_type.absence``), and a
feature list for a how-to question (``answer_type.procedure``)."""

from __future__ import annotations

from sources import check, document, evidence, findings, perceive

FAQ = document("nut-doc/faq", "NUT FAQ")
CABLE = (
    "If you have this cable, you need to edit your ups.conf to look like this:\n\n"
    "[myups]\n        driver = apcsmart\n        port = /dev/whatever\n"
    "        cable = 940-0095B\n\nAll other grey cables from APC are assumed to be dumb."
)


def test_a_statement_introducing_a_block_it_leaves_out_is_not_ok():
    question = "What should my ups.conf section look like to use smart mode with the 940-0095B?"
    cited = [evidence(1, CABLE, FAQ)]
    dangling = "If you have this cable, you need to edit your ups.conf to look like this: [1]."
    assert ("answer_type.block", "off_question") in findings(check(question, dangling, cited))
    whole = (
        "If you have this cable, you need to edit your ups.conf to look like this: [myups] "
        "driver = apcsmart port = /dev/whatever cable = 940-0095B [1]."
    )
    assert ("answer_type.block", "off_question") not in findings(check(question, whole, cited))


def test_a_statement_about_a_block_shown_above_is_not_ok_without_it():
    question = "What's the HAL line to load the gs2_vfd driver?"
    page = document("linuxcnc-src/docs_src_drivers_gs2", "GS2 VFD Driver")
    cited = [
        evidence(
            1,
            "loadusr -Wn spindle-vfd gs2_vfd -n spindle-vfd\n\nThe above command says: "
            "loadusr, wait for named to load, component gs2_vfd, named spindle-vfd.",
            page,
        )
    ]
    about = (
        "The above command says: loadusr, wait for named to load, component gs2_vfd, "
        "named spindle-vfd [1]."
    )
    assert ("answer_type.block", "off_question") in findings(check(question, about, cited))
    # a figure above a limit is no block
    limit = "Keep the bus voltage above 10 V [1]."
    assert ("answer_type.block", "off_question") not in findings(check(question, limit, cited))


MAN = document("linuxcnc-doc-en/linuxcnc_manual_pages", "LinuxCNC Manual Pages")


def test_an_answer_on_another_option_of_a_manual_page_is_not_ok():
    question = "what does the -k flag do when starting linuxcnc from the command line?"
    assert perceive(question).asks.options == ("-k",)
    cited = [
        evidence(
            1,
            "−d Turn on debug mode.\n−k Continue in the presence of errors in HAL files.\n"
            "A fault toggles a flag in iocontrol which is reflected in the pin.",
            MAN,
        )
    ]
    other = "A fault toggles a flag in iocontrol which is reflected in the pin [1]."
    assert ("answer_type.option", "off_question") in findings(check(question, other, cited))
    # the page writes the option with a minus sign; the answer names it so
    named = "−k Continue in the presence of errors in HAL files [1]."
    assert ("answer_type.option", "off_question") not in findings(check(question, named, cited))


def test_a_sentence_leaning_on_the_one_naming_the_option_answers_about_it():
    question = "What's the -R / --braking-resistor option of gs2_vfd for?"
    cited = [
        evidence(
            1,
            "OPTIONS\n\n−R, −−braking−resistor This argument should be used when a braking "
            "resistor is installed. It disables deceleration over-voltage stall prevention.",
            MAN,
        )
    ]
    leaning = "OPTIONS: It disables deceleration over-voltage stall prevention [1]."
    assert ("answer_type.option", "off_question") not in findings(check(question, leaning, cited))


def test_a_question_on_an_absence_is_answered_by_what_holds_without_it():
    question = (
        "If I leave LISTEN out of upsd.conf, can my other servers still connect to upsd "
        "over the network?"
    )
    assert perceive(question).asks.absent == ("LISTEN",)
    manual = document("nut-doc/user-manual", "NUT user manual")
    text = (
        "If you want to connect to it from other machines, you must specify each interface "
        "you want upsd to listen on. If you do not specify a LISTEN directive in upsd.conf, "
        "upsd only listens on the loopback interface."
    )
    cited = [evidence(1, text, manual)]
    given = (
        "If you want to connect to it from other machines, you must specify each interface "
        "you want upsd to listen on [1]."
    )
    assert ("answer_type.absence", "off_question") in findings(check(question, given, cited))
    absent = (
        "If you do not specify a LISTEN directive in upsd.conf, upsd only listens on the "
        "loopback interface [1]."
    )
    assert ("answer_type.absence", "off_question") not in findings(check(question, absent, cited))


def test_a_feature_list_is_no_procedure():
    question = "how do I pull the factory kinematics calibration out of the robot for ROS?"
    readme = document("ur-ros-driver/readme", "Universal_Robots_ROS_Driver")
    features = (
        "* Factory calibration of the robot inside ROS to reach Cartesian targets precisely. "
        "* Realtime-enabled communication structure to cope with the 2ms cycle time. To use "
        "this, compile and run it on a kernel with the PREEMPT_RT patch enabled."
    )
    cited = [evidence(1, features, readme)]
    listed = f"{features} [1]."
    assert ("answer_type.procedure", "off_question") in findings(check(question, listed, cited))
    steps = (
        "* Connect the robot to the network. * Run roslaunch ur_calibration "
        "calibration_correction.launch robot_ip:=<robot_ip> [1]."
    )
    assert ("answer_type.procedure", "off_question") not in findings(check(question, steps, cited))


def test_a_purpose_is_said_of_the_thing_not_of_doing_it():
    question = "what is a runtime calibration actually for on an APC smart ups?"
    asks = perceive(question).asks
    assert asks.focus is not None and "actual" not in asks.focus.wanted  # a hedge
    manual = document("apcupsd-doc/maintaining_ups", "Maintaining your UPS")
    doing = (
        'In order to perform a "soft" runtime calibration it is necessary to wait for the '
        "UPS to recharge its batteries to 100% capacity."
    )
    use = (
        "A runtime calibration causes the UPS to recalculate its available runtime "
        "capacity based on its current load."
    )
    cited = [evidence(1, f"{doing} {use}", manual)]
    assert ("answer_type.purpose", "off_question") in findings(
        check(question, f"{doing} [1].", cited)
    )
    assert ("answer_type.purpose", "off_question") not in findings(
        check(question, f"{use} [1].", cited)
    )
