// Regelsuche service worker (rendered by faq_bot/web/pwa.py).
// Pages come from the network; when it fails (or stalls), the offline shell
// renders them from the precached offline copy. Static files are cache-first
// (their URLs carry a content hash). A new index build changes VERSION, so
// the next visit installs this worker anew and drops the old caches.
"use strict";

var VERSION = {{ version | tojson }};
// this mount's caches ("regelsuche-" at a host's root): a worker deletes its own old ones only
var CACHE_PREFIX = {{ cache_prefix | tojson }};
var CACHE = CACHE_PREFIX + VERSION;
var PRECACHE = {{ precache | tojson }};
var SHELL = {{ shell | tojson }};
// the static files' folder and the offline copy's path, under the app's root ("/faq/static/"
// behind a proxy's location /faq/): cache-first
var STATIC_PATH = {{ static_path | tojson }};
var DATA_PATH = {{ data_path | tojson }};
var NETWORK_TIMEOUT_MS = 6000; // three round trips at 2 s, then the stored copy
// a question to the chat's page computes an answer: it gets the time the chat's own script gives one
// (CHAT_TIMEOUT_MS), so a question asked by link and one typed wait alike
var ASK_PATH = {{ ask_path | tojson }};
var ANSWER_TIMEOUT_MS = {{ answer_timeout_ms | tojson }};
// "Erneut versuchen" on the offline page (offline.js asks for it by message): that address's
// next load waits this long for the network, once. A server slower than the cut-off above on
// a line that works would otherwise be cut off again on every retry.
var RETRY_TIMEOUT_MS = 60000;
var retries = {}; // address without fragment -> until when (ms) its retry may wait
var redirectedUntil = 0; // a retried address redirected: the next navigation until then waits too

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches
      .open(CACHE)
      .then(function (cache) {
        return cache.addAll(
          PRECACHE.map(function (url) {
            return new Request(url, { cache: "reload" });
          })
        );
      })
      .then(function () {
        return self.skipWaiting();
      })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) {
              return name.indexOf(CACHE_PREFIX) === 0 && name !== CACHE;
            })
            .map(function (name) {
              return caches.delete(name);
            })
        );
      })
      .then(function () {
        return self.clients.claim();
      })
  );
});

function address(url) {
  var parsed = new URL(url, self.location.origin);
  parsed.hash = "";
  return parsed.href;
}

// offline.js: {type: "retry", url}; answered on the message's port once noted, so the page
// reloads only after this worker knows to wait
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "retry" && typeof data.url === "string") {
    var url = address(data.url);
    if (url.indexOf(self.location.origin + "/") === 0) {
      var now = Date.now();
      Object.keys(retries).forEach(function (key) {
        if (retries[key] <= now) delete retries[key]; // a retry never made: forgotten
      });
      retries[url] = now + RETRY_TIMEOUT_MS;
    }
  }
  if (event.ports && event.ports[0]) event.ports[0].postMessage("ok");
});

// How long a navigation to `url` waits for the network: `ms`, or once after a retry longer.
function patience(url, ms) {
  var key = address(url);
  var until = retries[key];
  var now = Date.now();
  if (!until && redirectedUntil > now) until = redirectedUntil;
  redirectedUntil = 0;
  if (!until) return ms;
  delete retries[key];
  return until > now ? Math.max(ms, RETRY_TIMEOUT_MS) : ms;
}

// The network's answer, or a rejection after `ms` (venue wifi that hangs).
function fromNetwork(request, ms) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () {
      reject(new Error("timeout"));
    }, ms);
    fetch(request).then(
      function (response) {
        clearTimeout(timer);
        resolve(response);
      },
      function (error) {
        clearTimeout(timer);
        reject(error);
      }
    );
  });
}

function offlineShell() {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(SHELL).then(function (response) {
      return response || Response.error();
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === "navigate") {
    // only a question (?q=) is answered there; the chat page itself is a page like any
    var answers = url.pathname === ASK_PATH && url.searchParams.has("q");
    var ms = answers ? Math.max(ANSWER_TIMEOUT_MS, NETWORK_TIMEOUT_MS) : NETWORK_TIMEOUT_MS;
    var waited = patience(request.url, ms);
    event.respondWith(
      fromNetwork(request, waited).then(
        function (response) {
          // a retried address that redirects ("/entry/x/", "?v=…)" from a forum): the browser
          // follows it with a navigation of its own (the redirect is opaque here), which
          // gets the same patience, once, if it comes within a few seconds
          if (waited > ms && response.type === "opaqueredirect") redirectedUntil = Date.now() + 5000;
          return response;
        },
        function () {
          return offlineShell();
        }
      )
    );
    return;
  }
  if (url.pathname.indexOf(STATIC_PATH) === 0 || url.pathname === DATA_PATH) {
    event.respondWith(
      caches.open(CACHE).then(function (cache) {
        return cache.match(request).then(function (hit) {
          return hit || fetch(request);
        });
      })
    );
  }
});
