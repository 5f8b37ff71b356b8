"""OpenAPI descriptions of the chatbot's routes (``faq_bot.web.ask``): the ``Answer``
schema, ``POST /api/ask`` and the chat page ``/ask``."""

from __future__ import annotations

from faq_bot.chat import MAX_HISTORY
from faq_bot.chat.answer import REPLAYED
from faq_bot.chat.history import MAX_ENTRY_ID
from faq_bot.chat.items import SEARCH_FIRST
from faq_bot.chat.shown import MAX_TOKEN, TOKEN_PATTERN
from faq_bot.question import MAX_QUESTION_LENGTH, QUESTION_PATTERN
from faq_bot.web.openapi import add_schema, describe, error_responses, html_body, json_body

HIT_REF = {"$ref": "#/components/schemas/Hit"}

add_schema(
    "Answer",
    {
        "type": "object",
        "required": ["question", "confident", "message", "answer", "sources", "related"],
        "properties": {
            "question": {
                "type": "string",
                "description": "Die Frage, wie gestellt (Leerzeichen und Satzzeichen bereinigt)",
            },
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
                    "absolute_url": {
                        "type": "string",
                        "description": "url als absolute Adresse (Host der Anfrage)",
                    },
                    "paragraph_url": {
                        "type": "string",
                        "description": "Absoluter Permalink des Absatzes "
                        "(/entry/<id>/absatz/<N+1>?v=<Prüfsumme>)",
                    },
                    "sentence_url": {
                        "type": "string",
                        "description": "Relativer Permalink des Absatzes mit einem "
                        "Textfragment (#:~:text=) des Kernsatzes: Browser, die es kennen, "
                        "springen zum Satz und markieren ihn",
                    },
                    "highlight": {
                        "type": "object",
                        "description": "Der Kernsatz (Versatz in text)",
                        "properties": {
                            "text": {"type": "string"},
                            "start": {"type": "integer"},
                            "end": {"type": "integer"},
                        },
                    },
                    "excerpt": {
                        "type": "object",
                        "description": "Die ganzen Sätze um den Kernsatz, höchstens etwa 700 "
                        "Zeichen (Versatz in text; bei kurzen Absätzen der ganze Absatz)",
                        "properties": {"start": {"type": "integer"}, "end": {"type": "integer"}},
                    },
                    "entry": HIT_REF,
                    "title": {"type": "string"},
                    "doc_title": {"type": "string", "nullable": True},
                    "date_text": {"type": "string", "nullable": True},
                    "citation": {
                        "type": "string",
                        "description": "„Titel“, Absatz n – Dokument, Stand: Datum. paragraph_url",
                    },
                    "via": {"type": "string", "nullable": True},
                    "table": {
                        "type": "array",
                        "nullable": True,
                        "description": "Ist der Absatz eine Tabelle, allein gezeigt (oder Text "
                        "und eine Tabelle, siehe table_lead): ihre "
                        "Zeilen, die Kopfzeile zuerst, je Zelle ein Text; text reiht die Zellen "
                        "aneinander. Sonst null",
                        "items": {"type": "array", "items": {"type": "string"}},
                    },
                    "table_lead": {
                        "type": "string",
                        "nullable": True,
                        "description": "Ist table gesetzt und steht im Absatz Text vor der "
                        "Tabelle: dieser Text (über der Tabelle gezeigt). Sonst null",
                    },
                    "rest": {
                        "type": "object",
                        "nullable": True,
                        "description": "Zeigt text eine Liste (mit ihrer Einleitung), die "
                        "nicht ganz in die Antwort passt: wie viele Punkte fehlen, ein Link "
                        "zum ersten davon und die Zeile, die es sagt. Sonst null",
                        "properties": {
                            "count": {"type": "integer"},
                            "url": {"type": "string"},
                            "label": {"type": "string"},
                        },
                    },
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
            "context": {
                "type": "string",
                "nullable": True,
                "description": "Die frühere Frage, mit der die Frage gelesen wurde (followup): "
                "die letzte, oder nach einer abgelehnten die letzte beantwortete",
            },
            "back": {
                "type": "boolean",
                "description": "context ist die letzte beantwortete Frage, die abgelehnten "
                "danach wurden übergangen; in history mitgesendet, liest eine Nachfrage dort "
                "weiter",
            },
            "alone": {
                "type": "boolean",
                "description": "Die Frage klingt wie eine Nachfrage („sie“), wurde aber für sich "
                "gelesen, nicht mit der (abgelehnten) Frage davor",
            },
            "scope": {
                "type": "string",
                "nullable": True,
                "description": "Das Dokument, auf das die Antwort beschränkt war (Feld doc), "
                "sonst null",
            },
            "reliability": {
                "type": "number",
                "nullable": True,
                "description": "Bei einer gegebenen (nicht abgelehnten) Antwort auf eine allein "
                "gelesene Frage im hybriden Modus: der Anteil der Kalibrierfragen mit ähnlicher "
                "Sicherheit, deren Absatz stimmte (0–1, auf ganze Prozent abgerundet); sonst "
                "null, auch bei einer Nachfrage, die mit der früheren Frage gelesen wurde (ihre "
                "Sicherheit hat ein eigenes Modell ohne solche Stufen)",
            },
            "caution": {
                "type": "string",
                "nullable": True,
                "description": "Hinweis unter der Antwort, wenn dieser Anteil unter 0,9 liegt "
                "(die Antwort beginnt dann mit „Wahrscheinlich“); sonst null",
            },
            "search_query": {
                "type": "string",
                "description": "Wonach „In der Suche nachsehen“ sucht: bei einer Nachfrage mit "
                "der früheren Frage",
            },
            "search_first": {
                "type": "array",
                "maxItems": SEARCH_FIRST,
                "description": "Bei einer abgelehnten Antwort: die ersten Treffer dieser Suche "
                f"(höchstens {SEARCH_FIRST}, im Dokument aus scope), ohne die schon unter "
                "related genannten Einträge; die Seiten zeigen sie unter „Die Suche findet "
                "außerdem:“ (ohne related: „… zuerst:“). Bei einer sicheren Antwort leer",
                "items": {
                    "type": "object",
                    "required": ["id", "title", "url", "doc_title"],
                    "properties": {
                        "id": {"type": "string"},
                        "title": {"type": "string"},
                        "url": {
                            "type": "string",
                            "description": "/entry/<id>, mit #p<N> am besten Absatz",
                        },
                        "doc_title": {"type": "string", "nullable": True},
                        "paragraph": {
                            "type": "integer",
                            "nullable": True,
                            "description": "Der beste Absatz (ab 0) oder null",
                        },
                        "matched": {
                            "type": "boolean",
                            "description": "Ob der Eintrag ein Wort der Suche enthält; false: nur "
                            "inhaltlich ähnlich (die Seiten sagen es dann dazu)",
                        },
                    },
                },
            },
            "earlier": {
                "type": "object",
                "nullable": True,
                "description": "Bei einer abgelehnten Antwort im Gespräch: der Eintrag der "
                "letzten sicheren Antwort aus history (die Seiten zeigen ihn unter „Zuletzt ging "
                "es um:“), außer er steht schon unter related oder search_first; sonst null",
                "required": ["id", "title", "url", "doc_title"],
                "properties": {
                    "id": {"type": "string"},
                    "title": {"type": "string"},
                    "url": {"type": "string"},
                    "doc_title": {"type": "string", "nullable": True},
                    "paragraph": {"type": "integer", "nullable": True},
                },
            },
            "unmentioned": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Bei einer abgelehnten Antwort: die Nomen der Frage, die kein "
                "Dokument erwähnt und keine Korrektur in ein Wort der Dokumente verwandelt "
                "(message nennt sie); sonst leer",
            },
            "longer_words": {
                "$ref": "#/components/schemas/LongerWords",
                "description": "Bei einer abgelehnten Antwort: die Wörter aus unmentioned, die "
                "die Dokumente nur in längeren Wörtern enthalten, mit diesen (message nennt "
                "sie); sonst leer",
            },
            "turn": {
                "type": "string",
                "description": "Dieser Schritt für das Feld t der Chat-Seite /ask (nur /api/ask; "
                "vom Server signiert, unverändert weiterzugeben)",
            },
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
_TURN = {
    "type": "string",
    "maxLength": MAX_TOKEN,
    "pattern": TOKEN_PATTERN,
}
_TURNS_FIELD = {"anyOf": [_TURN, {"type": "array", "maxItems": MAX_HISTORY, "items": _TURN}]}

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
                                "doc": {
                                    "type": "string",
                                    "nullable": True,
                                    "description": "Nur in diesem Dokument antworten "
                                    "(Dokument-ID, z. B. how-faq)",
                                },
                                "history": {
                                    "type": "array",
                                    "nullable": True,
                                    "maxItems": MAX_HISTORY,
                                    "description": "Frühere Fragen, älteste zuerst: als "
                                    "Objekte mit „entry“ (wie die Seite sie sendet) oder als "
                                    "Text; von Fragen als Text werden nur die letzten "
                                    f"{REPLAYED} erneut beantwortet, ältere zählen als "
                                    "unbeantwortet",
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
                                                        "maxLength": MAX_ENTRY_ID,
                                                        "description": "ID des Eintrags, "
                                                        "der sie beantwortet hat (auch ein "
                                                        "früherer Name oder Alias; eine "
                                                        "unbekannte ID zählt als keine)",
                                                    },
                                                    "back": {
                                                        "type": "boolean",
                                                        "description": "back ihrer "
                                                        "Antwort (mit der letzten "
                                                        "beantworteten Frage gelesen)",
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
                **error_responses(400, 405, 413, 501, 503),
                "415": json_body(
                    {"$ref": "#/components/schemas/Error"},
                    "Kein JSON (Content-Type), oder komprimiert gesendet (Content-Encoding): "
                    "wird nicht gelesen",
                ),
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
        "name": "t",
        "in": "query",
        "description": "Frühere Schritte des Gesprächs, wie sie gezeigt wurden "
        "(wiederholt, älteste zuerst; das Feld „turn“ einer Antwort von /api/ask). "
        "Ein Schritt ohne gültige Signatur wird nur als Frage gezeigt.",
        "required": False,
        "schema": _TURNS_FIELD,
        "style": "form",
        "explode": True,
    },
    {
        "name": "h",
        "in": "query",
        "description": "Frühere Fragen (ältere Links; vor denen aus t, nur als Fragen gezeigt)",
        "required": False,
        "schema": _HISTORY_FIELD,
        "style": "form",
        "explode": True,
    },
    {
        "name": "doc",
        "in": "query",
        "description": "Nur aus diesem Dokument antworten (Dokument-ID; leer: alle)",
        "required": False,
        "schema": {"type": "string"},
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
            "summary": "Chat-Formular ohne JavaScript (Felder q, t, h und doc)",
            "requestBody": {
                "required": True,
                "content": {
                    "application/x-www-form-urlencoded": {
                        "schema": {
                            "type": "object",
                            "required": ["q"],
                            "properties": {
                                "q": _QUESTION,
                                "t": _TURNS_FIELD,
                                "h": _HISTORY_FIELD,
                                "doc": {
                                    "type": "string",
                                    "description": "Nur aus diesem Dokument antworten "
                                    "(Dokument-ID; leer: alle)",
                                },
                            },
                        }
                    }
                },
            },
            "responses": {
                "303": {
                    "description": "Beantwortet: Weiterleitung auf GET /ask?t=…#neu, das "
                    "Gespräch mit der neuen Antwort (nichts wird dort erneut beantwortet)",
                    "headers": {"Location": {"schema": {"type": "string"}}},
                },
                "200": html_body(
                    "Chat mit Antworten (nur wenn die neue Antwort nicht in eine Adresse passt)"
                ),
                **error_responses(400, 413, 415, 501, 503, html=True),
            },
        },
    },
)
