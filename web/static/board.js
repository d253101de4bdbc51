// Moves made on the board. The game page carries the reader's legal moves as data
// (<script type="application/json" id="moves">: each move's notation, its words, the board parts
// that pick it in order, and the parts it changes; the parts in words), all decided by the
// server. Here a click, a tap or Enter on a part picks it; the parts that can follow are
// highlighted; once the picks name one move, its words are shown with "Play this move", which
// posts the page's move form with its notation. Nothing is picked before the person picks.
// Without this script the board is a picture and the buttons and forms above it make the move.
(function () {
  "use strict";
  const VERB = "do:";
  // the page's words, in its language (web.i18n.script_words), their %(name)s filled in
  const WORDS = JSON.parse((document.getElementById("words") || {}).textContent || "{}");
  function word(key, values) {
    return (WORDS[key] || "").replace(/%\((\w+)\)s/g, (_, name) => (values || {})[name] ?? "");
  }

  function setUp() {
    const data = document.getElementById("moves");
    const picker = document.getElementById("picker");
    const board = document.querySelector(".board-frame");
    if (!data || !picker || !board || picker.dataset.ready) return;
    let offer;
    try {
      offer = JSON.parse(data.textContent);
    } catch (error) {
      return;
    }
    // the parts by name, and the moves: [notation, words, parts picked, parts changed]
    const names = offer.parts || [];
    const labels = {};
    names.forEach((name, i) => {
      labels[name] = (offer.labels || [])[i] || name;
    });
    const moves = (offer.moves || [])
      .map(([notation, words, picked, changed]) => ({
        notation,
        words,
        parts: picked.map((i) => names[i]),
        changes: changed.map((i) => names[i]),
      }))
      .filter((m) => m.parts.length);
    if (!moves.length) return;
    picker.dataset.ready = "yes";
    const prompt = document.getElementById("picker-prompt");
    const preview = document.getElementById("picker-preview");
    const form = picker.querySelector("form");
    const notation = form.querySelector('input[name="notation"]');
    const confirm = form.querySelector('button[type="submit"]');
    const cancel = picker.querySelector(".picker-cancel");
    const verbs = picker.querySelector(".picker-verbs");

    // every part drawn on the board, by name; those some move picks become buttons
    const drawn = new Map();
    for (const element of board.querySelectorAll("[data-part]")) {
      drawn.set(element.dataset.part, element);
    }
    const pickable = new Map();
    for (const name of new Set(moves.flatMap((m) => m.parts))) {
      let element = drawn.get(name);
      if (!element && name.startsWith(VERB)) {
        element = document.createElement("button");
        element.type = "button";
        element.className = "secondary verb";
        element.dataset.part = name;
        element.textContent = labels[name] || name.slice(VERB.length);
        verbs.appendChild(element);
        drawn.set(name, element);
      }
      if (!element) continue; // not drawn: that move stays in the forms above
      if (!name.startsWith(VERB)) {
        // its name: what it shows, then what it is ("12: your side, column 3: the 12")
        const shown = element.textContent.replace(/\s+/g, " ").trim();
        const words = labels[name] || name;
        element.setAttribute("role", "button");
        element.tabIndex = 0;
        element.setAttribute("aria-label", shown && shown !== words ? shown + ": " + words : words);
      }
      element.classList.add("part");
      pickable.set(name, element);
    }
    const offered = moves.filter((m) => m.parts.every((name) => pickable.has(name)));
    const firsts = new Set(offered.map((m) => m.parts[0]));
    let picks = [];

    function following() {
      const matching = offered.filter((m) => picks.every((name, i) => m.parts[i] === name));
      const next = new Set();
      let chosen = null;
      for (const m of matching) {
        if (m.parts.length > picks.length) next.add(m.parts[picks.length]);
        else chosen = m;
      }
      return { next, chosen };
    }

    function render() {
      const { next, chosen } = following();
      for (const [name, element] of pickable) {
        const picked = picks.includes(name);
        element.classList.toggle("can-pick", next.has(name));
        element.classList.toggle("picked", picked);
        element.setAttribute("aria-pressed", picked ? "true" : "false");
        element.setAttribute("aria-disabled", next.has(name) || picked ? "false" : "true");
      }
      const changed = new Set(chosen ? chosen.changes : []);
      for (const [name, element] of drawn) element.classList.toggle("preview", changed.has(name));
      notation.value = chosen ? chosen.notation : "";
      confirm.hidden = !chosen;
      preview.hidden = !chosen;
      preview.textContent = chosen ? chosen.words : "";
      cancel.hidden = picks.length === 0;
      prompt.hidden = !!chosen;
      if (chosen) {
        prompt.textContent = "";
      } else if (!picks.length) {
        prompt.textContent = word(verbs.children.length ? "pick_start_or_button" : "pick_start");
      } else {
        const names = [...next].map((name) => labels[name] || name);
        prompt.textContent =
          names.length <= 6
            ? word("pick_next", { parts: names.join(word("pick_next_or")) })
            : word("pick_one");
      }
    }

    function pick(name) {
      const { next } = following();
      if (next.has(name)) picks.push(name);
      else if (picks.length && picks[picks.length - 1] === name) picks.pop();
      else if (firsts.has(name)) picks = [name];
      else return;
      // the person is choosing: the page must not be redrawn under them (live.js)
      picker.dispatchEvent(new Event("change", { bubbles: true }));
      render();
    }

    function partOf(target) {
      let element = target.closest("[data-part]");
      while (element && pickable.get(element.dataset.part) !== element) {
        element = element.parentElement && element.parentElement.closest("[data-part]");
      }
      return element;
    }

    function onClick(event) {
      const element = partOf(event.target);
      if (!element) return;
      event.preventDefault();
      pick(element.dataset.part);
    }

    board.addEventListener("click", onClick);
    verbs.addEventListener("click", onClick);
    function clear() {
      picks = [];
      render();
    }

    picker.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && picks.length) clear();
    });
    board.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && picks.length) {
        clear();
        return;
      }
      if (event.key !== "Enter" && event.key !== " ") return;
      const element = partOf(event.target);
      if (!element || element !== event.target) return;
      event.preventDefault();
      pick(element.dataset.part);
    });
    cancel.addEventListener("click", clear);
    form.addEventListener("submit", (event) => {
      if (!notation.value) event.preventDefault();
      else confirm.disabled = true; // sent once
    });
    picker.hidden = false;
    const hint = document.getElementById("pick-hint");
    if (hint) hint.hidden = false;
    render();
  }

  setUp();
  // live.js redraws the page when the game moves on: set the new board up as well
  const main = document.querySelector("main");
  if (main && window.MutationObserver) {
    new MutationObserver(setUp).observe(main, { childList: true });
  }
})();
