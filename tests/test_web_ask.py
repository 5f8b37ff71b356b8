"""The chatbot on the web: POST /api/ask and the chat page /ask (without JavaScript)."""

from __future__ import annotations

import re

import pytest
from test_error_shape import assert_error_shape

from faq_bot.chat import MAX_HISTORY

FIRST = "Wer bezahlt, wenn meine 227er gekontert wird?"
FOLLOWUP = "und wenn er eine Feuerwehr hat?"


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
    assert answer["citation"].endswith("http://localhost" + answer["url"])  # absolute
    assert data["sources"][0]["id"] == answer["entry"]["id"] and "text" in data["sources"][0]
    assert data["related"] and data["message"]
    assert data["check_url"].startswith("/check?s=")
    assert data["suggestion"] is None and data["followup"] is False


def test_api_ask_followup_with_history_objects(client):
    first = client.post("/api/ask", json={"question": FIRST}).get_json()
    history = [{"question": first["question"], "entry": first["answer"]["entry"]["id"]}]
    data = client.post("/api/ask", json={"question": FOLLOWUP, "history": history}).get_json()
    assert data["followup"] is True
    assert data["context"] == first["question"]
    assert data["answer"]["entry"]["id"] == "feuerwehr-basisausbau"


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
        'action="/ask#neu" method="post">'
    ) in html
    assert 'name="q"' in html and 'type="hidden"' not in html
    assert 'src="/static/chat.js?v=' in html


def test_ask_page_get_answers_with_highlight_and_anchor(client):
    html = client.get("/ask", query_string={"q": FIRST}).get_data(as_text=True)
    assert '<mark class="key">' in html
    assert re.search(r'href="/entry/227-pfund-bombe-basisausbau#p\d+"', html)
    assert "Stand: 30. November 2012" in html
    assert "data-chat-copy>Link kopieren</a>" in html
    assert "Im Szenario-Prüfer nachspielen" in html
    assert f'<input type="hidden" name="h" value="{FIRST}">' in html


def test_ask_page_form_post_with_history_shows_the_conversation(client):
    response = client.post("/ask", data={"q": FOLLOWUP, "h": [FIRST]})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.count('<li class="turn"') == 2
    log = html[html.index('<ol class="chat-log"') :]
    assert log.index(FIRST) < log.index(FOLLOWUP)
    assert f"Im Zusammenhang mit Ihrer Frage „{FIRST}“" in html
    assert "Feuerwehr (Basisausbau)" in html
    hidden = re.findall(r'<input type="hidden" name="h" value="([^"]*)">', html)
    assert hidden == [FIRST, FOLLOWUP]  # the next post carries the whole conversation
    assert log.count('id="neu"') == 1 and log.rindex('id="neu"') > log.index(FOLLOWUP) - 400


def test_ask_page_declined_lists_closest_entries(client):
    html = client.post("/ask", data={"q": "Ab welchem Alter ist das Spiel geeignet?"}).get_data(
        as_text=True
    )
    assert "Dazu habe ich keine sichere Antwort gefunden." in html
    assert "Am nächsten kommen:" in html
    assert '<blockquote class="passage"' not in html


def test_ask_page_declined_offers_the_search_for_the_question(client):
    question = "Ab welchem Alter ist das Spiel geeignet?"
    html = client.post("/ask", data={"q": question}).get_data(as_text=True)
    link = re.search(r'<p class="search-link"><a href="([^"]+)">([^<]+)</a>', html)
    assert link is not None
    assert link.group(1) == "/search?q=Ab+welchem+Alter+ist+das+Spiel+geeignet?"
    assert link.group(2) == f"In der Suche nachsehen: „{question}“"
    answered = client.post(
        "/ask", data={"q": "Wer bezahlt, wenn meine 227er gekontert wird?"}
    ).get_data(as_text=True)
    assert '<blockquote class="passage"' in answered  # a confident answer ...
    assert 'class="search-link"' not in answered  # ... needs no search offered


def test_ask_page_suggestion_link_keeps_the_history(client):
    html = client.post(
        "/ask", data={"q": "Wie viele Karten hat ein Depot mindestns?", "h": ["Aktionsstapel"]}
    ).get_data(as_text=True)
    assert "Meinten Sie:" in html
    assert re.search(
        r'href="/ask\?q=Wie\+viele\+Karten\+hat\+ein\+Depot\+mindestens\?&amp;h=Aktionsstapel"',
        html,
    )


@pytest.mark.parametrize(
    ("method", "data", "status"),
    [
        ("post", {"q": ""}, 400),
        ("post", {"q": "x" * 600}, 400),
        ("post", {"q": "Depot", "h": [""]}, 400),
        ("get", {"q": "x" * 600}, 400),
    ],
)
def test_ask_page_bad_input_is_a_german_400_page(client, method, data, status):
    if method == "post":
        response = client.post("/ask", data=data)
    else:
        response = client.get("/ask", query_string=data)
    assert response.status_code == status
    assert response.mimetype == "text/html"
    assert "Ungültige Anfrage" in response.get_data(as_text=True)


def test_ask_page_escapes_the_question(client):
    evil = '<script>alert(1)</script> "><img src=x onerror=alert(2)> 227er'
    html = client.post("/ask", data={"q": evil, "h": [evil]}).get_data(as_text=True)
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
