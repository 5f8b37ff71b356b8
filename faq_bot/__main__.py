"""``python -m faq_bot``: the ``faq-bot`` command (`faq_bot.launch.run`)."""

from faq_bot.launch import run

if __name__ == "__main__":
    run()
