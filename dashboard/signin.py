"""Sign-in and sign-out of the dashboard: a plain HTML form (no Dash, so that nothing of the
store is served before the token is checked) that keeps the token in an HttpOnly cookie."""
from __future__ import annotations

from html import escape

import flask

from api.security import TokenStore
from dashboard.access import COOKIE, PUBLIC_BANNER, SIGN_IN, SIGN_OUT, current_reader, reader_of, safe_next

COOKIE_DAYS = 30
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Umpire · Sign in</title>
<link rel="stylesheet" href="/assets/umpire.css"></head>
<body><nav class="nav"><span class="brand">Umpire</span><a href="/">Games</a></nav>{banner}
<main class="sign-in"><h2>Sign in</h2>
<p>Paste a token from <code>umpire token issue</code> (or open the sign-in link it prints with
<code>--link</code>). This browser keeps it (an HttpOnly cookie,
for {days} days or until you sign out); the dashboard then shows what the API would show the token.</p>
<p class="who">You are {who}.</p>{error}
<form method="post" action="{action}" id="sign-in-form">
<input type="hidden" name="next" value="{next}">
<label for="token">Token</label>
<input id="token" name="token" type="password" class="token" placeholder="umpire_…" autocomplete="off" required>
<button id="sign-in-submit" type="submit">Sign in</button></form></main>
<script>
// A sign-in link (`umpire token issue --link URL`) carries the token after "#": a fragment never
// reaches a server or its logs. The page takes it out of the address and sends the form once.
(function () {{
  var found = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  if (!found || document.getElementById("sign-in-error")) {{ return; }}
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  document.getElementById("token").value = decodeURIComponent(found[1]);
  document.getElementById("sign-in-form").submit();
}})();
</script></body></html>"""


def _page(error: str = "", status: int = 200, public: bool = False) -> flask.Response:
    body = PAGE.format(
        banner=f'<div class="public-banner">{escape(PUBLIC_BANNER)}</div>' if public else "",
        days=COOKIE_DAYS, who=escape(current_reader().describe()), action=SIGN_IN,
        error=f'<p class="error" id="sign-in-error">{escape(error)}</p>' if error else "",
        next=escape(safe_next(flask.request.values.get("next"))))
    response = flask.make_response(body, status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _cross_site() -> bool:
    """A form posted from another site's page (browsers say so in Sec-Fetch-Site)."""
    return flask.request.headers.get("Sec-Fetch-Site", "same-origin") == "cross-site"


def install_routes(server: flask.Flask, tokens: TokenStore, public: bool) -> None:
    """GET/POST /sign-in and POST /sign-out on the dashboard's Flask server."""

    def sign_in() -> flask.Response:
        if flask.request.method == "GET":
            return _page(public=public)
        if _cross_site():
            return _page("sign in from this server's own page", 403, public)
        token = flask.request.form.get("token", "").strip()
        if reader_of(tokens, token, public).principal is None:
            return _page("unknown or revoked token", 401, public)
        response = flask.redirect(safe_next(flask.request.form.get("next")), 303)
        response.set_cookie(COOKIE, token, max_age=COOKIE_DAYS * 86400, httponly=True, samesite="Strict",
                            secure=flask.request.is_secure, path="/")
        return response

    def sign_out() -> flask.Response:
        if _cross_site():
            return _page("sign out from this server's own page", 403, public)
        response = flask.redirect("/" if public else SIGN_IN, 303)
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="Strict")
        return response

    server.add_url_rule(SIGN_IN, "umpire_sign_in", sign_in, methods=["GET", "POST"])
    server.add_url_rule(SIGN_OUT, "umpire_sign_out", sign_out, methods=["POST"])
