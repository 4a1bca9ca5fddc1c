"""Pin to notes from the chat: the answer is stored (kind answer, its question, text and citations)
on the cited page with the passage it quotes highlighted; else the excerpt search gave; else a page
note. A citation look-alike inside quoted document text never chooses where a pin goes."""

from __future__ import annotations

from PySide6.QtCore import QUrl

from pdfdesk.agent.events import Citation, CitationFound, Done, TextDelta
from pdfdesk.gui.chat_transcript import Turn, pin_href
from pdfdesk.gui.pin import pin_request, pin_target, quotes_for_page
from tests.gui.test_app_window import WAIT_MS
from tests.gui.test_chat_pane_citations import links
from tests.gui.test_review_controller import layer_of, ready_window, review_pdf, settle, stored


def finished_turn(number: int, question: str, text: str, *citations: Citation) -> Turn:
    turn = Turn(number, question)
    turn.apply(TextDelta(text))
    for citation in citations:
        turn.apply(CitationFound(citation))
    turn.apply(Done(text=text, model="test/model"))
    return turn


def show(pane, turn: Turn) -> None:
    pane._turns.append(turn)
    pane._begin_turn()
    pane._render_current()


def pin_links(pane) -> list[str]:
    return [href for href, _text in links(pane.transcript) if href.startswith("pdfdesk://pin")]


