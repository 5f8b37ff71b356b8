"""The chatbot on the web: POST /api/ask and the chat page /ask (without JavaScript)."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
from html import unescape
from urllib.parse import parse_qs, quote_plus, unquote, urlencode, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from test_error_shape import assert_error_shape

from faq_bot.chat import MAX_HISTORY, answer, format_answer
from faq_bot.chat.shown import (
    ANSWERED,
    DECLINED,
    GONE,
    MAX_TOKEN,
    TOKEN_PATTERN,
    UNANSWERED,
    UNVERIFIED,
    Shown,
    fingerprint,
    passage_text,
)
from faq_bot.question import MAX_QUESTION_LENGTH
from faq_bot.web.ask import MAX_BODY as ASK_MAX_BODY
from faq_bot.web.common import turn_key

FIRST = "Wer bezahlt, wenn meine 227er gekontert wird?"
FOLLOWUP = "und wenn er eine Feuerwehr hat?"
# the chat page's example question (templates/ask/chat.html)
EXAMPLE = "Muss ich meine 227er bezahlen, wenn sie gekontert wird?"
# two catalog cards and a word about the stack: a stack the checker resolves
TWO_CARDS = (
    "Ich will mit meiner 227-Pfund Bombe die Radarstation des Gegners zerstören, "
    "er kontert. Wer muss wie viele TW bezahlen?"
)
UNVERIFIED_NOTE = "Diese frühere Antwort ließ sich nicht prüfen und wird nicht wiederholt."


def key_of(client) -> bytes:
    """The key the app signs its turn tokens with."""
    with client.application.app_context():
        return turn_key()


def signed(client, *turns: Shown) -> list[str]:
    """`turns` as tokens the app issued."""
    key = key_of(client)
    return [turn.token(key) for turn in turns]


def answered_turn(client, question: str, entry: str, paragraph: int, span: tuple[int, int]):
    """The turn the app would issue for this paragraph of its current build."""
    index = client.application.extensions["faq_bot.index"].get()
    mark = fingerprint(passage_text(index, index.entry(entry), paragraph))
    return Shown(question, ANSWERED, entry, paragraph, span, (), mark)


def hidden_turns(html: str) -> list[str]:
    """The turn tokens the chat form carries on (hidden fields ``t``)."""
    return [
        unescape(t) for t in re.findall(r'<input type="hidden" name="t" value="([^"]*)">', html)
    ]


def test_api_ask_answer_shape(client):
    response = client.post("/api/ask", json={"question": FIRST})
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    data = response.get_json()
    assert data["confident"] is True
    answer = data["answer"]
    assert answer["entry"]["id"] == "227-pfund-bombe-basisausbau"
    assert re.fullmatch(r"/entry/227-pfund-bombe-basisausbau#p\d+", answer["url"])
    assert answer["url"].endswith("#" + answer["fragment"])
    assert (
        answer["text"][answer["highlight"]["start"] : answer["highlight"]["end"]]
        == (answer["highlight"]["text"])
    )
    assert answer["citation"].endswith(answer["paragraph_url"])  # absolute: the permalink
    assert answer["paragraph_url"].startswith("http://localhost/entry/")
    assert data["sources"][0]["id"] == answer["entry"]["id"] and "text" in data["sources"][0]
    assert data["related"] and data["message"]
    assert data["check_url"] is None  # one card: nothing the checker could stack
    assert data["suggestion"] is None and data["followup"] is False
    two_cards = client.post("/api/ask", json={"question": TWO_CARDS}).get_json()
    assert two_cards["check_url"].startswith("/check?s=")


def _permalink(client, entry_id: str, paragraph: int) -> str:
    from faq_bot.text import paragraph_path

    record = client.application.extensions["faq_bot.index"].get().entry(entry_id)
    text = record.plain_paragraphs[paragraph]
    return "http://localhost" + paragraph_path(entry_id, paragraph, text)


def test_api_ask_answer_carries_absolute_links_and_cites_its_paragraph(client):
    data = client.post("/api/ask", json={"question": FIRST}).get_json()
    answer = data["answer"]
    entry, paragraph = answer["entry"]["id"], answer["paragraph"]
    assert answer["url"] == f"/entry/{entry}#p{paragraph}"  # kept: relative, with its anchor
    assert answer["absolute_url"] == "http://localhost" + answer["url"]
    assert answer["paragraph_url"] == _permalink(client, entry, paragraph)
    assert answer["citation"] == (
        f"„227-Pfund Bombe (Basisausbau)“, Absatz {paragraph + 1} – HoW FAQ, "
        f"Stand: 30. November 2012. {answer['paragraph_url']}"
    )
    assert answer["entry"]["absolute_url"] == f"http://localhost/entry/{entry}"


def test_api_ask_answer_links_its_key_sentence_in_a_text_fragment(client):
    # a phone review: the source link opened a ruling four screens long at its top, and the
    # judge hunted for the sentence the answer quoted
    answer = client.post("/api/ask", json={"question": FIRST}).get_json()["answer"]
    permalink = answer["paragraph_url"].removeprefix("http://localhost")
    page, directive = answer["sentence_url"].split("#:~:text=")
    assert page == permalink  # relative, like `url`
    words = answer["highlight"]["text"].split()
    parts = directive.split(",")
    if parts[0].endswith("-"):  # the words before the sentence, as its prefix
        before = answer["text"][: answer["highlight"]["start"]].split()
        prefix = unquote(parts.pop(0)[:-1]).split()
        assert before[-len(prefix) :] == prefix
    named = [unquote(part) for part in parts]
    assert named[0] == " ".join(words[: len(named[0].split())])
    assert " ".join(words).endswith(named[-1])


def test_ask_page_source_link_opens_the_ruling_at_the_key_sentence(client):
    html = client.get("/ask", query_string={"q": FIRST}).get_data(as_text=True)
    answer = client.post("/api/ask", json={"question": FIRST}).get_json()["answer"]
    (href,) = re.findall(r'<a class="passage-link" href="([^"]*)"', html)
    assert unescape(href) == answer["sentence_url"]
    assert "#:~:text=" in href


def test_api_ask_sources_carry_absolute_links_citation_and_stand(client):
    data = client.post("/api/ask", json={"question": FIRST}).get_json()
    first = data["sources"][0]
    assert first["url"] == f"/entry/{first['id']}"  # kept
    assert first["paragraph_url"] == data["answer"]["paragraph_url"]  # the answering paragraph
    for source in data["sources"]:
        assert source["absolute_url"] == "http://localhost" + source["url"]
        assert source["citation"].endswith(source["absolute_url"])
        assert "date_text" in source
        if source["paragraph"] is not None:
            assert source["paragraph_url"] == _permalink(client, source["id"], source["paragraph"])


def test_api_ask_followup_with_history_objects(client):
    first = client.post("/api/ask", json={"question": FIRST}).get_json()
    history = [{"question": first["question"], "entry": first["answer"]["entry"]["id"]}]
    data = client.post("/api/ask", json={"question": FOLLOWUP, "history": history}).get_json()
    assert data["followup"] is True
    assert data["context"] == first["question"]
    assert data["answer"]["entry"]["id"] == "feuerwehr-basisausbau"


def test_api_ask_followup_with_plain_text_history_is_answered_as_after_the_page(client):
    """A review: /api/ask parsed the history before `answer` saw it, so earlier questions
    sent as text were never answered again and this follow-up was declined."""
    earlier = "Was kostet mich die Erfolgreiche Abwehr?"
    question = "und die explosive landung, hat die denselben effekt?"
    first = client.post("/api/ask", json={"question": earlier}).get_json()
    as_page = [{"question": earlier, "entry": first["answer"]["entry"]["id"]}]
    by_text = client.post("/api/ask", json={"question": question, "history": [earlier]})
    by_page = client.post("/api/ask", json={"question": question, "history": as_page})
    assert by_page.get_json()["answer"]["entry"]["id"] == "explosive-landung-aktionskarte"
    assert by_text.get_json() == by_page.get_json()


def test_api_ask_declines_off_topic(client):
    data = client.post("/api/ask", json={"question": "Wie bemale ich Miniaturen?"}).get_json()
    assert data["confident"] is False
    assert data["answer"] is None
    assert data["message"].startswith("Dazu habe ich keine sichere Antwort gefunden.")


def test_api_ask_server_keeps_no_conversation(client):
    client.post("/api/ask", json={"question": FIRST})
    data = client.post("/api/ask", json={"question": FOLLOWUP}).get_json()
    assert data["followup"] is False and data["context"] is None


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({}, 400),
        ({"question": ""}, 400),
        ({"question": "   "}, 400),
        ({"question": None}, 400),
        ({"question": 5}, 400),
        ({"question": "x" * 501}, 400),
        ({"question": "Depot", "history": "Frage"}, 400),
        ({"question": "Depot", "history": [1, 2]}, 400),
        ({"question": "Depot", "history": [{"entry": "depot"}]}, 400),
        ({"question": "Depot", "history": [{"question": "a", "entry": ["x"]}]}, 400),
        ({"question": "Depot", "history": ["Frage"] * (MAX_HISTORY + 1)}, 400),
        ([1, 2], 400),
        ("Depot", 400),
        ({"question": "Depot", "doc": "gibt-es-nicht"}, 400),
        ({"question": "Depot", "doc": ["how-faq"]}, 400),
    ],
)
def test_api_ask_bad_input_is_a_400_in_the_error_shape(client, body, status):
    assert_error_shape(client.post("/api/ask", json=body), status)


def test_api_ask_not_json_is_415_and_huge_body_413(client):
    assert_error_shape(client.post("/api/ask", data="question=Depot"), 415)
    assert_error_shape(
        client.post("/api/ask", data="{" + " " * 70_000 + "}", content_type="application/json"),
        413,
    )
    assert_error_shape(
        client.post("/api/ask", data="{kaputt", content_type="application/json"), 400
    )


def test_api_ask_reads_a_body_with_a_byte_order_mark_as_api_check_does(client):
    """PowerShell and other Windows tools write a BOM before UTF-8 JSON (a QA review: 400
    "kein gültiges JSON" here, accepted by /api/check)."""
    body = "\ufeff" + json.dumps({"question": "Wer bezahlt die 227er?"})
    response = client.post("/api/ask", data=body.encode(), content_type="application/json")
    assert response.status_code == 200
    assert response.get_json()["question"] == "Wer bezahlt die 227er?"


def test_api_ask_says_what_is_wrong_with_its_json(client):
    """Valid JSON with a number of 5,000 digits (more than Python converts) was called "kein
    gültiges JSON", and broken JSON did not say where, while /api/check said both."""
    huge = '{"question": "Depot", "n": ' + "7" * 5000 + "}"
    response = client.post("/api/ask", data=huge, content_type="application/json")
    assert_error_shape(response, 400)
    assert response.get_json()["detail"] == "Die Anfrage enthält eine Zahl mit zu vielen Stellen."
    broken = client.post("/api/ask", data='{"question": "Depot",}', content_type="application/json")
    assert_error_shape(broken, 400)
    assert "kein gültiges JSON (Zeile 1, Spalte" in broken.get_json()["detail"]


def test_api_ask_refuses_nan_and_infinity_as_no_json(client):
    """An HTTP probe: {"question": "Bombe", "x": NaN} was answered (200)."""
    for text in ('{"question": "Bombe", "x": NaN}', '{"question": "Bombe", "y": -Infinity}'):
        response = client.post("/api/ask", data=text, content_type="application/json")
        assert_error_shape(response, 400)
        assert "ist in JSON keine Zahl" in response.get_json()["detail"]


