<?xml version="1.0" encoding="UTF-8"?>
<!--
  The page in its site and in its edition, included by html.xsl: breadcrumbs (目錄 › work › 卷),
  the previous and next 卷 (rel="prev" / rel="next"), the links to the page's TEI and PDF, the
  table of contents of its 卷 and 篇, the line that credits the source (the colophon in full is
  colophon.html), and the leaves of the edition: each <pb n> a marker in the margin (四十六-一a,
  span.leaf/@data-leaf) and a link to its facsimile when the image's url resolves. The leaf an
  element begins on is found by the script from the markers (zhushu.js leafOf), not written on
  every unit: an accumulator of the leaf in effect cost 16 % of the transform, measured.

  The site's own words are traditional characters and say so (lang="zh-Hant"); names taken from
  the text (the work, the 卷, the 篇) carry the page's $lang.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:zs="urn:zhushu"
    exclude-result-prefixes="#all">

  <xsl:key name="zs:pb-by-n" match="tei:pb[@n]" use="string(@n)"/>

  <!-- ===== masthead and foot ================================================================== -->

  <xsl:template name="breadcrumbs">
    <xsl:variable name="work" as="xs:string" select="($work-name[.], zs:work(.))[1]"/>
    <xsl:variable name="here" as="xs:string" select="($juan[.], zs:juan(.), zs:title(.))[1]"/>
    <nav class="breadcrumbs" aria-label="位置" lang="zh-Hant">
      <ol>
        <xsl:if test="$index-href">
          <li><a class="to-index" href="{$index-href}">目錄</a></li>
        </xsl:if>
        <xsl:if test="$work and $work-href">
          <li><a href="{$work-href}" lang="{$lang}"><xsl:value-of select="$work"/></a></li>
        </xsl:if>
        <li aria-current="page" lang="{$lang}"><xsl:value-of select="$here"/></li>
      </ol>
      <xsl:if test="$persons-href">
        <a class="to-persons" href="{$persons-href}">人名索引</a>
      </xsl:if>
    </nav>
  </xsl:template>

  <!-- The neighbouring 卷 and this 卷's files. -->
  <xsl:template name="juan-nav">
    <!-- $where: its accessible name, distinct at the head and at the foot of the page -->
    <xsl:param name="where" as="xs:string" select="'卷次'"/>
    <xsl:if test="$prev-href or $next-href or $tei-href or $pdf-href">
      <nav class="juan-nav" aria-label="{$where}" lang="zh-Hant">
        <xsl:if test="$prev-href">
          <a rel="prev" href="{$prev-href}">‹ <span lang="{$lang}"><xsl:value-of select="$prev-label"/></span></a>
        </xsl:if>
        <span class="files">
          <xsl:if test="$tei-href">
            <a href="{$tei-href}" type="application/tei+xml">TEI</a>
          </xsl:if>
          <xsl:if test="$pdf-href">
            <a href="{$pdf-href}" type="application/pdf">PDF</a>
          </xsl:if>
        </span>
        <xsl:if test="$next-href">
          <a rel="next" href="{$next-href}"><span lang="{$lang}"><xsl:value-of select="$next-label"/></span> ›</a>
        </xsl:if>
      </nav>
    </xsl:if>
  </xsl:template>

  <!-- After the text: the neighbours again, and the source with a link to the colophon. -->
  <xsl:template name="page-foot">
    <xsl:variable name="bibl" as="element(tei:bibl)?"
                  select="(tei:TEI/tei:teiHeader/tei:fileDesc/tei:sourceDesc/tei:bibl)[1]"/>
    <footer class="page-foot" lang="zh-Hant">
      <xsl:call-template name="juan-nav">
        <xsl:with-param name="where" select="'卷次（頁末）'"/>
      </xsl:call-template>
      <p class="source-line">
        <xsl:if test="normalize-space($bibl/tei:edition)">
          <span>底本：<xsl:value-of select="normalize-space($bibl/tei:edition)"/></span>
        </xsl:if>
        <xsl:if test="normalize-space($bibl/tei:idno[@type = 'kanripo'])">
          <span>來源：Kanseki Repository 漢籍リポジトリ <xsl:value-of select="normalize-space($bibl/tei:idno[@type = 'kanripo'])"/></span>
        </xsl:if>
        <xsl:if test="$colophon-href">
          <a href="{$colophon-href}">版本說明</a>
        </xsl:if>
      </p>
    </footer>
  </xsl:template>

  <!-- ===== table of contents ================================================================== -->

  <!-- The 卷 and 篇 of the page, nested as the divs are; folded on narrow screens, beside the
       text on wide ones (zhushu.css). -->
  <xsl:template name="toc">
    <!-- $text: the text of the TEI file -->
    <xsl:param name="text" as="element(tei:text)*"/>
    <xsl:variable name="top" as="element(tei:div)*" select="$text/tei:body/tei:div[@xml:id]"/>
    <xsl:if test="exists($top)">
      <nav class="toc" aria-label="目次" lang="zh-Hant">
        <details>
          <summary>目次</summary>
          <ol>
            <xsl:apply-templates select="$top" mode="toc"/>
          </ol>
        </details>
      </nav>
    </xsl:if>
  </xsl:template>

  <xsl:template match="tei:div" mode="toc">
    <xsl:variable name="label" as="xs:string" select="zs:div-label(.)"/>
    <xsl:variable name="inner" as="element(tei:div)*" select="tei:div[@xml:id]"/>
    <xsl:if test="$label or exists($inner)">
      <li>
        <xsl:if test="$label">
          <a href="#{@xml:id}" lang="{$lang}"><xsl:value-of select="$label"/></a>
        </xsl:if>
        <xsl:if test="exists($inner)">
          <ol>
            <xsl:apply-templates select="$inner" mode="toc"/>
          </ol>
        </xsl:if>
      </li>
    </xsl:if>
  </xsl:template>

  <!-- A div as the contents name it: its heading, else (a 篇 with none) its name, else (a 卷) its 卷. -->
  <xsl:function name="zs:div-label" as="xs:string">
    <!-- $div: a div of the body -->
    <xsl:param name="div" as="element(tei:div)"/>
    <xsl:sequence select="(normalize-space(string($div/tei:head[1]))[.],
                           $pian-name[$div/@type = 'pian' and empty($div/tei:head)][.],
                           zs:juan-of-div($div)[$div/@type = 'juan'], '')[1]"/>
  </xsl:function>

  <!-- The 卷 of a 卷 div: 卷 + its @n (n="0" is Kanripo's 'not numbered'), else the header's,
       when the file holds one 卷 only. -->
  <xsl:function name="zs:juan-of-div" as="xs:string">
    <!-- $div: a div[@type = 'juan'] -->
    <xsl:param name="div" as="element(tei:div)"/>
    <xsl:variable name="n" as="xs:string" select="normalize-space($div/@n)"/>
    <xsl:sequence select="if ($n and $n != '0') then zs:juan-label($n)
                          else if (count(root($div)//tei:body/tei:div[@type = 'juan']) le 1) then zs:juan($div)
                          else ''"/>
  </xsl:function>

  <!-- ===== leaves of the edition ============================================================== -->

  <!-- A leaf begins: a marker in the margin with its label, the link to its facsimile if the
       image resolves, and (the first time a leaf is named) the id pb-N that the work page's
       目次 links to. The label is not selectable: copying the text copies the text. -->
  <xsl:template match="tei:pb[@n]">
    <xsl:variable name="label" as="xs:string" select="zs:leaf-label(@n)"/>
    <xsl:variable name="url" as="xs:string" select="zs:facs-url(.)"/>
    <span class="leaf" data-leaf="{$label}">
      <xsl:if test="key('zs:pb-by-n', string(@n))[1] is .">
        <xsl:attribute name="id" select="'pb-' || replace(@n, '[^A-Za-z0-9\-]', '_')"/>
      </xsl:if>
      <xsl:choose>
        <xsl:when test="$url">
          <a class="leaf-label" href="{$url}" title="書影" lang="zh-Hant"><xsl:value-of select="$label"/></a>
        </xsl:when>
        <xsl:otherwise>
          <span class="leaf-label" lang="zh-Hant"><xsl:value-of select="$label"/></span>
        </xsl:otherwise>
      </xsl:choose>
    </span>
  </xsl:template>

  <!-- 46-1a → 四十六-一a (卷-葉 and side); any other form as it is. String functions, not a
       regular expression: analyze-string here cost 9 % of the transform of a Kanripo 卷. -->
  <xsl:function name="zs:leaf-label" as="xs:string">
    <!-- $n: a pb/@n -->
    <xsl:param name="n" as="xs:string"/>
    <xsl:variable name="juan" as="xs:string" select="substring-before($n, '-')"/>
    <xsl:variable name="rest" as="xs:string" select="substring-after($n, '-')"/>
    <xsl:variable name="side" as="xs:string" select="(substring($rest, string-length($rest))[. = ('a', 'b')], '')[1]"/>
    <xsl:variable name="leaf" as="xs:string" select="substring($rest, 1, string-length($rest) - string-length($side))"/>
    <xsl:sequence select="if (zs:is-number($juan) and zs:is-number($leaf))
                          then zs:hanzi-number(xs:integer($juan)) || '-' || zs:hanzi-number(xs:integer($leaf)) || $side
                          else $n"/>
  </xsl:function>

  <!-- 1 to 3 ASCII digits. -->
  <xsl:function name="zs:is-number" as="xs:boolean">
    <!-- $s: any string -->
    <xsl:param name="s" as="xs:string"/>
    <xsl:sequence select="string-length($s) = (1 to 3) and translate($s, '0123456789', '') = ''"/>
  </xsl:function>

  <!-- The facsimile of a pb (its @facs names a surface of the facsimile): an absolute http(s)
       url as it is, a relative one (a plain path) under $facs-base, else '': a relative url is
       relative to the TEI file, which the site does not hold the images beside. -->
  <xsl:function name="zs:facs-url" as="xs:string">
    <!-- $pb: a pb -->
    <xsl:param name="pb" as="element(tei:pb)"/>
    <xsl:variable name="url" as="xs:string"
                  select="string((zs:resolve($pb/@facs)/self::tei:surface/tei:graphic/@url)[1])"/>
    <xsl:sequence select="if (matches($url, '^https?://[^\s&quot;&lt;&gt;]+$')) then $url
                          else if ($facs-base and matches($url, '^[A-Za-z0-9_][A-Za-z0-9._/\-]*$')
                                   and not(contains($url, '..'))) then $facs-base || $url
                          else ''"/>
  </xsl:function>

  <!-- A website's provenance line printed in the e-text (seed 003: …中华文库) is no part of the
       text: the colophon quotes it; here only its id stays, for links to it. -->
  <xsl:template match="tei:fw[@type = 'source']" priority="2">
    <xsl:if test="@xml:id">
      <span class="anchor" id="{@xml:id}"></span>
    </xsl:if>
  </xsl:template>

</xsl:stylesheet>
