/* Zhushu web edition: where the reader is. The breadcrumbs name the work and the 卷 of the page
   (written by html.xsl); this adds the 篇 the reader is in (the section[data-pian] at the reading
   point: the top of the window, or in 直排 the right edge of the columns), updated as the text
   scrolls, and linked to its heading. Reads only data-pian (textContent) and ids. */
(function () {
  "use strict";

  var doc = document;

  function start() {
    var trail = doc.querySelector("nav.breadcrumbs ol");
    var main = doc.querySelector("main");
    if (!trail || !main || !main.querySelector("section[data-pian][id]")) return;
    var item = doc.createElement("li"), link = doc.createElement("a");
    item.className = "pian";
    item.hidden = true;
    link.lang = doc.documentElement.lang;
    item.appendChild(link);
    trail.appendChild(item);
    var shown = null, queued = false;

    // The element under the reading point: a little inside the text where reading resumes.
    function atReadingPoint() {
      var r = main.getBoundingClientRect(), bar = doc.querySelector("nav.toolbar");
      var below = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
      if (doc.documentElement.classList.contains("vertical")) {
        return doc.elementFromPoint(Math.min(r.right, window.innerWidth) - 40, Math.max(r.top, below) + 40);
      }
      return doc.elementFromPoint(r.left + Math.min(r.width, 400) / 2, Math.max(r.top, below) + 24);
    }

    function update() {
      queued = false;
      var at = atReadingPoint();
      var section = at && main.contains(at) && at.closest ? at.closest("section[data-pian][id]") : null;
      if (section === shown) return;
      shown = section;
      item.hidden = !section;
      if (section) {
        link.textContent = section.getAttribute("data-pian");
        link.setAttribute("href", "#" + section.id);
      }
    }

    function later() {
      if (!queued) { queued = true; window.requestAnimationFrame(update); }
    }

    window.addEventListener("scroll", later, { passive: true });
    main.addEventListener("scroll", later, { passive: true });        // 直排: main scrolls
    window.addEventListener("resize", later);
    window.addEventListener("hashchange", later);
    doc.addEventListener("click", later);                             // a mode or a layer switched
    update();
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", start);
  else start();
})();