def test_api_ask_wrong_method_is_405_json(client):
    assert_error_shape(client.get("/api/ask"), 405)


def test_api_ask_is_described_in_openapi(client):
    spec = client.get("/api/openapi.json").get_json()
    assert "post" in spec["paths"]["/api/ask"]
    assert {"get", "post"} <= set(spec["paths"]["/ask"])
    assert "Answer" in spec["components"]["schemas"]


# --- the page without JavaScript ----------------------------------------------------


def test_ask_page_empty_shows_the_form(client):
    response = client.get("/ask")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    # without JavaScript the answer page opens at the newest turn (#neu)
    assert (
        '<form class="chat-form" id="chat-form" data-timeout-ms="15000" '
        'data-empty-title="Frage stellen · Regelsuche" action="/ask#neu" method="post">'
    ) in html
    assert 'name="q"' in html and 'type="hidden"' not in html
    # chat.js builds its answers with chat-render.js: loaded first (both deferred: in order)
    assert html.index('src="/static/chat-render.js?v=') < html.index('src="/static/chat.js?v=')


def test_ask_page_empty_offers_an_example_question_that_asks_it(client):
    """The example question stands in full in the intro, as a link that asks it (as a
    placeholder a phone showed „z. B. Wer bezahlt, wenn“); no placeholder repeats it."""
    html = client.get("/ask").get_data(as_text=True)
    intro = html.split('<p class="chat-intro"', 1)[1].split("</p>", 1)[0]
    (href,) = re.findall(r'<a href="([^"]+)">' + re.escape(EXAMPLE) + "</a>", unescape(intro))
    assert urlsplit(href).path == "/ask" and parse_qs(urlsplit(href).query)["q"] == [EXAMPLE]
    assert "placeholder" not in html.split('id="chat-q"', 1)[1].split(">", 1)[0]


def test_ask_page_example_question_is_answered_from_its_ruling(client):
    """The showcase is what a newcomer taps first: an answer that cites its ruling. (Whether
    the served, hybrid answer carries „Bitte den Absatz prüfen“ cannot be seen here: test
    indexes are lexical. The earlier example did, 70 of 100; this one answers without,
    reliability 0.93, checked on the served index.) It offered the stack checker until the
    fifty-first round, whose link opened its one card and an empty stack: none now."""
    answered = client.get("/ask", query_string={"q": EXAMPLE}).get_data(as_text=True)
    turn = answered.split('<li class="turn"', 1)[1]
    assert '<div class="turn-a confident">' in turn and '<mark class="key">' in turn
    assert 'class="passage-link" href="/entry/227-pfund-bombe-basisausbau/absatz/' in turn
    assert "Im Aktionsstapel-Prüfer nachspielen" not in turn


def test_ask_page_get_answers_with_highlight_and_its_paragraph_link(client):
    html = client.get("/ask", query_string={"q": FIRST}).get_data(as_text=True)
    assert '<mark class="key">' in html
    assert re.search(r'href="/entry/227-pfund-bombe-basisausbau/absatz/\d+\?v=\w+#:~:text=', html)
    assert "Stand: 30. November 2012" in html
    # the copy link only with JavaScript (chat.js shows it): without, the paragraph link is it
    assert re.search(
        r'<a class="chat-copy"[^>]* data-chat-copy [^>]*hidden>Link kopieren</a>', html
    )
    (token,) = hidden_turns(html)  # the form carries the turn as shown
    assert token.startswith("227-pfund-bombe-basisausbau.") and token.endswith(f"~{FIRST}")


def _meta(html: str, attribute: str, name: str) -> str | None:
    """The content of the page's ``<meta {attribute}="{name}">``, unescaped (None: none)."""
    found = re.search(rf'<meta {attribute}="{re.escape(name)}" content="([^"]*)">', html)
    return unescape(found[1]) if found else None


def test_a_shared_answer_pages_address_is_a_valid_url_whatever_was_asked(client):
    # a web probe: /ask?q=a%3Cb%3E%22%27 gave og:url "…/ask?q=a<b>\"'" (escaped for HTML,
    # but no URL): a link preview took it apart
    html = client.get("/ask?q=a%3Cb%3E%22%27%C3%84").get_data(as_text=True)
    url = _meta(html, "property", "og:url")
    assert url is not None and url.startswith("http://localhost/ask?q=")
    assert not set('<>" Ä') & set(url), url  # "'" may stand in a URL (a sub-delimiter)


def _shared(client, question: str) -> tuple[str, str]:
    """(the address the chat form redirects to, its page): the link a user shares."""
    response = client.post("/ask", data={"q": question})
    assert response.status_code == 303
    location = response.headers["Location"].split("#")[0]
    return location, client.get(location).get_data(as_text=True)


def test_a_shared_answer_page_previews_the_question_key_sentence_and_source(client):
    data = client.post("/api/ask", json={"question": FIRST}).get_json()["answer"]
    location, html = _shared(client, FIRST)
    assert _meta(html, "property", "og:title") == FIRST
    assert _meta(html, "property", "og:url") == "http://localhost" + location
    assert _meta(html, "property", "og:type") == "website"
    description = _meta(html, "name", "description")
    assert _meta(html, "property", "og:description") == description
    assert description.startswith(data["highlight"]["text"])  # the key sentence first
    assert description.endswith(
        f" Quelle: „227-Pfund Bombe (Basisausbau)“, Absatz {data['paragraph'] + 1} – "
        "HoW FAQ, Stand: 30. November 2012."
    )
    assert "Regelfragen stellen" not in description  # not the empty chat's description
    # the turn shown again from its token cites and copies the paragraph's permalink too
    permalink = _permalink(client, data["entry"]["id"], data["paragraph"])
    assert re.search(r'<a class="chat-copy" href="([^"]*)"', html)[1] == permalink


def test_a_shared_declined_answer_page_says_no_sure_answer_was_found(client):
    _, html = _shared(client, "Wie grundiere und bemale ich meine Miniaturen am besten?")
    description = _meta(html, "name", "description")
    assert description.startswith("Auf diese Frage hat die Regelsuche keine sichere Antwort")
    assert _meta(html, "property", "og:description") == description
    assert _meta(html, "property", "og:title") == (
        "Wie grundiere und bemale ich meine Miniaturen am besten?"
    )


def test_an_unsure_answer_previews_its_source_as_not_sure():
    from faq_bot.web.ask import preview

    url = "https://x/entry/endphase/absatz/1?v=0123abcd"
    turn = {
        "message": "Wahrscheinlich steht das unter „Endphase“ in „HoW FAQ“.",
        "caution": "Bitte den Absatz prüfen: …",
        "answer": {
            "text": "Erster Satz. Zweiter Satz.",
            "highlight": {"text": "Zweiter Satz.", "start": 13, "end": 26},
            "paragraph_url": url,
            "citation": f"„Endphase“, Absatz 1 – HoW FAQ. {url}",
        },
    }
    assert preview(turn) == "Zweiter Satz. Quelle (nicht sicher): „Endphase“, Absatz 1 – HoW FAQ."
    assert preview({**turn, "caution": None}).endswith(" Quelle: „Endphase“, Absatz 1 – HoW FAQ.")


def test_a_preview_keeps_the_key_sentence_whole_and_clips_a_long_one():
    from faq_bot.web.ask import PREVIEW_KEY, _key_sentence

    key = "Spätestens nach der 10. Runde ohne Todesfall tritt ein Patt ein."
    assert _key_sentence("Vorher. " + key, key) == key  # "10. Runde" ends no sentence
    assert _key_sentence("Erster Satz, z. B. so. Zweiter Satz.", "") == "Erster Satz, z. B. so."
    long = "Wort " * 100
    clipped = _key_sentence(long, long)
    assert len(clipped) <= PREVIEW_KEY and clipped.endswith("Wort…")


def test_a_shared_page_escapes_the_question_in_its_preview(client):
    question = 'Was ist "<b>Patt</b>"?'
    _, html = _shared(client, question)
    assert "<b>Patt" not in html
    assert _meta(html, "property", "og:title") == question


def test_the_empty_chat_page_keeps_its_own_description_and_no_preview(client):
    html = client.get("/ask").get_data(as_text=True)
    assert _meta(html, "name", "description").startswith("Regelfragen stellen")
    assert _meta(html, "property", "og:title") is None


def test_the_chat_citation_names_the_paragraph_and_its_permalink(client):
    html = client.get("/ask", query_string={"q": FIRST}).get_data(as_text=True)
    data = client.post("/api/ask", json={"question": FIRST}).get_json()["answer"]
    n = data["paragraph"] + 1
    citation = unescape(re.search(r'<p class="citation">([^<]*)</p>', html)[1])
    assert citation == (
        f"„227-Pfund Bombe (Basisausbau)“, Absatz {n} – HoW FAQ, Stand: 30. November 2012. "
        f"{data['paragraph_url']}"
    )
    assert "#p" not in citation
    copy = re.search(r'<a class="chat-copy"[^>]*>', html)[0]
    assert f'href="{data["paragraph_url"]}"' in unescape(copy)  # copies the permalink


def test_the_chat_copy_and_cite_controls_say_which_paragraph_they_act_on(client):
    html = unescape(client.get("/ask", query_string={"q": FIRST}).get_data(as_text=True))
    n = client.post("/api/ask", json={"question": FIRST}).get_json()["answer"]["paragraph"] + 1
    where = f"„227-Pfund Bombe (Basisausbau)“, Absatz {n}"
    assert f'aria-label="{where}: Link kopieren"' in html
    assert f'aria-label="{where}: Zitieren"' in html
    assert f'data-copied="Link zu {where} kopiert."' in html
    # the confirmation is announced in a status region of the chat page
    assert re.search(r'<p [^>]*id="chat-status"[^>]*role="status"', html)


def test_ask_page_form_post_with_history_shows_the_conversation(client):
    first = hidden_turns(
        client.post("/ask", follow_redirects=True, data={"q": FIRST}).get_data(as_text=True)
    )
    response = client.post("/ask", follow_redirects=True, data={"q": FOLLOWUP, "t": first})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.count('<li class="turn"') == 2
    log = html[html.index('<ol class="chat-log"') :]
    assert log.index(FIRST) < log.index(FOLLOWUP)
    assert f"Im Zusammenhang mit Ihrer Frage „{FIRST}“" in html
    assert "Feuerwehr (Basisausbau)" in html
    hidden = hidden_turns(html)
    assert hidden[0] == first[0]  # the next post carries the whole conversation
    assert hidden[1].startswith("feuerwehr-basisausbau.") and hidden[1].endswith(FOLLOWUP)
    assert log.count('id="neu"') == 1 and log.rindex('id="neu"') > log.index(FOLLOWUP) - 400


