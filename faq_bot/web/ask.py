"""The chatbot on the web: ``POST /api/ask`` (JSON) and the chat page ``/ask`` (German).

- ``POST /api/ask`` with ``{"question": "...", "history": [...]}`` gives the
  answer JSON of `faq_bot.chat.Answer.to_json` (the citation with an absolute
  URL). ``history``: earlier questions, oldest first, as strings or objects
  ``{"question", "entry"}``. Not JSON: 415; no object, no or empty question,
  a too long question, a malformed history: 400; a body over `MAX_BODY`
  bytes (`faq_bot.web.body`): 413; always the one error shape ``{"error", "detail"}``.
- ``GET /ask`` shows the chat; ``GET /ask?q=...`` (the start page's "Fragen" button, a
  "Meinten Sie" link) and ``POST /ask`` (the chat form without JavaScript) answer
  ``q``. ``POST /ask`` then redirects (303) to ``GET /ask?t=...`` with the new turn's
  token last, which shows the conversation without answering anything again: reloading
  it sends nothing twice, Back goes to the question before, and the address can be
  shared (when the new turn's token does not fit in an address, `REDIRECT_CHARS`, the
  answer is the page itself). ``doc`` (the form's "Antworten aus" choice, also in
  ``POST /api/ask``) answers from that document only, an unknown one is a 400. The
  conversation so far travels in the repeated field ``t``: each earlier turn as it was
  shown (a turn token of `faq_bot.chat.shown`: the question, the entry, paragraph and key
  sentence that answered it, the related entries and search hits listed, the document it
  was limited to). The server keeps nothing and answers only ``q``: the earlier turns are rendered
  again from the index by id (no search, no embedding) and are the new question's
  history, so a request computes at most one query embedding (``/api/ask`` with earlier
  questions as plain text answers the newest three again: one reading each). At most `PAGE_TURNS`
  turns are shown before the newest (the oldest are dropped); without ``q`` the newest is
  the last token's. Old links carry plain questions in
  ``h``: they are shown as questions (not answered again) and read as history.
  ``/api/ask`` adds an answer's token as ``turn``, for chat.js. Tokens are signed
  (`faq_bot.web.common.turn_key`): one this service did not issue, or that was altered,
  is shown as its question only, never as an answer.

`faq_bot/static/chat.js` turns the form into a chat without reloads: it posts
to ``/api/ask`` with the history (questions and the entries that answered
them) and appends the answer in the same markup as ``templates/ask/_turn.html``.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote_plus

from flask import Blueprint, jsonify, redirect, render_template, request
from werkzeug.wrappers import Response

from faq_bot.chat import QuestionError, Turn, answer, parse_history
from faq_bot.chat.shown import (
    parse_conversation,
    show,
    shown_of,
)
from faq_bot.chat.wording import NOT_CONFIDENT
from faq_bot.question import NO_QUESTION
from faq_bot.text import clean_input, clip
from faq_bot.web import ask_doc  # noqa: F401  (OpenAPI descriptions of these routes)
from faq_bot.web.api_links import hit_links
from faq_bot.web.body import body_limit, check_form, check_strings, read_json
from faq_bot.web.common import (
    bad_request,
    base_url,
    conditional,
    current_index,
    page_url,
    rooted,
    turn_key,
    turn_key_tag,
)
from faq_bot.web.errors import TYPED_TEXT
from faq_bot.web.limits import MAX_REQUEST_LINE
from faq_bot.web.render import first_sentence

bp = Blueprint("ask", __name__)

PAGE_TURNS = 10  # earlier turns the chat page shows (rendered again from their tokens)
CUT_OFF_NOTICE = (
    "Der Link war unvollständig (vielleicht beim Teilen gekürzt): "
    "Die letzte Antwort fehlt hier. Stellen Sie die Frage bei Bedarf noch einmal."
)
MAX_BODY = 64 * 1024  # bytes of a POST /api/ask body
# characters of earlier turns' tokens in a link the page issues (a "Meinten Sie"
# link; chat.js keeps its address as short): the newest that fit, well within the
# request line gunicorn accepts (`faq_bot.web.limits.MAX_REQUEST_LINE`)
LINK_CHARS = 3000
# characters of the turns' tokens in the address a form post is redirected to: the newest
# that fit in a request line gunicorn accepts, with room for the path, "doc" and "HTTP/1.1".
# A proxy in front must pass a response header this long (deploy/nginx.conf:
# proxy_buffer_size 16k; nginx's default 4 KB answers a 502)
REDIRECT_CHARS = MAX_REQUEST_LINE - 400


@bp.post("/api/ask")
@body_limit(MAX_BODY)
def api_ask() -> Any:
    data = read_json(
        "Bitte JSON senden (Content-Type: application/json), z. B. "
        '{"question": "Wann darf ich reagieren?"}.',
    )
    if not isinstance(data, dict):
        raise bad_request('Erwartet wird ein JSON-Objekt wie {"question": "...", "history": []}.')
    if "question" not in data:
        raise bad_request("Das Feld „question“ fehlt: Bitte eine Frage stellen.")
    # checked here (a German 400), passed on as sent: `answer` replays earlier questions
    # sent as plain text (`faq_bot.chat.answer`), which parsed turns would no longer show
    history = data.get("history")
    parse_history(history)
    raw_doc = data.get("doc")
    if raw_doc is not None and not isinstance(raw_doc, str):
        raise bad_request('Das Feld „doc“ ist die Id eines Dokuments, z. B. "how-faq".')
    index = current_index()
    doc = index.document_id(raw_doc)
    base = base_url()
    body = answer(index, data["question"], history, doc=doc).to_json(base)
    body["turn"] = shown_of(body).token(turn_key())
    # the hits it drew on, with the links a forum bot embeds them with
    body["sources"] = [hit_links(index, hit, base) for hit in body["sources"]]
    if body["answer"] is not None:
        body["answer"]["entry"] = hit_links(index, body["answer"]["entry"], base)
    response = jsonify(rooted(body))
    response.headers["Cache-Control"] = "no-store"
    return response


def _address() -> str:
    """This page's address as a URL: its query percent-encoded again (`request.url` gives
    what was asked as text, „<“ and „Ä“ included: escaped for HTML, but no URL)."""
    args: dict[str, Any] = request.args.to_dict(flat=False)  # as the chat's links are
    return page_url("ask.page", args, external=True)


def _link_tokens(tokens: list[str], budget: int = LINK_CHARS) -> list[str]:
    """The newest `tokens` whose URL-encoded length together stays within `budget`."""
    kept: list[str] = []
    for token in reversed(tokens):
        budget -= len(quote_plus(token)) + 3  # "&t="
        if budget < 0:
            break
        kept.append(token)
    return kept[::-1]


# what is left of a turn token cut before its question: its head, no "~", perhaps ending in
# a "%" escape cut in two (chat.js writes ":" as %3A), or nothing (cut right after "t=");
# a token cut inside its question still parses, no longer verifies and is shown as its
# question only
_CUT_HEAD = re.compile(r"(?:[A-Za-z0-9._:-]+(?:%[0-9A-Fa-f]?)?|%[0-9A-Fa-f]?)?")


def _cut_off(tokens: list[str], query_string: bytes) -> bool:
    """Whether the last of `tokens` is a turn token cut short before its question: a link
    shortened where it was shared loses its end, so that token is the address's last field
    ("t=<head>", "t=<head>~" with the question gone, or just "t" with its "=" gone)."""
    last = query_string.rsplit(b"&", 1)[-1]
    if not tokens or not (last == b"t" or last.startswith(b"t=")):
        return False
    return _CUT_HEAD.fullmatch(tokens[-1].removesuffix("~")) is not None


def _conversation(
    question: str | None,
    questions: list[str],
    tokens: list[str],
    raw_doc: str | None,
    link: bool = False,
) -> tuple[list[dict], str | None, str | None, str | None]:
    """The turns the page shows (each answer's JSON with its ``turn`` token; `question`,
    when given, answered last), the document the chat is limited to, a notice for the
    page, and why `question` cannot be answered (`QuestionError`: too long, no word; the
    page shows the turns so far with it, a 400, as for an empty question: a bare error
    page lost the conversation, an API probe). A `link` (a GET) whose last token was cut
    short shows the turns before it and says so (`CUT_OFF_NOTICE`) instead of refusing the
    whole conversation."""
    check_strings([question or "", *questions, *tokens], "Die Frage oder der Verlauf")
    index, base, key = current_index(), base_url(), turn_key()
    doc = index.document_id(raw_doc)
    notice = None
    if link and _cut_off(tokens, request.query_string):
        tokens, notice = tokens[:-1], CUT_OFF_NOTICE
    try:
        # the newest turn and at most PAGE_TURNS before it: the new question's, or the
        # last token's (the address a form post is redirected to shows what the post did)
        earlier = parse_conversation(questions, tokens, key)[-PAGE_TURNS - (not question) :]
    except QuestionError as exc:
        raise bad_request(str(exc)) from None
    shown: list[dict] = []
    history: list[Turn] = []
    for turn in earlier:  # as shown before: from the index by id, no search
        result, turn = show(index, turn, history)
        shown.append(rooted({**result.to_json(base), "turn": turn.token(key)}))
        history.append(turn.turn())
    if question:
        try:
            result = answer(index, question, history, doc=doc)  # the one question answered
        except QuestionError as exc:
            return shown, doc, notice, str(exc)
        data = result.to_json(base)
        shown.append(rooted({**data, "turn": shown_of(data).token(key)}))
    return shown, doc, notice, None


def preview(turn: dict[str, Any]) -> str:
    """What a shared link to the chat says of its newest `turn` (an answer's JSON) in a
    forum's or messenger's preview (og:description, the meta description): the key
    sentence and the paragraph it is from ("Quelle: „Titel“, Absatz n – Dokument, Stand:
    …", the answer's citation without its URL; "Quelle (nicht sicher)" when the answer said
    it was unsure); for a declined answer, that no sure answer was found and the closest
    entries; else the turn's message."""
    found = turn.get("answer")
    if found:
        key = _key_sentence(found["text"], found["highlight"]["text"])
        source = found["citation"].removesuffix(found.get("paragraph_url") or "").strip()
        return f"{key} Quelle{' (nicht sicher)' if turn.get('caution') else ''}: {source}"
    if not turn["message"].startswith(NOT_CONFIDENT):  # an earlier turn not shown again
        return str(turn["message"])
    said = "Auf diese Frage hat die Regelsuche keine sichere Antwort gefunden."
    closest = [f"„{r['title']}“" for r in (turn.get("related") or [])[:3]]
    return (
        f"{said} {'Dieser Eintrag kommt' if len(closest) == 1 else 'Diese Einträge kommen'} ihr "
        f"am nächsten: {', '.join(closest)}."
        if closest
        else said
    )


PREVIEW_KEY = 200  # characters of the key sentence a link preview shows at most


def _key_sentence(text: str, key: str) -> str:
    """`key` (the answer's key sentence, whole: "nach der 10. Runde" does not end it), else
    the first sentence of `text`, cut at a word to `PREVIEW_KEY` characters with "…"."""
    return clip(key, PREVIEW_KEY) if key.strip() else first_sentence(text, PREVIEW_KEY)


def _page(
    shown: list[dict],
    doc: str | None,
    notice: str | None = None,
    error: str | None = None,
    typed: str = "",
) -> str:
    tokens = [a["turn"] for a in shown]
    return render_template(
        "ask/chat.html",
        turns=shown,
        # a link preview of the newest turn; og:url only for an address (a form post
        # answered in place has none to share)
        preview=preview(shown[-1]) if shown else None,
        page_url=_address() if request.method in ("GET", "HEAD") else None,
        links=[_link_tokens(tokens[:i]) for i in range(len(shown))],
        documents=current_index().documents,
        doc=doc,
        notice=notice,
        error=error,  # shown where chat.js shows a failed question's
        typed=typed,  # a question it refused, back in the field to mend
    )


@bp.get("/ask")
@conditional(also=turn_key_tag)
def page() -> str | tuple[str, int]:
    # cleaned as the form's post is: a q of control or invisible characters alone is a
    # question that is none, a 400 (as the OpenAPI description says) that keeps the
    # conversation in view (a bare error page lost it, an API probe)
    asked = request.args.get("q")
    question = clean_input(asked or "").strip() or None
    args = request.args
    turns = args.getlist("t")
    shown, doc, notice, error = _conversation(
        question, args.getlist("h"), turns, args.get("doc"), link=True
    )
    if asked is not None and question is None:
        # "Fragen" with nothing typed (the start page's form sends q=): said as the chat's
        # own form says it, the conversation so far kept; /ask without q is the chat's start
        error = NO_QUESTION
    if error is not None:
        return _page(shown, doc, notice, error=error, typed=(question or "")[:TYPED_TEXT]), 400
    return _page(shown, doc, notice)


@bp.post("/ask")
def page_post() -> Response | str | tuple[str, int]:
    check_form()
    form = request.form
    question = clean_input(form.get("q") or "").strip()
    if not question:
        # the conversation so far again, with the error (a bare error page left it in a
        # hidden field only, a phone review); still a 400
        shown, doc, _, _ = _conversation(
            None, form.getlist("h"), form.getlist("t"), form.get("doc")
        )
        return _page(shown, doc, error=NO_QUESTION), 400
    shown, doc, _, error = _conversation(
        question, form.getlist("h"), form.getlist("t"), form.get("doc")
    )
    if error is not None:
        # its start, a few times the longest question, to shorten (a pasted 250 KB text
        # sent back whole was 260 KB for a phone on bad wifi, an HTTP probe)
        return _page(shown, doc, error=error, typed=question[:TYPED_TEXT]), 400
    tokens = [a["turn"] for a in shown]
    kept = _link_tokens(tokens, REDIRECT_CHARS)
    if not kept:  # the new turn alone does not fit in an address: this page shows it
        return _page(shown, doc)
    response = redirect(page_url("ask.page", {"t": kept, "doc": doc}) + "#neu", code=303)
    response.headers["Cache-Control"] = "no-store"
    return response
