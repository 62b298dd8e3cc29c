/* Zhushu web edition: the reading page's behaviour. Plain script, no library, nothing fetched;
   works from file:// and offline. Only ever reads document text with textContent and builds
   links as "#" + an element's id, so no text or attribute of the source becomes markup or a URL.

   State lives in classes on <html> (the inline line in each page's head sets them before the first
   paint from localStorage; this file keeps them in step):
     hide-<layer>   a layer the reader hid       localStorage "zhushu.layers"   (JSON array of layers)
     vertical       vertical reading mode        localStorage "zhushu.vertical" ("1" / "0")
     parallel       original | translation view  localStorage "zhushu.parallel" ("1" / "0")
     data-cat-filter="<category>"  only that 義疏 category shown (not kept across pages)
   Controls: button[data-toggle-layer], button[data-toggle=vertical|parallel],
   button[data-filter-category], button.fold (a 疏), button.cite (copy a citation). */
(function () {
  "use strict";

  var doc = document;
  var root = doc.documentElement;
  var KEY_LAYERS = "zhushu.layers";
  var KEY_MODES = { vertical: "zhushu.vertical", parallel: "zhushu.parallel" };
  var LAYERS = ["zhu", "yinyi", "shu", "yishu", "an", "translation"];

  function load(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }
  function save(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* private mode, disabled storage */ }
  }
  function each(list, fn) { Array.prototype.forEach.call(list, fn); }
  function byId(id) { return id ? doc.getElementById(id) : null; }
  function tokens(value) { return (value || "").split(/\s+/).filter(Boolean); }
  function closest(node, selector) {
    while (node && node.nodeType !== 1) node = node.parentNode;
    return node && node.closest ? node.closest(selector) : null;
  }

  /* ----- layers -------------------------------------------------------------------------- */

  function storedHidden() {
    try {
      var list = JSON.parse(load(KEY_LAYERS) || "[]");
      return Array.isArray(list) ? list.filter(function (l) { return LAYERS.indexOf(l) >= 0; }) : [];
    } catch (e) { return []; }
  }

  function syncLayerButtons() {
    each(doc.querySelectorAll("button[data-toggle-layer]"), function (b) {
      var layer = b.getAttribute("data-toggle-layer");
      b.setAttribute("aria-pressed", root.classList.contains("hide-" + layer) ? "false" : "true");
    });
  }

  function setLayer(layer, shown) {
    if (LAYERS.indexOf(layer) < 0) return;
    root.classList.toggle("hide-" + layer, !shown);
    // keep the other pages' choices for layers this page does not have
    var hidden = storedHidden().filter(function (l) { return l !== layer; });
    if (!shown) hidden.push(layer);
    save(KEY_LAYERS, JSON.stringify(hidden));
    syncLayerButtons();
  }

  /* ----- vertical and parallel modes ----------------------------------------------------- */

  function syncModeButtons() {
    each(doc.querySelectorAll("button[data-toggle]"), function (b) {
      b.setAttribute("aria-pressed", root.classList.contains(b.getAttribute("data-toggle")) ? "true" : "false");
    });
  }

  function headerHeight() {
    var h = doc.querySelector("header.masthead");
    if (h) root.style.setProperty("--head-h", h.offsetHeight + "px");
  }

  // The element the reader is at, to keep the place when the layout changes.
  function readingPlace() {
    var main = doc.querySelector("main");
    if (!main) return null;
    var r = main.getBoundingClientRect();
    var x, y;
    if (root.classList.contains("vertical")) {
      x = Math.min(r.right, window.innerWidth) - 40; y = Math.max(r.top, 0) + 40;
    } else {
      x = r.left + Math.min(r.width, 400) / 2; y = Math.max(r.top, 0) + 40;
    }
    var at = doc.elementFromPoint(x, y);
    return at && main.contains(at) ? closest(at, ".entry, section, [id]") : null;
  }

  function setMode(mode, on) {
    var place = readingPlace();
    root.classList.toggle(mode, on);
    save(KEY_MODES[mode], on ? "1" : "0");
    syncModeButtons();
    if (mode === "parallel" && on) layoutParallel();
    headerHeight();
    if (place && place.scrollIntoView) place.scrollIntoView({ block: "start", inline: "start" });
  }

  // Each translation on the grid row of what it translates (when that is in the same entry).
  var laidOut = false;
  function layoutParallel() {
    if (laidOut) return;
    laidOut = true;
    each(doc.querySelectorAll(".entry.bilingual"), function (entry) {
      var rowOf = {}, row = 0, last2 = 0;
      each(entry.children, function (child) {
        if (child.classList.contains("translation")) {
          var r = rowOf[child.getAttribute("data-original") || ""];
          var at;
          if (r && r > last2) { at = r; } else { row = Math.max(row, last2) + 1; at = row; }
          child.style.gridRow = String(at);
          last2 = at;
        } else {
          row += 1;
          child.style.gridRow = String(row);
          if (child.id) rowOf[child.id] = row;
        }
      });
    });
  }

  // In vertical mode the text runs right to left: the mouse wheel moves along the columns.
  function onWheel(e) {
    if (!root.classList.contains("vertical") || e.ctrlKey) return;
    if (Math.abs(e.deltaY) <= Math.abs(e.deltaX)) return;
    var main = e.currentTarget;
    if (main.scrollWidth <= main.clientWidth) return;
    var step = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaMode === 2 ? e.deltaY * main.clientWidth : e.deltaY;
    main.scrollLeft -= step;
    e.preventDefault();
  }

  /* ----- 義疏 category filter ------------------------------------------------------------ */

  function setCategory(cat) {
    if (!cat || cat === "all") root.removeAttribute("data-cat-filter");
    else root.setAttribute("data-cat-filter", cat);
    each(doc.querySelectorAll("button[data-filter-category]"), function (b) {
      var c = b.getAttribute("data-filter-category");
      b.setAttribute("aria-pressed", (c === (cat || "all")) ? "true" : "false");
    });
  }

  /* ----- 疏: folding, and lighting the span a 出文 names --------------------------------- */

  function toggleFold(button) {
    var aside = closest(button, "aside");
    if (!aside) return;
    var folded = aside.classList.toggle("folded");
    button.setAttribute("aria-expanded", folded ? "false" : "true");
    var label = folded ? "展開此疏" : "收合此疏";
    button.setAttribute("aria-label", label);
    button.setAttribute("title", label);
  }

  var shuIndex = null;
  function spanOf(shuId) {
    if (!shuIndex) {
      shuIndex = {};
      each(doc.querySelectorAll("main [data-shu]"), function (el) {
        tokens(el.getAttribute("data-shu")).forEach(function (t) { (shuIndex[t] = shuIndex[t] || []).push(el); });
      });
    }
    // a piece cut into runs is lit run by run: only the part the 疏 explains
    return (shuIndex[shuId] || []).filter(function (el) { return !el.querySelector(".run"); });
  }

  var lit = [], pinned = null, backLink = null;
  var hasHighlights = typeof CSS !== "undefined" && CSS.highlights && typeof Highlight === "function";

  function clearLight() {
    lit.forEach(function (el) { el.classList.remove("hl", "pinned"); });
    lit = [];
    if (hasHighlights) CSS.highlights.delete("zs-sublemma");
  }

  function light(shuId, isPinned) {
    clearLight();
    if (!shuId) return;
    lit = spanOf(shuId);
    lit.forEach(function (el) { el.classList.add("hl"); if (isPinned) el.classList.add("pinned"); });
  }

  // A sub-lemma names a narrower span, between anchors: a Range highlight where supported.
  function lightSub(sub) {
    clearLight();
    var start = byId(sub.getAttribute("data-target"));
    var end = byId(sub.getAttribute("data-target-end"));
    if (start && hasHighlights) {
      try {
        var range = doc.createRange();
        var startPiece = start.classList.contains("anchor") ? null : start;
        if (startPiece) range.setStartBefore(start); else range.setStartAfter(start);
        if (end) {
          if (end.classList.contains("anchor")) range.setEndBefore(end); else range.setEndAfter(end);
        } else {
          var piece = startPiece || closest(start.parentNode, "[data-layer]") || start.parentNode;
          range.setEndAfter(piece.lastChild || piece);
        }
        CSS.highlights.set("zs-sublemma", new Highlight(range));
        return;
      } catch (e) { /* fall back to whole pieces */ }
    }
    lit = piecesBetween(start, end);
    lit.forEach(function (el) { el.classList.add("hl"); });
  }

  // The pieces of the text (經, 注, 音義 … of the units) from the one holding `start` to the one
  // holding `end` (or `start` alone): whole pieces, where a Range highlight is not available.
  function piecesBetween(start, end) {
    function pieceOf(el) {
      return el && (el.classList.contains("anchor") ? closest(el.parentNode, "[data-layer]") : el);
    }
    var first = pieceOf(start), last = pieceOf(end) || first;
    if (!first) return [];
    var all = Array.prototype.slice.call(doc.querySelectorAll("main .unit > [data-layer]"));
    var i = all.indexOf(first), j = all.indexOf(last);
    return i < 0 || j < i ? [first] : all.slice(i, j + 1);
  }

  // Back to what stays lit: the 出文 that has the focus, else the pinned one.
  function restore() {
    var focused = shuLemma(doc.activeElement);
    if (focused) light(focused.parentNode.id, false); else light(pinned, true);
  }

  function pin(shuId) {
    pinned = shuId;
    light(shuId, true);
    if (!backLink) {
      backLink = doc.createElement("a");
      backLink.className = "back-to-shu";
      doc.body.appendChild(backLink);
    }
    backLink.textContent = "↩ 返回疏";
    backLink.setAttribute("href", "#" + shuId);
    backLink.hidden = false;
  }

  function unpin() {
    pinned = null;
    clearLight();
    if (backLink) backLink.hidden = true;
  }

  function shuLemma(node) {
    var lemma = closest(node, "aside.shu > .lemma");
    return lemma && lemma.parentNode.id ? lemma : null;
  }

  /* ----- 音義 tooltip --------------------------------------------------------------------- */

  var tip = null, tipFor = null;
  function showTip(el) {
    if (tipFor === el) return;
    var glosses = tokens(el.getAttribute("data-yinyi")).map(byId).filter(Boolean);
    if (!glosses.length) return;
    if (!tip) {
      tip = doc.createElement("div");
      tip.className = "tooltip";
      tip.setAttribute("role", "tooltip");
      tip.hidden = true;
      doc.body.appendChild(tip);
    }
    while (tip.firstChild) tip.removeChild(tip.firstChild);
    glosses.forEach(function (g) {
      var s = doc.createElement("span");
      s.className = "gloss";
      s.textContent = g.textContent.replace(/\s+/g, "");
      tip.appendChild(s);
    });
    tip.hidden = false;
    tipFor = el;
    var r = el.getBoundingClientRect(), t = tip.getBoundingClientRect();
    var sx = window.pageXOffset, sy = window.pageYOffset, vw = root.clientWidth;
    var left, top;
    if (root.classList.contains("vertical")) {
      left = r.left - t.width - 6; top = r.top;
      if (left < 4) left = r.right + 6;
    } else {
      left = r.left; top = r.bottom + 4;
    }
    left = Math.max(4, Math.min(left, vw - t.width - 4));
    tip.style.left = (left + sx) + "px";
    tip.style.top = (top + sy) + "px";
  }
  function hideTip() {
    if (tip) tip.hidden = true;
    tipFor = null;
  }

  /* ----- citations ------------------------------------------------------------------------ */

  var status = null;
  function announce(text) {
    if (!status) {
      status = doc.createElement("span");
      status.className = "status";
      status.setAttribute("role", "status");
      status.setAttribute("aria-live", "polite");
      (doc.querySelector(".toolbar") || doc.body).appendChild(status);
    }
    status.textContent = text;
  }

  function copyText(text, done) {
    function fallback() {
      var ok = false, active = doc.activeElement;
      try {
        var ta = doc.createElement("textarea");
        ta.value = text;
        ta.setAttribute("readonly", "");
        ta.style.position = "fixed"; ta.style.top = "0"; ta.style.left = "0"; ta.style.opacity = "0";
        doc.body.appendChild(ta);
        ta.select();
        try { ok = doc.execCommand("copy"); } catch (e) { ok = false; }
        doc.body.removeChild(ta);
      } catch (e) { ok = false; }
      if (active && active.focus) active.focus();
      done(ok);
    }
    try {
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
        return;
      }
    } catch (e) { /* fall through */ }
    fallback();
  }

  // The permalink and citation control of each unit, 注, 音義, small note, 疏, sub-lemma, 義疏 and
  // 案 block: built here from the element's id, to keep the pages small (span.tools, placed at
  // the end of the element, or of a block's lemma line).
  var LAYER_NAMES = { jing: "經", zhu: "注", yinyi: "音義", shu: "疏", yishu: "義疏", an: "案",
                      textual: "校", xiaozhu: "小注", que: "阙", translation: "譯" };
  var TOOL_PLACES = [
    ["main p.unit[id]", null, "經"],
    ["main .unit > [data-layer=zhu][id], main .unit > [data-layer=yinyi][id], main .small[id]", null, ""],
    ["main aside[id][data-layer]", ":scope > .lemma", ""],
    ["main .sublemma[id]", null, "疏"]
  ];

  function fillTools() {
    var prefix = doc.body.getAttribute("data-cite") || "";
    TOOL_PLACES.forEach(function (place) {
      each(doc.querySelectorAll(place[0]), function (el) {
        var where = place[1] ? el.querySelector(place[1]) : el;
        if (!where || (where.lastElementChild && where.lastElementChild.classList.contains("tools"))) return;
        var id = el.id, what = place[2] || LAYER_NAMES[el.getAttribute("data-layer")] || "";
        var s = doc.createElement("span");
        s.className = "tools";
        var a = doc.createElement("a");
        a.className = "permalink";
        a.setAttribute("href", "#" + id);
        a.setAttribute("aria-label", what + " " + id + " 連結");
        var b = doc.createElement("button");
        b.type = "button";
        b.className = "cite";
        b.setAttribute("data-cite", citeOf(el) || (prefix ? prefix + " · " + id : id));
        b.title = "複製引文";
        b.setAttribute("aria-label", "複製引文");
        s.appendChild(a);
        s.appendChild(b);
        where.appendChild(s);
      });
    });
  }

  // Each glossed piece learns its 音義 (span[data-glosses] names the pieces a gloss glosses):
  // data-yinyi for the popup, aria-describedby for assistive technology, focusable.
  function linkGlosses() {
    var glosses = doc.querySelectorAll("[data-glosses][id]");
    for (var i = 0; i < glosses.length; i++) {
      var g = glosses[i];
      tokens(g.getAttribute("data-glosses")).forEach(function (pid) {
        var piece = byId(pid);
        if (!piece || piece === g) return;
        var ids = tokens(piece.getAttribute("data-yinyi"));
        if (ids.indexOf(g.id) < 0) ids.push(g.id);
        piece.setAttribute("data-yinyi", ids.join(" "));
        piece.setAttribute("aria-describedby", ids.join(" "));
        piece.setAttribute("tabindex", "0");
      });
    }
  }

  // How a citation names an element: work · 卷 · 篇 · leaf · id, from the data attributes of
  // the page (body/@data-work, section/@data-juan and @data-pian, span.leaf/@data-leaf).
  function citeOf(el) {
    var juan = closest(el, "[data-juan]"), pian = closest(el, "[data-pian]");
    return [doc.body.getAttribute("data-work"), juan && juan.getAttribute("data-juan"),
            pian && pian.getAttribute("data-pian"), leafOf(el), el.id]
      .filter(function (part) { return part; }).join(" · ");
  }

  // The leaf an element begins on: a leaf marker at its very start (before any of its text),
  // else the last marker before it in document order (a binary search over the markers).
  var leafMarkers = null;
  function leafOf(el) {
    if (!leafMarkers) leafMarkers = doc.querySelectorAll("main .leaf[data-leaf]");
    var lo = 0, hi = leafMarkers.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (leafMarkers[mid].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) lo = mid + 1;
      else hi = mid;
    }
    var inside = leafMarkers[lo];
    if (inside && el.contains(inside)) {
      var r = doc.createRange();
      r.setStart(el, 0);
      r.setEndBefore(inside);
      if (!r.cloneContents().textContent.trim()) return inside.getAttribute("data-leaf");
    }
    return lo > 0 ? leafMarkers[lo - 1].getAttribute("data-leaf") : "";
  }

  // The permalink of an id: absolute under body/@data-base-url (render html --base-url) when
  // the site has one, else this page's own address.
  function permalinkOf(id) {
    var base = doc.body.getAttribute("data-base-url"), page = doc.body.getAttribute("data-page");
    var at = base && page ? base + encodeURIComponent(page) : String(window.location.href).split("#")[0];
    return id ? at + "#" + encodeURIComponent(id) : at;
  }

  function cite(button) {
    var link = button.parentNode && button.parentNode.querySelector("a.permalink");
    var hash = link ? link.getAttribute("href") || "" : "";
    if (hash.charAt(0) !== "#") hash = "";
    var url = permalinkOf(hash.slice(1));
    var text = (button.getAttribute("data-cite") || "") + "\n" + url;
    copyText(text, function (ok) {
      if (ok) {
        button.classList.add("copied");
        window.setTimeout(function () { button.classList.remove("copied"); }, 1500);
        announce("已複製引文");
      } else {
        announce("未能複製：" + text.replace("\n", " "));
      }
    });
  }

  /* ----- the fragment target ------------------------------------------------------------- */

  // Make an element visible: open its folded 疏, show its layer, lift a category filter.
  function reveal(el) {
    var folded = closest(el, "aside.folded");
    if (folded && folded !== el) {
      var b = folded.querySelector("button.fold");
      if (b) toggleFold(b);
    }
    for (var n = el; n && n !== root; n = n.parentNode) {
      var layer = n.getAttribute && n.getAttribute("data-layer");
      if (layer && root.classList.contains("hide-" + layer)) setLayer(layer, true);
    }
    if (root.hasAttribute("data-cat-filter") && !el.getClientRects().length) setCategory("all");
  }

  var targeted = null;
  function markTarget() {
    var id = "";
    try { id = decodeURIComponent(window.location.hash.slice(1)); } catch (e) { id = window.location.hash.slice(1); }
    if (targeted) targeted.classList.remove("target-hl");
    targeted = null;
    var el = byId(id);
    if (!el || !doc.body.contains(el)) return;
    reveal(el);
    el.classList.add("target-hl");
    targeted = el;
    if (el.scrollIntoView) el.scrollIntoView({ block: "center", inline: "center" });
  }

  /* ----- wiring -------------------------------------------------------------------------- */

  function onClick(e) {
    var t = e.target;
    var b = closest(t, "button");
    if (b) {
      if (b.hasAttribute("data-toggle-layer")) {
        setLayer(b.getAttribute("data-toggle-layer"), b.getAttribute("aria-pressed") !== "true");
      } else if (b.hasAttribute("data-toggle")) {
        var mode = b.getAttribute("data-toggle");
        if (KEY_MODES[mode]) setMode(mode, !root.classList.contains(mode));
      } else if (b.hasAttribute("data-filter-category")) {
        setCategory(b.getAttribute("data-filter-category"));
      } else if (b.classList.contains("fold")) {
        toggleFold(b);
      } else if (b.classList.contains("cite")) {
        cite(b);
      }
      return;
    }
    var a = closest(t, "a");
    if (a) {
      var lemma = shuLemma(a);
      if (lemma && (a.classList.contains("chuwen") || a.classList.contains("to-span"))) pin(lemma.parentNode.id);
      else if (a === backLink) unpin();
      return;
    }
    // a lit span leads back to its 疏 (unless the reader is selecting text)
    var span = closest(t, ".hl.pinned");
    if (span && pinned) {
      var sel = window.getSelection && window.getSelection();
      if (sel && String(sel).length) return;
      var id = pinned;
      unpin();
      window.location.hash = "#" + id;
    }
  }

  function onOver(e) {
    var t = e.target;
    var lemma = shuLemma(t);
    if (lemma) { light(lemma.parentNode.id, false); return; }
    var sub = closest(t, "a.sublemma-quote");
    if (sub && closest(sub, ".sublemma")) { lightSub(closest(sub, ".sublemma")); return; }
    var glossed = closest(t, "[data-yinyi]");
    if (glossed) showTip(glossed);
  }

  function onOut(e) {
    var t = e.target, to = e.relatedTarget;
    var lemma = shuLemma(t) || closest(t, "a.sublemma-quote");
    if (lemma && !(to && lemma.contains(to))) restore();
    var glossed = closest(t, "[data-yinyi]");
    if (glossed && !(to && glossed.contains(to))) hideTip();
  }

  function onKey(e) {
    if (e.key === "Escape") { hideTip(); if (pinned) unpin(); }
  }

  function init() {
    // re-apply the saved choices (the head line may have been blocked)
    root.classList.add("js");
    fillTools();
    linkGlosses();
    storedHidden().forEach(function (l) { root.classList.add("hide-" + l); });
    Object.keys(KEY_MODES).forEach(function (m) { if (load(KEY_MODES[m]) === "1") root.classList.add(m); });
    syncLayerButtons();
    syncModeButtons();
    setCategory(root.getAttribute("data-cat-filter") || "all");
    headerHeight();
    if (root.classList.contains("parallel")) layoutParallel();

    doc.addEventListener("click", onClick);
    doc.addEventListener("mouseover", onOver);
    doc.addEventListener("mouseout", onOut);
    doc.addEventListener("focusin", onOver);
    doc.addEventListener("focusout", onOut);
    doc.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", markTarget);
    window.addEventListener("resize", function () { headerHeight(); hideTip(); });
    var main = doc.querySelector("main");
    if (main) main.addEventListener("wheel", onWheel, { passive: false });
    if (window.location.hash) markTarget();
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", init);
  else init();
})();