def test_ask_page_folds_the_similar_entries_under_an_answer_keeping_its_references(client):
    """A phone review: five similar entries took 270 px on a 320 px screen between the
    answer and the field for a follow-up. Under an answer they are folded, counted; the
    FAQ's own references („Siehe auch“) stay open."""
    html = client.get("/ask", query_string={"q": FIRST}).get_data(as_text=True)
    data = client.post("/api/ask", json={"question": FIRST}).get_json()
    similar = [r for r in data["related"] if r["reason"] != "link"]
    assert similar and any(r["reason"] == "link" for r in data["related"])
    turn = html.split('<li class="turn"', 1)[1]
    assert re.search(r'<p class="related-h">Siehe auch:</p>\s*<ul class="related">', turn)
    folded = re.search(
        r'<details class="related-more">\s*<summary class="related-h">Ähnliche Einträge '
        r"\((\d+)\)</summary>\s*<ul class=\"related\">(.*?)</ul>\s*</details>",
        turn,
        re.S,
    )
    assert folded and int(folded[1]) == len(similar)
    assert re.findall(r'<a href="([^"]+)">', folded[2]) == [r["url"] for r in similar]


def test_ask_page_declined_lists_closest_entries(client):
    html = client.post(
        "/ask", follow_redirects=True, data={"q": "Ab welchem Alter ist das Spiel geeignet?"}
    ).get_data(as_text=True)
    assert "Dazu habe ich keine sichere Antwort gefunden." in html
    # the message introduces the closest entries; no second heading says it again
    intro = html.index("Diese Einträge kommen Ihrer Frage am nächsten:")
    assert "related-h" not in html[intro : html.index('<ul class="related">', intro)]
    assert "Am nächsten kommen:" not in html
    assert '<blockquote class="passage"' not in html


def test_ask_page_declined_offers_the_search_for_the_question(client):
    question = "Ab welchem Alter ist das Spiel geeignet?"
    html = client.post("/ask", follow_redirects=True, data={"q": question}).get_data(as_text=True)
    link = re.search(r'<p class="search-link"><a href="([^"]+)">([^<]+)</a>', html)
    assert link is not None
    assert link.group(1) == "/search?q=Ab+welchem+Alter+ist+das+Spiel+geeignet?"
    assert link.group(2) == f"In der Suche nachsehen: „{question}“"
    answered = client.post(
        "/ask", follow_redirects=True, data={"q": "Wer bezahlt, wenn meine 227er gekontert wird?"}
    ).get_data(as_text=True)
    assert '<blockquote class="passage"' in answered  # a confident answer ...
    assert 'class="search-link"' not in answered  # ... needs no search offered


def test_ask_page_suggestion_link_keeps_the_history(client):
    (token,) = signed(client, Shown("Aktionsstapel", DECLINED))
    html = client.post(
        "/ask",
        follow_redirects=True,
        data={"q": "Wie viele Karten hat ein Depot mindestns?", "t": [token]},
    ).get_data(as_text=True)
    assert "Meinten Sie:" in html
    assert "mindestens?</a></p>" in html  # its own question mark, not a second one
    link = unescape(re.search(r'<p class="suggestion">Meinten Sie: <a href="([^"]+)"', html)[1])
    # it opens at the new answer (#neu), as the page a form post leads to
    assert (
        link
        == "/ask?q=Wie+viele+Karten+hat+ein+Depot+mindestens?&t="
        + quote_plus(token, safe=":")
        + "#neu"
    )


@pytest.mark.parametrize(
    ("method", "data", "said"),
    [
        # an empty or too long question: the chat again with its error (the conversation
        # kept); a malformed conversation: the error page
        ("post", {"q": ""}, "Bitte eine Frage eingeben."),
        ("post", {"q": "x" * 600}, "Die Frage ist zu lang"),
        ("post", {"q": "Depot", "h": [""]}, "Ungültige Anfrage"),
        ("get", {"q": "x" * 600}, "Die Frage ist zu lang"),
    ],
)
def test_ask_page_bad_input_is_a_german_400_page(client, method, data, said):
    if method == "post":
        response = client.post("/ask", follow_redirects=True, data=data)
    else:
        response = client.get("/ask", query_string=data)
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    assert said in response.get_data(as_text=True)


def test_ask_page_escapes_the_question(client):
    evil = '<script>alert(1)</script> "><img src=x onerror=alert(2)> 227er'
    html = client.post("/ask", follow_redirects=True, data={"q": evil, "h": [evil]}).get_data(
        as_text=True
    )
    assert "<script>alert(1)" not in html
    assert "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_ask_api_and_page_on_hostile_corpus_stay_inert(evil_client):
    data = evil_client.post("/api/ask", json={"question": "Alpha Erster Satz"}).get_json()
    assert "confident" in data
    html = evil_client.get("/ask", query_string={"q": "Alpha Erster Satz Beta"}).get_data(
        as_text=True
    )
    assert "<script>alert" not in html
    assert "<img src=x onerror" not in html


def test_start_page_offers_search_and_ask_in_one_box(client):
    html = client.get("/").get_data(as_text=True)
    assert 'action="/search"' in html
    assert 'formaction="/ask"' in html
    assert ">Fragen</button>" in html and ">Suchen</button>" in html


def test_ask_without_index_is_503(no_index_client):
    assert_error_shape(no_index_client.post("/api/ask", json={"question": "Depot"}), 503)
    assert no_index_client.get("/ask").status_code == 503


# --- earlier turns: carried as shown, rendered again without retrieval -------------------

CONVERSATION = [
    FIRST,  # confident, with cross references and similar entries
    FOLLOWUP,  # a follow-up, read with the first
    "Wie viele Karten hat ein Depot mindestns?",  # a spelling suggestion
    "Ab welchem Alter ist das Spiel geeignet?",  # declined
    "Wann darf ich reagieren?",  # declined, its closest entries linked at their paragraph
]


def turns_of(html: str) -> list[str]:
    """The chat log's turns (``<li class="turn">``), the newest without its #neu anchor."""
    log = html[html.index('<ol class="chat-log"') : html.index("</ol>")]
    turns = log.split('<li class="turn"')[1:]
    return ['<li class="turn"' + t.replace(' id="neu" tabindex="-1"', "").rstrip() for t in turns]


def converse(client, questions: list[str]) -> list[str]:
    """Ask `questions` through the form as a browser without JavaScript does; the pages."""
    pages, tokens = [], []
    for question in questions:
        response = client.post("/ask", follow_redirects=True, data={"q": question, "t": tokens})
        assert response.status_code == 200
        pages.append(response.get_data(as_text=True))
        tokens = hidden_turns(pages[-1])
    return pages


def count_rankings(monkeypatch) -> list[str]:
    """The questions the chatbot ranks entries for (its search), as they happen."""
    from faq_bot.chat import passage

    asked: list[str] = []
    real = passage.rank_entries
    monkeypatch.setattr(
        passage,
        "rank_entries",
        lambda index, aq, doc=None: asked.append(aq.text) or real(index, aq, doc),
    )
    return asked


def test_earlier_turns_render_exactly_as_they_were_first_shown(client):
    pages = converse(client, CONVERSATION)
    first_shown = [turns_of(page)[-1] for page in pages]
    assert "Meinten Sie:" in first_shown[2] and "keine sichere Antwort" in first_shown[3]
    assert '<mark class="key">' in first_shown[0] and "Siehe auch:" in first_shown[0]
    assert re.search(r'<li><a href="/entry/[a-z0-9-]+#p[1-9]', first_shown[4])
    for page in pages:
        turns = turns_of(page)
        assert turns == first_shown[: len(turns)]


def test_a_page_with_earlier_turns_searches_only_for_its_new_question(client, monkeypatch):
    *earlier, last = converse(client, CONVERSATION)
    tokens = hidden_turns(last)
    asked = count_rankings(monkeypatch)
    response = client.post(
        "/ask", follow_redirects=True, data={"q": "Was kostet ein Depot?", "t": tokens}
    )
    assert response.status_code == 200
    assert asked == ["Was kostet ein Depot?"]
    assert len(turns_of(response.get_data(as_text=True))) == len(CONVERSATION) + 1


def test_earlier_turns_are_the_new_questions_history_as_with_the_api(client):
    (page,) = converse(client, [FIRST])
    data = client.post(
        "/api/ask", json={"question": FOLLOWUP, "history": [{"question": FIRST, "entry": BOMB}]}
    ).get_json()
    followup = client.post(
        "/ask", follow_redirects=True, data={"q": FOLLOWUP, "t": hidden_turns(page)}
    )
    assert hidden_turns(followup.get_data(as_text=True))[-1] == data["turn"]


def test_api_ask_gives_the_turn_token_the_page_carries(client):
    from faq_bot.chat.shown import shown_of

    data = client.post("/api/ask", json={"question": FIRST}).get_json()
    assert data["turn"] == hidden_turns(converse(client, [FIRST])[0])[0]
    assert Shown.parse(data["turn"], key_of(client)) == shown_of(data)


def test_get_links_with_earlier_turns_stay_shareable_and_cacheable(client):
    tokens = hidden_turns(converse(client, [FIRST])[0])
    url = "/ask?" + urlencode({"q": FOLLOWUP, "t": tokens}, doseq=True)
    first = client.get(url)
    assert first.status_code == 200 and first.get_etag()[0]
    assert client.get(url, headers={"If-None-Match": first.get_etag()[0]}).status_code == 304
    assert "Feuerwehr (Basisausbau)" in first.get_data(as_text=True)


BOMB = "227-pfund-bombe-basisausbau"


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("Wer bezahlt?", "es fehlt „~“"),
        (f"{BOMB}~Wer bezahlt?", "keine Antwort"),
        (f"{BOMB}.zwei.0.10~Wer bezahlt?", "keine Antwort"),
        (f"{BOMB}.-1.0.10~Wer bezahlt?", "keine Antwort"),
        (f"{BOMB}.99999.0.10~Wer bezahlt?", "keine Antwort"),
        (f"{BOMB}.2.40.10~Wer bezahlt?", "Kernsatz endet vor seinem Anfang"),
        ("Bombe.2.0.10~Wer bezahlt?", "keine Antwort"),
        ("<script>.2.0.10~Wer bezahlt?", "keine Antwort"),
        (f"{BOMB}.2.0.10_s.Depot~Wer bezahlt?", "kein verwandter Eintrag"),
        (f"{BOMB}.2.0.10_zz.depot~Wer bezahlt?", "kein verwandter Eintrag"),
        ("-" + "_s.depot" * 17 + "~Wer bezahlt?", "zu viele verwandte Einträge"),
        ("-" + "_f.depot" * 20 + "~Wer bezahlt?", "zu viele aufgeführte Einträge"),
        ("-" + "_f.depot" * 4 + "~Wer bezahlt?", "zu viele Treffer der Suche"),
        ("-~", "Bitte eine Frage"),
        ("-~  ?! ", "Frage"),
        ("-~" + "x" * 600, "zu lang"),
        ("-_s." + "a" * MAX_TOKEN + "~Wer bezahlt?", "zu lang"),
    ],
)
def test_a_malformed_turn_is_a_german_400_naming_it(client, token, message):
    for response in (
        client.post(
            "/ask", follow_redirects=True, data={"q": "Depot", "t": ["-~Aktionsstapel", token]}
        ),
        # the question field last: a link whose last turn field ends in "~" reads as cut
        # there (test_a_link_cut_right_after_the_tilde_or_the_field_name_...)
        client.get("/ask", query_string=[("t", "-~Aktionsstapel"), ("t", token), ("q", "Depot")]),
    ):
        assert response.status_code == 400
        assert response.mimetype == "text/html"
        html = response.get_data(as_text=True)
        assert "Ungültige Anfrage" in html and "Verlauf, Eintrag 2:" in html
        assert message in unescape(html), unescape(html)[-3000:]


