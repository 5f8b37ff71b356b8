"""The manifest's JSON Schema and its German messages.

`validate_documents(data, path, corpus_dir)` checks the parsed ``manifest.toml``
against `SCHEMA` (jsonschema, Draft 2020-12) and then what a schema cannot
say: ids unique, each ``file`` a regular file inside the corpus folder. Every
problem is one German sentence naming the document and the field; the caller
raises it as `faq_bot.corpus.CorpusError`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from faq_bot.errors import os_reason

ID_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$"
PREFIX_PATTERN = "^([a-z0-9]+(-[a-z0-9]+)*)?$"
KINDS = ["faq", "rules", "reference"]

_TEXT = {"type": "string", "minLength": 1, "maxLength": 500}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["documents"],
    "properties": {
        "documents": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["id", "file", "title", "game", "kind", "language", "splitter"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "string", "pattern": ID_PATTERN, "maxLength": 60},
                    "file": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 255,
                        # no NUL or other control character, no absolute path
                        "pattern": "^[^\\x00-\\x1f/\\\\][^\\x00-\\x1f]*$",
                    },
                    "title": _TEXT,
                    "game": _TEXT,
                    "kind": {"enum": KINDS},
                    "language": {"type": "string", "pattern": "^[a-z]{2,3}(-[A-Za-z0-9]+)*$"},
                    "splitter": {"type": "string", "pattern": "^[a-z_]+$"},
                    "id_prefix": {"type": "string", "pattern": PREFIX_PATTERN, "maxLength": 40},
                    # the format checks the form JJJJ-MM-TT and the calendar both
                    "date": {"type": "string", "format": "date"},
                    "date_text": {"type": "string", "maxLength": 100},
                    "notes": {"type": "string", "maxLength": 2000},
                    "precedence": {"type": "boolean"},
                    # misprints of the source mended where readers see them (ids kept)
                    "corrections": {
                        "type": "array",
                        "maxItems": 50,
                        "items": {
                            "type": "object",
                            "required": ["wrong", "right"],
                            "additionalProperties": False,
                            "properties": {
                                "wrong": {"type": "string", "minLength": 1, "maxLength": 200},
                                "right": {"type": "string", "minLength": 1, "maxLength": 200},
                            },
                        },
                    },
                },
            },
        },
    },
}

# with its format checker: "format": "date" (a month 13 fits the pattern) is checked
_VALIDATOR = Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)

_TYPES = {
    "string": "Text in Anführungszeichen",
    "boolean": "true oder false",
    "array": "eine Liste",
    "object": "eine Tabelle",
}
# what each list of tables is written as (the top level's „documents“ is said on its own)
_LISTS = {"corrections": "eine Liste von [[documents.corrections]]-Tabellen"}

_PATTERNS = {
    "id": "darf nur Kleinbuchstaben a–z, Ziffern und einzelne Bindestriche enthalten",
    "id_prefix": "darf nur Kleinbuchstaben a–z, Ziffern und einzelne Bindestriche enthalten",
    "file": "muss ein Dateiname im Korpusordner sein (kein absoluter Pfad, keine Steuerzeichen)",
    "language": "muss ein Sprachkürzel wie „de“ sein",
    "splitter": "muss der Name eines Splitters sein (Kleinbuchstaben und _)",
}


# tomllib's messages (Python 3.11-3.13), in German; a message not listed is a „Syntaxfehler“
_TOML_PROBLEMS = (
    (r"Invalid value", "ungültiger Wert"),
    (r"Invalid statement", "ungültige Zeile"),
    (r"Expected '=' after a key", "„=“ nach dem Schlüssel erwartet"),
    (r"Expected newline or end of document", "nach einer Angabe wird eine neue Zeile erwartet"),
    (r"Expected '\]\]'", "„]]“ am Ende der Überschrift erwartet"),
    (r"Expected '\]'", "„]“ am Ende der Überschrift erwartet"),
    (r"Unterminated string", "Text ohne schließendes Anführungszeichen"),
    (r"Unclosed array", "Liste ohne schließende Klammer „]“"),
    (r"Unclosed inline table", "Tabelle ohne schließende Klammer „}“"),
    (r"Cannot overwrite a value|Duplicate inline table key", "Schlüssel doppelt"),
    (r"Cannot declare .* twice|Cannot redefine namespace|Cannot mutate", "Tabelle doppelt"),
    (r"Invalid date", "ungültiges Datum"),
    (r"Illegal character|Found invalid character|Invalid initial character", "unerlaubtes Zeichen"),
    (r"Unescaped|Invalid hex value|Escaped character", "ungültiger Rückstrich (\\) im Text"),
)
_TOML_WHERE = re.compile(r"\(at (?:line (\d+), column (\d+)|end of document)\)$")


def toml_problem(exc: ValueError) -> str:
    """What is wrong in a manifest tomllib refused, and where, in German
    („ungültiger Wert, Zeile 3, Spalte 5“)."""
    text = str(exc)
    what = next((de for pattern, de in _TOML_PROBLEMS if re.match(pattern, text)), "Syntaxfehler")
    where = _TOML_WHERE.search(text)
    if where is None:
        return what
    if where.group(1) is None:
        return f"{what}, am Ende der Datei"
    return f"{what}, Zeile {where.group(1)}, Spalte {where.group(2)}"


def _problem(error: ValidationError) -> str:
    field = str(error.path[-1]) if error.path and isinstance(error.path[-1], str) else None
    if error.validator == "required":
        missing = str(error.message).split("'")[1] if "'" in error.message else "?"
        return f"das Pflichtfeld „{missing}“ fehlt"
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return f"unbekanntes Feld „{', '.join(map(str, extra))}“"
    where = f"Feld „{field}“" if field else "der Inhalt"
    if error.validator == "type":
        wanted = _TYPES.get(str(error.validator_value), str(error.validator_value))
        if error.validator_value == "array":
            wanted = _LISTS.get(field or "", wanted)
        if field == "date":
            return f'{where} muss Text sein, z. B. date = "2012-11-30" (in Anführungszeichen)'
        return f"{where} muss {wanted} sein"
    if error.validator == "pattern":
        return f"{where} {_PATTERNS.get(field or '', 'hat eine ungültige Form')}"
    if error.validator == "format" and field == "date":
        return f"{where} ist kein gültiges Datum im Format JJJJ-MM-TT (z. B. 2012-11-30)"
    if error.validator == "enum":
        return f"{where} muss eines von {', '.join(map(str, error.validator_value))} sein"
    if error.validator in ("minLength", "minItems"):
        return f"{where} darf nicht leer sein"
    if error.validator == "maxLength":
        return f"{where} ist zu lang (höchstens {error.validator_value} Zeichen)"
    return f"{where} ist ungültig"


def validate_documents(data: Any, path: Path, corpus_dir: Path) -> list[str]:
    """German problems of the manifest `data` (empty when it is valid)."""
    problems = []
    for error in sorted(_VALIDATOR.iter_errors(data), key=lambda e: list(map(str, e.path))):
        if len(error.path) >= 2 and error.path[0] == "documents":
            i = error.path[1]
            doc = data["documents"][i] if isinstance(i, int) else {}
            name = doc.get("id") if isinstance(doc, dict) else None
            label = f"Dokument #{int(i) + 1}" + (
                f" („{name}“)" if isinstance(name, str) and name.isprintable() else ""
            )
            if len(error.path) == 2 and error.validator == "type":  # the item is no table
                problems.append(
                    f"{path}: {label}: „documents“ muss aus [[documents]]-Tabellen bestehen."
                )
            else:
                problems.append(f"{path}: {label}: {_problem(error)}.")
        elif error.path and error.path[0] == "documents":
            problems.append(f"{path}: „documents“ muss eine Liste von [[documents]]-Tabellen sein.")
        else:
            problems.append(f"{path}: {_problem(error)} (erwartet: [[documents]]-Tabellen).")
    if problems:
        return problems
    seen: set[str] = set()
    root = corpus_dir.resolve()
    for i, meta in enumerate(data["documents"], 1):
        label = f"Dokument #{i} („{meta['id']}“)"
        if meta["id"] in seen:
            problems.append(f"{path}: {label}: die id kommt zweimal vor.")
        seen.add(meta["id"])
        try:
            target = (corpus_dir / meta["file"]).resolve()
        except (RuntimeError, OSError) as exc:  # 3.11 says a symlink loop by RuntimeError
            reason = os_reason(exc) if isinstance(exc, OSError) else "zu viele symbolische Links"
            problems.append(f"{path}: {label}: Feld „file“ ({meta['file']}): {reason}.")
            continue
        if not target.is_relative_to(root):
            problems.append(f"{path}: {label}: Feld „file“ zeigt aus dem Korpusordner hinaus.")
        elif target.is_dir():
            problems.append(f"{path}: {label}: Feld „file“ ist ein Ordner, keine Datei.")
        elif target.exists() and not target.is_file():  # a pipe, a device, a socket
            problems.append(
                f"{path}: {label}: Feld „file“ ist keine gewöhnliche Datei "
                "(sondern z. B. eine Pipe oder ein Gerät)."
            )
    return problems
