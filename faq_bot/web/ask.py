"""The chatbot on the web: ``POST /api/ask`` (JSON) and the chat page ``/ask`` (German).

- ``POST /api/ask`` with ``{"question": "...", "history": [...]}`` gives the
  answer JSON of `faq_bot.chat.Answer.to_json` (the citation with an absolute
  URL). ``history``: earlier questions, oldest first, as strings or objects
  ``{"question", "entry"}``. Not JSON: 415; no object, no or empty question,
  a too long question, a malformed history: 400; a body over `MAX_BODY`
  bytes (`faq_bot.web.body`): 413; always the one error shape ``{"error", "detail"}``.
- ``GET /ask`` shows the chat; ``GET /ask?q=...`` (the start page's "Fragen"
  button, a "Meinten Sie" link) and ``POST /ask`` (the chat form without
  JavaScript) answer ``q``. The conversation so far travels in the repeated
  field ``h`` (earlier questions, oldest first; hidden fields in the form).
  The server keeps nothing: it answers the earlier questions again, in order,
  to show the whole conversation (at most `PAGE_TURNS` of them, the oldest
  are dropped).

`faq_bot/static/chat.js` turns the form into a chat without reloads: it posts
to ``/api/ask`` with the history (questions and the entries that answered
them) and appends the answer in the same markup as ``templates/ask/_turn.html``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request

from faq_bot.chat import MAX_HISTORY, QuestionError, Turn, answer, parse_history
from faq_bot.chat.answer import turn_of
from faq_bot.question import MAX_QUESTION_LENGTH, QUESTION_PATTERN
from faq_bot.web.body import check_strings, read_json
from faq_bot.web.common import bad_request, conditional, current_index
from faq_bot.web.openapi import add_schema, describe, error_responses, html_body, json_body

bp = Blueprint("ask", __name__)

PAGE_TURNS = 10  # earlier questions the no-JS page shows (and answers again)
MAX_BODY = 64 * 1024  # bytes of a POST /api/ask body
HISTORY_CHARS = 600  # characters of earlier questions the page answers again, newest first


def _base_url() -> str:
    return request.host_url.rstrip("/") + request.script_root


@bp.post("/api/ask")
def api_ask() -> Any:
    data = read_json(
        "Bitte JSON senden (Content-Type: application/json), z. B. "
        '{"question": "Wann darf ich reagieren?"}.',
        limit=MAX_BODY,
    )
    if not isinstance(data, dict):
        raise bad_request('Erwartet wird ein JSON-Objekt wie {"question": "...", "history": []}.')
    if "question" not in data:
        raise bad_request("Das Feld „question“ fehlt: Bitte eine Frage stellen.")
    history = parse_history(data.get("history"))
    result = answer(current_index(), data["question"], history)
    response = jsonify(result.to_json(_base_url()))
    response.headers["Cache-Control"] = "no-store"
    return response


def _affordable(questions: list[str]) -> list[str]:
    """The newest earlier questions the page answers again: at most `PAGE_TURNS`,
    together at most `HISTORY_CHARS` characters, so a long history costs about as
    much as a question or two (the oldest are dropped)."""
    kept: list[str] = []
    budget = HISTORY_CHARS
    for text in reversed(questions[-PAGE_TURNS:]):
        budget -= len(text)
        if budget < 0 and kept:
            break
        kept.append(text)
        if budget < 0:
            break
    return kept[::-1]


def _conversation(questions: list[str], new: str | None) -> tuple[list[dict], list[str]]:
    """Answers to the earlier `questions` (again, in order) and to `new`, and the
    questions the form carries on (for its hidden fields)."""
    index = current_index()
    questions = _affordable(questions)
    turns: list[Turn] = []
    shown: list[dict] = []
    asked = [*questions, new] if new else questions
    base = _base_url()
    for text in asked:
        try:
            result = answer(index, text, turns)
        except QuestionError as exc:
            raise bad_request(str(exc)) from None
        shown.append(result.to_json(base))
        turns.append(turn_of(result))
    return shown, [t.question for t in turns]


def _render(question: str | None, earlier: list[str]) -> str:
    check_strings([question or "", *earlier], "Die Frage oder der Verlauf")
    if len(earlier) > MAX_HISTORY:
        raise bad_request("Der Verlauf ist zu lang. Bitte ein neues Gespräch beginnen.")
    try:
        parse_history(_affordable(earlier))
    except QuestionError as exc:
        raise bad_request(str(exc)) from None
    turns, history = _conversation(earlier, question)
    return render_template(
        "ask/chat.html",
        turns=turns,
        history=history,
        max_length=MAX_QUESTION_LENGTH,
    )


@bp.get("/ask")
@conditional
def page() -> str:
    question = (request.args.get("q") or "").strip() or None
    return _render(question, request.args.getlist("h"))


@bp.post("/ask")
def page_post() -> str:
    question = (request.form.get("q") or "").strip()
    if not question:
        raise bad_request("Bitte eine Frage eingeben.")
    return _render(question, request.form.getlist("h"))


# --- OpenAPI ----------------------------------------------------------------------------

HIT_REF = {"$ref": "#/components/schemas/Hit"}

add_schema(
    "Answer",
    {
        "type": "object",
        "required": ["question", "confident", "message", "answer", "sources", "related"],
        "properties": {
            "question": {"type": "string", "description": "Die Frage, normalisiert"},
            "confident": {"type": "boolean"},
            "confidence": {
                "type": "number",
                "description": "Abdeckung der Frage durch den Absatz (0–1); sicher ab der Schwelle",
            },
            "message": {"type": "string", "description": "Was die Oberfläche zeigt (Deutsch)"},
            "answer": {
                "type": "object",
                "nullable": True,
                "description": "null, wenn keine sichere Antwort gefunden wurde",
                "properties": {
                    "text": {"type": "string", "description": "Der Absatz, der antwortet"},
                    "paragraph": {"type": "integer", "description": "Absatz im Eintrag (ab 0)"},
                    "fragment": {"type": "string", "description": "Anker auf der Seite, p<N>"},
                    "url": {"type": "string", "description": "/entry/<id>#p<N>"},
                    "highlight": {
                        "type": "object",
                        "description": "Der Kernsatz (Versatz in text)",
                        "properties": {
                            "text": {"type": "string"},
                            "start": {"type": "integer"},
                            "end": {"type": "integer"},
                        },
                    },
                    "entry": HIT_REF,
                    "title": {"type": "string"},
                    "doc_title": {"type": "string", "nullable": True},
                    "date_text": {"type": "string", "nullable": True},
                    "citation": {"type": "string"},
                    "via": {"type": "string", "nullable": True},
                },
            },
            "sources": {"type": "array", "items": HIT_REF},
            "related": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "title": {"type": "string"},
                        "doc": {"type": "string"},
                        "doc_title": {"type": "string", "nullable": True},
                        "url": {"type": "string"},
                        "paragraph": {"type": "integer", "nullable": True},
                        "reason": {"type": "string", "enum": ["link", "similar"]},
                    },
                },
            },
            "suggestion": {"type": "string", "nullable": True},
            "check_url": {"type": "string", "nullable": True},
            "followup": {"type": "boolean"},
            "context": {"type": "string", "nullable": True},
        },
    },
)

_QUESTION = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_QUESTION_LENGTH,
    "pattern": QUESTION_PATTERN,  # a letter or digit: only spaces or signs is no question
}
_HISTORY_FIELD = {
    "anyOf": [_QUESTION, {"type": "array", "maxItems": MAX_HISTORY, "items": _QUESTION}]
}

describe(
    "/api/ask",
    {
        "post": {
            "summary": "Frage an den Chatbot: der Absatz, der antwortet, mit Quelle",
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["question"],
                            "properties": {
                                "question": _QUESTION,
                                "history": {
                                    "type": "array",
                                    "nullable": True,
                                    "maxItems": MAX_HISTORY,
                                    "description": "Frühere Fragen, älteste zuerst",
                                    "items": {
                                        "oneOf": [
                                            _QUESTION,
                                            {
                                                "type": "object",
                                                "required": ["question"],
                                                "properties": {
                                                    "question": _QUESTION,
                                                    "entry": {
                                                        "type": "string",
                                                        "nullable": True,
                                                        "description": "ID des Eintrags, "
                                                        "der sie beantwortet hat",
                                                    },
                                                },
                                            },
                                        ]
                                    },
                                },
                            },
                        }
                    }
                },
            },
            "responses": {
                "200": json_body({"$ref": "#/components/schemas/Answer"}, "Die Antwort"),
                **error_responses(400, 405, 503),
                "413": json_body({"$ref": "#/components/schemas/Error"}, "Anfrage zu groß"),
                "415": json_body({"$ref": "#/components/schemas/Error"}, "Kein JSON"),
            },
        }
    },
)

_ASK_PARAMS = [
    {
        "name": "q",
        "in": "query",
        "description": "Die Frage (leer: nur der Chat)",
        "required": False,
        "schema": {"anyOf": [{"type": "string", "pattern": "^\\s*$"}, _QUESTION]},
    },
    {
        "name": "h",
        "in": "query",
        "description": "Frühere Fragen des Gesprächs (wiederholt, älteste zuerst)",
        "required": False,
        "schema": _HISTORY_FIELD,
        "style": "form",
        "explode": True,
    },
]

describe(
    "/ask",
    {
        "get": {
            "summary": "Chat (HTML); mit q die Antwort auf q",
            "parameters": _ASK_PARAMS,
            "responses": {
                "200": html_body("Chat mit Antworten"),
                **error_responses(304, 400, 503, html=True),
                "414": {"description": "Adresse zu lang (vom Server abgelehnt, ohne App)"},
            },
        },
        "post": {
            "summary": "Chat-Formular ohne JavaScript (Felder q und h)",
            "requestBody": {
                "required": True,
                "content": {
                    "application/x-www-form-urlencoded": {
                        "schema": {
                            "type": "object",
                            "required": ["q"],
                            "properties": {
                                "q": _QUESTION,
                                "h": _HISTORY_FIELD,
                            },
                        }
                    }
                },
            },
            "responses": {
                "200": html_body("Chat mit Antworten"),
                **error_responses(400, 503, html=True),
            },
        },
    },
)
