"""OpenAPI descriptions of the checker's routes (``faq_bot.web.check``).

The request body of ``POST /api/check`` is the one scenario schema
(`faq_bot/stack/scenario.schema.json`), embedded as component ``Scenario``.
"""

from __future__ import annotations

from faq_bot.stack.form import load_samples
from faq_bot.stack.link import FROM_QUESTION
from faq_bot.stack.permalink import encode_permalink
from faq_bot.stack.read import scenario_schema
from faq_bot.web.openapi import (
    add_json_schema,
    add_schema,
    describe,
    error_responses,
    html_body,
    json_body,
)

add_json_schema("Scenario", scenario_schema())

# The fields of the /check form (`faq_bot.stack.form.state_from_form`): row
# fields are ``<p|c|s>-<n>-<field>``; unknown fields are ignored by the server.
_ROW_FIELD = "^[pcs]-[0-9]{1,4}-[a-z_]+$"
CHECK_FORM = {
    "type": "object",
    "properties": {
        "action": {
            "type": "string",
            "description": "Knopf: check (Standard), refresh, add:<Gruppe>, remove:<Gruppe>:<n>, "
            "move:stack:<n>:up|down, pick:<Karte>, announce:<n>",
        },
        "json": {
            "type": "string",
            "description": "JSON-Ansicht: ein Szenario als JSON-Text (nicht leer: geht vor)",
        },
        "phase": {"type": "string", "description": "Phase (leer: Bauphase)"},
        "pick_owner": {"type": "string", "description": "Spieler für pick:<Karte>"},
    },
    "patternProperties": {
        _ROW_FIELD: {
            "type": "string",
            "description": "Zeilenfeld p-<n>-name|tw, c-<n>-…, s-<n>-… (leere Zeilen zählen "
            "nicht); p-<n>-was: der Name, mit dem die Zeile gezeigt wurde (Karten, Einträge "
            "und pick_owner folgen einer Umbenennung)",
        }
    },
}
add_schema(
    "CheckResult",
    {
        "type": "object",
        "description": "Ergebnis des Prüfers (stack-scenarios.md)",
        "required": ["ok", "errors", "hints", "order", "steps", "end_of_phase", "final"],
        "properties": {
            "ok": {"type": "boolean"},
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "entry": {"type": "string", "nullable": True},
                        "message": {"type": "string"},
                        "rules": {
                            "type": "array",
                            "items": {"type": "string"},
                            "description": "Ids der Einträge, die die verletzte Regel nennen "
                            "(unter /api/entries/<id>)",
                        },
                    },
                },
            },
            "hints": {
                "type": "array",
                "description": "Über stack-scenarios.md hinaus: was der FAQ-Eintrag einer "
                "Karte über ihr Ziel sagt, wo die Prüfregeln mehr erlauben (die 227-Pfund Bombe "
                "zielt auf einen Basisausbau); der Eintrag wird trotzdem wie angegeben "
                "abgehandelt",
                "items": {
                    "type": "object",
                    "properties": {
                        "entry": {"type": "string"},
                        "message": {"type": "string"},
                        "rules": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
            "order": {"type": "array", "items": {"type": "string"}},
            "steps": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "entry": {"type": "string"},
                        "outcome": {
                            "type": "string",
                            "enum": ["resolved", "prevented", "countered", "fizzled"],
                        },
                        "reason": {"type": "string", "nullable": True},
                        "paid": {"type": "integer"},
                        "explanation": {"type": "string"},
                        "rules": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
            "end_of_phase": {"type": "object", "nullable": True},
            "final": {"type": "object", "nullable": True},
        },
    },
)

