"""``python -m faq_bot``: the ``faq-bot`` command (`faq_bot.cli.main`)."""

from faq_bot.cli import main

if __name__ == "__main__":
    main(prog_name="faq-bot")
