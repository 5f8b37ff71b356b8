"""``GET /api/openapi.json``: every route of the app described in OpenAPI 3.

The description is assembled from `PATHS`. A blueprint that adds a route adds
its path here with `describe(path, item)` (at import time), e.g. a chatbot
blueprint::

    from faq_bot.web.openapi import describe, error_responses, json_body
    describe("/api/ask", {"post": {...}})

`tests/test_web_api.py` compares these paths with the app's url map, so an
undocumented route fails the tests.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, jsonify, redirect, request, url_for
from werkzeug.wrappers import Response

from faq_bot.query import MAX_QUERY_LENGTH
from faq_bot.text import READABLE_PATTERN

bp = Blueprint("openapi", __name__)

ERROR_REF = {"$ref": "#/components/schemas/Error"}


def json_body(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def html_body(description: str) -> dict:
    return {"description": description, "content": {"text/html": {"schema": {"type": "string"}}}}


def error_responses(*codes: int, html: bool = False) -> dict:
    texts = {
        301: "Alias-ID oder Titelvariante: Weiterleitung auf die kanonische ID",
        304: "Nicht geändert (ETag)",
        400: "Ungültige Eingabe",
        404: "Nicht gefunden",
        405: "Methode nicht erlaubt",
        413: "Anfrage zu groß",
        415: "Anderer Inhaltstyp als der beschriebene, oder komprimiert gesendet "
        "(Content-Encoding): wird nicht gelesen",
        500: "Interner Fehler (ein Programmfehler)",
        501: "Übertragungsart außer chunked (Transfer-Encoding): wird nicht gelesen",
        503: "Index nicht geladen",
    }
    out: dict[str, Any] = {}
    for code in codes:
        if code in (301, 304):
            out[str(code)] = {"description": texts[code]}
        elif html:
            out[str(code)] = html_body(texts[code])
        else:
            out[str(code)] = json_body(ERROR_REF, texts[code])
    return out


def _param(name: str, where: str, description: str, schema: dict, required: bool = False) -> dict:
    return {
        "name": name,
        "in": where,
        "description": description,
        "required": required or where == "path",
        "schema": schema,
    }


Q = _param("q", "query", "Suchanfrage", {"type": "string", "maxLength": MAX_QUERY_LENGTH})
# /api/search needs words: not empty, not only spaces
Q_REQUIRED = _param(
    "q",
    "query",
    "Suchanfrage (nicht leer)",
    # some character that cleaning keeps and Python's str.strip() does not strip (a zero-width
    # space alone is as empty as spaces)
    {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_QUERY_LENGTH,
        "pattern": READABLE_PATTERN,
    },
    required=True,
)
DOC = _param("doc", "query", "Nur in diesem Dokument suchen (Dokument-ID)", {"type": "string"})
_CATEGORY = (
    "Nur Einträge dieser Kategorie (Name oder Kürzel, z. B. Basisausbau); "
    "eine unbekannte ist ein 400"
)
CATEGORY = _param(
    "category",
    "query",
    f"{_CATEGORY}; eine, die das gewählte Dokument nicht hat, wird weggelassen (die Seite sagt es)",
    {"type": "string"},
)
CATEGORY_API = _param(
    "category",
    "query",
    f"{_CATEGORY}, ebenso eine, die das gewählte Dokument nicht hat",
    {"type": "string"},
)
# an empty field (as a form sends it) means the default
_EMPTY = {"type": "string", "maxLength": 0}


def _count(high: int) -> dict:
    return {"anyOf": [{"type": "integer", "minimum": 1, "maximum": high}, _EMPTY]}


N = _param("n", "query", "Anzahl Treffer (leer: Standard)", _count(50))
MODE = _param(
    "mode",
    "query",
    "Suchmodus: lexical oder hybrid (nur wenn ein semantisches Modell geladen ist; "
    "sonst 400). Leer oder fehlend: der beste verfügbare. Passt kein Wort der Suche, "
    "listet hybrid nur Einträge, die inhaltlich nahe genug sind.",
    # the server takes an empty mode as the default, like an empty n (schemathesis found it)
    {"anyOf": [{"type": "string", "enum": ["lexical", "hybrid"]}, _EMPTY]},
)
ENTRY_ID = _param("entry_id", "path", "Stabile ID des Eintrags (auch Alias-ID)", {"type": "string"})
EXACT = _param(
    "genau",
    "query",
    "1: die Wörter wie getippt suchen, ohne Rechtschreibkorrektur; 0 oder leer: mit Korrektur",
    {"type": "string", "enum": ["0", "1", ""]},
)
# the body of a redirect under /api (a slash added or doubled, /api itself): where to go
MOVED = {
    "type": "object",
    "required": ["message", "location"],
    "properties": {"message": {"type": "string"}, "location": {"type": "string"}},
}
MARKS_AS_TYPED = _param(
    "genau",
    "query",
    "1: die Wörter aus h wie getippt markieren, ohne Rechtschreibkorrektur (der Link eines "
    "Treffers einer Suche mit genau=1); jeder andere Wert markiert sie wie korrigiert",
    {"type": "string"},
)
MARKS = _param(
    "h",
    "query",
    "Wörter, die auf der Seite markiert werden (die Suche, die hierher führte); was über "
    f"{MAX_QUERY_LENGTH} Zeichen hinausgeht, wird nicht gelesen",
    {"type": "string"},
)

# the link fields of hits and entries (faq_bot.web.api_links)
LINK_URL = {
    "type": "string",
    "nullable": True,
    "description": "Wohin der Verweis führt, wie die Seite ihn verlinkt (/entry/<id>, am "
    "genannten Absatz #p<n>); null: ein Verweis, der keinen Eintrag trifft",
}
ABSOLUTE_URL = {
    "type": "string",
    "description": "Die Seite des Eintrags als absolute Adresse (Host der Anfrage)",
}
CITATION = {
    "type": "string",
    "description": (
        "Zitat: „Titel“ – Dokument, Stand: Datum (ohne Datum: „ohne Datum“). absolute Adresse"
    ),
}
DATE_TEXT = {
    "type": "string",
    "nullable": True,
    "description": "Stand des Dokuments, wie es ihn schreibt (null ohne Datum)",
}

COMPONENTS: dict[str, Any] = {
    "schemas": {
        "Error": {
            "type": "object",
            "required": ["error", "detail"],
            "properties": {
                "error": {"type": "string", "description": "Fehlercode, z. B. not_found"},
                "detail": {"type": "string", "description": "Erklärung auf Deutsch"},
            },
        },
        "Hit": {
            "type": "object",
            "required": ["id", "doc", "title", "url", "score", "snippet"],
            "properties": {
                "id": {"type": "string"},
                "doc": {"type": "string"},
                "title": {"type": "string"},
                "url": {"type": "string"},
                "score": {"type": "number"},
                "snippet": {"type": "string", "description": "HTML, Treffer in <mark>"},
                "text": {"type": "string"},
                "category": {"type": "string", "nullable": True},
                "doc_title": {"type": "string"},
                "paragraph": {
                    "type": "integer",
                    "nullable": True,
                    "description": "Nummer des besten Absatzes (0 = erster)",
                },
                "matched": {
                    "type": "boolean",
                    "description": "Der Eintrag enthält ein Wort der Anfrage; false: nur "
                    "inhaltlich ähnlich (hybride Suche)",
                },
                "absolute_url": ABSOLUTE_URL,
                "paragraph_url": {
                    "type": "string",
                    "nullable": True,
                    "description": "Absoluter Permalink des Absatzes paragraph "
                    "(/entry/<id>/absatz/<n>?v=<Prüfsumme>, n ab 1); null ohne Absatz",
                },
                "citation": CITATION,
                "date_text": DATE_TEXT,
            },
        },
        "SearchResult": {
            "type": "object",
            "required": ["query", "total", "hits"],
            "properties": {
                "query": {"type": "string"},
                "total": {"type": "integer"},
                "matched": {
                    "type": "integer",
                    "description": "Wie viele der total Einträge ein Wort der Anfrage enthalten; "
                    "die übrigen sind nur inhaltlich ähnlich",
                },
                "mode": {"type": "string", "enum": ["lexical", "hybrid"]},
                "suggestion": {"type": "string", "nullable": True},
                "longer_words": {"$ref": "#/components/schemas/LongerWords"},
                "hits": {"type": "array", "items": {"$ref": "#/components/schemas/Hit"}},
            },
        },
        "LongerWords": {
            "type": "array",
            "description": "Wörter der Anfrage, die kein Dokument für sich enthält und keine "
            "Korrektur erreicht, mit den Wörtern der Dokumente, die so beginnen oder als "
            "zusammengesetzte Nomen so enden (höchstens drei, die häufigsten zuerst): "
            "Fernkampf steht nur in Fernkampfphase, Batterie in Flakbatterie. Eine Suche mit "
            "doc oder category nennt nur Wörter, die Einträge dieses Filters enthalten",
            "items": {
                "type": "object",
                "required": ["word", "words"],
                "properties": {
                    "word": {"type": "string"},
                    "words": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
        "EntryMoved": {
            "type": "object",
            "required": ["message", "id", "url", "api_url"],
            "description": "Antwort einer Alias-ID (301): wohin der Eintrag gehört",
            "properties": {
                "message": {"type": "string", "description": "Erklärung auf Deutsch"},
                "id": {"type": "string", "description": "Die kanonische ID"},
                "title": {"type": "string"},
                "url": {"type": "string", "description": "/entry/<kanonische ID>"},
                "absolute_url": ABSOLUTE_URL,
                "api_url": {"type": "string", "description": "Wie Location"},
            },
        },
        "EntryNotFound": {
            "type": "object",
            "required": ["error", "detail", "suggestions"],
            "properties": {
                "error": {"type": "string", "description": "not_found"},
                "detail": {"type": "string", "description": "Erklärung auf Deutsch"},
                "suggestions": {
                    "type": "array",
                    "description": "Einträge zu den Wörtern der ID (dieselben wie auf der "
                    "Fehlerseite von /entry/<id>)",
                    "items": {"$ref": "#/components/schemas/Hit"},
                },
            },
        },
        "Link": {
            "type": "object",
            "properties": {
                "paragraph": {"type": "integer"},
                "start": {"type": "integer"},
                "end": {"type": "integer"},
                "text": {"type": "string"},
                "target_text": {"type": "string"},
                "target": {"type": "string", "nullable": True},
                "target_title": {"type": "string", "nullable": True},
                "target_paragraph": {
                    "type": "integer",
                    "nullable": True,
                    "description": "Absatz des Ziels (ab 0), den der Verweis nennt (etwa "
                    "„Tabelle 1.0“); null: der Eintrag als Ganzes",
                },
                "url": LINK_URL,
                "absolute_url": {**LINK_URL, "description": "url als absolute Adresse"},
            },
        },
        "Backlink": {
            "type": "object",
            "required": ["id", "title", "url"],
            "properties": {
                "id": {"type": "string"},
                "title": {"type": "string"},
                "doc": {"type": "string", "nullable": True},
                "paragraph": {
                    "type": "integer",
                    "description": "Absatz des verweisenden Eintrags (ab 0) mit dem Verweis",
                },
                "url": {
                    "type": "string",
                    "description": "Der verweisende Eintrag, ab dem zweiten Absatz an der "
                    "Stelle des Verweises (/entry/<id>#p<n>)",
                },
                "absolute_url": {"type": "string", "description": "url als absolute Adresse"},
            },
        },
        "Entry": {
            "type": "object",
            "required": ["id", "doc", "title", "paragraphs", "url"],
            "properties": {
                "id": {"type": "string"},
                "doc": {"type": "string"},
                "title": {"type": "string"},
                "name": {"type": "string", "description": "Titel ohne Kategorie (227-Pfund Bombe)"},
                "position": {"type": "integer", "description": "Stelle im Dokument (ab 0)"},
                "text": {"type": "string", "description": "Der ganze Text (Absätze als Text)"},
                "alias_ids": {"type": "array", "items": {"type": "string"}},
                "paragraphs": {"type": "array", "items": {"type": "string"}},
                "plain_paragraphs": {"type": "array", "items": {"type": "string"}},
                "paragraph_urls": {"type": "array", "items": {"type": "string"}},
                "markup": {"type": "string", "enum": ["text", "markdown", "html"]},
                "category": {"type": "string", "nullable": True},
                "section": {"type": "string", "nullable": True},
                "aliases": {"type": "array", "items": {"type": "string"}},
                "links": {"type": "array", "items": {"$ref": "#/components/schemas/Link"}},
                "backlinks": {"type": "array", "items": {"$ref": "#/components/schemas/Backlink"}},
                "url": {"type": "string"},
                "absolute_url": ABSOLUTE_URL,
                "citation": CITATION,
                "date_text": DATE_TEXT,
                "paragraph_permalinks": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Absolute Permalinks der Absätze, in der Reihenfolge von "
                    "paragraph_urls (/entry/<id>/absatz/<n>?v=<Prüfsumme>, n ab 1)",
                },
                "document": {"type": "object"},
                "previous": {"type": "string", "nullable": True},
                "next": {"type": "string", "nullable": True},
            },
        },
    }
}

PATHS: dict[str, dict] = {
    "/": {"get": {"summary": "Startseite", "responses": {"200": html_body("Startseite")}}},
    "/search": {
        "get": {
            "summary": "Trefferliste (HTML)",
            "parameters": [Q, DOC, CATEGORY, N, EXACT],
            "responses": {
                "200": html_body("Treffer"),
                **error_responses(304, 400, 503, html=True),
            },
        }
    },
    "/entry/{entry_id}": {
        "get": {
            "summary": "Ein Eintrag (HTML) mit Absatz-Ankern #p0, #p1, …",
            "parameters": [ENTRY_ID, MARKS, MARKS_AS_TYPED],
            "responses": {
                "200": html_body("Der Eintrag"),
                **error_responses(301, 304, 404, 503, html=True),
            },
        }
    },
    "/docs": {
        "get": {
            "summary": "Die Liste der Dokumente: Weiterleitung auf die Startseite (/#dokumente)",
            "responses": {"301": {"description": "Weiterleitung auf /#dokumente"}},
        }
    },
    "/docs/{doc_id}": {
        "get": {
            "summary": "Inhaltsverzeichnis eines Dokuments (A–Z bzw. Abschnitte)",
            "parameters": [_param("doc_id", "path", "Dokument-ID", {"type": "string"})],
            "responses": {
                "200": html_body("Inhaltsverzeichnis"),
                **error_responses(301, 304, 404, 503, html=True),
            },
        }
    },
    "/opensearch.xml": {
        "get": {
            "summary": "OpenSearch-Beschreibung für Browser",
            "responses": {
                "200": {
                    "description": "OpenSearch description",
                    "content": {"application/opensearchdescription+xml": {"schema": {}}},
                }
            },
        }
    },
    "/api/search": {
        "get": {
            "summary": "Suche",
            "parameters": [Q_REQUIRED, N, DOC, CATEGORY_API, MODE, EXACT],
            "responses": {
                "200": json_body({"$ref": "#/components/schemas/SearchResult"}, "Treffer"),
                **error_responses(304, 400, 503),
            },
        }
    },
    "/api/suggest": {
        "get": {
            "summary": "Titelvorschläge (Stichwörter und Aliasse) für die Eingabe",
            "parameters": [
                Q,
                _param("n", "query", "Anzahl (leer: Standard)", _count(20)),
                _param(
                    "doc", "query", "Nur Titel dieses Dokuments (Dokument-ID)", {"type": "string"}
                ),
                _param(
                    "format",
                    "query",
                    "`opensearch`: Antwort als OpenSearch-Vorschläge [Anfrage, [Titel]]",
                    {"type": "string", "enum": ["", "json", "opensearch"]},
                ),
            ],
            "responses": {
                "200": json_body(
                    {
                        "type": "object",
                        "properties": {
                            "query": {"type": "string"},
                            "suggestions": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "properties": {
                                        "title": {"type": "string"},
                                        "id": {"type": "string"},
                                        "url": {"type": "string"},
                                    },
                                },
                            },
                        },
                    },
                    "Vorschläge",
                ),
                **error_responses(304, 400, 503),
            },
        }
    },
    "/api/entries/{entry_id}": {
        "get": {
            "summary": "Ein Eintrag als JSON (Absätze, Verweise, Rückverweise, Dokument)",
            "parameters": [ENTRY_ID],
            "responses": {
                "200": json_body({"$ref": "#/components/schemas/Entry"}, "Der Eintrag"),
                **error_responses(304, 503),
                "301": {
                    **json_body(
                        {"$ref": "#/components/schemas/EntryMoved"},
                        "Alias-ID oder Titelvariante: Weiterleitung auf die kanonische ID",
                    ),
                    "headers": {"Location": {"schema": {"type": "string"}}},
                },
                "404": json_body(
                    {"$ref": "#/components/schemas/EntryNotFound"},
                    "Nicht gefunden; mit Vorschlägen",
                ),
            },
        }
    },
    "/api/openapi.json": {
        "get": {
            "summary": "Diese API-Beschreibung (OpenAPI 3)",
            "responses": {"200": json_body({"type": "object"}, "OpenAPI-Dokument")},
        }
    },
    **{
        path: {
            "get": {
                "summary": f"Weiterleitung auf /api/openapi.json ({why})",
                "responses": {
                    "301": {
                        "description": "Weiterleitung auf /api/openapi.json",
                        "headers": {"Location": {"schema": {"type": "string"}}},
                        # under /api JSON, as every redirect there (faq_bot.web.errors)
                        **({"content": {"application/json": {"schema": MOVED}}} if api else {}),
                    }
                },
            }
        }
        for path, why, api in (
            ("/openapi.json", "die übliche Adresse", False),
            ("/api", "die Adresse der API", True),
            ("/api/", "die Adresse der API", True),
        )
    },
    "/healthz": {
        "get": {
            "summary": "Zustand: 200, wenn der Index geladen ist",
            "responses": {
                "200": json_body(
                    {
                        "type": "object",
                        "properties": {
                            "status": {"type": "string"},
                            "index": {"type": "string"},
                            "built_at": {"type": "string", "nullable": True},
                            "documents": {"type": "integer"},
                            "search": {"type": "string", "enum": ["hybrid", "lexical"]},
                            "model": {"type": "string", "nullable": True},
                            "model_note": {"type": "string"},
                        },
                    },
                    "Index geladen",
                ),
                **error_responses(503),
            },
        }
    },
}

# /api/suggest?format=opensearch answers the browser's search box in its own type:
# [Anfrage, [Titel, ...]]
PATHS["/api/suggest"]["get"]["responses"]["200"]["content"]["application/x-suggestions+json"] = {
    "schema": {
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "items": {},
        "description": "[Anfrage, [Titel, ...]] (format=opensearch)",
    }
}


def describe(path: str, item: dict) -> None:
    """Add (or extend) the description of `path` (OpenAPI form, e.g. ``/api/ask``)."""
    PATHS.setdefault(path, {}).update(item)


def add_schema(name: str, schema: dict) -> None:
    COMPONENTS["schemas"][name] = schema


def add_json_schema(name: str, schema: dict) -> None:
    """Add a standalone JSON Schema (2020-12) as component `name`, used as it is.

    Its ``$defs`` become components ``<name><Def>`` and its ``#/$defs/...``
    references point there; ``$schema`` and ``$id`` are dropped (the document's
    dialect is JSON Schema 2020-12 already, OpenAPI 3.1).
    """
    defs = schema.get("$defs", {})

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                if key in ("$schema", "$id", "$defs"):
                    continue
                if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
                    value = f"#/components/schemas/{name}{_camel(value.removeprefix('#/$defs/'))}"
                out[key] = rewrite(value)
            return out
        if isinstance(node, list):
            return [rewrite(v) for v in node]
        return node

    for def_name, definition in defs.items():
        COMPONENTS["schemas"][f"{name}{_camel(def_name)}"] = rewrite(definition)
    COMPONENTS["schemas"][name] = rewrite(schema)


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[_\-]", name))


def _nullable_to_31(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable: true`` as 3.1 (JSON Schema) ``type: [..., "null"]``."""
    if isinstance(node, dict):
        out = {k: _nullable_to_31(v) for k, v in node.items() if k != "nullable"}
        if node.get("nullable") is True and isinstance(node.get("type"), str):
            out["type"] = [node["type"], "null"]
        return out
    if isinstance(node, list):
        return [_nullable_to_31(v) for v in node]
    return node


