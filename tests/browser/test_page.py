"""The technician's page in a real browser: Debian's Chromium, driven by Selenium, against
a real ``ragcore serve --http-port`` process on loopback over a copy of the sample
knowledge base, with a reader and an admin token.

What a technician does: ask a question and watch the stages come in, read the answer,
open a source and see its passage highlighted in the document, ask a follow-up, start a
new conversation; what goes wrong reads plainly (a refused token, a question over the
limit); an admin uploads a document, finds it in the list and deletes it.

Screenshots of each step go to ``tests/browser/artifacts/`` (git-ignored), among them
the page at 1024×600 and 1920×1080 (those in docs/ come from here).
"""

from __future__ import annotations

import re
import shutil

import pytest
from page_driver import ROOT, browser_missing, chromium, resize, serve
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from ragcore import Config, Engine
from ragcore.evaluation.sample import ingest_sample_tables

pytestmark = [pytest.mark.integration, pytest.mark.process, pytest.mark.slow]

READER = "browser-test-reader-token-0123456789"
ADMIN = "browser-test-admin-token-0123456789"
QUESTION = "What does E4027 mean on the HP-400?"
FIRST = "What is the rated flow of the CP-200?"
FOLLOW_UP = "And of the CP-350?"
NOT_IN_THE_DOCUMENTS = "What is the warranty period of the LX-900 laser cutter?"
ARTIFACTS = ROOT / "tests" / "browser" / "artifacts"
WAIT = 60  # seconds for an answer on a loaded 2-core machine


@pytest.fixture(scope="module")
def server(tmp_path_factory, sample_data_template, real_embedder):
    if why := browser_missing():
        pytest.fail(why)
    folder = tmp_path_factory.mktemp("page-server")
    data = folder / "data"
    shutil.copytree(sample_data_template, data)
    with Engine(Config(data_dir=data), embedder=real_embedder) as engine:
        ingest_sample_tables(engine)  # for a table question's evidence
    tokens = folder / "tokens"
    tokens.write_text(f"reader {READER}\nadmin {ADMIN}\n")
    running = serve(data, folder / "server.log", "--tokens-file", str(tokens))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory, server):
    ARTIFACTS.mkdir(exist_ok=True)
    folder = tmp_path_factory.mktemp("chromium")
    driver = chromium(folder / "profile", 1024, 600, log=ARTIFACTS / "chromedriver.log")
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


# -- helpers ------------------------------------------------------------------------------
def wait(driver, condition, seconds: float = WAIT):
    return WebDriverWait(driver, seconds, poll_frequency=0.1).until(condition)


def css(driver, selector: str):
    return driver.find_element(By.CSS_SELECTOR, selector)


def all_css(driver, selector: str):
    return driver.find_elements(By.CSS_SELECTOR, selector)


def text_of(element) -> str:
    """All the element's text, shown or folded away (a closed <details>)."""
    return " ".join((element.get_attribute("textContent") or "").split())


def shot(driver, name: str) -> None:
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def open_page(driver, server, token: str) -> None:
    """The page, fresh, with ``token`` entered and its role shown."""
    driver.get(server.url + "/")
    driver.execute_script("sessionStorage.clear()")
    driver.get(server.url + "/")
    use_token(driver, token)


def use_token(driver, token: str) -> None:
    field = css(driver, "#token")
    field.clear()
    field.send_keys(token)
    css(driver, "#token-form button").click()


def ask(driver, question: str):
    """Types ``question`` and presses Enter; the new turn once it has finished."""
    before = len(all_css(driver, "#thread .turn"))
    box = css(driver, "#question")
    box.clear()
    box.send_keys(question, Keys.ENTER)
    wait(driver, lambda d: len(all_css(d, "#thread .turn")) > before)
    turn = all_css(driver, "#thread .turn")[-1]
    wait(driver, lambda _d: turn.get_attribute("aria-busy") == "false")
    return turn


def squeeze(text: str) -> str:
    return " ".join(text.split())