describe(
    "/api/check",
    {
        "post": {
            "summary": "Ein Aktionsstapel-Szenario prüfen (stack-scenarios.md)",
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/Scenario"}}
                },
            },
            "responses": {
                "200": json_body(
                    {"$ref": "#/components/schemas/CheckResult"},
                    "Ergebnis (auch für ein unzulässiges Szenario: ok false mit errors)",
                ),
                "400": json_body(
                    {"$ref": "#/components/schemas/Error"},
                    "Kein Szenario: der Anfragetext ist kein JSON oder verletzt das Schema, oder "
                    "eine Regel, die "
                    "JSON Schema nicht ausdrücken kann: die Kürzel (id) der Karten und der "
                    "Einträge sind jeweils eindeutig (ein doppeltes gibt 400, detail nennt das "
                    "Feld)",
                ),
                **error_responses(413, 501),
                "415": json_body(
                    {"$ref": "#/components/schemas/Error"},
                    "Komprimiert gesendet (Content-Encoding): wird nicht entpackt",
                ),
            },
        }
    },
)
describe(
    "/api/cards",
    {
        "get": {
            "summary": "Karten des Katalogs, deren Name (oder ein Wort darin) mit q beginnt "
            "(zum Vorausfüllen)",
            "parameters": [
                {
                    "name": "q",
                    "in": "query",
                    "required": False,
                    "description": "Anfang des Kartennamens oder eines Worts darin (leer: alle)",
                    "schema": {"type": "string", "maxLength": 100},
                }
            ],
            "responses": {
                "200": json_body(
                    {
                        "type": "object",
                        "properties": {
                            "query": {"type": "string"},
                            "cards": {"type": "array", "items": {"type": "object"}},
                        },
                    },
                    "Karten",
                ),
                **error_responses(400),
            },
        }
    },
)
describe(
    "/check",
    {
        "get": {
            "summary": "Der Aktionsstapel-Prüfer (Formular); mit s=<Link> ausgefüllt und "
            "ausgewertet",
            "parameters": [
                {
                    "name": "s",
                    "in": "query",
                    "required": False,
                    "description": "Geteiltes Szenario (Link aus „Link teilen“)",
                    "schema": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 8000,
                        "pattern": "^[A-Za-z0-9_-]+$",
                    },
                    # a real link (the first sample): the pattern cannot say which
                    # strings decode to a scenario, so fuzzing alone rarely finds one
                    "example": encode_permalink(load_samples()[0]["scenario"]),
                },
                {
                    "name": "n",
                    "in": "query",
                    "required": False,
                    "description": "Ergänzungen zum Ergebnis, was beim Prüfen ergänzt wurde (die "
                    "Weiterleitung von POST /check setzt sie; vom Server signiert und an s "
                    "gebunden, unverändert weiterzugeben). Ein n, das sich nicht prüfen lässt, "
                    "wird ignoriert: Die Seite zeigt das Ergebnis ohne Ergänzungen.",
                    "schema": {"type": "string"},
                },
                {
                    "name": "aus",
                    "in": "query",
                    "required": False,
                    "description": f"„{FROM_QUESTION}“: das Szenario hat der Chat aus einer "
                    "Frage vorbereitet (der Link unter einer Antwort); die Seite sagt, welche "
                    "Angaben angenommen sind. Jeder andere Wert wird ignoriert.",
                    "schema": {"type": "string"},
                },
            ],
            "responses": {
                "200": html_body("Formular und Ergebnis"),
                "301": {
                    "description": "Link mit angehängten Zeichen, wie ihn ein Forum oder ein "
                    "Satzende mitnimmt: Weiterleitung auf den Link ohne sie",
                    "headers": {"Location": {"schema": {"type": "string"}}},
                },
                **error_responses(400, html=True),
            },
        },
        "post": {
            "summary": "Formular absenden: prüfen (Weiterleitung auf das Ergebnis) oder ein "
            "Schritt des Baukastens (Karte wählen, ansagen, Zeile hinzufügen, entfernen, "
            "verschieben)",
            "parameters": [
                {
                    "name": "X-Check-Fragment",
                    "in": "header",
                    "required": False,
                    "description": "1: nur den Prüfer-Teil der Seite zeigen, nie weiterleiten "
                    "(check.js)",
                    "schema": {"type": "string"},
                }
            ],
            "requestBody": {
                "content": {"application/x-www-form-urlencoded": {"schema": CHECK_FORM}}
            },
            "responses": {
                "303": {
                    "description": "Geprüft (action check, aus den Zeilen oder der "
                    "JSON-Ansicht): Weiterleitung auf GET /check?s=<Link>#result (mit n, "
                    "wenn beim Prüfen etwas ergänzt wurde), die das Ergebnis zeigt; neu "
                    "Laden und Zurück senden nichts erneut. Nicht mit X-Check-Fragment: 1, "
                    "nicht für ein Szenario, das zu groß für einen Link ist, und nicht, wenn "
                    "die Hinweise nicht in eine Adresse passen (dann 200)",
                    "headers": {"Location": {"schema": {"type": "string"}}},
                },
                "200": html_body(
                    "Formular (ein Schritt des Baukastens; nichts ausgefüllt: das Startformular "
                    "mit Hinweis), oder das Ergebnis selbst: mit X-Check-Fragment: 1 nur der "
                    "Prüfer-Teil der Seite (für check.js), sonst wenn es keinen Link hat oder "
                    "seine Adresse zu lang würde"
                ),
                "400": html_body(
                    "Formular mit Fehlermeldung: unbekannte Aktion, oder die Zeilen bzw. das "
                    "JSON ergeben kein Szenario (Zeilen, die aufeinander verweisen, kann das "
                    "Formularschema nicht ausdrücken)"
                ),
                **error_responses(413, 415, 501, html=True),
            },
        },
    },
)
