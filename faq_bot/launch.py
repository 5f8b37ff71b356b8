"""The ``faq-bot`` command's entry point: loads `faq_bot.cli` and runs it.

Loading the command's modules (click, the stages) takes ~90 ms; Ctrl+C in that
time raised KeyboardInterrupt out of the import, before `faq_bot.cligerman`
could say „Abgebrochen.“, and printed a traceback. This module imports nothing
heavy, so the interrupt ends the same way here as later.
"""

from __future__ import annotations

import contextlib
import signal
import sys

# what Ctrl+C says, here and in `faq_bot.cligerman`
ABORTED = "Abgebrochen."
# 128 + the signal's number, as shells report a process the signal ended
ABORTED_STATUS = 128 + signal.SIGINT


def run() -> None:
    """``faq-bot``: the command group, as `faq_bot.cli.main`."""
    try:
        from faq_bot.cli import main
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError):  # stderr full or closed
            sys.stderr.write(f"\n{ABORTED}\n")
        sys.exit(ABORTED_STATUS)
    main(prog_name="faq-bot")
