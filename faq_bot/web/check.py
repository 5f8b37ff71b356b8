"""The scenario checker on the web: ``/check`` (form, German) and ``POST /api/check`` (JSON).

- ``POST /api/check``: a scenario (``stack-scenarios.md``) as JSON gives the
  checker's result JSON (200, also for an illegal scenario: ``ok`` false with
  ``errors``), whatever the Content-Type; not a scenario (not JSON too): 400, as the
  contract says; a compressed body: 415; a body over `MAX_SCENARIO`
  bytes (more than the reader takes, `faq-bot check` too): 413; always the one error
  shape ``{"error", "detail"}``.
- ``GET /api/cards?q=``: catalog cards whose name starts with ``q``, then those with a
  later word that does (all without ``q``), for the form's pre-filling.
- ``GET /check``: the empty form; ``GET /check?s=<permalink>`` the filled form
  and its result, with a preview (og:title, og:description) for chats and forums
  (a link that cannot be read gives a 400 page); ``&n=<notes token>`` adds the
  notes a form post was redirected with (below).
- ``POST /check``: the form. The ``action`` button decides: ``check`` resolves;
  the builder's buttons (``add:``, ``remove:``, ``move:``, ``pick:``, ``announce:``,
  `faq_bot.stack.formsteps.apply_action`) change the rows and show the form again, saying
  what they did in a status (`faq_bot.stack.formsteps.action_feedback`, which also tells
  ``check.js`` where the keyboard focus goes); a button they cannot apply (a made-up
  action, a row or catalog card that is not there) shows the form as posted with the
  German reason (400, `faq_bot.stack.form.ActionError`).
  A non-empty ``json`` field (the JSON view) always wins over the rows; ``check``
  with nothing filled in shows the starting form again (200, with a note); rows or
  JSON that make no scenario show the form with its mistakes (400). A scenario that
  checks is not shown by the post: it redirects (303) to ``GET /check?s=<permalink>
  #result``, its link's page, which renders the same result (post-redirect-get, as
  ``POST /ask`` does: a reload, or Back from a rule link, sends nothing again). The
  notes on what was filled in (`faq_bot.stack.form.scenario_from_state`) travel as
  ``n``, a `notes_token` signed with the chat's key (`faq_bot.web.common.turn_key`,
  `faq_bot.chat.shown.sign`) and bound to the permalink, so no link shows notes of
  its own making; one that does not verify (altered, another scenario's, an old
  secret's) is ignored, the result shown without notes. The post shows the page
  itself when the scenario is too big for a link (``share_error``) or the notes'
  token is over `MAX_NOTES_TOKEN` (or the address over `MAX_REQUEST_LINE`). With the
  header ``X-Check-Fragment: 1`` (sent by ``check.js``) nothing is redirected: only
  the checker part of the page is rendered, so the script swaps it in without a
  reload; its ``data-address`` is the address the post would have been redirected to
  (`_link_address`), which the script puts in the address bar.

The form itself is `faq_bot.stack.form` (rows <-> scenario), `faq_bot.stack.formsteps`
(the builder's buttons) and `faq_bot.stack.formview` (choices, labels, the result view,
the share preview); this module only wires it to Flask. Rule ids come from the
index the pages link to (computed once per index build, cached in
``Index.cache``); without an index, from the corpus folder (once per process).
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from faq_bot.chat.shown import sign
from faq_bot.stack import (
    PermalinkError,
    ScenarioFormatError,
    catalog_card_to_json,
    catalog_suggestions,
    decode_permalink,
    encode_permalink,
    formsteps,
    formundo,
    formview,
    read_scenario,
    resolve,
    result_to_json,
    rule_titles,
    scenario_to_json,
)
from faq_bot.stack import form as builder
from faq_bot.stack.link import FROM_QUESTION, RESULT
from faq_bot.stack.permalink import SHARED_LINK, pack_text, unpack_text
from faq_bot.stack.read import (
    MAX_INPUT_BYTES,
    MAX_VALUES,
    as_object,
    parse_json,
    refuse_a_list,
)
from faq_bot.text import clean_input, without_link_tail
from faq_bot.web import check_doc  # noqa: F401  (OpenAPI descriptions of these routes)
from faq_bot.web.body import (
    BodyError,
    body_limit,
    check_form,
    check_json_text,
    check_tree,
    raw_body,
)
from faq_bot.web.common import (
    IndexUnavailable,
    bad_request,
    current_index,
    page_url,
    turn_key,
)
from faq_bot.web.limits import MAX_REQUEST_LINE
from faq_bot.web.permalink import shared_meant

log = logging.getLogger("faq_bot.web")

bp = Blueprint("check", __name__)

# bytes of a scenario sent to /api/check: what the reader takes, so that the API checks
# every scenario `faq-bot check` does (the contract: a scenario is answered, 200)
MAX_SCENARIO = MAX_INPUT_BYTES
FAQ_DOC = "how-faq"
JSON_FIELD = "json"  # the JSON view's text box: a syntax error there is marked and linked
NOTHING_ENTERED_NOTE = (
    "Noch nichts eingetragen: bitte TW, Karten und Stapel ausfüllen (oder oben ein Beispiel "
    "wählen), dann „Auflösen“."
)
EMPTY_FORM_NOTE = (
    "Das Formular war leer: Spieler A und B sind vorgegeben. Bitte TW, Karten und Stapel "
    "ausfüllen, dann „Auflösen“."
)
TOO_BIG_FOR_ROWS = (
    "Dieses Szenario ist zu groß für das Formular: Jede Zeile böte alle Spieler, Karten und "
    "Einträge zur Auswahl. Es steht unten als JSON-Text; dort lässt es sich bearbeiten und "
    "neu auflösen."
)
# characters of the notes' token (`notes_token`) in the address a checking form post is
# redirected to; notes that need more are shown by the post's own page instead
MAX_NOTES_TOKEN = 2000
NOTES_INFLATED = 64 * 1024  # bytes the notes of a token may unpack to
# re-exported for callers and tests that know them from here
load_samples = builder.load_samples
scenario_from_state = builder.scenario_from_state
state_from_form = builder.state_from_form


# ---------------------------------------------------------------- rules and titles


def rules_from_index(index: Any) -> dict[str, str]:
    """Rule title -> entry id, looked up like `rule_ids_from_corpus` but in the index.

    A title the index lacks is left out (its steps then cite fewer rules).
    """
    ids: dict[str, str] = {}
    for title in rule_titles():
        for doc in (FAQ_DOC, None):
            found = index.find_by_title(title, doc)
            if found is not None:
                ids[title] = found.id
                break
    return ids


@lru_cache(maxsize=4)
def _rules_from_corpus(corpus_dir: str) -> Mapping[str, str]:
    from faq_bot.corpus import CorpusError
    from faq_bot.stack.rules import MissingRuleError, load_rules

    try:
        return load_rules(corpus_dir)
    except (CorpusError, MissingRuleError) as exc:
        log.warning("scenario checker without rule links: %s", exc)
        return {}


def _index_or_none() -> Any:
    try:
        return current_index()
    except IndexUnavailable:
        return None


def current_rules() -> Mapping[str, str]:
    """The rule ids for the current index build (computed once per build)."""
    index = _index_or_none()
    if index is None:
        return _rules_from_corpus(str(current_app.config["CORPUS_DIR"]))
    return index.state.once("stack.rules", lambda: rules_from_index(index))


def rule_links(rule_ids: tuple[str, ...] | list[str]) -> list[dict[str, str]]:
    """Each rule id with the title of its entry and its page URL."""
    index = _index_or_none()
    links = []
    for rule_id in rule_ids:
        record = index.entry(rule_id) if index is not None else None
        links.append(
            {
                "id": rule_id,
                "title": record.title if record is not None else rule_id,
                "url": url_for("pages.entry", entry_id=rule_id),
            }
        )
    return links


# ---------------------------------------------------------------- samples


def sample_links() -> list[dict[str, str]]:
    """The FAQ's examples as links that open at their result (on a phone it lies below the
    page's heading and lead)."""
    return [
        {
            "name": s["name"],
            "title": s["title"],
            "description": s["description"],
            "url": url_for("check.page", s=encode_permalink(s["scenario"]), _anchor=RESULT),
        }
        for s in builder.load_samples()
    ]


