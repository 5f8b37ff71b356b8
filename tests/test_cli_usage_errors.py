"""CLI usage errors: click's own messages come out German, with exit code 2.

A usage error prints "Fehler: …", the command's usage line ("Aufruf: …") and
"Hilfe: faq-bot <befehl> --help" on stderr. None of click's English sentences
("Error:", "Try … for help.", "No such option", "Missing argument", "is not in
the range", "is not a valid integer") may reach the user.
"""

from __future__ import annotations

import importlib.abc
import os
import re
import signal
import sys

import click
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from faq_bot.cli import main
from faq_bot.cligerman import GermanIntRange, GermanPath
from faq_bot.launch import run as launch

CLICK_ENGLISH = re.compile(
    r"Error:|Try '|for help|No such|Missing|Invalid value|not in the range|"
    r"not a valid|unexpected extra|requires an argument|does not take|Aborted|"
    r"is a directory|is a file",
)


def run(*args: str):
    return CliRunner().invoke(main, list(args), prog_name="faq-bot")


def assert_german_usage_error(result, command: str) -> str:
    assert result.exit_code == 2, result.output
    assert not CLICK_ENGLISH.search(result.output), result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith("Fehler: ")
    assert lines[1].startswith(f"Aufruf: faq-bot {command}".rstrip())
    assert lines[2] == f"Hilfe: faq-bot {command} --help".replace("  ", " ")
    return lines[0]


def test_usage_error_unknown_option_is_german_and_names_it():
    message = assert_german_usage_error(run("search", "--bogus", "Stapel"), "search")
    assert "Unbekannte Option „--bogus“" in message


def test_usage_error_unknown_option_suggests_the_close_one():
    message = assert_german_usage_error(run("search", "--jsn", "Stapel"), "search")
    assert message.endswith("Meinten Sie --json?")


def test_usage_error_unknown_option_of_the_group():
    message = assert_german_usage_error(run("--bogus"), "")
    assert "Unbekannte Option „--bogus“" in message


@pytest.mark.parametrize(
    ("command", "metavar"), [("show", "ID"), ("check", "DATEI|-"), ("eval", "DATEI")]
)
def test_usage_error_missing_argument_is_german(command, metavar):
    message = assert_german_usage_error(run(command), command)
    assert message == f"Fehler: Es fehlt das Argument „{metavar}“."


@pytest.mark.parametrize("value", ["0", "101", "-3"])
def test_usage_error_n_out_of_range_is_german(value):
    message = assert_german_usage_error(run("search", "-n", value, "Stapel"), "search")
    assert message == (
        f"Fehler: Ungültiger Wert für „-n“: „{value}“ liegt nicht zwischen 1 und 100."
    )


@pytest.mark.parametrize("digits", [4000, 5000])  # 5,000: more than Python converts
def test_a_huge_n_is_said_back_cut_and_out_of_range(digits):
    # a probe: 4,000 nines said back whole; 5,000 called „keine ganze Zahl“
    message = assert_german_usage_error(run("search", "-n", "9" * digits, "Stapel"), "search")
    assert message == (
        f"Fehler: Ungültiger Wert für „-n“: „{'9' * 39}…“ liegt nicht zwischen 1 und 100."
    )


@pytest.mark.parametrize("value", ["abc", "1.5", "", "zehn"])
def test_usage_error_n_not_an_integer_is_german(value):
    message = assert_german_usage_error(run("search", "-n", value, "Stapel"), "search")
    said = f"„{value}“" if value else "„“ (leer oder nur unsichtbare Zeichen)"
    assert message == f"Fehler: Ungültiger Wert für „-n“: {said} ist keine ganze Zahl."


def test_usage_error_port_out_of_range_is_german():
    message = assert_german_usage_error(run("serve", "--port", "70000"), "serve")
    assert "„70000“ liegt nicht zwischen 1 und 65535" in message


def test_usage_error_option_without_its_value_is_german():
    message = assert_german_usage_error(run("search", "Stapel", "-n"), "search")
    assert message == "Fehler: Die Option „-n“ braucht einen Wert."


def test_usage_error_flag_given_a_value_is_german():
    message = assert_german_usage_error(run("search", "--json=ja", "Stapel"), "search")
    assert message == "Fehler: Die Option „--json“ nimmt keinen Wert an."


def test_usage_error_extra_argument_is_german():
    message = assert_german_usage_error(run("show", "eins", "zwei"), "show")
    assert message == "Fehler: Zu viele Argumente: „zwei“."


def test_usage_error_unknown_command_is_german_and_suggests():
    message = assert_german_usage_error(run("serch", "Stapel"), "")
    assert message.startswith("Fehler: Unbekannter Befehl „serch“.")
    assert "search" in message


def test_usage_error_folder_given_as_file_is_german(tmp_path):
    message = assert_german_usage_error(run("eval", str(tmp_path)), "eval")
    assert message.endswith(f"„{tmp_path}“ ist ein Ordner, keine Datei.")


def test_usage_error_file_given_as_folder_is_german(tmp_path):
    file = tmp_path / "datei.txt"
    file.write_text("x", encoding="utf-8")
    message = assert_german_usage_error(run("index", "--corpus", str(file)), "index")
    assert (
        message == f"Fehler: Ungültiger Wert für „--corpus“: „{file}“ ist eine Datei, kein Ordner."
    )


