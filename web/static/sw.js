// turnpost's service worker (served as /sw.js, so that it covers every page): it shows each
// push message as a notification and, when the notification is clicked, opens the game's page
// (or brings forward a window that shows it). A message is JSON (the PushMessage schema of the
// API's document): title, body, url, tag (the game: a newer notification replaces the older).
"use strict";

// The words of a notification whose message says none, in the reader's language: /sw.js is
// served with them in place of this empty object (web/push.py), as a page carries its
// scripts' words.
const WORDS = {};

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// A page of this site only: a message's address is read for its path and query, never
// followed to another origin.
function here(address) {
  try {
    const url = new URL(address, self.location.origin);
    return new URL(url.pathname + url.search, self.location.origin).href;
  } catch (err) {
    return new URL("/games", self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (err) {
    message = {};
  }
  const options = {
    body: message.body || WORDS.something_happened,
    data: { url: here(message.url || "/games") },
  };
  if (message.tag) {
    options.tag = message.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(message.title || "turnpost", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = (event.notification.data && event.notification.data.url) || here("/games");
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of open) {
        if (client.url === target && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(target);
    })(),
  );
});
