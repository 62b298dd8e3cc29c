/* Zhushu search: the search page (search.html) and the highlight of a hit on a reading page.
 *
 * The index (assets/search/, written by pipeline/render/search_index.py) is a set of script files,
 * each calling one of the callbacks below: Chromium refuses fetch() of file:// URLs but not a
 * <script src>, so the site searches from a folder with no server. A query is folded (fold.js:
 * 繁→簡 and common variant forms) and stripped of white space and punctuation, as the index was;
 * the postings of its character (one character) or of a cover of its two-character keys give the
 * candidate chunks (the text of one page and one layer, up to 16 KB); each is checked against its
 * text (text-N.js), which also gives the keyword-in-context lines. Only the files a query needs
 * are loaded; results come page by page (within a page, layer by layer), fifty or so at a time.
 *
 * Source text only ever becomes textContent; links are built from page names and ids.
 */
(function () {
  "use strict";
  var doc = document;
  var SKIP = /[\p{P}\p{Z}\p{C}]/u;       // not matched: as search_text.searchable()
  // a batch of results ends after fifty hits or forty text files (≤ 26 kB each), whichever first
  var BATCH = 50, BATCH_FILES = 40, CONTEXT = 14, MAX_QUERY = 200, MAX_KEYS = 8;
  // text files asked for ahead of the one being read, so the browser loads them side by side: a
  // batch spread over many files is all shown sooner (不敬, 44 files: 565 → 390–420 ms on the five
  // Kanripo works; the first result within noise), for ≤ 4 files more per batch
  var AHEAD = 4;
  var LAYER_NAMES = { jing: "經", zhu: "注", yinyi: "音義", shu: "疏", yishu: "義疏", an: "案",
                      translation: "譯", textual: "校", xiaozhu: "小注", person: "人名" };
  var script = doc.currentScript;
  var base = script ? script.src.replace(/search\.js([?#].*)?$/, "search/") : "assets/search/";
  var api = window.zhushuSearch = window.zhushuSearch || {};
  var files = {};                        // file name → {promise, resolve, reject}
  api.loaded = [];                       // the index files asked for, in order (for bench/search.py)

  function entry(name) {
    if (!files[name]) {
      var e = files[name] = {};
      e.promise = new Promise(function (resolve, reject) { e.resolve = resolve; e.reject = reject; });
    }
    return files[name];
  }

  function load(name) {
    var e = entry(name);
    if (!e.requested) {
      e.requested = true;
      api.loaded.push(name);
      var s = doc.createElement("script");
      s.src = base + name;
      s.charset = "utf-8";
      s.onerror = function () { e.reject(new Error(name)); };
      doc.head.appendChild(s);
    }
    return e.promise;
  }

  api.manifest = function (m) { entry("manifest.js").resolve(m); };
  api.fold = function (t) { entry("fold.js").resolve(t); };
  api.persons = function (p) { entry("persons.js").resolve(p); };
  api.postings = function (n, d) { entry("post-" + n + ".js").resolve(d); };
  api.texts = function (n, d) { entry("text-" + n + ".js").resolve(d); };

  /* The matched form of a text: searchable characters, folded; map[i] is the index in `text` of
     the character that gave code unit i. */
  function normalise(text, table) {
    var out = [], map = [];
    for (var i = 0; i < text.length;) {
      var cp = text.codePointAt(i), ch = String.fromCodePoint(cp);
      if (!SKIP.test(ch)) {
        var f = table[ch] || ch;
        for (var k = 0; k < f.length; k++) map.push(i);
        out.push(f);
      }
      i += ch.length;
    }
    return { s: out.join(""), map: map };
  }

  function charEnd(text, i) { return i + (text.codePointAt(i) > 0xffff ? 2 : 1); }

  /* Where q occurs in text: [start, end) pairs of indices of `text`. */
  function occurrences(text, q, table) {
    var n = normalise(text, table), found = [], at = n.s.indexOf(q);
    while (at >= 0) {
      found.push([n.map[at], charEnd(text, n.map[at + q.length - 1])]);
      at = n.s.indexOf(q, at + q.length);
    }
    return found;
  }

  var PLANE = 0x110000;

  /* A key as the index numbers it: a character's code point, or first × 0x110000 + second. */
  function keyNumber(key) {
    var cps = Array.from(key, function (c) { return c.codePointAt(0); });
    return cps.length === 1 ? cps[0] : cps[0] * PLANE + cps[1];
  }

  /* The postings shard that holds a key: the last whose first key is not above it. */
  function shardOf(manifest, key) {
    var starts = manifest.postings, lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= key) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  var decoded = {};                      // postings shard → its pairs, as numbers
  function pairs(n, deltas) {
    if (!decoded[n]) {
      var out = [], v = 0, parts = deltas ? deltas.split(",") : [];
      for (var i = 0; i < parts.length; i++) { v += parseInt(parts[i], 16); out.push(v); }
      decoded[n] = out;
    }
    return decoded[n];
  }

  /* The chunks holding a key, ascending: the pairs key × pairBase + chunk of its shard. */
  function chunksOf(all, key, count) {
    var lo = 0, hi = all.length, first = key * count, out = [];
    while (lo < hi) { var mid = (lo + hi) >> 1; if (all[mid] < first) lo = mid + 1; else hi = mid; }
    for (var i = lo; i < all.length && all[i] < first + count; i++) out.push(all[i] - first);
    return out;
  }

  /* The index keys a query is looked up by: itself if one character, else each pair of
     neighbours (overlapping pairs narrow a phrase of common characters far better than a cover
     by every other pair), at most MAX_KEYS of them spread over it. */
  function keysOf(q) {
    var chars = Array.from(q);
    if (chars.length === 1) return [q];
    var keys = [];
    for (var i = 0; i + 1 < chars.length; i++) keys.push(chars[i] + chars[i + 1]);
    if (keys.length > MAX_KEYS) {
      var step = (keys.length - 1) / (MAX_KEYS - 1), spread = [];
      for (var j = 0; j < MAX_KEYS; j++) spread.push(keys[Math.round(j * step)]);
      keys = spread;
    }
    return keys.filter(function (k, i) { return keys.indexOf(k) === i; });
  }

  function intersect(lists) {
    lists.sort(function (a, b) { return a.length - b.length; });
    var result = lists[0];
    for (var l = 1; l < lists.length && result.length; l++) {
      var other = lists[l], kept = [], j = 0;
      for (var i = 0; i < result.length; i++) {
        while (j < other.length && other[j] < result[i]) j++;
        if (other[j] === result[i]) kept.push(result[i]);
      }
      result = kept;
    }
    return result;
  }

  function el(tag, cls, text) {
    var e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  function permalink(page, id, query) {
    return encodeURIComponent(page) + "?hl=" + encodeURIComponent(query) + "#" + encodeURIComponent(id);
  }

  /* ===== the search page ===================================================================== */

  function searchPage(list) {
    var field = doc.querySelector("input[type=search][data-search]");
    var status = doc.querySelector("[data-search-status]");
    var more = doc.querySelector("[data-search-more]");
    var personsBox = doc.querySelector(".search-persons");
    var personsList = doc.querySelector("[data-search-persons]");
    var boxes = Array.prototype.slice.call(doc.querySelectorAll("input[data-search-layer]"));
    var params = new URLSearchParams(location.search);
    var run = 0, state = null, timer = 0;
    field.value = (params.get("q") || "").slice(0, MAX_QUERY);
    var chosen = params.getAll("layer");
    boxes.forEach(function (b) { b.checked = chosen.indexOf(b.value) >= 0; });

    function say(text) { status.textContent = text; }

    function persons(q, table, token) {
      load("persons.js").then(function (people) {
        if (token !== run) return;
        personsList.textContent = "";
        people.forEach(function (p) {
          var hit = p[1].some(function (name) { return normalise(name, table).s.indexOf(q) >= 0; });
          if (!hit) return;
          var li = el("li");
          li.setAttribute("data-search-result", "");
          li.setAttribute("data-layer", "person");
          var a = el("a", "", p[1][0]);
          a.href = "persons.html#" + encodeURIComponent(p[0]);
          li.appendChild(a);
          if (p[2]) li.appendChild(el("span", "search-where", p[2]));
          personsList.appendChild(li);
        });
        personsBox.hidden = !personsList.firstChild;
      }, function () {});
    }

    function result(manifest, chunk, rec, spans, query) {
      var text = rec[3], layer = manifest.layers[chunk[1]], page = manifest.pages[chunk[0]];
      var li = el("li"), first = spans[0];
      li.setAttribute("data-search-result", "");
      li.setAttribute("data-layer", layer);
      li.appendChild(el("span", "search-layer layer-" + layer, LAYER_NAMES[layer] || layer));
      var a = el("a", "search-kwic");
      a.href = permalink(page[0], rec[0], query);
      var from = Math.max(0, first[0] - CONTEXT), to = Math.min(text.length, first[1] + CONTEXT);
      a.appendChild(doc.createTextNode((from > 0 ? "…" : "") + text.slice(from, first[0])));
      a.appendChild(el("mark", "", text.slice(first[0], first[1])));
      a.appendChild(doc.createTextNode(text.slice(first[1], to) + (to < text.length ? "…" : "")));
      li.appendChild(a);
      var where = [page[1] || page[2], rec[1], rec[2]].filter(Boolean).join(" · ");
      if (spans.length > 1) where += " · " + spans.length + " 處";
      li.appendChild(el("span", "search-where", where));
      return li;
    }

    /* Check the candidate chunks from state.next on, one text file each, until BATCH more hits
       are shown (a chunk is always read to its end: its hits are shown together). */
    function next(token) {
      var s = state, shown = 0, read = 0;
      more.hidden = true;
      function step() {
        if (token !== run) return;
        if (s.next >= s.candidates.length || shown >= BATCH || read >= BATCH_FILES) {
          var all = s.next >= s.candidates.length;
          more.hidden = all;
          if (!s.hits && all) say("未找到「" + s.query + "」。");
          else if (!s.hits) say("「" + s.query + "」：尚未找到，可再查更多。");
          else say((all ? "共 " : "前 ") + s.hits + " 條：「" + s.query + "」" + (all ? "" : "（尚有更多）"));
          api.timing.done = performance.now() - api.timing.start;
          return;
        }
        for (var k = s.next + 1; k < Math.min(s.next + 1 + AHEAD, s.candidates.length) && read + k - s.next < BATCH_FILES; k++) {
          load("text-" + s.candidates[k] + ".js").catch(function () {});
        }
        var n = s.candidates[s.next++];
        read++;
        load("text-" + n + ".js").then(function (chunk) {
          if (token !== run) return;
          chunk[2].forEach(function (rec) {
            var spans = occurrences(rec[3], s.q, s.table);
            if (!spans.length) return;
            list.appendChild(result(s.manifest, chunk, rec, spans, s.query));
            if (!s.hits++) api.timing.first = performance.now() - api.timing.start;
            shown++;
          });
          step();
        }, function () { say("索引檔案缺失。"); });
      }
      step();
    }

    function search() {
      var token = ++run, query = field.value.slice(0, MAX_QUERY);
      var layers = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
      var url = new URLSearchParams();
      if (query) url.set("q", query);
      layers.forEach(function (l) { url.append("layer", l); });
      history.replaceState(null, "", "?" + url.toString() + location.hash);
      list.textContent = "";
      personsList.textContent = "";
      personsBox.hidden = true;
      more.hidden = true;
      api.timing = { start: performance.now() };
      Promise.all([load("manifest.js"), load("fold.js")]).then(function (got) {
        if (token !== run) return;
        var manifest = got[0], table = got[1], q = normalise(query, table).s;
        if (!q) { say(query ? "「" + query + "」中沒有可檢索的字。" : "請輸入要檢索的字。"); return; }
        say("檢索中……");
        persons(q, table, token);
        var keys = keysOf(q).map(keyNumber), count = manifest.pairBase;
        var shardNos = keys.map(function (k) { return shardOf(manifest, k); });
        return Promise.all(shardNos.map(function (n) { return load("post-" + n + ".js"); })).then(function (shards) {
          if (token !== run) return;
          var lists = keys.map(function (k, i) { return chunksOf(pairs(shardNos[i], shards[i]), k, count); });
          var candidates = intersect(lists).filter(function (c) {
            return !layers.length || layers.indexOf(manifest.layers[manifest.chunks[c][1]]) >= 0;
          });
          state = { manifest: manifest, table: table, q: q, query: query, hits: 0, next: 0,
                    candidates: candidates };
          next(token);
        });
      }).catch(function () { say("此網站未建檢索索引。"); });
    }

    field.closest("form").addEventListener("submit", function (e) { e.preventDefault(); search(); });
    field.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(search, 200); });
    boxes.forEach(function (b) { b.addEventListener("change", search); });
    more.addEventListener("click", function () { if (state) next(run); });
    if (field.value) search(); else say("請輸入要檢索的字。");
  }

  /* ===== a reading page opened at a hit: page.html?hl=query#id ================================ */

  // What the page adds to a unit that is not its text, and the units nested in it.
  var NOT_TEXT = "button, .tools, .tooltip, .mark, .category, .elsewhere, .to-span, .continues, " +
                 ".to-original, .back-to-shu, [data-layer]";

  function textNodes(unit) {
    var nodes = [];
    var walker = doc.createTreeWalker(unit, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        if (n.nodeType === 1) return n !== unit && n.matches(NOT_TEXT) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP;
        return NodeFilter.FILTER_ACCEPT;
      }
    });
    while (walker.nextNode()) nodes.push(walker.currentNode);
    return nodes;
  }

  function highlightHit() {
    var query = new URLSearchParams(location.search).get("hl");
    var unit = location.hash.length > 1 ? doc.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (!query || !unit) return;
    load("fold.js").then(function (table) {
      var q = normalise(query.slice(0, MAX_QUERY), table).s;
      if (!q) return;
      var nodes = textNodes(unit), owner = [], offset = [], text = "";
      nodes.forEach(function (n) {
        for (var i = 0; i < n.data.length; i++) { owner.push(n); offset.push(i); }
        text += n.data;
      });
      var ranges = [];
      occurrences(text, q, table).forEach(function (span) {
        // one range per text node the match runs through: a nested note in between stays unlit
        for (var i = span[0]; i < span[1];) {
          var node = owner[i], j = i;
          while (j < span[1] && owner[j] === node) j++;
          var r = doc.createRange();
          r.setStart(node, offset[i]);
          r.setEnd(node, offset[j - 1] + 1);
          ranges.push(r);
          i = j;
        }
      });
      if (!ranges.length) return;
      if (window.CSS && CSS.highlights && window.Highlight) {
        CSS.highlights.set("search-hit", new Highlight(...ranges));
      } else {
        ranges.reverse().forEach(function (r) { r.surroundContents(el("mark", "search-hit")); });
      }
    }, function () {});
  }

  function start() {
    var list = doc.querySelector("[data-search-results]");
    if (list) searchPage(list); else highlightHit();
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", start); else start();
})();