@pytest.mark.parametrize(("command", "option"), [("index", "--index"), ("search", "--corpus")])
def test_usage_error_a_device_given_as_folder_is_german(command, option):
    # a CLI probe: `--index /dev/null` passed (click refuses only regular files), said „Kein
    # Index gefunden“, built the whole index and then could not write it („Rechte prüfen“)
    args = ["x"] if command == "search" else []
    message = assert_german_usage_error(run(command, option, "/dev/null", *args), command)
    assert message.endswith("„/dev/null“ ist kein Ordner.")


def test_usage_error_an_unreadable_folder_says_why(tmp_path, monkeypatch):
    # a CLI probe (not as root): a folder without read permission was „kann nicht verwendet
    # werden“, without a reason; the check is click's os.access, so it is what is refused here
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: mode != os.R_OK and real_access(p, mode))
    message = assert_german_usage_error(run("index", "--corpus", str(tmp_path)), "index")
    assert message.endswith(f"„{tmp_path}“ kann nicht gelesen werden (keine Berechtigung).")


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["search", "--help"]])
def test_help_and_version_into_a_closed_pipe_stop_quietly_as_a_pipe_writer(args):
    """A CLI probe: `faq-bot --help | true` exited 1 („nothing found“; click's own
    handling of a closed pipe), `faq-bot search --help | true` 141 as shells expect."""
    import subprocess
    import sys

    from faq_bot.cligerman import PIPE_CLOSED

    read_end, write_end = os.pipe()
    os.close(read_end)  # every write fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from faq_bot.cli import main; main()", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (PIPE_CLOSED, b"")


def test_usage_error_no_command_still_shows_the_help():
    result = run()
    assert "Regeln und FAQ nachschlagen" in result.output
    assert not CLICK_ENGLISH.search(result.output)


def test_interrupt_says_abgebrochen_in_german_and_exits_130(monkeypatch, tmp_path):
    """Ctrl-C exits 128 + SIGINT as shells expect, not 1, which says „nothing found“."""
    import faq_bot.indexbuild

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(faq_bot.indexbuild, "build_index", interrupted)
    result = run("index", "--index", str(tmp_path / "ix"))
    assert result.exit_code == 130
    assert "Abgebrochen." in result.stderr
    assert not CLICK_ENGLISH.search(result.output)


@pytest.fixture
def sigint_restored():
    """`launch` ignores Ctrl+C once it has said „Abgebrochen.“: the test process gets its
    own handler back."""
    before = signal.getsignal(signal.SIGINT)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize(("code", "deaf"), [(130, True), (143, True), (1, False), (0, False)])
def test_the_command_ignores_a_second_ctrl_c_once_it_has_said_abgebrochen(
    monkeypatch, sigint_restored, code, deaf
):
    """A second Ctrl+C while Python shut down (its default handler back by then) ended the
    process by the signal, silently: -2 instead of 130 (a test, on a loaded machine)."""
    import faq_bot.cli

    def ends(**kwargs):
        raise SystemExit(code)

    monkeypatch.setattr(faq_bot.cli, "main", ends)
    with pytest.raises(SystemExit) as ended:
        launch()
    assert ended.value.code == code  # the status as the command ended
    assert (signal.getsignal(signal.SIGINT) is signal.SIG_IGN) == deaf


def test_interrupt_while_the_command_loads_says_abgebrochen_not_a_traceback(
    monkeypatch, capsys, sigint_restored
):
    """Ctrl+C in the ~90 ms the command's modules load ends as it does later."""

    class Interrupted(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "faq_bot.cli":
                raise KeyboardInterrupt
            return None

    monkeypatch.delitem(sys.modules, "faq_bot.cli")
    monkeypatch.setattr(sys, "meta_path", [Interrupted(), *sys.meta_path])
    with pytest.raises(SystemExit) as stopped:
        launch()
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "\nAbgebrochen.\n"
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # a second press changes nothing


def test_every_parameter_type_fails_in_german():
    """A parameter whose type can reject a value must use a German type."""
    assert isinstance(main, click.Group)
    for command in [main, *main.commands.values()]:
        for param in command.params:
            flag = isinstance(param, click.Option) and param.is_flag  # takes no value
            can_fail = not flag and not isinstance(param.type, click.types.StringParamType)
            assert not can_fail or isinstance(param.type, GermanIntRange | GermanPath), (
                f"{command.name} {param.name}: {param.type!r} has English errors"
            )


@given(st.text(max_size=12))
def test_any_invalid_n_gets_a_german_error(value):
    try:
        valid = 1 <= int(value) <= 100
    except ValueError:
        valid = False
    if valid or value.startswith("-") and value.lstrip("-").isalpha():
        return  # a valid count would run the search; "-x" is read as an option
    result = run("search", "-n", value, "Stapel")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("Fehler: ")
    assert not CLICK_ENGLISH.search(result.output), result.output


BIDI = "\u202e"  # RIGHT-TO-LEFT OVERRIDE


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["search", f"--js{BIDI}on" + "x" * 100_000, "Stapel"], "search"),
        ([f"serch{BIDI}" + "x" * 100_000], ""),
        (["show", "a", f"b{BIDI}c", "x" * 100_000], "show"),
    ],
)
def test_a_usage_error_says_back_what_was_typed_cleaned_and_short(args, command):
    """A CLI probe: an unknown option of 100,000 characters was said back whole (100 KB on
    stderr), a bidi control in it turned the rest of the line around."""
    message = assert_german_usage_error(run(*args), command)
    assert BIDI not in message and len(message) < 300, message[:300]