_CONVERTER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def rule_to_path(rule: str) -> str:
    """A Flask rule as an OpenAPI path: ``/entry/<entry_id>`` → ``/entry/{entry_id}``."""
    return _CONVERTER.sub(r"{\1}", rule)


def spec(server_url: str = "/") -> dict:
    from importlib.metadata import PackageNotFoundError, version

    try:
        app_version = version("faq_bot")
    except PackageNotFoundError:
        app_version = "0"
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "faq_bot",
            "version": app_version,
            "description": "Regeln und FAQ nachschlagen: Suche, Einträge, Verweise. "
            'Fehler sind JSON {"error": "...", "detail": "..."}.',
        },
        "servers": [{"url": server_url}],
        "paths": _nullable_to_31(PATHS),
        "components": _nullable_to_31(COMPONENTS),
    }


def _with_documents(document: dict, doc_ids: list[str], categories: list[str]) -> dict:
    """`document` with the `doc` parameters and JSON body fields limited to the documents
    of the index, and the `category` parameters to its categories (names and slugs)."""
    for item in document["paths"].values():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "doc" and parameter["in"] == "query":
                    parameter["schema"] = {"type": "string", "enum": ["", *doc_ids]}
                if parameter["name"] == "category" and parameter["in"] == "query":
                    parameter["schema"] = {"type": "string", "enum": ["", *categories]}
            for kind, media in operation.get("requestBody", {}).get("content", {}).items():
                fields = media.get("schema", {}).get("properties", {})
                if "doc" in fields:
                    json_body = kind == "application/json"  # JSON may send null
                    fields["doc"] = {
                        **fields["doc"],
                        "type": ["string", "null"] if json_body else "string",
                        "enum": ["", *doc_ids, *([None] if json_body else [])],
                    }
    return document


@bp.get("/openapi.json")
@bp.get("/api")
@bp.get("/api/")
def openapi_redirect() -> Response:
    """Where tools (``/openapi.json``) and people (``/api``) look first: a permanent
    redirect to `openapi_json`."""
    return redirect(url_for("openapi.openapi_json"), code=301)


@bp.get("/api/openapi.json")
def openapi_json():
    from faq_bot.names import categories
    from faq_bot.text import alphabetical
    from faq_bot.web.common import IndexUnavailable, current_index

    document = spec(request.script_root or "/")
    try:
        index = current_index()
        named = categories(index)
        document = _with_documents(
            document,
            [d["id"] for d in index.documents],
            alphabetical({*named, *named.values()}),  # a name and its slug fold alike
        )
    except IndexUnavailable:
        pass  # no index: the document ids are not known yet
    return jsonify(document)
