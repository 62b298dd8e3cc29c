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
   button[data-filter-category], button.fold (a 疏), button.cite (copy a citation).
   Also on <html>: toolbar-floats (a wide screen scrolled past the toolbar). The reading block
   with the keyboard focus is .current (the text's one tab stop). */
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
    keepCurrentShown();
  }

  /* ----- vertical and parallel modes ----------------------------------------------------- */

  function syncModeButtons() {
    each(doc.querySelectorAll("button[data-toggle]"), function (b) {
      b.setAttribute("aria-pressed", root.classList.contains(b.getAttribute("data-toggle")) ? "true" : "false");
    });
  }

  // The heights the vertical mode's text area leaves to the masthead, and to the toolbar when
  // it is fixed at the foot of a narrow screen.
  function headerHeight() {
    var h = doc.querySelector("header.masthead"), bar = doc.querySelector("nav.toolbar");
    if (h) root.style.setProperty("--head-h", h.offsetHeight + "px");
    var fixed = bar && getComputedStyle(bar).position === "fixed";
    root.style.setProperty("--bar-h", fixed ? bar.offsetHeight + "px" : "0px");
  }

  // Wide screens: once the reader scrolls past the toolbar it floats at the top of the window
  // (narrow ones have it fixed at the foot, by the stylesheet), so it stays in reach.
  var barHome = 0;
  function floatToolbar() {
    var bar = doc.querySelector("nav.toolbar");
    if (!bar) return;
    var narrow = window.matchMedia && window.matchMedia("(max-width: 36rem)").matches;
    var floats = root.classList.contains("toolbar-floats");
    if (!floats) barHome = bar.getBoundingClientRect().top + window.pageYOffset;
    var float = !narrow && !root.classList.contains("vertical") && window.pageYOffset > barHome;
    if (float !== floats) {
      root.style.setProperty("--bar-space", float ? bar.offsetHeight + "px" : "0px");
      root.classList.toggle("toolbar-floats", float);
    }
  }

  // On a narrow screen the list of commentators starts folded (the text fills the first screen).
  function foldCredits() {
    var credits = doc.querySelector("details.credits");
    if (credits && window.matchMedia && window.matchMedia("(max-width: 36rem)").matches) credits.open = false;
  }

  // Where the reader is: the character at the start of the first line (horizontal) or column
  // (vertical) in view, as a text node and offset, to find it again after the layout changes.
  function readingPoint() {
    var main = doc.querySelector("main");
    if (!main || !doc.caretRangeFromPoint) return null;
    var r = main.getBoundingClientRect(), vertical = root.classList.contains("vertical");
    var top = Math.max(r.top, toolbarBottom()), right = Math.min(r.right, root.clientWidth);
    for (var i = 1; i <= 12; i++) {
      var x = vertical ? right - 12 * i : r.left + 24 * i;
      var y = vertical ? top + 16 * i : top + 12 * i;
      var at = doc.caretRangeFromPoint(x, y);
      if (at && at.startContainer.nodeType === 3 && main.contains(at.startContainer)) {
        return { node: at.startContainer, offset: at.startOffset };
      }
    }
    return null;
  }

  // The bottom edge of the toolbar when it stays on screen over the text (narrow screens).
  function toolbarBottom() {
    var bar = doc.querySelector("nav.toolbar");
    if (!bar || getComputedStyle(bar).position !== "fixed") return 0;
    var b = bar.getBoundingClientRect();
    return b.top < window.innerHeight / 2 ? b.bottom : 0;
  }

  // Bring a reading point back into view at the start of the screen.
  function showPoint(point) {
    var range = doc.createRange();
    range.setStart(point.node, point.offset);
    range.setEnd(point.node, Math.min(point.offset + 1, point.node.length));
    var rect = range.getBoundingClientRect(), main = doc.querySelector("main");
    if (root.classList.contains("vertical")) {
      window.scrollTo(0, 0);
      main.scrollLeft += rect.right - main.getBoundingClientRect().right + 16;
    } else {
      window.scrollBy(0, rect.top - toolbarBottom() - 16);
    }
  }

  function setMode(mode, on) {
    var point = readingPoint();
    root.classList.toggle(mode, on);
    save(KEY_MODES[mode], on ? "1" : "0");
    syncModeButtons();
    headerHeight();
    floatToolbar();
    if (point) showPoint(point);
    else if (mode === "vertical" && on) showBeginning();
  }

  // A translation printed in pieces (across a page edge) follows its original piece after piece
  // (common.xsl): the pieces go into one div.pieces, so that the parallel view's grid sets them
  // beside their original as one text, one cell.
  function joinTranslationPieces() {
    each(doc.querySelectorAll("main .entry.bilingual > p.translation[data-original]"), function (t) {
      var prev = t.previousElementSibling, original = t.getAttribute("data-original");
      if (prev && prev.classList.contains("pieces") && prev.lastElementChild.getAttribute("data-original") === original) {
        prev.appendChild(t);
      } else if (prev && prev.matches("p.translation") && prev.getAttribute("data-original") === original) {
        var pieces = doc.createElement("div");
        pieces.className = "pieces";
        prev.parentNode.insertBefore(pieces, prev);
        pieces.appendChild(prev);
        pieces.appendChild(t);
      }
    });
  }

  /* ----- vertical reading: main scrolls sideways, from the right ------------------------- */

  function verticalMain() {
    var main = root.classList.contains("vertical") && doc.querySelector("main");
    return main && main.scrollWidth > main.clientWidth ? main : null;
  }

  // Forward in reading order is to the left: scrollLeft runs from 0 (the right edge, the
  // beginning) down to -(scrollWidth - clientWidth).
  function scrollColumns(main, forward) {
    main.scrollLeft -= forward;
  }

  // The 卷 opens at its beginning; if what comes before the first 經 (a heading, blocks on the
  // previous 經) fills the screen, go on just far enough that its first character shows.
  function showBeginning() {
    var main = verticalMain(), jing = doc.querySelector("main [data-layer=jing]");
    if (!main) return;
    main.scrollLeft = 0;
    window.scrollTo(0, 0);
    if (!jing) return;
    var rect = jing.getClientRects()[0], left = main.getBoundingClientRect().left;
    if (rect && rect.left < left) scrollColumns(main, left - rect.left + 24);
  }

  // The mouse wheel moves along the columns.
  function onWheel(e) {
    var main = verticalMain();
    if (!main || e.ctrlKey || Math.abs(e.deltaY) <= Math.abs(e.deltaX)) return;
    var unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? main.clientWidth : 1;
    scrollColumns(main, e.deltaY * unit);
    e.preventDefault();
  }

  // Keys in reading order: forward PageDown, Space, ← and ↓; back PageUp, Shift+Space, → and ↑;
  // Home and End to the ends. Keys typed into a field, or Space on a control, keep their use.
  var FORWARD = { PageDown: "page", " ": "page", ArrowLeft: "line", ArrowDown: "line" };
  var BACK = { PageUp: "page", ArrowRight: "line", ArrowUp: "line" };
  function onVerticalKey(e) {
    var main = verticalMain(), t = e.target;
    if (!main || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return false;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable]")) return false;
    if (e.key === " " && t && t.closest && t.closest("button, a, [role=button]")) return false;
    var page = main.clientWidth - 48, line = 48;
    var back = e.key === " " ? e.shiftKey : !!BACK[e.key];
    var kind = e.key === " " ? "page" : FORWARD[e.key] || BACK[e.key];
    if (e.key === "Home") main.scrollLeft = 0;
    else if (e.key === "End") main.scrollLeft = -(main.scrollWidth - main.clientWidth);
    else if (kind) scrollColumns(main, (kind === "page" ? page : line) * (back ? -1 : 1));
    else return false;
    e.preventDefault();
    return true;
  }

  // A vertical swipe moves along the columns too (up: forward), as on a horizontal page; main
  // leaves only sideways panning to the browser (touch-action: pan-x).
  var swipe = null;
  function onTouchStart(e) {
    swipe = e.touches.length === 1 ? { x: e.touches[0].clientX, y: e.touches[0].clientY } : null;
  }
  function onTouchMove(e) {
    var main = verticalMain();
    if (!main || !swipe || e.touches.length !== 1) return;
    var x = e.touches[0].clientX, y = e.touches[0].clientY;
    if (Math.abs(y - swipe.y) > Math.abs(x - swipe.x)) scrollColumns(main, swipe.y - y);
    swipe = { x: x, y: y };
  }

  /* ----- 義疏 category filter ------------------------------------------------------------ */

  // Only the entries that hold a block of the category stay (their 經 with them).
  function setCategory(cat) {
    if (!cat || cat === "all") root.removeAttribute("data-cat-filter");
    else root.setAttribute("data-cat-filter", cat);
    each(doc.querySelectorAll("main .entry"), function (entry) {
      var holds = !cat || cat === "all" || Array.prototype.some.call(entry.querySelectorAll("aside[data-category]"),
        function (a) { return a.getAttribute("data-category") === cat; });
      entry.classList.toggle("no-category", !holds);
    });
    each(doc.querySelectorAll("button[data-filter-category]"), function (b) {
      var c = b.getAttribute("data-filter-category");
      b.setAttribute("aria-pressed", (c === (cat || "all")) ? "true" : "false");
    });
    keepCurrentShown();
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
      backLink.lang = "zh-Hant";
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
      status.lang = "zh-Hant";
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

  // What a tool names: the layer and the opening characters of its element's text (read with
  // textContent), and the id, which tells apart two passages that open alike.
  function toolName(el, what) {
    var text = "";
    for (var n = el.firstChild; n && text.length < 8; n = n.nextSibling) {
      if (n.nodeType === 3 || (n.nodeType === 1 && !n.classList.contains("tools") && !n.classList.contains("lemma")
                               && !n.classList.contains("stop"))) text += n.textContent;
    }
    if (!text && el.querySelector(".lemma")) text = el.querySelector(".lemma").textContent;
    text = text.replace(/\s+/g, "");
    var opening = text.length > 8 ? text.slice(0, 8) + "…" : text;
    return what + (opening ? "「" + opening + "」" : "") + " " + el.id;
  }

  function fillTools() {
    var prefix = doc.body.getAttribute("data-cite") || "";
    TOOL_PLACES.forEach(function (place) {
      each(doc.querySelectorAll(place[0]), function (el) {
        var where = place[1] ? el.querySelector(place[1]) : el;
        if (!where || (where.lastElementChild && where.lastElementChild.classList.contains("tools"))) return;
        var id = el.id, what = place[2] || LAYER_NAMES[el.getAttribute("data-layer")] || "";
        var s = doc.createElement("span");
        s.className = "tools";
        s.lang = "zh-Hant";
        var named = toolName(el, what);
        var a = doc.createElement("a");
        a.className = "permalink";
        a.setAttribute("href", "#" + id);
        a.setAttribute("aria-label", "連結：" + named);
        var b = doc.createElement("button");
        b.type = "button";
        b.className = "cite";
        b.setAttribute("data-cite", citeOf(el) || (prefix ? prefix + " · " + id : id));
        var urn = urnOf(el);
        if (urn) b.setAttribute("data-urn", urn);
        b.title = "複製引文";
        b.setAttribute("aria-label", "複製引文：" + named);
        s.appendChild(a);
        s.appendChild(b);
        where.appendChild(s);
      });
    });
  }

  // Each 音義 gloss is tied to what it glosses (span[data-glosses] names the pieces): to the
  // character its term names inside the piece, wrapped here in span.glossed, else to the whole
  // piece. That element gets data-yinyi for the popup, aria-describedby for assistive
  // technology, and becomes focusable.
  function linkGlosses() {
    each(doc.querySelectorAll("[data-glosses][id]"), function (g) {
      var term = g.querySelector(".term"), name = term ? term.textContent.replace(/\s+/g, "") : "";
      var pieces = tokens(g.getAttribute("data-glosses")).map(byId).filter(function (p) { return p && p !== g; });
      var at = null;
      for (var i = 0; i < pieces.length && !at; i++) at = name ? termIn(pieces[i], name) : null;
      (at ? [at] : pieces).forEach(function (el) {
        var ids = tokens(el.getAttribute("data-yinyi"));
        if (ids.indexOf(g.id) < 0) ids.push(g.id);
        el.setAttribute("data-yinyi", ids.join(" "));
        el.setAttribute("aria-describedby", ids.join(" "));
        el.setAttribute("tabindex", "0");
      });
    });
  }

  // The first occurrence of `name` in the text of `piece` not yet tied to a gloss (a term
  // glossed twice is two occurrences, in order), wrapped in span.glossed; null if there is none
  // within one text node. The text is only split and moved, never rewritten.
  function termIn(piece, name) {
    var walker = doc.createTreeWalker(piece, NodeFilter.SHOW_TEXT, null);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var inner = closest(node.parentNode, ".glossed, .tools, [data-glosses]");
      if (inner && inner !== piece && piece.contains(inner)) continue;
      var i = node.data.indexOf(name);
      if (i < 0) continue;
      var hit = node.splitText(i);
      hit.splitText(name.length);
      var span = doc.createElement("span");
      span.className = "glossed";
      hit.parentNode.replaceChild(span, hit);
      span.appendChild(hit);
      return span;
    }
    return null;
  }

  // How a citation names an element: work · 卷 · 篇 · leaf · id, from the data attributes of
  // the page (body/@data-work, section/@data-juan and @data-pian, span.leaf/@data-leaf).
  function citeOf(el) {
    var juan = closest(el, "[data-juan]"), pian = closest(el, "[data-pian]");
    return [doc.body.getAttribute("data-work"), juan && juan.getAttribute("data-juan"),
            pian && pian.getAttribute("data-pian"), leafOf(el), el.id]
      .filter(function (part) { return part; }).join(" · ");
  }

  // The URN citation of an element (pipeline/tei/citation.py): the file's URN base, the @n of
  // each citable div it is in (卷, 篇, 章: section/@data-n), and a unit's (ab's) own id (u12,
  // t3); any other element is cited by the passage it stands in. '' when the file has no URN.
  var UNIT_ID = /^[ut][0-9]+$/;
  function urnOf(el) {
    var base = doc.body.getAttribute("data-urn");
    if (!base) return "";
    var parts = [];
    for (var s = el; s && s !== doc.body; s = s.parentNode) {
      if (s.getAttribute && s.hasAttribute("data-n")) parts.unshift(s.getAttribute("data-n"));
    }
    if (!parts.length) return "";
    if (UNIT_ID.test(el.id)) parts.push(el.id);
    return base + parts.join(".");
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
    var urn = button.getAttribute("data-urn");
    var text = (button.getAttribute("data-cite") || "") + "\n" + (urn ? urn + "\n" : "") + url;
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

  /* ----- keyboard: one tab stop for the text ------------------------------------------- */

  // The text is a list of reading blocks (units, 疏, 義疏 and 案 blocks, translations). One of
  // them, the current one, is in the tab order, and only its own links and buttons: the arrow
  // keys (in reading order) move to the next or previous block shown, Home and End to the first
  // and last, and Tab goes into the block's controls. A page of 700 blocks is then a dozen tab
  // stops, not 1,400; pointing at or clicking a block makes it the current one too.
  var BLOCKS = "main p.unit[id], main aside[id][data-layer], main p.translation[id]";
  var CONTROLS = "a[href], button, [tabindex]";
  var current = null;

  function blockOf(node) { return closest(node, BLOCKS); }

  function setTabStops(block, on) {
    block.setAttribute("tabindex", on ? "0" : "-1");
    block.classList.toggle("current", on);
    each(block.querySelectorAll(CONTROLS), function (c) { c.setAttribute("tabindex", on ? "0" : "-1"); });
  }

  function makeCurrent(block) {
    if (!block || block === current) return;
    if (current) setTabStops(current, false);
    current = block;
    setTabStops(block, true);
  }

  function initBlocks() {
    var main = doc.querySelector("main");
    if (!main) return;
    each(main.querySelectorAll(CONTROLS), function (c) { c.setAttribute("tabindex", "-1"); });
    each(main.querySelectorAll(BLOCKS), function (b) { b.setAttribute("tabindex", "-1"); });
    keepCurrentShown();
  }

  function shownBlocks() {
    return Array.prototype.filter.call(doc.querySelectorAll(BLOCKS), function (b) { return b.getClientRects().length; });
  }

  // A hidden layer or a category filter may hide the current block: the first one shown takes over.
  function keepCurrentShown() {
    if (!current || !current.getClientRects().length) makeCurrent(shownBlocks()[0]);
  }

  // Arrow keys on the current block itself: the next or previous block in reading order.
  function onBlockKey(e) {
    if (!current || e.target !== current || e.altKey || e.ctrlKey || e.metaKey) return false;
    var vertical = root.classList.contains("vertical");
    var next = vertical ? { ArrowLeft: 1, ArrowDown: 1 } : { ArrowDown: 1 };
    var prev = vertical ? { ArrowRight: 1, ArrowUp: 1 } : { ArrowUp: 1 };
    var list = shownBlocks(), i = list.indexOf(current), to = -1;
    if (next[e.key]) to = i + 1;
    else if (prev[e.key]) to = i - 1;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = list.length - 1;
    else return false;
    e.preventDefault();
    if (to < 0 || to >= list.length) return true;
    makeCurrent(list[to]);
    list[to].focus({ preventScroll: true });
    list[to].scrollIntoView({ block: "nearest", inline: "nearest" });
    return true;
  }

  function onFocusIn(e) {
    var block = blockOf(e.target);
    if (block) makeCurrent(block);
    onOver(e);
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
    // the skip link's target is the text itself: the browser has brought its start into view
    // (centring it, as for a unit, would open the 卷 in its middle)
    if (!el || !doc.body.contains(el) || el.tagName === "MAIN") return;
    reveal(el);
    makeCurrent(blockOf(el));
    el.classList.add("target-hl");
    targeted = el;
    // centred if it fits the window, else from its start
    var tall = el.getBoundingClientRect().height > window.innerHeight;
    if (el.scrollIntoView) el.scrollIntoView({ block: tall ? "start" : "center", inline: "center" });
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
    if (e.key === "Escape") { hideTip(); if (pinned) unpin(); return; }
    if (!onBlockKey(e)) onVerticalKey(e);
  }

  function init() {
    // re-apply the saved choices (the head line may have been blocked)
    root.classList.add("js");
    fillTools();
    linkGlosses();
    initBlocks();
    joinTranslationPieces();
    foldCredits();
    floatToolbar();
    storedHidden().forEach(function (l) { root.classList.add("hide-" + l); });
    Object.keys(KEY_MODES).forEach(function (m) { if (load(KEY_MODES[m]) === "1") root.classList.add(m); });
    syncLayerButtons();
    syncModeButtons();
    setCategory(root.getAttribute("data-cat-filter") || "all");
    headerHeight();

    doc.addEventListener("click", onClick);
    doc.addEventListener("mouseover", onOver);
    doc.addEventListener("mouseout", onOut);
    doc.addEventListener("focusin", onFocusIn);
    doc.addEventListener("focusout", onOut);
    doc.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", markTarget);
    window.addEventListener("resize", function () { headerHeight(); hideTip(); floatToolbar(); });
    window.addEventListener("scroll", floatToolbar, { passive: true });
    var main = doc.querySelector("main");
    if (main) {
      main.addEventListener("wheel", onWheel, { passive: false });
      main.addEventListener("touchstart", onTouchStart, { passive: true });
      main.addEventListener("touchmove", onTouchMove, { passive: true });
    }
    if (window.location.hash) markTarget();
    else if (root.classList.contains("vertical")) showBeginning();
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", init);
  else init();
})();
