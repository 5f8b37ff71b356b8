"""gunicorn config for production: the settings of `faq_bot.serving`.

    FAQ_BOT_INDEX=/srv/faq-bot/index FAQ_BOT_BEHIND_PROXY=1 \
        gunicorn -c deploy/gunicorn.conf.py -b 127.0.0.1:8001

(this file names the app, ``wsgi_app``; an app argument such as
``'faq_bot.web:create_app()'`` works as well).

Environment: ``FAQ_BOT_BIND`` (default 127.0.0.1:8000; ``-b`` wins),
``FAQ_BOT_WORKERS`` (default 2 x cores + 1, at most 8; set: 1 to 64), ``FAQ_BOT_ACCESS_LOG=1``
(access log on stderr), ``FAQ_BOT_INDEX``/``FAQ_BOT_CORPUS`` (built before the
workers fork when missing; gunicorn then starts again in its own place, so the workers do
not inherit the build's memory). `faq-bot serve` uses the same settings.
"""

import os
import sys

from faq_bot import serving

try:  # the settings every worker reads: a wrong one stops here, as `faq-bot serve` stops
    serving.check_environment()
    options = serving.settings()
    # the address too, unless gunicorn's own -b wins: here, before --daemon detaches (the
    # start hook checks what gunicorn merged, after it, with the error log only)
    if not serving.bind_given(sys.argv[1:], os.environ.get("GUNICORN_CMD_ARGS", "")):
        serving.check_bind(options["bind"][0])
except ValueError as exc:  # gunicorn would print a traceback for it (and exit 1)
    serving.stop_at(exc)

globals().update(options)
wsgi_app = serving.APP
on_starting = serving.on_starting
