// Notifications on this device, for the settings page. It registers the service worker
// (/sw.js) at once, but asks the browser's permission only when its button is pressed, never
// on its own; then it subscribes with the server's key (the section's data-push-key) and
// gives the subscription to the server, which lists the device. A device whose permission
// stands but whose subscription was made with an older key (the operator rotated it)
// subscribes again, without asking.
(function () {
  "use strict";
  const section = document.getElementById("push");
  if (!section) return;
  const form = document.getElementById("push-form");
  const button = document.getElementById("push-enable");
  const state = document.getElementById("push-state");
  const key = section.dataset.pushKey;
  // the page's words, in its language (web.i18n.script_words), their %(name)s filled in
  const WORDS = JSON.parse((document.getElementById("words") || {}).textContent || "{}");
  function word(key, values) {
    return (WORDS[key] || "").replace(/%\((\w+)\)s/g, (_, name) => (values || {})[name] ?? "");
  }

  function say(text) {
    state.textContent = text;
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(word("push_unable"));
    return;
  }

  function bytesOf(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    const text = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  }

  function madeWithOurKey(subscription) {
    const used = subscription.options && subscription.options.applicationServerKey;
    if (!used) return false;
    const ours = bytesOf(key);
    const theirs = new Uint8Array(used);
    return theirs.length === ours.length && theirs.every((b, i) => b === ours[i]);
  }

  // "Firefox on Android", from what the browser says of itself
  function deviceName() {
    const agent = navigator.userAgent;
    const browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox"
      : /Chrome\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : "A browser";
    const system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS"
      : /Windows/.test(agent) ? "Windows" : /Mac OS/.test(agent) ? "macOS"
      : /Linux/.test(agent) ? "Linux" : "";
    return system ? browser + " on " + system : browser;
  }

  async function keep(subscription) {
    const body = new URLSearchParams();
    body.set("csrf_token", form.elements.csrf_token.value);
    body.set("subscription", JSON.stringify(subscription));
    body.set("device", deviceName());
    const answer = await fetch(form.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    const said = await answer.json().catch(() => ({}));
    if (!answer.ok) throw new Error(said.message || "the server did not keep it");
    return said;
  }

  async function subscribe(registration) {
    const old = await registration.pushManager.getSubscription();
    if (old && !madeWithOurKey(old)) await old.unsubscribe();
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: bytesOf(key),
    });
    return keep(subscription);
  }

  navigator.serviceWorker
    .register("/sw.js", { scope: "/" })
    .then(async (registration) => {
      await navigator.serviceWorker.ready;
      section.dataset.worker = "ready";
      const current = await registration.pushManager.getSubscription();
      if (Notification.permission === "granted" && current && !madeWithOurKey(current)) {
        await subscribe(registration);
        say(word("push_renewed"));
      }
      button.hidden = false;
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          const permission = await Notification.requestPermission();
          if (permission === "denied") {
            say(word("push_blocked"));
            return;
          }
          if (permission !== "granted") {
            say(word("push_not_allowed"));
            return;
          }
          await subscribe(registration);
          location.hash = "push";
          location.reload(); // the list then shows this device
        } catch (err) {
          say(word("push_failed", { why: err.message }));
        } finally {
          button.disabled = false;
        }
      });
    })
    .catch((err) => say(word("push_no_worker", { why: err.message })));
})();