def test_too_many_earlier_turns_is_a_german_400(client):
    response = client.post(
        "/ask", follow_redirects=True, data={"q": "Depot", "t": ["-~Depot"] * (MAX_HISTORY + 1)}
    )
    assert response.status_code == 400
    assert "Der Verlauf ist zu lang" in unescape(response.get_data(as_text=True))


def test_the_page_shows_the_newest_earlier_turns_only(client, monkeypatch):
    from faq_bot.web.ask import PAGE_TURNS

    tokens = signed(
        client, *(Shown(f"Frage Nummer {i} zum Depot", DECLINED) for i in range(MAX_HISTORY))
    )
    asked = count_rankings(monkeypatch)
    html = client.post("/ask", follow_redirects=True, data={"q": "Depot", "t": tokens}).get_data(
        as_text=True
    )
    assert len(turns_of(html)) == PAGE_TURNS + 1
    assert hidden_turns(html)[:PAGE_TURNS] == tokens[-PAGE_TURNS:]
    assert asked == ["Depot"]


def test_a_suggestion_link_carries_at_most_link_chars_of_earlier_turns(client):
    from faq_bot.web.ask import LINK_CHARS

    items = (
        ("similar", "sow-suchcountertabelle-the-last-cozy-inn-die-letzte-gemuetliche-kneipe", None),
    ) * 16
    tokens = signed(
        client, *(Shown(f"Frage {i} zum Aktionsstapel", DECLINED, related=items) for i in range(10))
    )
    html = client.post(
        "/ask",
        follow_redirects=True,
        data={"q": "Wie viele Karten hat ein Depot mindestns?", "t": tokens},
    ).get_data(as_text=True)
    link = unescape(re.search(r'<p class="suggestion">Meinten Sie: <a href="([^"]+)"', html)[1])
    assert 0 < link.count("&t=") < len(tokens) and len(link) <= LINK_CHARS + 200
    assert link.endswith(quote_plus(tokens[-1], safe=":") + "#neu")  # the newest kept


def test_an_entry_that_is_not_in_the_index_shows_a_note_not_an_error(client, monkeypatch):
    asked = count_rankings(monkeypatch)
    question = "Was galt gestern?"
    (gone,) = signed(client, Shown(question, ANSWERED, "die-regel-von-gestern", 1, (0, 20)))
    html = client.post("/ask", follow_redirects=True, data={"q": "Depot", "t": [gone]}).get_data(
        as_text=True
    )
    first = turns_of(html)[0]
    assert "Was galt gestern?" in first and "Dieser Eintrag ist nicht mehr vorhanden" in first
    assert '<blockquote class="passage"' not in first
    assert hidden_turns(html)[0] == signed(client, Shown(question, GONE))[0]  # carried on
    assert asked == ["Depot"]
    # a paragraph or key sentence the entry no longer has: the same
    real = answered_turn(client, "Wer bezahlt?", BOMB, 0, (0, 10))
    for turn in (
        Shown("Wer bezahlt?", ANSWERED, BOMB, 99, (0, 10), (), real.fingerprint),
        Shown("Wer bezahlt?", ANSWERED, BOMB, 0, (0, 99999), (), real.fingerprint),
    ):
        html = client.post(
            "/ask", follow_redirects=True, data={"q": "Depot", "t": signed(client, turn)}
        ).get_data(as_text=True)
        assert hidden_turns(html)[0] == signed(client, Shown("Wer bezahlt?", GONE))[0]


def test_turn_tokens_cannot_inject_html(client):
    evil = '<script>alert(1)</script> "><img src=x onerror=alert(2)> 227er'
    answer = answered_turn(client, evil, BOMB, 2, (0, 10))
    answer = Shown(
        evil, ANSWERED, BOMB, 2, (0, 10), (("similar", "depot", None),), answer.fingerprint
    )
    tokens = [
        *signed(client, answer, *(Shown(evil, kind) for kind in (DECLINED, GONE, UNANSWERED))),
        f"{BOMB}.2.0.10_s.depot~{evil}",  # unsigned
    ]
    for response, new in (
        (client.post("/ask", follow_redirects=True, data={"q": evil, "t": tokens}), 1),
        (client.get("/ask", query_string={"t": tokens}), 0),
    ):
        html = response.get_data(as_text=True)
        assert response.status_code == 200
        assert "<script>alert(1)" not in html and "<img src=x" not in html
        assert f'data-turn="{BOMB}.2.0.10.{answer.fingerprint}_s.depot:' in html
        # each turn's token (data-turn and the hidden field) ends in the escaped question
        turns = len(turns_of(html))
        assert turns == len(tokens) + new
        assert html.count("~&lt;script&gt;alert(1)&lt;/script&gt; &#34;&gt;&lt;img") == 2 * turns


def test_old_links_with_plain_questions_show_them_without_answering_them_again(client, monkeypatch):
    asked = count_rankings(monkeypatch)
    response = client.get("/ask", query_string={"q": FOLLOWUP, "h": [FIRST]})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    first, second = turns_of(html)
    assert FIRST in first and "älteren Link" in first and '<blockquote class="passage"' not in first
    # the follow-up is still read with it, and is the only question answered
    assert f"Im Zusammenhang mit Ihrer Frage „{FIRST}“" in second
    assert '<blockquote class="passage"' in second
    assert asked == [FOLLOWUP]
    assert hidden_turns(html)[0] == signed(client, Shown(FIRST))[0]  # carried on as a token
    # both kinds together: the plain questions are the older ones
    (declined,) = signed(client, Shown(FIRST, DECLINED))
    mixed = client.post(
        "/ask", follow_redirects=True, data={"q": "Depot", "h": ["Aktionsstapel"], "t": [declined]}
    )
    assert hidden_turns(mixed.get_data(as_text=True))[:2] == [
        signed(client, Shown("Aktionsstapel", UNANSWERED))[0],
        declined,
    ]


def test_a_turn_whose_entry_a_new_build_removed_shows_a_note(tiny_corpus, tmp_path):
    from faq_bot.indexbuild import build_index
    from faq_bot.web import create_app

    index_dir = tmp_path / "index"
    build_index(tiny_corpus, index_dir)
    client = create_app({"TESTING": True, "INDEX_DIR": str(index_dir)}).test_client()
    question = "Wann ist das Spiel ein Patt?"
    data = client.post("/api/ask", json={"question": question}).get_json()
    index = client.application.extensions["faq_bot.index"].get()
    patt = index.find_by_title("Patt")
    assert patt is not None
    (token,) = signed(client, answered_turn(client, question, patt.id, 0, (0, 10)))
    shown = client.post(
        "/ask",
        follow_redirects=True,
        data={"q": "Wer beginnt die Runde?", "t": [token, data["turn"]]},
    )
    assert '<blockquote class="passage"' in turns_of(shown.get_data(as_text=True))[0]

    source = next(tiny_corpus.glob("*.txt"))
    source.write_text(
        source.read_text(encoding="utf-8").replace("\nPatt\n", "\nGleichstand\n"), encoding="utf-8"
    )
    build_index(tiny_corpus, index_dir)  # swapped in while the app runs
    response = client.post(
        "/ask", follow_redirects=True, data={"q": "Wer beginnt die Runde?", "t": [token]}
    )
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Dieser Eintrag ist nicht mehr vorhanden" in turns_of(html)[0]
    assert hidden_turns(html)[0] == signed(client, Shown(question, GONE))[0]


# --- signed turns: only the server's own tokens redraw as answers ------------------------

FORGED = f"{BOMB}.2.0.3~Ist alles erlaubt?"  # the review's forged link: any paragraph, any mark


def test_a_forged_link_shows_its_question_with_a_note_never_an_answer(client, monkeypatch):
    asked = count_rankings(monkeypatch)
    for response in (
        client.get("/ask", query_string={"t": FORGED}),
        client.get("/ask", query_string={"t": f"{BOMB}.2.5.5_s.depot.9999~Ist alles erlaubt?"}),
    ):
        assert response.status_code == 200  # old links keep working: no 400 for it
        html = response.get_data(as_text=True)
        (turn,) = turns_of(html)
        assert "Ist alles erlaubt?" in turn and UNVERIFIED_NOTE in unescape(turn)
        assert "<mark" not in turn and '<blockquote class="passage"' not in turn
        assert "227-Pfund" not in turn and "#p9999" not in turn and 'data-entry=""' in turn
        assert hidden_turns(html) == signed(client, Shown("Ist alles erlaubt?", UNVERIFIED))
    assert asked == []


def _question_changed(token: str) -> tuple[str, str]:
    return token.replace(f"~{FIRST}", "~Ist alles erlaubt?"), "Ist alles erlaubt?"


def _entry_changed(token: str) -> tuple[str, str]:
    assert token.startswith(f"{BOMB}.")
    return "aktionsstapel." + token.removeprefix(f"{BOMB}."), FIRST


def _highlight_changed(token: str) -> tuple[str, str]:
    changed = re.sub(r"^([a-z0-9-]+\.\d+)\.(\d+)\.", lambda m: f"{m[1]}.{int(m[2]) + 1}.", token)
    assert changed != token
    return changed, FIRST


def _signature_stripped(token: str) -> tuple[str, str]:
    return re.sub(r":[A-Za-z0-9_-]*~", "~", token, count=1), FIRST


@pytest.mark.parametrize(
    "alter", [_question_changed, _entry_changed, _highlight_changed, _signature_stripped]
)
def test_an_altered_turn_is_its_question_only_and_still_the_followups_history(client, alter):
    token, question = alter(client.post("/api/ask", json={"question": FIRST}).get_json()["turn"])
    response = client.post("/ask", follow_redirects=True, data={"q": FOLLOWUP, "t": [token]})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    first, second = turns_of(html)
    assert question in first and UNVERIFIED_NOTE in unescape(first)
    assert "<mark" not in first and '<blockquote class="passage"' not in first
    # the follow-up is read with the earlier question (without its entry), as the API
    # reads a history turn without an entry
    assert f"Im Zusammenhang mit Ihrer Frage „{question}“" in second
    history = [{"question": question, "entry": None}]
    data = client.post("/api/ask", json={"question": FOLLOWUP, "history": history}).get_json()
    assert hidden_turns(html) == [*signed(client, Shown(question, UNVERIFIED)), data["turn"]]


def test_a_passage_whose_text_a_new_build_changed_shows_the_gone_note(
    tiny_corpus, tmp_path, monkeypatch
):
    from faq_bot.indexbuild import build_index
    from faq_bot.web import create_app

    monkeypatch.delenv("FAQ_BOT_SECRET", raising=False)  # the index folder's secret file

    index_dir = tmp_path / "index"
    build_index(tiny_corpus, index_dir)
    client = create_app({"TESTING": True, "INDEX_DIR": str(index_dir)}).test_client()
    index = client.application.extensions["faq_bot.index"].get()
    patt = index.find_by_title("Patt")
    question = "Wann ist das Spiel ein Patt?"
    turn = answered_turn(client, question, patt.id, 0, (0, 40))
    (token,) = signed(client, turn)
    html = client.post(
        "/ask", follow_redirects=True, data={"q": "Wer beginnt?", "t": [token]}
    ).get_data(as_text=True)
    assert '<mark class="key">' in turns_of(html)[0] and hidden_turns(html)[0] == token

    # the same length, another text: the old offsets would mark the wrong words
    source = tiny_corpus / next(p.name for p in tiny_corpus.glob("*.txt"))
    text = source.read_text(encoding="utf-8")
    assert "nach der 10. Runde" in text
    source.write_text(text.replace("nach der 10. Runde", "nach der 12. Runde"), encoding="utf-8")
    secret = (index_dir / "secret").read_bytes()
    build_index(tiny_corpus, index_dir)  # swapped in while the app runs
    assert (index_dir / "secret").read_bytes() == secret  # kept: links stay valid
    index = client.application.extensions["faq_bot.index"].get()
    assert len(passage_text(index, index.entry(patt.id), 0)) >= 40  # offsets still "fit"
    html = client.post(
        "/ask", follow_redirects=True, data={"q": "Wer beginnt?", "t": [token]}
    ).get_data(as_text=True)
    first = turns_of(html)[0]
    assert "Dieser Eintrag ist nicht mehr vorhanden" in first and "<mark" not in first
    assert hidden_turns(html)[0] == signed(client, Shown(question, GONE))[0]