# ---------------------------------------------------------------- notes in an address


def _notes_signed(permalink: str, payload: str) -> str:
    # "check-notes:" puts a ":" before the first "~", which no turn token's signed text
    # has (`faq_bot.chat.shown.sign`); the permalink binds the notes to their scenario
    return f"check-notes:{permalink}~{payload}"


def notes_token(notes: list[str], permalink: str, key: bytes) -> str:
    """The notes on the scenario `permalink` as a signed, URL-safe token,
    ``<payload>.<signature>``: the notes' JSON list, zlib-compressed and base64url
    encoded without padding, and `sign` of it with `permalink` by `key`."""
    payload = pack_text(json.dumps(notes, ensure_ascii=False, separators=(",", ":")))
    return f"{payload}.{sign(key, _notes_signed(permalink, payload))}"


def notes_of(token: str, permalink: str, key: bytes) -> list[str]:
    """The notes of a `notes_token` for `permalink` by `key`; none (``[]``) for
    anything else: a token that was altered, made for another scenario or under
    another key, too long or malformed, is ignored, never an error."""
    if len(token) > MAX_NOTES_TOKEN:
        return []
    # what a forum added after the link, whose last field this is („….“, „…)“): a signature
    # is base64url, so nothing of its own is dropped (an API probe: the notes went silently)
    payload, dot, signature = without_link_tail(token).rpartition(".")
    expected = sign(key, _notes_signed(permalink, payload))
    if not dot or not hmac.compare_digest(signature.encode("utf-8"), expected.encode("ascii")):
        return []
    try:  # signed here, so well-formed; checked all the same
        notes = json.loads(unpack_text(payload, NOTES_INFLATED).decode("utf-8"))
    except (PermalinkError, ValueError):
        return []
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        return []
    return notes


