"""The language a request is answered in, for every page the product serves (the scoreboard
and the club page): the page's own switch (?lang=), else the cookie that switch leaves, else
the browser's Accept-Language, else the default."""

from __future__ import annotations

from flask import Flask, Response, g, request

from nardy_pi.web.i18n import LANGUAGES, choose_language

LANG_COOKIE = "nardy_lang"
_REMEMBERED_S = 365 * 86400


def answer_in_chosen_language(app: Flask) -> None:
    """Set `g.lang` before each request; after it, remember an explicit switch in a cookie,
    and tell caches that the answer depends on the language."""

    @app.before_request
    def pick_language() -> None:
        explicit = request.args.get("lang")
        browser = request.accept_languages.best_match(LANGUAGES)
        g.lang = choose_language(explicit, request.cookies.get(LANG_COOKIE), browser)
        g.remember_lang = explicit in LANGUAGES

    @app.after_request
    def remember_language(response: Response) -> Response:
        if getattr(g, "remember_lang", False):
            response.set_cookie(LANG_COOKIE, g.lang, max_age=_REMEMBERED_S, samesite="Lax",
                                httponly=True)
        response.headers.setdefault("Vary", "Accept-Language, Cookie")
        return response
