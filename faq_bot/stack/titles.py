"""Titles of the FAQ entries the checker cites besides the cards' own entries (looked up
in the corpus by `faq_bot.stack.rules`): what `validate` says an illegal stack breaks and what
`resolve` says justifies each step."""

from __future__ import annotations

AKTIONSSTAPEL = "Aktionsstapel"
AKTIONEN = "Aktionen"
AKTIONSKARTEN = "Aktionskarten"
OPFERN = "Opfern"
TECHNOLOGIEWERTE = "Technologiewerte"
SCHADEN = "Schaden"
ABWERFEN = "Abwerfen"
ANGRIFFSDEKLARATIONSPHASE = "Angriffsdeklarationsphase"
SPERREN = "Sperren/Entsperren"
GENERAL_RULE_TITLES = (
    SPERREN,
    AKTIONSSTAPEL,
    AKTIONEN,
    AKTIONSKARTEN,
    OPFERN,
    TECHNOLOGIEWERTE,
    SCHADEN,
    ABWERFEN,
    ANGRIFFSDEKLARATIONSPHASE,
)