# -- tests --------------------------------------------------------------------------------
def test_a_question_streams_its_stages_and_a_cited_answer_opens_on_its_passage(browser, server):
    open_page(browser, server, READER)
    wait(browser, lambda d: css(d, "#who").text == "Reader")
    turn = ask(browser, QUESTION)
    shot(browser, "01-answer")

    stages = [
        s.get_attribute("class").split()[-1] for s in turn.find_elements("css selector", ".stage")
    ]
    for stage in ("perception", "plan", "retrieval", "draft", "validation"):
        assert stage in stages, stages
    assert all(
        re.search(r"\d+(\.\d+)? m?s$", text_of(s))
        for s in turn.find_elements("css selector", ".stage-ms")
    )
    answer = turn.find_element("css selector", ".answer")
    assert answer.get_attribute("data-status") == "ok", text_of(answer)
    assert "150 bar" in text_of(answer)

    # The same answer over the API: the page shows its first source's passage highlighted.
    expected = server.call("POST", "/v1/ask", READER, {"question": QUESTION})
    first = expected["citations"][0]
    turn.find_element("css selector", "button.cite").click()
    mark = wait(browser, lambda d: all_css(d, "#source .doc-text mark#passage"))[0]
    assert not all_css(browser, "#source-body .error, #source-body blockquote")  # in its document
    assert squeeze(text_of(mark)) == squeeze(first["text"])
    quoted = text_of(mark.find_element("css selector", ".quoted"))  # the answer's sentence
    assert "150 bar" in quoted and quoted in squeeze(first["text"])
    assert css(browser, "#source-title").text == first["title"]
    where = css(browser, "#source-where").text
    assert first["section"] and first["section"] in where
    assert browser.execute_script(  # scrolled to: the cited sentence is in the viewer's view
        "const m = arguments[0].getBoundingClientRect(), b = document.getElementById("
        "'source-body').getBoundingClientRect(); return m.top >= b.top && m.bottom <= b.bottom;",
        mark.find_element("css selector", ".quoted"),
    )
    shot(browser, "02-source")
    css(browser, "#source-body").send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not css(d, "#source").get_attribute("open"))


def test_keyboard_alone_reaches_everything_in_order_with_a_visible_focus(browser, server):
    open_page(browser, server, READER)
    wait(browser, lambda d: css(d, "#who").text == "Reader")
    assert browser.switch_to.active_element == css(browser, "#question")  # ready to type
    ask(browser, QUESTION)  # typed, then Enter
    browser.execute_script("document.getElementById('tab-ask').focus()")  # the first stop
    order = []
    for key in ["", *[Keys.TAB] * 9]:
        if key:
            ActionChains(browser).send_keys(key).perform()
        focused = browser.switch_to.active_element
        order.append(
            focused.get_attribute("id") or focused.get_attribute("class") or focused.tag_name
        )
        outline = browser.execute_script(
            "const s = getComputedStyle(arguments[0]); return [s.outlineStyle, s.outlineWidth];",
            focused,
        )
        assert outline[0] != "none" and float(outline[1].rstrip("px")) >= 3, (order[-1], outline)
    assert order == [
        "tab-ask",
        "tab-docs",
        "kb-filter",
        "change-token",
        "new-conversation",
        "summary",  # the stages, folded
        "cite",  # [1] in the answer
        "citation",  # the source under it
        "question",
        "ask-button",
    ], order

    cite = css(browser, "#thread button.cite")
    cite.send_keys(Keys.ENTER)
    wait(browser, lambda d: all_css(d, "#source .doc-text mark"))
    assert browser.switch_to.active_element == css(browser, "#source-close")
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not css(d, "#source").get_attribute("open"))
    assert browser.switch_to.active_element == cite  # back where it was


def test_table_evidence_opens_on_its_figures_query_and_rows(browser, server):
    open_page(browser, server, READER)
    turn = ask(browser, "In which region was the CP-200 shortage rate highest?")
    answer = turn.find_element(By.CSS_SELECTOR, ".answer")
    assert answer.get_attribute("data-status") == "ok", text_of(answer)
    assert "table shortages" in text_of(answer.find_element(By.CSS_SELECTOR, ".citations"))
    answer.find_element(By.CSS_SELECTOR, "button.citation").click()
    sql = wait(browser, lambda d: all_css(d, "#source .sql"))[0]
    assert "SELECT" in text_of(sql).upper() and "shortages" in text_of(sql)
    assert re.fullmatch(r"\d+(, \d+)*", css(browser, "#source .rows").text)
    assert "6.53 %" in text_of(css(browser, "#source blockquote mark"))
    shot(browser, "10-table")
    css(browser, "#source-close").click()


