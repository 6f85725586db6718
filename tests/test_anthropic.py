"""Anthropic citations: each location type is checked against the cited document, a
location that lies is told apart from text that is not there, and quotes in the
model's own prose are checked too. Responses are written in the Messages API's
documented shape (text blocks carrying `citations`)."""

from __future__ import annotations

import json

import jsonschema
import pytest

from quotelocate import Document
from quotelocate.errors import QuoteInputError
from quotelocate.integrations.anthropic import CHECK_STATUSES, verify_anthropic
from quotelocate.integrations.langextract import to_langextract
from quotelocate.locate import Locator
from quotelocate.schema import load_schema

from conftest import document

V7 = "1706.03762v7.pdf"
ON_PAGE_3 = "The Transformer follows this overall architecture using stacked self-attention and point-wise"
ACROSS_6_7 = ("self-attention layers are faster than recurrent layers when the sequence "
              "length n is smaller than the representation dimensionality d")  # fmt: skip
INVENTED = "Our model achieves 28.3 BLEU on the WMT 2014 English-to-German translation task"

NOTE = (
    "Field notes, day one. The river was low after a dry summer. We counted 41 herons on the east bank "
    "before noon.\nThe ferry did not run on Sunday.\n\nField notes, day two. The river was low after a dry "
    "summer. A storm came in from the west at four."
)


def message(*blocks: dict) -> dict:
    """A Messages API response with these content blocks."""
    return {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": list(blocks),
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 2095, "output_tokens": 503},
    }


def text(s: str, *citations: dict) -> dict:
    block = {"type": "text", "text": s}
    if citations:
        block["citations"] = list(citations)
    return block


def char_cite(cited: str, start: int, end: int, doc: int = 0) -> dict:
    return {"type": "char_location", "cited_text": cited, "document_index": doc, "document_title": "Field notes",
            "start_char_index": start, "end_char_index": end}  # fmt: skip


def page_cite(cited: str, start: int, end: int, doc: int = 0) -> dict:
    return {"type": "page_location", "cited_text": cited, "document_index": doc, "document_title": "Attention",
            "start_page_number": start, "end_page_number": end}  # fmt: skip


def block_cite(cited: str, start: int, end: int, doc: int = 0) -> dict:
    return {"type": "content_block_location", "cited_text": cited, "document_index": doc, "document_title": "Notes",
            "start_block_index": start, "end_block_index": end}  # fmt: skip


def test_char_location_verified_misplaced_and_not_found():
    herons = "We counted 41 herons on the east bank before noon.\n"
    at = NOTE.index(herons)
    ferry = NOTE.index("The ferry")
    response = message(
        text("On the first day "),
        text("they counted 41 herons", char_cite(herons, at, at + len(herons))),
        text(". The ferry "),
        text("did not run", char_cite("The ferry did not run on Sunday.", 0, 32)),  # the location lies
        text(" and "),
        text("they saw 14 herons", char_cite("We counted 14 herons on the east bank before noon.", at, at + len(herons))),
        text(" and "),
        text("past the end", char_cite("A storm came in from the west at four.", 5000, 5040)),
    )  # fmt: skip
    checks = verify_anthropic(json.loads(json.dumps(response)), [NOTE.encode()])
    assert [(c.block, c.citation, c.kind, c.status) for c in checks] == [
        (1, 0, "char_location", "verified"),
        (3, 0, "char_location", "misplaced"),
        (5, 0, "char_location", "not-found"),
        (7, 0, "char_location", "misplaced"),
    ]
    verified, lying, invented, outside = checks
    assert verified.accepted and verified.verdict.start == at and (verified.claimed_start, verified.claimed_end) == (at, at + len(herons))
    assert not lying.accepted and lying.verdict.start == ferry  # where it really is
    assert f"characters {ferry}-" in lying.reason and "cited as characters 0-32" in lying.reason
    assert invented.verdict.cause == "number-changed" and invented.verdict.near_miss is not None
    assert outside.claimed_start is None and "not in document 0" in outside.reason and outside.verdict.accepted
    assert {c.status for c in checks} <= set(CHECK_STATUSES)


def test_a_repeated_sentence_cited_at_its_second_place_is_verified():
    sentence = "The river was low after a dry summer."
    second = NOTE.index(sentence, NOTE.index(sentence) + 1)
    checks = verify_anthropic(message(text("It was dry.", char_cite(sentence, second, second + len(sentence)))), [NOTE.encode()])
    (check,) = checks
    assert check.status == "verified" and check.verdict.start == second


def test_page_location_on_a_real_pdf():
    v7 = document(V7)
    response = message(
        text("The architecture "),
        text("is an encoder-decoder stack", page_cite(ON_PAGE_3, 3, 4)),
        text(" and "),
        text("attention is cheap for short sequences", page_cite(ACROSS_6_7, 6, 8)),  # crosses pages 6-7
        text(" and "),
        text("it is built that way", page_cite(ON_PAGE_3, 5, 6)),  # the page lies
        text(" and "),
        text("it scores well", page_cite(INVENTED, 8, 9)),
        text(" and "),
        text("on a page that does not exist", page_cite(ON_PAGE_3, 40, 41)),
    )  # fmt: skip
    checks = verify_anthropic(response, [v7])
    assert [c.status for c in checks] == ["verified", "verified", "misplaced", "not-found", "misplaced"]
    assert checks[0].verdict.pages == (3,) and checks[1].verdict.pages == (6, 7)
    assert checks[2].verdict.pages == (3,) and "cited as page 5" in checks[2].reason and "page 3" in checks[2].reason
    assert checks[3].verdict.cause == "number-changed"
    assert "not in document 0" in checks[4].reason


