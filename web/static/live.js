// A game's page follows the game's event stream (the session cookie signs it in, same origin)
// and redraws itself when the game moves, with the tab's title and the navigation's count of
// games waiting; a tournament's page likewise follows its tournament (data-subject names what
// moves). Without JavaScript, reloading the page does the same.
(function () {
  "use strict";
  const main = document.querySelector("main[data-stream]");
  if (!main || !window.EventSource || !window.fetch) return;
  const subject = main.dataset.subject || "game";
  // the page's words, in its language (web.i18n.script_words), their %(name)s filled in
  const WORDS = JSON.parse((document.getElementById("words") || {}).textContent || "{}");
  function word(key, values) {
    return (WORDS[key] || "").replace(/%\((\w+)\)s/g, (_, name) => (values || {})[name] ?? "");
  }
  let version = Number(main.dataset.version);
  let touched = false; // the player has started to choose a move: never redraw under them
  main.addEventListener("change", () => { touched = true; });
  // The page's one event stream, shared with its other scripts (chat.js listens on it). It
  // stays while the connection under it is made again: the server refuses a stream when the
  // player has the most open (those of pages just left count until their next keep-alive),
  // and EventSource gives up on a refusal; a new one a few seconds later, from the version
  // shown, misses nothing.
  const stream = new EventTarget();
  window.turnpostStream = stream;
  const types = new Set([...main.dataset.events.split(" "), "MessageSent", "GameEnded"]);
  let source = null;
  let over = false;
  function follow() {
    if (over) return;
    source = new EventSource(main.dataset.stream + "?after=" + version);
    for (const type of types) {
      source.addEventListener(type, (event) => {
        stream.dispatchEvent(
          new MessageEvent(type, { data: event.data, lastEventId: event.lastEventId })
        );
      });
    }
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) setTimeout(follow, 5000);
    });
  }
  stream.close = () => {
    over = true;
    if (source) source.close();
  };
  follow();
  // a move sent: the page is going, and the next one says what was played (a fetch of the
  // page now, on the event of that very move, would take that message from the session)
  const leaving = new AbortController();
  main.addEventListener("submit", (event) => {
    if (event.defaultPrevented) return;
    stream.close();
    leaving.abort();
  });

  function movedOn() {
    const live = document.getElementById("live");
    if (live) live.textContent = word(`${subject}_moved_reload`);
  }

  async function redraw() {
    if (touched) return movedOn();
    let fresh;
    try {
      const answer = await fetch(location.pathname, {
        headers: { Accept: "text/html" },
        signal: leaving.signal,
      });
      if (!answer.ok) return;
      fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
    } catch (error) {
      return; // the page is going
    }
    const next = fresh.querySelector("main");
    if (!next) return;
    // the answers to quick moves may come back out of order: never go back to an older one
    if (Number(next.dataset.version || version) < version) return;
    // the tab's title ("Your turn — ...") and the count of games waiting, as the page now says
    document.title = fresh.title;
    const games = document.querySelector('header a[href="/games"]');
    const freshGames = fresh.querySelector('header a[href="/games"]');
    if (games && freshGames) games.replaceWith(freshGames);
    if (touched) return movedOn();
    main.innerHTML = next.innerHTML;
    version = Number(next.dataset.version || version);
    main.dataset.version = String(version);
    const said = document.getElementById("live");
    if (said) said.textContent = word(`${subject}_moved_shown`);
    if (!next.dataset.stream) stream.close(); // the game is over
  }

  for (const type of main.dataset.events.split(" ")) {
    stream.addEventListener(type, (event) => {
      if (Number(event.lastEventId) > version) redraw();
    });
  }
})();
