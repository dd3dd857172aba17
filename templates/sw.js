{% load static %}// Pitchkeeper's service worker: the app shell and static files from the cache, and
// every game page the phone has opened, so that a game still opens and takes hands with
// no network. Pages are asked of the network first (they change with every hand); the
// cached copy is the fallback. Nothing is cached that the server answered with an error
// or a redirect (a sign-in page is not a game). A page the phone has not kept is
// answered, with no network, by the app's own short page saying so.
"use strict";

const SHELL_CACHE = "pitchkeeper-shell-{{ version }}";
const STATIC_CACHE = "pitchkeeper-static";
const PAGES_CACHE = "pitchkeeper-pages";
// The page said in place of one that needs the network; not the user's data, so it
// outlives signing out.
const FALLBACK_CACHE = "pitchkeeper-offline";
const OFFLINE = "{{ offline }}";
const HOME = "{{ home }}";
const SHELL = {{ shell|safe }};
// The rules engine's worker (asked of the network first: it names the rules' current
// version), the rules package (named by its hash: kept for good) and Brython's files.
const ENGINE = {{ engine|safe }};
// Named, not found by its place in ENGINE: kept first from the cache, an old worker would
// name the old rules for good.
const ENGINE_WORKER = "{% url 'engine_worker' %}";
const STATIC_PREFIX = "{% get_static_prefix %}";
const STATIC_FIRST = {{ static_first|yesno:"true,false" }};
const LOGOUT = "{% url 'logout' %}";
// The screens a phone may need at the table: the home screen and a game, with the words
// of its offline queue.
const PAGE = /^\/(games\/\d+\/(queue\/)?)?$/;

// The start page and the offline page from the first visit on, whichever page that
// was: the installed app opens at the start page.
async function keepFirstPages() {
  await Promise.all([keepFallback(), fetch(HOME).then((answer) => keep(PAGES_CACHE, HOME, answer))]).catch(() => {});
}

async function keepFallback() {
  const answer = await fetch(OFFLINE);
  if (answer.ok && !answer.redirected) {
    await (await caches.open(FALLBACK_CACHE)).put(OFFLINE, answer);
  }
}

// In the language of the pages: kept again when a page comes in another one.
async function followLanguage(answer) {
  const kept = await caches.match(OFFLINE, { cacheName: FALLBACK_CACHE });
  const language = answer.headers.get("Content-Language");
  if (language && (!kept || kept.headers.get("Content-Language") !== language)) {
    await keepFallback();
  }
}

async function fallback() {
  return (await caches.match(OFFLINE, { cacheName: FALLBACK_CACHE, ignoreVary: true })) || Response.error();
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(keepFirstPages)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("pitchkeeper-shell-") && name !== SHELL_CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

function keep(cacheName, request, response) {
  if (response.ok && !response.redirected && response.type === "basic") {
    const copy = response.clone();
    caches.open(cacheName).then((cache) => cache.put(request, copy));
  }
  return response;
}

async function cached(request) {
  return (await caches.match(request, { ignoreVary: true })) || Response.error();
}

async function networkFirst(request, cacheName, key = request) {
  try {
    return keep(cacheName, key, await fetch(request));
  } catch (error) {
    const copy = await caches.match(key, { ignoreVary: true });
    if (copy) {
      return copy;
    }
    throw error;
  }
}

async function staticFile(request) {
  if (STATIC_FIRST) {
    const copy = await caches.match(request);
    if (copy) {
      return copy;
    }
    return keep(STATIC_CACHE, request, await fetch(request));
  }
  return networkFirst(request, STATIC_CACHE);
}

// A game screen asks for the engine once it has started it: the files it fetched before
// this worker was looking after the page are fetched again, and kept; and its pages (the
// game and its queue's words), when they are not kept yet. It is told whether all are
// now: until then it says that the game is not yet ready to be played offline.
async function allKept(pages) {
  const kept = await Promise.all([...ENGINE, ...pages].map((url) => caches.match(url, { ignoreVary: true })));
  return kept.every(Boolean);
}

async function keepGame(pages) {
  if (!navigator.onLine) {
    // Nothing can be fetched: only said, and asked again when the network is back.
    return allKept(pages);
  }
  const cache = await caches.open(STATIC_CACHE);
  for (const url of ENGINE) {
    if (!(await caches.match(url, { ignoreVary: true }))) {
      await cache.add(url).catch(() => {});
    }
  }
  for (const url of pages) {
    if (!(await caches.match(url, { cacheName: PAGES_CACHE }))) {
      await fetch(url)
        .then((answer) => keep(PAGES_CACHE, url, answer))
        .catch(() => {});
    }
  }
  return allKept(pages);
}

// {keep: pages}: keep what is missing, then say whether all is kept; {check: pages}: only
// say it (a page just opened, before its engine has fetched anything).
self.addEventListener("message", (event) => {
  const pages = event.data && (event.data.keep || event.data.check);
  if (pages) {
    const own = pages.filter((url) => PAGE.test(url));
    const work = event.data.keep ? keepGame(own) : allKept(own);
    event.waitUntil(work.then((ready) => event.ports[0].postMessage({ ready })));
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.method !== "GET") {
    if (url.pathname === LOGOUT) {
      // Signing out forgets the pages this phone kept; hands waiting to be sent stay.
      event.waitUntil(caches.delete(PAGES_CACHE));
    }
    return;
  }
  if (url.pathname === ENGINE_WORKER) {
    event.respondWith(networkFirst(request, STATIC_CACHE));
  } else if (ENGINE.includes(url.pathname)) {
    event.respondWith(
      caches.match(request).then((copy) => copy || fetch(request).then((answer) => keep(STATIC_CACHE, request, answer))),
    );
  } else if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(staticFile(request).catch(() => cached(request)));
  } else if (PAGE.test(url.pathname) && !url.search && !request.headers.has("HX-Request")) {
    // The whole page only: an htmx answer is a part of one, and is never shown alone.
    event.respondWith(
      networkFirst(request, PAGES_CACHE, url.pathname).then(
        (answer) => navigated(event, answer),
        (error) => (request.mode === "navigate" ? fallback() : Promise.reject(error)),
      ),
    );
  } else if (request.mode === "navigate") {
    // Any other page needs the network: without it, the app says so itself.
    event.respondWith(fetch(request).then((answer) => navigated(event, answer), fallback));
  }
});

function navigated(event, answer) {
  if (event.request.mode === "navigate" && answer.ok) {
    event.waitUntil(followLanguage(answer).catch(() => {}));
  }
  return answer;
}