def test_content_block_location():
    blocks = ["Step 1: preheat the oven to 200 degrees.", "Step 2: knead the dough for ten minutes.",
              "Step 3: bake for 25 minutes until golden."]  # fmt: skip
    response = message(
        text("Knead it ", block_cite("Step 2: knead the dough for ten minutes.", 1, 2)),
        text("and bake it ", block_cite("Step 3: bake for 25 minutes until golden.", 0, 2)),  # lies
        text("at 220 ", block_cite("Step 1: preheat the oven to 220 degrees.", 0, 1)),
        text("then rest ", block_cite("Step 2: knead the dough for ten minutes. Step 3: bake for 25 minutes", 1, 3)),
    )  # fmt: skip
    checks = verify_anthropic(response, [blocks])
    assert [c.status for c in checks] == ["verified", "misplaced", "not-found", "verified"]
    assert "block 2" in checks[1].reason and "cited as blocks 0-1" in checks[1].reason
    assert checks[2].verdict.cause == "number-changed"


def test_quotes_in_prose_are_checked():
    v7 = document(V7)
    prose = (
        'As the paper says, "The Transformer follows this overall architecture using stacked '
        'self-attention and point-wise", which is why it is fast. It also claims that '
        f"'{INVENTED}'. The authors' word \"attention\" and it's 'short' are not quotes."
    )
    response = message(text(prose[:60]), text(prose[60:]), {"type": "tool_use", "id": "t1", "name": "x", "input": {}})
    checks = verify_anthropic(response, [NOTE.encode(), v7])
    assert [(c.kind, c.block, c.status, c.document_index) for c in checks] == [
        ("prose", 0, "verified", 1),
        ("prose", 1, "not-found", 1),
    ]
    assert checks[0].cited_text == ON_PAGE_3 and checks[0].verdict.pages == (3,)
    assert checks[1].verdict.cause == "number-changed" and "in no document" in checks[1].reason
    assert verify_anthropic(response, [v7], prose=False) == []


class _SdkMessage:
    def __init__(self, data: dict) -> None:
        self._data = data

    def model_dump(self) -> dict:
        return self._data


def test_sdk_objects_and_records():
    herons = "We counted 41 herons on the east bank before noon."
    at = NOTE.index(herons)
    (check,) = verify_anthropic(_SdkMessage(message(text("x", char_cite(herons, at, at + len(herons))))), [Document.from_text(NOTE)])
    record = check.to_dict()
    assert record["status"] == "verified" and record["verdict"]["start"] == at
    jsonschema.validate(record["verdict"], load_schema("verdict"))
    assert json.loads(json.dumps(record)) == record


@pytest.mark.parametrize(
    ("response", "documents", "message_part"),
    [
        ({"content": "hello"}, [NOTE.encode()], r"response.content: expected a list"),
        (message("hi"), [NOTE.encode()], r"response.content\[0\]: expected a content block"),
        (message({"type": "text", "text": 3}), [NOTE.encode()], r"response.content\[0\].text"),
        (message(text("x", {"type": "web_location", "cited_text": "a b c", "document_index": 0})), [NOTE.encode()],
         r"citations\[0\].type: 'web_location'"),
        (message(text("x", char_cite("a b c d", 0, 5, doc=3))), [NOTE.encode()], r"citations\[0\].document_index: 3 is not"),
        (message(text("x", {**char_cite("a b c d", 0, 5), "start_char_index": "0"})), [NOTE.encode()],
         r"citations\[0\].start_char_index: expected an integer"),
        (message(text("x", block_cite("a b c d", 0, 1))), [NOTE.encode()], r"which was not given as a list of blocks"),
        (message(text("x", char_cite(None, 0, 5))), [NOTE.encode()], r"citations\[0\].cited_text"),
        (message(), [[]], None),  # nothing cited, nothing in prose: no checks, no error
        (42, [NOTE.encode()], r"response: expected a Messages API response"),
    ],
)
def test_malformed_responses_name_the_field(response, documents, message_part):
    if message_part is None:
        assert verify_anthropic(response, documents) == []
        return
    with pytest.raises(QuoteInputError, match=message_part):
        verify_anthropic(response, documents)


def test_langextract_fields():
    loc = Locator(Document.from_text(NOTE))
    exact = to_langextract(loc.locate("We counted 41 herons on the east bank"))
    folded = to_langextract(loc.locate("before noon. The ferry did not run"))  # crosses a line break
    rejected = to_langextract(loc.locate("We counted 14 herons on the east bank"))
    assert exact["char_interval"] == {"start_pos": exact["start"], "end_pos": exact["end"]}
    assert (exact["alignment_status"], folded["alignment_status"], rejected["alignment_status"]) == ("match_exact", "match_fuzzy", None)
    assert rejected["char_interval"] is None
    schema = load_schema("verdict")
    for record in (exact, folded, rejected):
        jsonschema.validate(record, schema)
