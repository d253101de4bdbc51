// A game's page follows the game's event stream (the session cookie signs it in, same origin)
// and redraws itself when the game moves. Without JavaScript, reloading the page does the same.
(function () {
  "use strict";
  const main = document.querySelector("main[data-stream]");
  if (!main || !window.EventSource || !window.fetch) return;
  let version = Number(main.dataset.version);
  let touched = false; // the player has started to choose a move: never redraw under them
  main.addEventListener("change", () => { touched = true; });
  const stream = new EventSource(main.dataset.stream + "?after=" + version);
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
    if (live) live.textContent = "The game has moved on: reload the page to see it.";
  }

  async function redraw() {
    if (touched) return movedOn();
    let next;
    try {
      const answer = await fetch(location.pathname, {
        headers: { Accept: "text/html" },
        signal: leaving.signal,
      });
      if (!answer.ok) return;
      const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
      next = fresh.querySelector("main");
    } catch (error) {
      return; // the page is going
    }
    if (!next) return;
    if (touched) return movedOn();
    main.innerHTML = next.innerHTML;
    version = Number(next.dataset.version || version);
    main.dataset.version = String(version);
    const said = document.getElementById("live");
    if (said) said.textContent = "The game has moved on: the page shows it now.";
    if (!next.dataset.stream) stream.close(); // the game is over
  }

  for (const type of main.dataset.events.split(" ")) {
    stream.addEventListener(type, (event) => {
      if (Number(event.lastEventId) > version) redraw();
    });
  }
})();
