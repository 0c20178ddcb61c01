// The app's service worker (served at /sw.js so that it controls the whole site).
//
// It keeps the lobby's shell (the page, its scripts and styles, the icons) so that the
// lobby opens without a network and says it is offline. It never answers an API request,
// a table's state or a socket from a cache: those always go to the server, and fail when
// it cannot be reached, so no page ever shows an old state as if it were fresh.
// It also shows the notices the server pushes, and opens the table when one is clicked.

const SHELL_CACHE = "boneyard-shell-v2";
const SHELL = [
  "/",
  "/manifest.webmanifest",
  "/static/app.css",
  "/static/lobby.js",
  "/static/bots.js",
  "/static/core/api.js",
  "/static/core/tiles.js",
  "/static/core/rulesform.js",
  "/static/friends/friends.css",
  "/static/friends/lobby.js",
  "/static/friends/common.js",
  "/static/notices/notices.js",
  "/static/notices/notices.css",
  "/static/icons/domino.svg",
  "/static/icons/domino-192.png",
  "/static/icons/domino-512.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== SHELL_CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// Only the shell's own addresses are answered here: from the network when it answers (the
// copy kept fresh), else from the cache. Everything else (the API, tables, sockets) is left
// to the browser, untouched.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !SHELL.includes(url.pathname)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(SHELL_CACHE).then((cache) => cache.put(url.pathname, copy));
        }
        return response;
      })
      .catch(() => caches.match(url.pathname).then((hit) => hit || Response.error())),
  );
});

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (e) {
    notice = { title: "boneyard", body: event.data ? event.data.text() : "" };
  }
  const options = {
    body: notice.body || "",
    icon: "/static/icons/domino-192.png",
    badge: "/static/icons/domino-192.png",
    tag: notice.table ? `${notice.table}:${notice.kind}` : undefined,
    data: { url: notice.url || "/" },
  };
  event.waitUntil(self.registration.showNotification(notice.title || "boneyard", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((wins) => {
      const open = wins.find((w) => w.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