def test_pinning_an_answer_highlights_the_quoted_passage(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    controller, pane = window.review.controller, window.chat_pane
    messages: list[str] = []
    controller.message.connect(lambda text, _ms: messages.append(text))
    text = ("Late fees matter too (“late fees accrue interest” [contract.pdf p. 2]), but the answer is that "
            "“The indemnification clause survives termination” [contract.pdf p. 3].")
    cited = (Citation(str(path), 2, "contract.pdf p. 2"), Citation(str(path), 3, "contract.pdf p. 3"))
    turn = finished_turn(1, "What survives termination?", text, *cited)
    show(pane, turn)
    hrefs = pin_links(pane)
    assert hrefs == [pin_href(1, "1-1"), pin_href(1, "1-2"), pin_href(1)]
    with qtbot.waitSignal(pane.pinRequested, timeout=WAIT_MS):
        pane._link_clicked(QUrl(pin_href(1, "1-2")))  # the (pin) beside the p. 3 source
    qtbot.waitUntil(lambda: len(stored(path)) == 1, timeout=WAIT_MS)
    settle(qtbot, controller)
    (pin,) = stored(path)
    assert pin["kind"] == "answer" and pin["page"] == 3
    assert pin["quote"] == "The indemnification clause survives termination" and pin["rects"]
    assert pin["answer"]["question"] == "What survives termination?" and pin["answer"]["text"] == text
    assert pin["answer"]["citations"] == [{"file": str(path), "page": 2}, {"file": str(path), "page": 3}]
    assert layer_of(window).item(pin["id"]) is not None  # painted in the open document at once
    assert messages[-1].startswith("Pinned to the notes of contract.pdf p. 3, with the quoted passage highlighted")
    # "Pin to notes" on the whole answer pins on its first cited page, with that page's quotation
    pane._link_clicked(QUrl(pin_href(1)))
    qtbot.waitUntil(lambda: len(stored(path)) == 2, timeout=WAIT_MS)
    settle(qtbot, controller)
    second = next(a for a in stored(path) if a["id"] != pin["id"])
    assert second["page"] == 2 and second["quote"] == "late fees accrue interest"
    controller.undo_stack.undo()  # a pin is undoable like any note
    qtbot.waitUntil(lambda: len(stored(path)) == 1 and not controller.busy, timeout=WAIT_MS)


def test_the_search_excerpt_then_a_page_note_when_nothing_is_quoted(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    controller = window.review.controller
    messages: list[str] = []
    controller.message.connect(lambda text, _ms: messages.append(text))
    excerpt = "…Fees are due monthly in arrears and late fees accrue interest."
    turn = finished_turn(1, "When are fees due?", "Monthly, in arrears [p. 2].",
                         Citation(str(path), 2, "contract.pdf p. 2", excerpt=excerpt))
    controller.pin(turn, None)
    qtbot.waitUntil(lambda: len(stored(path)) == 1, timeout=WAIT_MS)
    settle(qtbot, controller)
    assert stored(path)[0]["quote"] == "Fees are due monthly in arrears and late fees accrue interest."
    plain = finished_turn(2, "Anything else?", "Nothing more on that page [p. 1].", Citation(str(path), 1, "p. 1"))
    controller.pin(plain, None)
    qtbot.waitUntil(lambda: len(stored(path)) == 2, timeout=WAIT_MS)
    settle(qtbot, controller)
    note = next(a for a in stored(path) if a["page"] == 1)
    assert note["kind"] == "answer" and note["quote"] == "" and note["rects"] == []
    assert messages[-1].endswith("as a page note.")


def test_a_citation_look_alike_in_quoted_text_is_no_pin_target(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    pane = window.chat_pane
    # the document's own words, quoted, contain "[p. 3]": no citation, no link, no target on page 3
    text = "The notice clause reads “Termination requires ninety days written notice [p. 3]” and says no more."
    turn = finished_turn(1, "Notice?", text)
    show(pane, turn)
    assert not [href for href, _ in links(pane.transcript) if href.startswith("pdfdesk://open")]
    assert pin_links(pane) == [pin_href(1)]
    assert pin_target(pane.turns(), f"pdfdesk://open?doc={path}&page=3") is None  # no turn cites it
    cites = finished_turn(2, "And?", "See the notice [p. 1].")  # cited, unquoted: its link is a target
    show(pane, cites)
    assert pin_target(pane.turns(), f"pdfdesk://open?doc={path}&page=1")[0] is cites
    request = pin_request(turn, None, fallback=(str(path), 1))
    assert (request.document, request.page) == (str(path), 1)  # the current page, never the look-alike's
    assert request.quotes == ("Termination requires ninety days written notice [p. 3]",)
    assert request.answer["citations"] == []


def test_quotations_next_to_the_page_citation_are_tried_first():
    text = ("He wrote “alpha beta gamma delta” [p. 2]. Elsewhere “epsilon zeta eta theta” [p. 5]. "
            "And > not a quote\n> a block quotation line here\n“short”.")
    assert quotes_for_page(text, 5)[0] == "epsilon zeta eta theta"
    assert quotes_for_page(text, 2)[0] == "alpha beta gamma delta"
    assert "a block quotation line here" in quotes_for_page(text, 2)
    assert "short" not in quotes_for_page(text, 2)
    assert quotes_for_page("Cut “first part … the longer second part” here.", 1) == ["the longer second part"]


def test_a_citation_link_offers_pin_in_its_context_menu(qtbot, make_window, tmp_path):
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QApplication, QMenu

    from tests.gui.test_chat_pane import anchor_position

    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    pane = window.chat_pane
    turn = finished_turn(1, "Fees?", "Due monthly [contract.pdf p. 2].", Citation(str(path), 2, "contract.pdf p. 2"))
    show(pane, turn)
    cursor = QTextCursor(pane.transcript.document())
    cursor.setPosition(anchor_position(pane.transcript, "pdfdesk://open", "p. 2"))
    point = pane.transcript.cursorRect(cursor).center()
    pane._context_menu(point)
    menu = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMenu) and w.isVisible())
    first = menu.actions()[0]
    assert first.text() == "Pin to notes"
    with qtbot.waitSignal(pane.pinRequested, timeout=WAIT_MS) as pinned:
        first.trigger()
    assert pinned.args[0] is turn and pinned.args[1].page == 2
    menu.close()
    settle(qtbot, window.review.controller)