def test_the_secret_is_made_once_next_to_the_index_and_shared(tiny_index, monkeypatch):
    from faq_bot.web import create_app

    monkeypatch.delenv("FAQ_BOT_SECRET", raising=False)
    (tiny_index / "secret").unlink(missing_ok=True)  # as a fresh install has none
    question = "Wann ist das Spiel ein Patt?"

    def turn_of(client) -> str:
        return client.post("/api/ask", json={"question": question}).get_json()["turn"]

    # two workers (or a restart) on the same index sign alike: a shared link stays valid
    one, two = (create_app({"TESTING": True, "INDEX_DIR": str(tiny_index)}) for _ in range(2))
    token = turn_of(one.test_client())
    assert turn_of(two.test_client()) == token
    secret = tiny_index / "secret"
    assert secret.stat().st_mode & 0o777 == 0o600
    made = secret.read_bytes()
    restarted = create_app({"TESTING": True, "INDEX_DIR": str(tiny_index)}).test_client()
    assert turn_of(restarted) == token and secret.read_bytes() == made
    html = restarted.get("/ask", query_string={"t": token}).get_data(as_text=True)
    assert '<mark class="key">' in turns_of(html)[0]

    # FAQ_BOT_SECRET wins (several machines behind one proxy share it)
    monkeypatch.setenv("FAQ_BOT_SECRET", "s3cret-shared-by-every-machine-0123456789")
    other = create_app({"TESTING": True, "INDEX_DIR": str(tiny_index)}).test_client()
    assert turn_of(other) != token and secret.read_bytes() == made
    html = other.get("/ask", query_string={"t": token}).get_data(as_text=True)
    assert UNVERIFIED_NOTE in unescape(turns_of(html)[0])
    monkeypatch.setenv("FAQ_BOT_SECRET", "kurz")
    with pytest.raises(ValueError, match="FAQ_BOT_SECRET ist zu kurz"):
        create_app({"TESTING": True, "INDEX_DIR": str(tiny_index)})


def test_a_new_secret_changes_the_chat_pages_etag(tiny_index, monkeypatch):
    """A cached /ask page shows turns as checked under the old secret: revalidating it
    after the secret changed must render it again, not answer 304."""
    from faq_bot.web import create_app

    def tag_under(secret: str) -> str:
        monkeypatch.setenv("FAQ_BOT_SECRET", secret)
        client = create_app({"TESTING": True, "INDEX_DIR": str(tiny_index)}).test_client()
        token = client.post("/api/ask", json={"question": "Wann ist das Spiel ein Patt?"})
        page = client.get("/ask", query_string={"t": token.get_json()["turn"]})
        again = client.get(page.request.full_path, headers={"If-None-Match": page.headers["ETag"]})
        assert again.status_code == 304  # unchanged secret: still revalidates
        return client.get("/ask").headers["ETag"]

    one = tag_under("s3cret-shared-by-every-machine-0123456789")
    assert tag_under("s3cret-shared-by-every-machine-0123456789") == one
    assert tag_under("another-s3cret-after-a-key-rotation-98765") != one


_any_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=300)


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
@given(
    tokens=st.lists(_any_text | st.from_regex(TOKEN_PATTERN), max_size=3),
    at=st.integers(0, 10_000),
    char=st.characters(codec="utf-8"),
)
def test_no_turn_token_is_a_server_error(app, tokens, at, char):
    client = app.test_client()
    turn = answered_turn(client, FIRST, BOMB, 2, (0, 57))
    items = (("similar", "depot", None), ("link", "aktionsstapel", None))
    (real,) = signed(client, Shown(FIRST, ANSWERED, BOMB, 2, (0, 57), items, turn.fingerprint))
    at %= len(real)
    tokens = [*tokens, real[:at] + char + real[at + 1 :]]  # one near a real token
    for response in (
        client.get("/ask", query_string={"t": tokens}),
        client.post("/ask", follow_redirects=True, data={"q": "Depot", "t": tokens}),
    ):
        assert response.status_code in (200, 400), response.get_data(as_text=True)[-2000:]


@pytest.mark.parametrize("size", [70_000, 2 * 1024 * 1024])
def test_api_ask_413_names_its_own_limit_whatever_the_body_size(client, size):
    # the app-wide ceiling (werkzeug's, 1,000,000 bytes) is checked first on every body; /api/ask's
    # lower one must be the one named, or a client trimming to the first figure gets a second 413
    response = client.post(
        "/api/ask", data="{" + " " * (size - 2) + "}", content_type="application/json"
    )
    assert_error_shape(response, 413)
    assert f"{ASK_MAX_BODY} Bytes ({ASK_MAX_BODY // 1024} KB)" in response.get_json()["detail"]


@pytest.mark.parametrize("doc", ["how-faq", "uebersicht"])
def test_api_ask_scoped_to_a_document_answers_and_lists_only_from_it(client, doc):
    # "angreifen" is ruled in both documents: scoped, nothing comes from the other one
    data = client.post(
        "/api/ask", json={"question": "Wer darf in dieser Phase angreifen?", "doc": doc}
    ).get_json()
    assert data["answer"] is not None and data["answer"]["entry"]["doc"] == doc
    assert {s["doc"] for s in data["sources"]} == {doc}
    assert data["scope"] == doc


def test_api_ask_unscoped_answer_says_its_scope_is_null(client):
    data = client.post("/api/ask", json={"question": "Wer darf in dieser Phase angreifen?"})
    assert data.get_json()["scope"] is None


def test_api_ask_unknown_document_names_the_known_ones_in_german(client):
    response = client.post("/api/ask", json={"question": "Depot", "doc": "schach"})
    assert response.status_code == 400
    assert "Unbekanntes Dokument „schach“" in response.get_json()["detail"]
    assert "how-faq" in response.get_json()["detail"]


def test_chat_page_answers_from_the_chosen_document_and_keeps_the_choice(client):
    html = client.post(
        "/ask",
        follow_redirects=True,
        data={"q": "Wer darf in dieser Phase angreifen?", "doc": "uebersicht"},
    ).get_data(as_text=True)
    assert '<option value="uebersicht" selected>' in html
    entries = re.findall(r'data-entry="([^"]*)"', html)
    assert entries and entries[-1].startswith("uebersicht-")


def test_chat_page_declined_within_a_document_says_so_and_offers_all_documents(client):
    question = "Wie grundiere und bemale ich meine Miniaturen am besten?"
    html = client.post("/ask", follow_redirects=True, data={"q": question, "doc": "sow"}).get_data(
        as_text=True
    )
    assert "keine sichere Antwort" in html
    note = re.search(r'<p class="scope-link">(.*?)</p>', html, re.S)
    assert note is not None
    assert "Nur in „The Sails of War – Spielanleitung“ gesucht." in note.group(1)
    href = unescape(re.search(r'href="([^"]*)"', note.group(1)).group(1))
    assert href.startswith("/ask?") and "doc=" not in href
    assert parse_qs(urlsplit(href).query)["q"] == [question]
    # unscoped, nothing to widen
    html = client.post("/ask", follow_redirects=True, data={"q": question}).get_data(as_text=True)
    assert 'class="scope-link"' not in html
    # an earlier turn asked over all documents says nothing of the document chosen since
    token = re.search(r'data-turn="([^"]*)"', html).group(1)
    html = client.post(
        "/ask",
        follow_redirects=True,
        data={"q": "Wer darf in dieser Phase angreifen?", "t": token, "doc": "uebersicht"},
    ).get_data(as_text=True)
    assert 'class="scope-link"' not in html


def test_chat_page_too_long_question_is_a_german_400_that_keeps_it_to_shorten(client):
    question = "Wie ist das mit der Tarnung? " * 25  # 725 characters
    for response in (
        client.get("/ask?" + urlencode({"q": question})),
        client.post("/ask", follow_redirects=True, data={"q": question}),
    ):
        assert response.status_code == 400
        html = response.get_data(as_text=True)
        assert "Die Frage ist zu lang" in html
        form = re.search(r'<form class="chat-form"(.*?)</form>', html, re.S)
        assert form is not None, "the chat's own form, to ask again"
        value = re.search(r'name="q"[^>]*value="([^"]*)"', form.group(1))
        assert value is not None and unescape(value.group(1)).strip() == question.strip()


