<?xml version="1.0" encoding="UTF-8"?>
<!--
  The search field of every reading page (included by html.xsl, called after the masthead's h1):
  a GET form to the site's search page, so it works without script; search.js (which also
  highlights a search hit the page was opened at, ?hl=…#id) and search.css come with it. The
  same markup as pipeline/render/search.py's field() for the pages site.py writes.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    exclude-result-prefixes="#all">

  <!-- The site's search page, relative to the page (pipeline/render/search.py PAGE). -->
  <xsl:param name="search-href" as="xs:string" select="'search.html'"/>

  <xsl:template name="search-field">
    <link rel="stylesheet" href="{$assets-href}search.css"/>
    <script src="{$assets-href}search.js" defer="defer"></script>
    <form class="search-form" role="search" action="{$search-href}" method="get">
      <input type="search" name="q" data-search="" aria-label="檢索全文" placeholder="檢索"
             lang="lzh" maxlength="200" autocomplete="off"/>
      <button type="submit">檢索</button>
    </form>
  </xsl:template>

</xsl:stylesheet>