def test_a_follow_up_is_read_in_the_conversation_and_new_conversation_starts_afresh(
    browser, server
):
    open_page(browser, server, READER)
    ask(browser, FIRST)
    turn = ask(browser, FOLLOW_UP)
    rewritten = text_of(turn.find_element("css selector", ".rewritten"))
    assert "rated flow of the CP-350" in rewritten, rewritten
    answer = turn.find_element("css selector", ".answer")
    assert answer.get_attribute("data-status") == "ok", text_of(answer)
    assert "210 L/min" in text_of(answer)
    assert len(all_css(browser, "#thread .turn")) == 2
    shot(browser, "03-follow-up")

    css(browser, "#new-conversation").click()
    assert all_css(browser, "#thread .turn") == []
    assert css(browser, "#thread-empty").is_displayed()
    turn = ask(browser, NOT_IN_THE_DOCUMENTS)
    assert not turn.find_element("css selector", ".rewritten").is_displayed()
    answer = turn.find_element("css selector", ".answer")
    assert answer.get_attribute("data-status") == "no-answer"
    shown = text_of(answer)
    assert "No answer" in shown and "Why:" in shown, shown
    assert turn.find_elements("css selector", ".issues li"), "no reason given"
    assert not turn.find_elements("css selector", ".citations li")
    shot(browser, "04-no-answer")


