"""A page on another origin, in a real browser (headless Chromium driven by Playwright), plays a
move with fetch and follows the game with an EventSource, authenticated by a stream ticket
(an EventSource cannot send the Authorization header). The API allows that origin by
CORS_ORIGINS; the page is served by its own HTTP server on another port."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import sync_playwright

from store.embedded import free_port
from tests.e2e.server import Client, LiveServer

CHROMIUM = "/usr/bin/chromium-headless-shell"  # installed by `make test` (the browser target)

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>a client</title></head>
<body><script>
window.events = [];
const base = "%(api)s", game = "%(game)s";
const auth = {Authorization: "Bearer %(token)s"};
(async () => {
  const made = await fetch(base + "/v1/players/me/stream-ticket", {method: "POST", headers: auth});
  const {ticket} = await made.json();
  const stream = new EventSource(
    base + "/v1/games/" + game + "/stream?ticket=" + encodeURIComponent(ticket));
  stream.addEventListener("ActionTaken", (e) => window.events.push(JSON.parse(e.data)));
  stream.onopen = async () => {
    const legal = await (await fetch(base + "/v1/games/" + game + "/legal-moves",
                                     {headers: auth})).json();
    window.played = legal.moves[0].notation;
    const answer = await fetch(base + "/v1/games/" + game + "/moves", {
      method: "POST", headers: {...auth, "Content-Type": "application/json"},
      body: JSON.stringify({notation: legal.moves[0].notation,
                            expected_version: legal.version})});
    window.moveStatus = answer.status;
  };
})();
</script></body></html>"""


class PageServer:
    """Serves one HTML page on its own port: another origin than the API's."""

    def __init__(self, port: int, html: str):
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                body = html.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.port = port
        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def test_a_page_on_another_origin_plays_and_follows_the_stream(valkey, browser):
    page_port = free_port()
    origin = f"http://127.0.0.1:{page_port}"
    api = LiveServer("--no-worker", redis_url=valkey.url, env={"CORS_ORIGINS": origin}).wait_ready()
    try:
        ada, bo = Client(api.url, "Ada"), Client(api.url, "Bo")
        bo.befriend(ada)
        game = ada.post("/v1/games", {"game": "ninedomains", "seats": [ada.id, bo.id]}).json()
        token = ada.headers["Authorization"].split()[1]
        html = PAGE % {"api": api.url, "game": game["id"], "token": token}
        pages = PageServer(page_port, html)
        assert pages.origin == origin != api.url
        page = browser.new_page()
        page.goto(origin + "/")
        page.wait_for_function(
            "window.moveStatus === 201 && window.events.length > 0", timeout=30000
        )
        seen = page.evaluate("window.events")
        assert seen[0]["type"] == "ActionTaken" and seen[0]["version"] == game["version"] + 1
        assert page.evaluate("window.played") == seen[0]["move"]
        pages.server.shutdown()
    finally:
        api.stop()