def _link_address(permalink: str, notes: list[str]) -> str | None:
    """The address of the link `permalink`'s page with `notes` as a `notes_token`; None
    when it would not fit (`MAX_NOTES_TOKEN`, `MAX_REQUEST_LINE`)."""
    token = notes_token(notes, permalink, turn_key()) if notes else None
    if token is not None and len(token) > MAX_NOTES_TOKEN:
        return None
    address = url_for("check.page", s=permalink, n=token)  # no n without notes
    if len(f"GET {address} HTTP/1.1") > MAX_REQUEST_LINE:
        return None
    return address


def _redirect_to_link(permalink: str, notes: list[str]) -> Response | None:
    """A 303 to `_link_address`, at the result; None when that address would not fit."""
    address = _link_address(permalink, notes)
    if address is None:
        return None
    response = redirect(f"{address}#{RESULT}", code=303)
    response.headers["Cache-Control"] = "no-store"
    return response


# ---------------------------------------------------------------- rendering


def _render(
    state: dict[str, Any],
    *,
    status: int = 200,
    error: str | None = None,
    error_field: str | None = None,
    more_errors: dict[str, str] | None = None,
    notes: list[str] | None = None,
    view: dict[str, Any] | None = None,
    permalink: str | None = None,
    json_text: str | None = None,
    json_open: bool = False,
    share_error: str | None = None,
    address: str | None = None,
    feedback: formsteps.Feedback | None = None,
    prompt: str | None = None,
    guessed: bool = False,
    link_data: Any = None,
    undo: formundo.UndoOffer | None = None,
) -> Response:
    """The check page (or only its checker part for ``check.js``, with the `address` that
    shows the same result and notes, for its address bar; and after a builder step the
    `feedback`: what it did, for a status message, and where the focus goes; a `prompt`:
    what to do first, open at the top, where nothing could be checked yet). Rows too big
    to show leave the scenario to the JSON view: a refused link's own scenario (`link_data`)
    there when the rows make no JSON."""
    formsteps.complete_ids(state)
    if json_text is None:
        try:
            json_text = json.dumps(
                builder.scenario_from_state(state)[0], ensure_ascii=False, indent=2
            )
        except ScenarioFormatError:
            json_text = ""
    form = builder.pad_state(state)
    choices = formview.form_choices(form)
    too_big = formview.choices_size(form, choices) > formview.MAX_CHOICE_CHARS
    if too_big:  # no rows, the scenario in the JSON view (its own form) instead
        form = builder.pad_state(builder.empty_state())
        choices = formview.form_choices(form)
        json_open, error_field, more_errors = True, None, None
        json_text = json_text or _link_text(link_data) or _draft_text(state)
    more_errors = more_errors or {}
    filled = 0 if too_big else formsteps.entries_filled(state["stack"])  # then blank rows
    context = {
        "form": form,
        "stack_arrows": [formsteps.move_arrows(i, filled) for i in range(len(form["stack"]))],
        "error": error,
        "error_field": error_field,
        "more_errors": more_errors,
        # each field an error is about, named for the link to it
        "field_titles": {
            f: formview.field_title(f, state) for f in [error_field, *more_errors] if f
        },
        "feedback": feedback,
        "undo": undo,  # „Rückgängig“ after a removal (`formundo.undo_offer`)
        "prompt": prompt,
        "guessed": guessed,
        "notes": notes or [],
        "view": view,
        # the page's title: the verdict once resolved (also check.js's, from data-title)
        "page_title": view["preview"]["title"] if view else "Aktionsstapel prüfen",
        "permalink": permalink,
        "result_id": RESULT,  # the result's id: shared links open there
        "share_error": share_error,
        "permalink_url": url_for("check.page", s=permalink, _external=True) if permalink else None,
        "address": address,
        "too_big": TOO_BIG_FOR_ROWS if too_big else None,
        "json_text": json_text,
        "json_open": json_open,
        "samples": sample_links(),
        "pick_owner": builder.pick_owner(request.form) if request.method == "POST" else "",
        "max_rows": builder.MAX_ROWS,
        "action_group": formsteps.action_group,  # where a builder button's page lands
        **choices,  # one target list per row shown
    }
    fragment = request.headers.get("X-Check-Fragment") == "1"
    html = render_template("check/_checker.html" if fragment else "check/page.html", **context)
    response = current_app.response_class(html, status=status, mimetype="text/html")
    # a page a form post answered in place (a builder step, an error) is kept for this
    # browser's history (private): with no-store, Back to it said „Formular erneut senden“
    response.headers["Cache-Control"] = (
        "private, no-cache" if request.method == "POST" else "no-cache"
    )
    response.headers["Vary"] = "X-Check-Fragment"
    return response


