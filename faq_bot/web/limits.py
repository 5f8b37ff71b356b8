"""Limits the app and its server must agree on.

A share link of the checker (``/check?s=…``) is at most
`faq_bot.stack.permalink.MAX_PERMALINK` characters; the app refuses to create a
longer one (with a German message on the page). gunicorn refuses a longer
request line than its ``limit_request_line`` (default 4094) with a bare 414,
so the server must accept `MAX_REQUEST_LINE`: the gunicorn configuration
imports it::

    from faq_bot.web.limits import MAX_REQUEST_LINE
    limit_request_line = MAX_REQUEST_LINE

`tests/test_web_hardening.py` opens the longest link the app issues through a real
gunicorn started with this limit. The chat's form post redirects to an address of
nearly the same length (`faq_bot.web.ask.REDIRECT_CHARS`, derived from this limit), the
checker's to a share link with its notes (at most this long, else the post shows the
page itself, `faq_bot.web.check`); a proxy in front must pass a response header that
long (deploy/nginx.conf).
"""

from __future__ import annotations

from faq_bot.stack.permalink import MAX_PERMALINK

# "GET " + "/check?s=" + link + " HTTP/1.1", plus room for a path prefix and
# further query parameters; 8190 is the most gunicorn allows
MAX_REQUEST_LINE = 8190

REQUEST_LINE_OVERHEAD = len("GET /check?s= HTTP/1.1")

assert MAX_PERMALINK + REQUEST_LINE_OVERHEAD + 100 <= MAX_REQUEST_LINE