def test_chat_page_too_long_follow_up_comes_back_in_its_conversation_and_document(client):
    html = client.post(
        "/ask",
        follow_redirects=True,
        data={"q": "Wer darf in dieser Phase angreifen?", "doc": "uebersicht"},
    ).get_data(as_text=True)
    token = unescape(re.search(r'data-turn="([^"]*)"', html).group(1))
    too_long = "und danach? " * 60
    response = client.post(
        "/ask", follow_redirects=True, data={"q": too_long, "t": token, "doc": "uebersicht"}
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    form = re.search(r'<form class="chat-form"[^>]*method="post">(.*?)</form>', page, re.S)
    assert form is not None, "posted back to the chat, as its own form does"
    fields = {
        (name, unescape(value))
        for name, value in re.findall(r'name="(\w+)"[^>]*?value="([^"]*)"', form.group(1))
    }
    assert ("t", token) in fields
    assert '<option value="uebersicht" selected>' in page
    assert ("q", too_long.strip()) in fields
    assert "Wer darf in dieser Phase angreifen?" in unescape(page)  # the turn in view


def test_search_too_long_query_comes_back_with_its_document(client, app):
    query = "Bombe " * 100
    html = client.get("/search", query_string={"q": query, "doc": "how-faq"}).get_data(as_text=True)
    assert 'name="doc" value="how-faq"' in html
    assert f'value="{query.strip()}"' in html


def test_chat_page_unknown_document_is_a_german_400(client):
    response = client.get("/ask?" + urlencode({"q": "Depot", "doc": "schach"}))
    assert response.status_code == 400
    assert "Unbekanntes Dokument" in response.get_data(as_text=True)


def test_chat_form_post_redirects_to_the_conversation_it_answered(client, monkeypatch):
    # without JavaScript: reload sends nothing twice, Back is the question before, the
    # address can be shared; the page it leads to answers nothing again
    response = client.post("/ask", data={"q": FIRST})
    assert response.status_code == 303
    assert response.headers["Cache-Control"] == "no-store"
    location = urlsplit(response.headers["Location"])
    assert location.path == "/ask" and location.fragment == "neu"
    (token,) = parse_qs(location.query)["t"]
    assert token.endswith("~" + FIRST)
    import faq_bot.web.ask as web_ask

    monkeypatch.setattr(web_ask, "answer", None)  # nothing is answered from here on
    page = client.get(f"{location.path}?{location.query}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert hidden_turns(html) == [token]
    assert '<li class="turn" id="neu"' in html and "<mark" in html


def test_a_blank_follow_up_without_javascript_keeps_the_conversation_in_view(client):
    """A phone review: "   " sent as a follow-up without JavaScript gave a bare error page
    (the conversation only in a hidden field, the document choice gone); the chat page
    shows the turns again with the error, still a 400."""
    first = client.post("/ask", data={"q": FIRST, "doc": "how-faq"})
    (token,) = parse_qs(urlsplit(first.headers["Location"]).query)["t"]
    response = client.post("/ask", data={"q": "   ", "t": token, "doc": "how-faq"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert hidden_turns(html) == [token]
    assert FIRST in unescape(html) and "<mark" in html  # the answer shown again
    error = re.search(
        r'<div class="chat-error" id="chat-error" role="alert">(.*?)</div>', html, re.S
    )
    assert error and "Bitte eine Frage eingeben." in error[1]
    assert '<option value="how-faq" selected>' in html


def test_an_empty_follow_up_without_javascript_lands_at_the_error_tied_to_the_field(client):
    """An accessibility review: the form posts to /ask#neu, and #neu was the earlier answer,
    so the page landed there and the error stood below, away from the focus; the field was
    not marked. The error page gives #neu to the error, and the field names it."""
    first = client.post("/ask", data={"q": FIRST})
    (token,) = parse_qs(urlsplit(first.headers["Location"]).query)["t"]
    html = client.post("/ask", data={"q": "   ", "t": token}).get_data(as_text=True)
    assert html.count('id="neu"') == 1
    assert re.search(r'id="neu"[^>]*>\s*<div class="chat-error" id="chat-error"', html)
    field = re.search(r'<input id="chat-q"[^>]*>', html)[0]
    assert 'aria-invalid="true"' in field and 'aria-describedby="chat-error-text"' in field
    answered = client.get(first.headers["Location"]).get_data(as_text=True)
    assert "aria-invalid" not in re.search(r'<input id="chat-q"[^>]*>', answered)[0]


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize(
    ("q", "said"),
    [
        ("\u200b", "Bitte eine Frage eingeben."),
        ("\u00ad", "Bitte eine Frage eingeben."),
        ("\ufeff", "Bitte eine Frage eingeben."),
        ("\x00", "Bitte eine Frage eingeben."),
        (" \x01 ", "Bitte eine Frage eingeben."),
        ("???", "In der Frage steht kein Wort"),
        ("\u3164", "In der Frage steht kein Wort"),
        ("x" * 700, "Die Frage ist zu lang"),
    ],
)
def test_a_question_that_is_none_keeps_the_conversation_in_view(client, method, q, said):
    """API probes: a link to the chat with earlier turns and a q of invisible or control
    characters alone („q=%E2%80%8B“), then one with no word („???“, a Hangul filler) or too
    long, gave a bare error page, the conversation gone."""
    first = client.post("/ask", data={"q": FIRST})
    (token,) = parse_qs(urlsplit(first.headers["Location"]).query)["t"]
    if method == "get":
        response = client.get("/ask", query_string={"t": token, "q": q})
    else:
        response = client.post("/ask", data={"t": token, "q": q})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert hidden_turns(html) == [token]
    assert FIRST in unescape(html)
    error = re.search(
        r'<div class="chat-error" id="chat-error" role="alert">(.*?)</div>', html, re.S
    )
    assert error and said in error[1]


def test_ask_page_asked_with_nothing_typed_says_so(client):
    """A phone review: „Fragen“ on the start page with an empty field opened /ask?q= as an
    empty chat with no word why; it says „Bitte eine Frage eingeben.“ as the chat's own form
    does (a 400), and keeps the document chosen. /ask without q is the chat's start."""
    response = client.get("/ask", query_string={"q": "  ", "doc": "how-faq"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    error = re.search(
        r'<div class="chat-error" id="chat-error" role="alert">(.*?)</div>', html, re.S
    )
    assert error and "Bitte eine Frage eingeben." in error[1]
    assert '<option value="how-faq" selected>' in html
    start = client.get("/ask")
    assert start.status_code == 200
    assert '<div class="chat-error" id="chat-error" role="alert" hidden>' in start.get_data(
        as_text=True
    )


def test_chat_form_post_in_one_document_keeps_it_after_the_redirect(client):
    question = "Wie viele Drachen darf ich höchstens haben?"
    response = client.post("/ask", data={"q": question, "doc": "how-faq"})
    assert response.status_code == 303
    assert parse_qs(urlsplit(response.headers["Location"]).query)["doc"] == ["how-faq"]
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert '<option value="how-faq" selected>' in html
    assert "Nur in „" in unescape(html)  # said on the turn shown again from its token


def test_chat_form_post_shows_the_page_itself_when_its_turn_does_not_fit_an_address(
    client, monkeypatch
):
    import faq_bot.web.ask as web_ask

    monkeypatch.setattr(web_ask, "REDIRECT_CHARS", 10)
    response = client.post("/ask", data={"q": FIRST})
    assert response.status_code == 200
    assert '<li class="turn" id="neu"' in response.get_data(as_text=True)


def newest_turn(html: str) -> str:
    start = html.index('<li class="turn" id="neu"')
    return html[start : html.index("</li>", start)]


@pytest.mark.parametrize(
    ("question", "doc", "earlier"),
    [
        (FIRST, None, []),
        ("Wie viele Karten hat ein Depot mindestns?", None, []),  # with a suggestion
        ("Ab welchem Alter ist das Spiel geeignet?", None, []),  # declined
        ("Wie viele Drachen darf ich höchstens haben?", "how-faq", []),  # declined in one
        ("Wer darf in dieser Phase angreifen?", "uebersicht", []),
        (FOLLOWUP, None, [FIRST]),
    ],
)
def test_the_redirected_page_shows_the_new_turn_as_the_post_would_have(
    client, monkeypatch, question, doc, earlier
):
    import faq_bot.web.ask as web_ask

    tokens = []
    for before in earlier:
        tokens = hidden_turns(
            client.post("/ask", follow_redirects=True, data={"q": before}).get_data(as_text=True)
        )
    fields = {"q": question, "t": tokens, **({"doc": doc} if doc else {})}
    redirected = client.post("/ask", follow_redirects=True, data=fields).get_data(as_text=True)
    monkeypatch.setattr(web_ask, "REDIRECT_CHARS", 10)  # the post shows the page itself
    direct = client.post("/ask", data=fields)
    assert direct.status_code == 200
    assert newest_turn(redirected) == newest_turn(direct.get_data(as_text=True))


def test_an_address_whose_document_a_new_build_dropped_says_so_in_german(client):
    # the address names the document as a limit: one the index lacks is the documented 400
    response = client.post("/ask", data={"q": FIRST, "doc": "how-faq"})
    location = response.headers["Location"].replace("doc=how-faq", "doc=entfernt")
    page = client.get(location)
    assert page.status_code == 400
    html = unescape(page.get_data(as_text=True))
    assert "Unbekanntes Dokument „entfernt“" in html
    # its form asks again over every document (it kept doc=entfernt: the same 400 again)
    form = re.search(r'<form class="search-form".*?</form>', html, re.S)[0]
    assert 'name="doc"' not in form and 'name="t"' in form


def test_the_redirect_of_a_form_post_says_where_the_answer_is(client):
    response = client.post("/ask", data={"q": FIRST})
    assert response.status_code == 303
    assert "Weiter zur Antwort" in response.get_data(as_text=True)


def _rendered_turn(client, text: str, key: str) -> str:
    """The chat turn of a confident answer whose paragraph is `text` and whose key sentence is
    `key`, as the page renders it (the answer JSON as `Answer.to_json` builds it)."""
    from faq_bot.chat.result import EXCERPT_CHARS
    from faq_bot.text import sentence_window

    start = text.index(key)
    end = start + len(key)
    low, high = sentence_window(text, start, end, EXCERPT_CHARS)
    answer = {
        "question": "Wie viele?",
        "confident": True,
        "message": "Das steht unter „X“.",
        "answer": {
            "text": text,
            "paragraph": 0,
            "url": "/entry/x#p0",
            "highlight": {"text": key, "start": start, "end": end},
            "excerpt": {"start": low, "end": high},
            "entry": {"id": "x"},
            "title": "X",
            "doc_title": "D",
            "date_text": None,
            "citation": "„X“",
        },
        "related": [],
        "turn": "",
    }
    app = client.application
    with app.test_request_context("/ask"):
        macro = app.jinja_env.get_template("ask/_turn.html").module.chat_turn
        return str(macro(answer, []))


def test_a_long_paragraph_shows_the_sentences_around_its_key_sentence_first(client):
    filler = " ".join(f"Satz {i} erklärt eine Nebensache ausführlich." for i in range(40))
    key = "Mit 15 Siegpunkten ist das Spiel gewonnen."
    after = " ".join(f"Danach {i} folgt eine weitere Nebensache." for i in range(40))
    html = _rendered_turn(client, f"{filler} {key} {after}", key)
    shown, whole = html.split('<details class="passage-whole">')
    assert f'<mark class="key">{key}</mark>' in shown
    before = shown.split('<mark class="key">')[0]
    assert before.count("Satz ") <= 5 and "Satz 0 " not in shown  # the key sentence near the top
    assert "… Satz" in shown and "Danach 0 folgt" in shown and shown.rstrip().count(" …</p>") == 1
    assert "Ganzen Absatz lesen" in whole and "Satz 0 erklärt" in whole and key in whole


def test_a_short_paragraph_is_shown_whole_without_a_second_copy(client):
    key = "Mit 15 Siegpunkten ist das Spiel gewonnen."
    html = _rendered_turn(client, f"Vorher. {key} Danach.", key)
    assert "passage-whole" not in html and "…" not in html
    assert f'<p>Vorher. <mark class="key">{key}</mark> Danach.</p>' in html


def test_a_followup_is_looked_up_in_the_search_with_its_earlier_question(client):
    data = client.post("/api/ask", json={"question": FOLLOWUP, "history": [FIRST]}).get_json()
    assert data["context"] == FIRST
    assert data["search_query"] == f"{FIRST} {FOLLOWUP}"
    alone = client.post("/api/ask", json={"question": FIRST}).get_json()
    assert alone["search_query"] == FIRST


def test_a_declined_followup_offers_the_search_with_its_earlier_question(client):
    answer = {
        "question": "und mit einem Fahrzeug?",
        "confident": False,
        "message": "Dazu habe ich keine sichere Antwort gefunden.",
        "answer": None,
        "context": "Darf ein Panzer Truppen transportieren?",
        "search_query": "Darf ein Panzer Truppen transportieren? und mit einem Fahrzeug?",
        "related": [],
        "turn": "",
    }
    app = client.application
    with app.test_request_context("/ask"):
        html = str(app.jinja_env.get_template("ask/_turn.html").module.chat_turn(answer, []))
    link = re.search(r'<p class="search-link"><a href="([^"]+)">([^<]+)</a>', html)
    assert link is not None
    query = parse_qs(urlsplit(unescape(link.group(1))).query)["q"]
    assert query == [answer["search_query"]]
    assert "Panzer" in unescape(link.group(2))


@pytest.mark.parametrize(
    "cut", [0, 1, 20, -1], ids=["after-field-name", "t-only", "in-entry", "before-question"]
)
def test_a_shared_link_cut_inside_its_last_turn_shows_the_turns_before_and_says_so(client, cut):
    pages = converse(client, [FIRST, "Was ist der Aktionsstapel?"])
    first, second = hidden_turns(pages[-1])
    head = second.partition("~")[0]
    cut_token = head[: cut if cut >= 0 else len(head)]
    response = client.get("/ask", query_string={"t": [first, cut_token]})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Der Link war unvollständig" in html
    assert turns_of(html) == turns_of(pages[0])  # the first turn, as it was shown
    # a turn cut inside its question still parses: shown as its question only, as before
    whole = client.get("/ask", query_string={"t": [first, second[:-3]]})
    assert whole.status_code == 200 and "Der Link war unvollständig" not in whole.text


def test_a_form_post_with_a_cut_turn_is_still_a_400(client):
    (first,) = hidden_turns(converse(client, [FIRST])[0])
    response = client.post("/ask", data={"q": "Depot", "t": [first, first.partition("~")[0]]})
    assert response.status_code == 400
    assert "Verlauf, Eintrag 2:" in unescape(response.get_data(as_text=True))


def test_the_question_fields_cannot_hold_more_than_the_server_takes(client, app):
    limits = {"chat-q": MAX_QUESTION_LENGTH, "q": app.config["MAX_QUERY_LENGTH"]}
    pages = ["/", "/ask", f"/ask?q={quote_plus(FIRST)}", "/search?q=Depot", "/docs/how-faq"]
    seen = set()
    for url in pages:
        html = client.get(url, follow_redirects=True).get_data(as_text=True)
        for field in re.findall(r'<input id="(chat-q|q|header-q)"[^>]*>', html, re.S):
            seen.add(field)
        for tag in re.findall(r'<input id="(?:chat-q|q|header-q)"[^>]*>', html, re.S):
            maxlength = re.search(r'maxlength="(\d+)"', tag)
            assert maxlength, (url, tag)
            name = "chat-q" if 'id="chat-q"' in tag else "q"
            assert int(maxlength[1]) <= limits[name], (url, tag)
    assert {"chat-q", "q", "header-q"} <= seen
    longest = "Wer bezahlt die 227er? " + "x" * (MAX_QUESTION_LENGTH - 23)
    assert len(longest) == MAX_QUESTION_LENGTH
    assert client.post("/ask", data={"q": longest}).status_code == 303


def test_a_link_cut_inside_a_percent_escape_of_its_last_turn_shows_the_turns_before(client):
    # chat.js writes ":" as %3A: a link cut after "%3" ends in half an escape
    pages = converse(client, [FIRST, "Was ist der Aktionsstapel?"])
    first, second = hidden_turns(pages[-1])
    head = second.partition(":")[0]
    for tail in ("%3", "%"):
        url = f"/ask?t={quote_plus(first)}&t={quote_plus(head)}{tail}"
        response = client.get(url)
        assert response.status_code == 200, tail
        assert "Der Link war unvollständig" in response.get_data(as_text=True)


def test_a_link_cut_right_after_the_tilde_or_the_field_name_shows_the_turns_before(client):
    """A QA review: cut right after "~" (the question gone) or after "&t" (its "=" gone),
    the link was a 400 ("Bitte eine Frage eingeben", "es fehlt „~“")."""
    pages = converse(client, [FIRST, "Was ist der Aktionsstapel?"])
    first, second = hidden_turns(pages[-1])
    head = second.partition("~")[0]
    for url in (
        f"/ask?t={quote_plus(first)}&t={quote_plus(head)}~",
        f"/ask?t={quote_plus(first)}&t",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        assert "Der Link war unvollständig" in html
        assert turns_of(html) == turns_of(pages[0])


def test_a_link_cut_right_after_its_only_turn_field_name_is_the_empty_chat_saying_so(client):
    response = client.get("/ask?t=")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Der Link war unvollständig" in html and turns_of(html) == []


def test_an_empty_or_not_last_turn_field_is_no_cut_link(client):
    response = client.get("/ask?t=&q=Depot")  # nothing was cut: the t field is not last
    assert "Der Link war unvollständig" not in response.get_data(as_text=True)
    (first,) = hidden_turns(converse(client, [FIRST])[0])
    head = first.partition("~")[0]
    response = client.get(f"/ask?t={quote_plus(head)}&doc=how-faq")  # not the last field
    assert response.status_code == 400
    assert "Verlauf, Eintrag 1:" in unescape(response.get_data(as_text=True))


def test_the_page_without_javascript_says_when_an_answer_comes_from_another_game(client):
    """The note was only in the fresh answer: the page after the redirect draws every turn
    again from its token and lost it."""
    first = hidden_turns(
        client.post(
            "/ask", follow_redirects=True, data={"q": "Was ist der Aktionsstapel?"}
        ).get_data(as_text=True)
    )
    question = "Wann endet das Spiel mit einem Patt nach der 10. Runde?"
    html = client.post("/ask", follow_redirects=True, data={"q": question, "t": first}).get_data(
        as_text=True
    )
    log = html[html.index('<ol class="chat-log"') :]
    assert log.count("anderes Spiel: Diese Regel gilt für Tabletop-Skirmish, die vorige") == 1
    assert log.index("anderes Spiel") > log.index(question)


def test_a_followup_names_the_earlier_question_in_the_asker_s_words(client):
    typed = "Wer bezahlt, wenn meine 227er gekontert wird, gibts da ne Regel?"
    first = hidden_turns(
        client.post("/ask", follow_redirects=True, data={"q": typed}).get_data(as_text=True)
    )
    html = client.post("/ask", follow_redirects=True, data={"q": FOLLOWUP, "t": first}).get_data(
        as_text=True
    )
    assert f"Im Zusammenhang mit Ihrer Frage „{typed}“" in unescape(html)
    api = client.post("/api/ask", json={"question": FOLLOWUP, "history": [typed]}).get_json()
    assert api["context"] == typed


def test_a_preview_of_an_answer_without_a_paragraph_link_still_names_its_source():
    from faq_bot.web.ask import preview

    turn = {
        "answer": {
            "text": "Erst zahlt der Angreifer. Dann der Verteidiger.",
            "highlight": {"text": ""},
            "citation": "„Endphase“, Absatz 9 – HoW FAQ. ",
            "paragraph_url": None,
        },
        "message": "",
    }
    assert preview(turn) == "Erst zahlt der Angreifer. Quelle: „Endphase“, Absatz 9 – HoW FAQ."


# --- a declined answer offers the search's first hits ---------------------------------

SEARCHED = "Wann ist das Spiel vorbei?"  # declined; its search finds entries it does not list


def test_api_ask_declined_answer_carries_the_searchs_first_hits(client):
    from faq_bot.search import search

    data = client.post("/api/ask", json={"question": SEARCHED}).get_json()
    assert data["confident"] is False
    index = client.application.extensions["faq_bot.index"].get()
    listed = {r["id"] for r in data["related"]}
    hits = search(index, data["search_query"], n=3, mode=None).hits
    assert [s["id"] for s in data["search_first"]] == [h.id for h in hits if h.id not in listed]
    assert data["search_first"]
    for item in data["search_first"]:
        assert set(item) == {"id", "title", "url", "doc_title", "paragraph", "matched"}
        assert item["url"].startswith(f"/entry/{item['id']}")
    assert client.post("/api/ask", json={"question": FIRST}).get_json()["search_first"] == []


def test_api_ask_search_hits_are_described_in_openapi(client):
    spec = client.get("/api/openapi.json").get_json()
    field = spec["components"]["schemas"]["Answer"]["properties"]["search_first"]
    assert field["type"] == "array" and "Suche" in field["description"]
    assert set(field["items"]["properties"]) == {
        "id",
        "title",
        "url",
        "doc_title",
        "paragraph",
        "matched",
    }
    assert field["items"]["required"] == ["id", "title", "url", "doc_title"]


def search_first_of(html: str) -> str | None:
    """The "Die Suche findet außerdem/zuerst:" block of the newest turn (heading and list),
    or None."""
    found = re.search(
        r'<p class="related-h">Die Suche findet (?:außerdem|zuerst):</p>\s*'
        r'<ul class="related search-first">'
        r"(.*?)</ul>",
        turns_of(html)[-1],
        re.S,
    )
    return found.group(1) if found else None


def test_chat_page_says_which_words_no_document_mentions_and_again_from_the_token(client):
    """A QA review: a decline never said why. The page says which of the question's words
    no document mentions, and says it again when the turn is shown from its token."""
    question = "Wie funktioniert die Rochade beim Schach?"
    said = "„Rochade“ und „Schach“ kommen in keinem der Dokumente vor."
    page = client.post("/ask", follow_redirects=True, data={"q": question}).get_data(as_text=True)
    message = re.search(r'<p class="turn-message">(.*?)</p>', turns_of(page)[-1], re.S)
    assert message and said in unescape(message[1])
    again = client.get("/ask", query_string={"t": hidden_turns(page)}).get_data(as_text=True)
    assert turns_of(again)[-1] == turns_of(page)[-1]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        # slang spelled out („Kannste“ → „kannst du“), full-width letters read: as searched
        ("Kannste Rochade spielen?", "„Rochade“ kommt in keinem der Dokumente vor."),
        ("Wie geht die Ｒｏｃｈａｄｅ?", "„Rochade“ kommt in keinem der Dokumente vor."),
        # a greeting names nothing the question asks about (a code review)
        ("Hallo Leute, wie funktioniert die Rochade?", "„Rochade“ kommt in keinem"),
    ],
)
def test_the_words_no_document_mentions_read_alike_in_the_api_and_on_the_page(
    client, question, said
):
    """A code review: the API read the searched question, a page shown from its token the
    question as typed, so „Kannste“ was named on one and not the other."""
    data = client.post("/api/ask", json={"question": question}).get_json()
    assert not data["confident"] and said in data["message"]
    page = client.post("/ask", follow_redirects=True, data={"q": question}).get_data(as_text=True)
    message = re.search(r'<p class="turn-message">(.*?)</p>', turns_of(page)[-1], re.S)
    assert message and unescape(message[1]) == data["message"]


def test_chat_page_offers_a_declined_follow_ups_earlier_entry(client):
    """Without JavaScript too: a question that finds nothing after an answer lists the entry
    it was about."""
    first = "Was passiert, wenn ich eine 227er auf die Radarstation meines Gegners spiele?"
    page = client.post("/ask", follow_redirects=True, data={"q": first}).get_data(as_text=True)
    assert 'data-entry="227-pfund-bombe-basisausbau"' in page  # answered from the bomb
    html = client.post(
        "/ask", follow_redirects=True, data={"q": "Ist das fair?", "t": hidden_turns(page)}
    ).get_data(as_text=True)
    turn = turns_of(html)[-1]
    found = re.search(
        r'<p class="related-h">Zuletzt ging es um:</p>\s*<ul class="related earlier">(.*?)</ul>',
        turn,
        re.S,
    )
    assert found and 'href="/entry/227-pfund-bombe-basisausbau"' in found[1]


def test_chat_page_offers_a_question_read_in_context_as_a_new_question(client):
    """A phone review: a new question read as a follow-up of the last one was declined in
    its context (answered alone); the context line offers it as a new question, in a
    conversation of its own (no earlier turns), with the same document filter."""
    first = "Was passiert, wenn ich eine 227er auf die Radarstation meines Gegners spiele?"
    page = client.post("/ask", follow_redirects=True, data={"q": first}).get_data(as_text=True)
    html = client.post(
        "/ask", follow_redirects=True, data={"q": "und warum?", "t": hidden_turns(page)}
    ).get_data(as_text=True)
    found = re.search(r'<p class="turn-context">(.*?)</p>', turns_of(html)[-1], re.S)
    assert found and "Im Zusammenhang mit Ihrer Frage" in found[1]
    link = re.search(r'<a href="([^"]+)"[^>]*>Als neue Frage stellen</a>', found[1])
    assert link, found[1]
    parts = urlsplit(unescape(link[1]))
    assert parts.path == "/ask" and parse_qs(parts.query) == {"q": ["und warum?"]}
    assert parts.fragment == "neu"
    alone = turns_of(
        client.post("/ask", follow_redirects=True, data={"q": first}).get_data(as_text=True)
    )[-1]
    assert 'class="turn-context"' not in alone  # a first question has no such line


def test_chat_page_offers_the_searchs_first_hits_under_the_search_link(client):
    data = client.post("/api/ask", json={"question": SEARCHED}).get_json()
    html = client.post("/ask", follow_redirects=True, data={"q": SEARCHED}).get_data(as_text=True)
    turn = turns_of(html)[-1]
    hits = search_first_of(html)
    assert hits is not None
    # besides the closest entries the message lists (the hits leave those out)
    assert data["related"]
    assert turn.index('class="search-link"') < turn.index("Die Suche findet außerdem:")
    links = re.findall(
        r'<li><a href="([^"]+)">([^<]+)</a> <span class="doc-meta">· ([^<]+)</span>', hits
    )
    assert [(unescape(h), unescape(t), unescape(d)) for h, t, d in links] == [
        (s["url"], s["title"], s["doc_title"]) for s in data["search_first"]
    ]
    answered = client.post("/ask", follow_redirects=True, data={"q": FIRST}).get_data(as_text=True)
    assert "Die Suche findet" not in answered


def test_chat_page_shows_the_search_hits_again_from_the_turn_token(client, monkeypatch):
    pages = converse(client, [SEARCHED, "Wie lange dauert eine Partie?", "und zu zweit?"])
    first = turns_of(pages[0])[-1]
    assert "Die Suche findet außerdem:" in first
    assert search_first_of(pages[2]) is not None  # the follow-up's, searched with its question
    items_module = importlib.import_module("faq_bot.chat.items")

    monkeypatch.setattr(items_module, "search", None)  # the earlier turns: no search
    again = client.get("/ask", query_string={"t": hidden_turns(pages[2])}).get_data(as_text=True)
    assert turns_of(again) == [turns_of(page)[-1] for page in pages]


def test_chat_page_escapes_the_titles_of_search_hits(client, evil_client, monkeypatch):
    answer = {
        "question": "Was nun?",
        "confident": False,
        "message": "Dazu habe ich keine sichere Antwort gefunden.",
        "answer": None,
        "search_query": "Was nun?",
        "related": [],
        "search_first": [
            {
                "id": "x",
                "title": '<script>alert("t")</script>',
                "url": "/entry/x",
                "doc_title": "<b>Dok</b>",
                "paragraph": None,
            }
        ],
        "turn": "",
    }
    app = client.application
    with app.test_request_context("/ask"):
        html = str(app.jinja_env.get_template("ask/_turn.html").module.chat_turn(answer, []))
    assert "<script>" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(&#34;t&#34;)&lt;/script&gt;" in html
    # the hostile corpus's own titles, offered as search hits (nothing listed as closest)
    answer_module = importlib.import_module("faq_bot.chat.answer")  # the module

    monkeypatch.setattr(answer_module, "related_entries", lambda *args: [])
    data = evil_client.post("/api/ask", json={"question": "Alpha Beta Zug Text"}).get_json()
    assert not data["confident"] and data["search_first"]
    page = evil_client.get("/ask", query_string={"q": "Alpha Beta Zug Text"}).get_data(as_text=True)
    assert "Die Suche findet zuerst:" in page
    assert "<script>alert" not in page and "<b>FAQ</b>" not in page


TABLE_QUESTION = "Was kostet ein Kriegsschiff?"  # answered by The Sails of War's ship table
SHIP_HEADER = "<tr><th>Schiffstyp</th><th>Bewegung</th><th>Kosten</th><th>Unterhalt</th></tr>"
WARSHIP_ROW = "<tr><td>Kriegsschiff</td><td>3</td><td>6 H oder E</td><td>1 H oder E</td></tr>"


def _passage_table(html: str) -> str:
    found = re.search(
        r'<blockquote class="passage passage-table"[^>]*>(.*?)</blockquote>', html, re.S
    )
    assert found, "no table answer"
    return re.sub(r">\s+<", "><", found.group(1))


def test_a_table_answer_shows_as_a_table_not_its_cells_run_together(client):
    """A QA review: "Schiffstyp Bewegung Kosten Unterhalt Handelsschiff 2 4 H oder E …" on a
    phone is easily misread."""
    html = client.get("/ask", query_string={"q": TABLE_QUESTION}).get_data(as_text=True)
    table = _passage_table(html)
    assert SHIP_HEADER in table and WARSHIP_ROW in table
    assert "Ganzen Absatz lesen" not in html  # the table is the whole paragraph
    # shown again from its turn token after the next question: still a table
    (token,) = hidden_turns(html)
    again = client.post(
        "/ask", follow_redirects=True, data={"q": "Was ist ein Aktionsstapel?", "t": token}
    ).get_data(as_text=True)
    assert WARSHIP_ROW in _passage_table(again)


WOUND_QUESTION = "Was muss ich beim Verwundungswurf würfeln, wenn S gleich W ist?"


def test_a_paragraph_of_prose_and_a_table_shows_the_prose_then_the_table(client):
    """A QA review: the wound roll's table (an HTML table after a sentence, the quick-
    reference sheet's) ran its cells together after the sentence in the chat."""
    found = client.post("/api/ask", json={"question": WOUND_QUESTION}).get_json()["answer"]
    assert found["table"][0] == ["S der Attacke vs W des Ziels", "W6-Ergebnis"]
    assert ["S ist gleich W", "4+"] in found["table"]
    assert found["table_lead"].startswith("Wirf einen W6 für jeden erfolgreichen Treffer")
    assert found["table_lead"].endswith("wird das Ziel verwundet.")
    html = client.get("/ask", query_string={"q": WOUND_QUESTION}).get_data(as_text=True)
    table = _passage_table(html)
    assert table.strip().startswith("<p>Wirf einen W6")
    assert table.index("</p>") < table.index("<table>")
    assert "<tr><td>S ist gleich W</td><td>4+</td></tr>" in table
    assert (
        client.post("/api/ask", json={"question": TABLE_QUESTION}).get_json()["answer"][
            "table_lead"
        ]
        is None
    )  # a table alone in its paragraph has no prose before it


def test_api_ask_gives_a_table_answers_rows_header_first(client):
    found = client.post("/api/ask", json={"question": TABLE_QUESTION}).get_json()["answer"]
    assert found["table"][0] == ["Schiffstyp", "Bewegung", "Kosten", "Unterhalt"]
    assert ["Kriegsschiff", "3", "6 H oder E", "1 H oder E"] in found["table"]
    other = client.post("/api/ask", json={"question": FIRST}).get_json()["answer"]
    assert other["table"] is None


def _rest_link(html: str) -> tuple[str, str]:
    found = re.search(r'<p class="passage-rest"><a href="([^"]+)">([^<]+)</a></p>', html)
    assert found, "no line for the list items left out"
    return found.group(1), found.group(2)


def test_a_list_shown_in_part_says_how_many_items_it_leaves_out_and_links_the_first(client, index):
    """A QA review: "Welche Phasen hat eine Spielrunde?" (fifteen phases) showed the
    lead-in and the first phase, as if that were the whole list. With the embedder a list
    too long for an answer shows the items that fit (tests/test_chat_passage.py) and says
    what it leaves out; here a real answer's passage as such a list shows it."""
    result = answer(index, "Aktionsstapel")
    assert result.confident and result.passage is not None and result.passage.rest is None
    assert result.to_json()["answer"]["rest"] is None  # an answer that shows all of it
    entry = result.passage.entry
    cut = dataclasses.replace(result, passage=dataclasses.replace(result.passage, rest=(3, 6)))
    rest = cut.to_json()["answer"]["rest"]
    assert rest == {
        "count": 6,
        "url": f"/entry/{entry}#p3",
        "label": "… und 6 weitere Punkte der Liste im Eintrag",
    }
    one = dataclasses.replace(result, passage=dataclasses.replace(result.passage, rest=(3, 1)))
    assert one.to_json()["answer"]["rest"]["label"] == (
        "… und 1 weiterer Punkt der Liste im Eintrag"
    )
    shown = {**cut.to_json(), "turn": ""}
    app = client.application
    with app.test_request_context("/ask"):
        html = str(app.jinja_env.get_template("ask/_turn.html").module.chat_turn(shown, []))
    assert _rest_link(html) == (rest["url"], rest["label"])
    assert html.index("</blockquote>") < html.index('class="passage-rest"')  # after the list
    lines = format_answer(cut.to_json()).splitlines()
    assert f"  {rest['label']}: {rest['url']}" in lines  # `faq-bot ask` says so too


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: t[:-1],  # the question's "?" left out of the link
        lambda t: t + ".",  # the sentence's full stop taken in
        lambda t: t + ")",
        lambda t: t[:-1] + ".",
        lambda t: t + "\u201c",  # a closing German quote
        lambda t: t + "\u200b",  # a zero-width space a copy brought along
    ],
    ids=["lost-question-mark", "full-stop", "bracket", "mark-for-stop", "quote", "zwsp"],
)
def test_a_shared_link_whose_end_a_forum_changed_still_shows_the_answer(client, damage):
    """A link review: a forum's autolink (GitHub's Markdown among them) leaves a link's final
    "?" out and takes a "." or ")" after it in; a chat link ends in its last question, so
    the answer was replaced by „Diese frühere Antwort ließ sich nicht prüfen“."""
    page = converse(client, [FIRST])[0]
    (token,) = hidden_turns(page)
    assert token.endswith("?")
    html = client.get("/ask", query_string={"t": [damage(token)]}).get_data(as_text=True)
    assert "ließ sich nicht prüfen" not in html
    assert turns_of(html) == turns_of(page)


def test_a_shared_link_with_another_question_is_still_not_verified(client):
    page = converse(client, [FIRST])[0]
    (token,) = hidden_turns(page)
    for altered in (token[:-2] + "?", token.replace("227er", "228er"), token + "x"):
        html = client.get("/ask", query_string={"t": [altered]}).get_data(as_text=True)
        assert "ließ sich nicht prüfen" in html, altered


def test_the_chats_redirect_escapes_the_questions_own_question_mark(client):
    """An autolink ends a link before a final "?", not before "%3F"."""
    response = client.post("/ask", data={"q": FIRST})
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.count("?") == 1 and "%3F#neu" in location