def _render_format_error(
    state: dict[str, Any],
    exc: ScenarioFormatError,
    notes: list[str],
    source: str = "rows",
    json_text: str | None = None,
    link_data: Any = None,
) -> Response:
    """The form again with a 400, the message on top and at the field it is about. An
    error in the rows drops the message's JSON path (the field is marked instead); one in
    the JSON view (`source` "json") keeps it, and that view stays open."""

    def shown(failure: ScenarioFormatError, field: str | None) -> str:
        if source == "rows" and field:
            return failure.brief + builder.missing_kind_reason(failure.path, state)
        return str(failure)

    field = formview.form_field(exc.path, state)
    # the errors in other fields too (form field -> message), so one round trip mends all
    more: dict[str, str] = {}
    for other in exc.more:
        other_field = formview.form_field(other.path, state)
        if other_field and other_field != field:
            more.setdefault(other_field, shown(other, other_field))
    return _render(
        state,
        status=400,
        error=shown(exc, field),
        error_field=field,
        more_errors=more,
        notes=notes,
        json_text=json_text,  # the person's own text, as typed (None: from the rows)
        json_open=source == "json",
        link_data=link_data,
    )


def _check_and_render(
    data: Any,
    state: dict[str, Any],
    notes: list[str],
    source: str = "rows",
    json_text: str | None = None,
    *,
    to_link: bool = False,
    guessed: bool = False,
    link_data: Any = None,
) -> Response:
    """Read, validate, resolve and show; a non-scenario renders the form with a 400 (and
    the JSON view with `json_text`, the text it was read from, when given). With
    `to_link` (a form post), a scenario that has a link is not shown here but
    redirected to its link's page (`_redirect_to_link`; not for ``check.js``, which
    swaps the checker part in, and not when the address would be too long). `guessed`: the
    scenario was made from a chat question's words, which the page says."""
    try:
        scenario = read_scenario(data)
    except ScenarioFormatError as exc:
        return _render_format_error(state, exc, notes, source, json_text, link_data)
    canonical = scenario_to_json(scenario)
    permalink: str | None = None
    share_error: str | None = None
    try:
        permalink = encode_permalink(canonical)
    except PermalinkError as exc:
        share_error = str(exc)
    address = None
    if to_link and permalink is not None:
        if request.headers.get("X-Check-Fragment") != "1":
            moved = _redirect_to_link(permalink, notes)
            if moved is not None:
                return moved
        else:  # check.js puts the address a reload shows the same page at (notes too)
            address = _link_address(permalink, notes)
    result = resolve(scenario, current_rules())
    return _render(
        builder.state_from_json(canonical),
        notes=notes,
        share_error=share_error,
        view=formview.result_view(scenario, result, rule_links),
        permalink=permalink,
        json_text=json.dumps(canonical, ensure_ascii=False, indent=2),
        address=address,
        guessed=guessed,
    )