def test_a_refused_token_and_an_over_long_question_say_what_to_do(browser, server):
    open_page(browser, server, "not-a-token-of-this-server")
    notice = wait(browser, lambda d: "not accepted" in css(d, "#notice").text and css(d, "#notice"))
    assert "access token is missing or not accepted" in notice.text
    assert "Enter a valid access token" in notice.text
    turn = ask(browser, QUESTION)
    assert "access token is missing or not accepted" in text_of(
        turn.find_element("css selector", ".error")
    )
    shot(browser, "05-bad-token")

    use_token(browser, READER)
    wait(browser, lambda d: not css(d, "#notice").is_displayed())
    limit = server.get("/v1/server-info", READER)["limits"]["maxQuestionChars"]
    browser.execute_script(  # typing thousands of keys is slow; the page counts on input
        "const q = document.getElementById('question'); q.value = arguments[0];"
        "q.dispatchEvent(new Event('input'));",
        "Why " * (limit // 4 + 1),
    )
    assert f"of at most {limit} characters" in css(browser, "#question-count").text
    turns = len(all_css(browser, "#thread .turn"))
    css(browser, "#question").send_keys(Keys.END, Keys.ENTER)
    wait(browser, lambda d: len(all_css(d, "#thread .turn[aria-busy='false']")) > turns)
    message = text_of(all_css(browser, "#thread .turn")[-1].find_element("css selector", ".error"))
    assert "The request was not accepted" in message
    assert "question" in message and str(limit) in message, message
    shot(browser, "06-too-long")


def test_an_admin_uploads_a_document_finds_it_and_deletes_it(browser, server, tmp_path):
    document = tmp_path / "kiln-k9-checklist.md"
    document.write_text(
        "# Kiln K9 daily checklist\n\nCheck the burner flame is blue before the first firing. "
        "The door seal of the K9 kiln is replaced every 900 firings.\n"
    )
    open_page(browser, server, ADMIN)
    wait(browser, lambda d: css(d, "#who").text == "Admin")
    css(browser, "#tab-docs").click()
    upload = wait(
        browser, lambda d: css(d, "#upload-form") if css(d, "#upload-form").is_displayed() else None
    )
    upload.find_element("css selector", "#upload-files").send_keys(str(document))
    upload.find_element("css selector", "#upload-kb").send_keys("checklists")
    upload.find_element("css selector", "button[type=submit]").click()
    done = wait(browser, lambda d: all_css(d, "#uploads li.done, #uploads li.failed"))[0]
    assert "added" in done.text and "failed" not in done.get_attribute("class"), done.text
    shot(browser, "07-uploaded")

    css(browser, "#doc-filter").send_keys("kiln")
    rows = wait(browser, lambda d: [r for r in all_css(d, "#docs .doc") if r.is_displayed()])
    assert len(rows) == 1 and "Kiln K9 daily checklist" in rows[0].text
    assert "checklists" in rows[0].text
    assert "checklists" in [o.get_attribute("value") for o in all_css(browser, "#kb-filter option")]

    Select(css(browser, "#kb-filter")).select_by_value("checklists")  # the list is that KB's
    wait(
        browser,
        lambda d: (
            [r.get_attribute("data-id") for r in all_css(d, "#docs .doc")] == ["kiln-k9-checklist"]
        ),
    )
    rows = all_css(browser, "#docs .doc")
    rows[0].find_element("css selector", "button.danger").click()
    dialog = wait(
        browser, lambda d: css(d, "#confirm") if css(d, "#confirm").is_displayed() else None
    )
    assert "cannot be undone" in dialog.text
    shot(browser, "08-confirm-delete")
    css(browser, "#confirm-ok").click()
    wait(browser, lambda d: "Deleted" in css(d, "#doc-status").text)
    assert not [r for r in all_css(browser, "#docs .doc") if "Kiln" in r.text]


def test_a_reader_searches_passages_and_sees_no_upload_or_delete(browser, server):
    open_page(browser, server, READER)
    wait(browser, lambda d: css(d, "#who").text == "Reader")
    css(browser, "#tab-docs").click()
    wait(browser, lambda d: all_css(d, "#docs .doc"))
    assert not css(browser, "#upload-form").is_displayed()
    assert not any(b.is_displayed() for b in all_css(browser, "#docs button.danger"))

    css(browser, "#search-query").send_keys("CP-200 mechanical seal", Keys.ENTER)
    hit = wait(browser, lambda d: all_css(d, "#hits button.hit"))[0]
    assert "CP-200" in hit.text
    hit.click()
    mark = wait(browser, lambda d: all_css(d, "#source .doc-text mark#passage"))[0]
    assert "seal" in text_of(mark).lower()
    shot(browser, "09-search")
    css(browser, "#source-close").click()


@pytest.mark.parametrize(
    "width,height,question",
    [
        (1024, 600, "How often should the CP-200 seal be replaced?"),
        (1920, 1080, "Which compressor is louder, AC-75 or AC-110?"),
    ],
)
def test_the_page_at_terminal_and_desktop_sizes(browser, server, width, height, question):
    """The README's screenshots: an answered question at each size, nothing cut off, every
    button a 44 px touch target (on a wide screen with its stages unfolded)."""
    resize(browser, width, height)
    try:
        open_page(browser, server, READER)
        wait(browser, lambda d: all_css(d, "#docs .doc"))
        turn = ask(browser, question)
        if width >= 1400:
            turn.find_element("css selector", ".stage-box summary").click()
        browser.execute_script("window.scrollTo(0, 0)")
        overflow = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the page is {overflow} px wider than the {width} px screen"
        for button in all_css(browser, "button"):
            if button.is_displayed():
                assert touch_height(browser, button) >= 44, (button.text, button.size)
        browser.execute_script("window.scrollTo(0, 0)")
        shot(browser, f"page-{width}x{height}")
    finally:
        resize(browser, 1024, 600)


def touch_height(driver, button) -> int:
    """How tall a button's touch target is: its box, or for a source number in the text
    ([n], small in the line) the area around it that still hits it (app.css)."""
    return driver.execute_script(
        "const b = arguments[0]; b.scrollIntoView({block: 'center'});"
        "const r = b.getBoundingClientRect(), x = r.left + r.width / 2;"
        "let top = r.top, bottom = r.bottom;"
        "while (top > 0 && document.elementFromPoint(x, top - 1) === b) top -= 1;"
        "while (document.elementFromPoint(x, bottom) === b) bottom += 1;"
        "return Math.round(bottom - top);",
        button,
    )
