// A game page's table talk (the section #chat of _chat.html): new messages appear as they are
// written, from the game's event stream that static/live.js opens (its MessageSent events,
// which live.js leaves alone), and the form sends a message without leaving the page. Without JavaScript the form
// posts and the page comes back with the message. What the player is typing survives the
// page being redrawn by live.js when the game moves, and typing is not taken by live.js for
// the choice of a move.
(function () {
  "use strict";
  const section = document.getElementById("chat");
  if (!section || !section.dataset.stream || !window.fetch) return;
  let draft = "";
  let busy = false;
  // the page's words, in its language (web.i18n.script_words), their %(name)s filled in
  const WORDS = JSON.parse((document.getElementById("words") || {}).textContent || "{}");
  function word(key, values) {
    return (WORDS[key] || "").replace(/%\((\w+)\)s/g, (_, name) => (values || {})[name] ?? "");
  }

  // a message being typed is not a move being chosen: live.js keeps redrawing the page
  document.addEventListener("change", (event) => {
    if (event.target.closest && event.target.closest("#chat")) event.stopPropagation();
  }, true);
  document.addEventListener("input", (event) => {
    if (event.target.id === "chat-text") draft = event.target.value;
  });

  function say(text) {
    const status = document.getElementById("chat-status");
    if (status) status.textContent = text;
  }

  // the messages of a fresh copy of the page (a GET, or the page a POST ends on)
  function takeMessages(html) {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    const list = fresh.getElementById("chat-messages");
    const mine = document.getElementById("chat-messages");
    if (!list || !mine) return fresh;
    mine.innerHTML = list.innerHTML;
    const empty = document.getElementById("chat-empty");
    if (empty && list.children.length) empty.remove();
    return fresh;
  }

  async function refresh() {
    const answer = await fetch(location.pathname, { headers: { Accept: "text/html" } });
    if (answer.ok) takeMessages(await answer.text());
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (form.id !== "chat-form") return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    say(word("chat_sending"));
    try {
      const answer = await fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        credentials: "same-origin",
      });
      const fresh = takeMessages(await answer.text());
      if (answer.ok) {
        draft = "";
        const input = document.getElementById("chat-text");
        if (input) input.value = "";
        say(word("chat_sent"));
      } else {
        const problem = fresh.querySelector(".problem");
        say(problem ? problem.textContent : word("chat_not_sent"));
      }
    } catch (error) {
      say(word("chat_not_reached"));
    } finally {
      busy = false;
    }
  });

  // live.js redraws the whole page when the game moves: put the draft back
  const main = document.querySelector("main");
  if (main && window.MutationObserver) {
    new MutationObserver(() => {
      const input = document.getElementById("chat-text");
      if (!input || !draft || input.value) return;
      input.value = draft;
      input.focus();
    }).observe(main, { childList: true });
  }

  // the page's one event stream (live.js opens it: each stream holds one of the few a player
  // may have open); a page without live.js opens its own
  if (!window.EventSource) return;
  let stream = window.turnpostStream;
  if (!stream) {
    stream = new EventSource(section.dataset.stream + "?after=" + section.dataset.version);
    stream.addEventListener("GameEnded", () => { stream.close(); });
  }
  stream.addEventListener("MessageSent", () => { refresh(); });
})();
