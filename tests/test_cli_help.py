"""CLI help: everything a user reads in `faq-bot … --help` is German.

Only click's fixed frame words ("Usage", "Options", "Commands", "[OPTIONS]",
"COMMAND", "[ARGS]") stay English.
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from faq_bot.cli import main

COMMANDS = ["index", "search", "show", "ask", "check", "eval", "serve"]
CLICK_FRAME = re.compile(r"Usage:|Options:|Commands:|\[OPTIONS\]|COMMAND|\[ARGS\]")
# words of click's English defaults and of the help texts the CLI used to have
ENGLISH = {
    "the",
    "of",
    "and",
    "with",
    "this",
    "print",
    "show",
    "folder",
    "only",
    "list",
    "line",
    "per",
    "instead",
    "default",
    "message",
    "address",
    "listen",
    "entries",
    "questions",
    "directory",
    "integer",
    "range",
    "text",
    "query",
    "question",
    "file",
}


def help_text(*args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--help"], prog_name="faq-bot")
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_of_every_command_is_german(command):
    text = help_text(*([command] if command else []))
    # option names (--json) and command names (show) are identifiers, not prose
    prose = re.sub(r"(?<!\w)--?[\w-]+", " ", CLICK_FRAME.sub(" ", text))
    prose = re.sub(rf"\b({'|'.join(COMMANDS)})\b", " ", prose)
    english = sorted({w for w in re.findall(r"[A-Za-z]+", prose) if w.lower() in ENGLISH})
    assert not english, f"English words in `faq-bot {command} --help`: {english}\n{text}"


@pytest.mark.parametrize("command", COMMANDS)
def test_help_option_is_described_in_german(command):
    assert "Diese Hilfe zeigen und beenden." in help_text(command)


def test_help_names_the_defaults_in_german():
    text = help_text("search")
    assert "(Standard: 10)" in text
    assert "(Standard: ./corpus)" in text
    assert "[default:" not in text


@pytest.mark.parametrize("command", COMMANDS)
def test_help_lists_every_option_with_words_and_no_range_in_symbols(command):
    """A CLI review: with click 8.5 each argument ("[SUCHBEGRIFF]...") was a row of its own
    among the options, with no text, and click's "[1<=x<=100]" was appended to numbers."""
    result = CliRunner().invoke(main, [command, "--help"], prog_name="faq-bot")
    assert "Optionen:\n" in result.output, result.output
    options = result.output.split("Optionen:\n", 1)[1]
    rows = [line for line in options.splitlines() if re.match(r"  \S", line)]
    assert rows and all(re.match(r"  -", row) for row in rows), rows
    assert "<=" not in result.output


def test_help_says_the_range_of_each_number_in_words():
    """A code review: without click's "[1<=x<=100]" only --folds said its range."""
    assert "1 bis 100 (Standard: 10)" in help_text("search")
    assert "1 bis 65535 (Standard: 5000)" in help_text("serve")
    assert "1 bis 64 (Standard: 2 × Kerne + 1, höchstens 8)" in help_text("serve")
    assert "2 bis 20 (Standard: 5)" in help_text("eval")


def test_version_message_is_german():
    result = CliRunner().invoke(main, ["--version"], prog_name="faq-bot")
    assert result.exit_code == 0
    assert re.fullmatch(r"faq-bot, Version \S+\n", result.output)


@pytest.mark.parametrize("module", ["faq_bot", "faq_bot.cli"])
def test_the_cli_runs_as_a_module_too(module):
    """``python -m faq_bot`` (and ``-m faq_bot.cli``, which two helpers tried) is the same
    command as ``faq-bot``: it exited 0 doing nothing, or could not be run at all."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr[-300:]
    assert "Regeln und FAQ nachschlagen" in run.stdout
    assert "index" in run.stdout and "check" in run.stdout