# ---------------------------------------------------------------- routes


@bp.get("/check")
def page() -> Response:
    link = request.args.get("s")
    if link is None:
        return _render(builder.starting_state())
    try:
        data = check_tree(decode_permalink(link), SHARED_LINK, MAX_VALUES)
    except (PermalinkError, BodyError) as exc:
        if (meant := _meant_link(link)) is not None:  # "…Xy9." from a forum: where it leads
            args: dict[str, Any] = {**request.args.to_dict(flat=False), "s": meant}
            return redirect(page_url("check.page", args), code=301)  # the other fields too
        return _render(builder.empty_state(), status=400, error=_bad_link(str(exc)))
    # the notes a form post was redirected with (`_redirect_to_link`), if they verify
    token = request.args.get("n")
    notes = notes_of(token, link, turn_key()) if token else []
    guessed = request.args.get("aus") == FROM_QUESTION  # the chat's link: a guessed scenario
    return _check_and_render(
        data, builder.state_from_json(data), notes, "link", guessed=guessed, link_data=data
    )


def _meant_link(link: str) -> str | None:
    """The share link `link` meant once what a forum or a sentence added after it is dropped
    (the first of `shared_meant` that reads, at most three tried); else None."""
    for meant in shared_meant(link):
        try:
            check_tree(decode_permalink(meant), SHARED_LINK, MAX_VALUES)
        except (PermalinkError, BodyError):
            continue
        return meant
    return None


def _link_text(data: Any) -> str:
    """A refused link's scenario as the JSON view shows it when its rows are too big to
    show (written only then), unless it is bigger than a scenario the reader takes."""
    if data is None:
        return ""
    return _takeable(json.dumps(data, ensure_ascii=False, indent=2))


def _draft_text(state: dict[str, Any]) -> str:
    """Rows too big to show that make no scenario (a form post with an error), as typed
    (`builder.draft_text`), for the JSON view, unless bigger than the reader takes."""
    return _takeable(builder.draft_text(state))


def _takeable(text: str) -> str:
    return text if len(text.encode("utf-8")) <= MAX_INPUT_BYTES else ""


def _phase_error(state: dict[str, Any]) -> ScenarioFormatError | None:
    """The reader's error about the phase of the form `state`, if it has one."""
    try:
        read_scenario(builder.scenario_from_state(state)[0])
    except ScenarioFormatError as exc:
        return next((e for e in (exc, *exc.more) if e.path == ("phase",)), None)
    return None


