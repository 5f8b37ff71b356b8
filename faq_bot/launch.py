"""The ``faq-bot`` command's entry point: loads `faq_bot.cli` and runs it.

Loading the command's modules (click, the stages) takes ~90 ms; Ctrl+C in that
time raised KeyboardInterrupt out of the import, before `faq_bot.cligerman`
could say „Abgebrochen.“, and printed a traceback. This module imports nothing
heavy, so the interrupt ends the same way here as later.
"""

from __future__ import annotations

import sys

# what Ctrl+C says, here and in `faq_bot.cligerman`
ABORTED = "Abgebrochen."
# 128 + SIGINT's number (2), as shells report a process the signal ended; written out, as
# importing `signal` (it builds its enums) took a window of its own (a review)
ABORTED_STATUS = 130


def run() -> None:
    """``faq-bot``: the command group, as `faq_bot.cli.main`."""
    try:
        from faq_bot.cli import main
    except KeyboardInterrupt:
        try:
            sys.stderr.write(f"\n{ABORTED}\n")
        except (OSError, ValueError):  # stderr full or closed: the status still says it
            pass
        sys.exit(ABORTED_STATUS)
    main(prog_name="faq-bot")