@bp.post("/check")
# no body_limit: a form for people takes what any body may (web.body.MAX_BODY)
def submit() -> Response:
    check_form()
    form = request.form
    action = form.get("action", "").strip() or "check"  # `check` is the default (OpenAPI)
    json_text = form.get("json", "")
    if json_text.strip():  # the JSON view always wins over the rows
        try:
            check_json_text(json_text, max_values=MAX_VALUES)
            data = as_object(parse_json(json_text))
        except (BodyError, ScenarioFormatError) as exc:
            # the text as typed, in its open view, to mend: the text box marked and linked
            return _render(
                builder.empty_state(),
                status=400,
                error=str(exc),
                error_field=JSON_FIELD,
                json_text=json_text,
                json_open=True,
            )
        state = builder.state_from_json(data)
        return _check_and_render(data, state, [], "json", json_text, to_link=True)
    state = builder.state_from_form(form)
    if action == "check" and builder.nothing_entered(state) and state["players"]:
        # the form as first shown, resolved at once (names at most, no TW, no card, no
        # entry): a list of every missing TW read as if the TW were the problem
        return _render(state, prompt=NOTHING_ENTERED_NOTE)
    if action == "check" and builder.nothing_entered(state):
        # nothing filled in (e.g. an empty POST): nothing to check yet, so the
        # starting form again, as GET /check shows it, rather than a 400; but a phase the
        # checker does not know is said, as with rows (a QA review: it was reset silently),
        # by the reader itself: any case is the phase, the message is the reader's
        start = {**builder.starting_state(), "phase": state["phase"]}
        if (phase_error := _phase_error(start)) is not None:
            return _render_format_error(start, phase_error, [])
        return _render(start, prompt=EMPTY_FORM_NOTE)  # with the phase chosen
    # a removal's „Rückgängig“ offered earlier: kept across the steps that leave the rows
    # where they are (a re-render, a card picked: a review saw it vanish at a renamed player)
    carried = form.get(formundo.UNDO, "")
    if action == formundo.UNDO:  # „Rückgängig“ after a removal: the row back in its place
        try:
            restored = formundo.undo_removal(state, carried)
        except builder.ActionError as exc:  # still offered, once the name is mended
            return _render(state, status=400, error=str(exc), undo=formundo.undo_offer(carried))
        return _render(state, feedback=restored)
    if action != "check":
        posted = action
        kept = formundo.undo_offer(carried) if formundo.keeps_undo(posted) else None
        try:
            action = builder.state_action(posted, form)  # row numbers as the state counts them
            removal = formundo.removal_said(state, action, posted)  # read before the step
            formsteps.apply_action(state, action, form)
        except builder.ActionError as exc:  # the form as posted again, with what was wrong
            return _render(state, status=400, error=str(exc), undo=kept)
        feedback = formsteps.action_feedback(state, action, posted, removal)
        if feedback is not None and feedback.undo:
            kept = formundo.undo_offer(feedback.undo)
        return _render(state, feedback=feedback, undo=kept)
    try:
        data, notes = builder.scenario_from_state(state)
    except ScenarioFormatError as exc:
        return _render_format_error(state, exc, [])
    return _check_and_render(data, state, notes, to_link=True)


@bp.post("/api/check")
@body_limit(MAX_SCENARIO)
def api_check() -> Any:
    # whatever its Content-Type, as the contract says (stack-scenarios.md): a scenario is
    # resolved, anything else is a 400 (a form or text that is no JSON included)
    body = raw_body()
    try:
        # a list is no scenario: said before it is parsed and walked (seconds for 1 MB)
        check_json_text(body.decode("utf-8", "replace"), "Das Szenario", refuse_a_list, MAX_VALUES)
    except ScenarioFormatError as exc:
        raise _not_a_scenario(exc) from None
    try:
        scenario = read_scenario(body)
    except ScenarioFormatError as exc:
        raise _not_a_scenario(exc) from None
    response = jsonify(result_to_json(resolve(scenario, current_rules())))
    response.headers["Cache-Control"] = "no-store"
    return response


def _not_a_scenario(exc: ScenarioFormatError) -> HTTPException:
    """The API's 400 for a body the reader refuses."""
    return bad_request(f"Kein Szenario: {exc.detail}")


@bp.get("/api/cards")
def api_cards() -> Any:
    query = clean_input(request.args.get("q") or "").strip()
    if len(query) > 100:
        raise bad_request("Der Kartenname ist zu lang (höchstens 100 Zeichen).")
    cards = [catalog_card_to_json(card) for card in catalog_suggestions(query)]
    response = jsonify(query=query, cards=cards)
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


def _bad_link(reason: str) -> str:
    """What a shared link that cannot be read says: decoding and the text check name the
    link themselves („Der geteilte Link ist beschädigt: …“); only the nesting check speaks of
    „Das JSON“, which gets the link said first (a phone review read „ungültig. Der Link ist
    beschädigt“ as saying it twice)."""
    return reason if reason.startswith(SHARED_LINK) else f"{SHARED_LINK} ist ungültig. {reason}"
