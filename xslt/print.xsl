<?xml version="1.0" encoding="UTF-8"?>
<!--
  The print edition: one HTML document per TEI file, laid out for Chromium to print to PDF, in
  vertical right-to-left columns (the default) or horizontal lines.

  Three steps. (1) The hooks of common.xsl turn the text into blocks (zs:block) of runs (zs:t):
  a unit's 經 in full-size characters with its 注 and 音義 as small runs; each 疏 an indented
  block opening with the 疏 mark and its 出文, its sub-lemmas run on after a ○ as in the
  woodblock editions; each 義疏 quotation a block (the category tag opening the first), the 案 one
  step lower; headings, page furniture printed once, closing lines. Translations are left out:
  the print edition reproduces the book. (2) grid.xsl breaks each block into lines of $cells
  cells, with the small runs as 雙行小注. (3) The lines are cut into pages of $lines lines;
  every 卷 starts a page, and its pages are a named CSS page whose margin boxes carry the running
  head (work · 卷, written here as a fixed string: Chromium has no string-set) and the page number
  in Chinese numerals. Chromium then only draws: it never breaks a line itself.

  Geometry (all in millimetres): the paper, a margin all round, $cells cells per line (the cell
  is the size of a full-size character), $lines lines per page spread evenly over the page.
  print.css (static) is copied into the document with the geometry as CSS custom properties, so
  the file stands alone.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:zs="urn:zhushu"
    exclude-result-prefixes="#all">

  <xsl:import href="common.xsl"/>
  <xsl:import href="grid.xsl"/>

  <xsl:output method="html" html-version="5" encoding="UTF-8" indent="no" include-content-type="no"/>

  <!-- vertical (columns right to left, the default) or horizontal (lines top to bottom) -->
  <xsl:param name="layout" as="xs:string" select="'vertical'"/>
  <!-- paper width and height in millimetres (portrait); A4 by default -->
  <xsl:param name="paper-width" as="xs:decimal" select="210"/>
  <xsl:param name="paper-height" as="xs:decimal" select="297"/>
  <!-- margin on every side of the page, in millimetres; the running head and the page number
       are printed inside it -->
  <xsl:param name="margin" as="xs:decimal" select="20"/>
  <!-- cells (full-size characters) per line; 0: as many 7 mm cells as the line holds -->
  <xsl:param name="cells" as="xs:integer" select="0"/>
  <!-- lines per page; 0: as many as fit at a line pitch of 1.5 cells -->
  <xsl:param name="lines" as="xs:integer" select="0"/>
  <!-- the print style sheet (assets/type.css, then assets/print.css), copied into the document
       so that it stands alone. Zhushu passes it in (pipeline/render/pdf.py): once the stylesheet
       is compiled, Saxon may read no file (pipeline/render/xslt.py); run by hand, the default
       reads it from beside the stylesheet -->
  <xsl:param name="print-css" as="xs:string"
             select="unparsed-text('assets/type.css') || unparsed-text('assets/print.css')"/>

  <xsl:variable name="vertical" as="xs:boolean" select="$layout ne 'horizontal'"/>
  <!-- the room for a line and the breadth across the lines, inside the margins -->
  <xsl:variable name="line-room" as="xs:decimal"
                select="(if ($vertical) then $paper-height else $paper-width) - 2 * $margin"/>
  <xsl:variable name="breadth" as="xs:decimal"
                select="(if ($vertical) then $paper-width else $paper-height) - 2 * $margin"/>
  <xsl:variable name="n-cells" as="xs:integer"
                select="if ($cells gt 0) then $cells else max((4, xs:integer(floor($line-room div 7))))"/>
  <!-- room past the end of a line for the closing marks that hang there (two cells at most, see
       grid.xsl), taken from the margin as far as it can spare it (in vertical mode the page
       number sits in the margin at the lines' end), else from the line -->
  <xsl:variable name="hang" as="xs:decimal" select="2 * $line-room div $n-cells"/>
  <xsl:variable name="spare" as="xs:decimal" select="max((0, $margin - (if ($vertical) then 8 else 0)))"/>
  <xsl:variable name="line-length" as="xs:decimal" select="$line-room - max((0, $hang - $spare))"/>
  <xsl:variable name="cell-on-line" as="xs:decimal" select="$line-length div $n-cells"/>
  <xsl:variable name="n-lines" as="xs:integer"
                select="if ($lines gt 0) then $lines else max((1, xs:integer(floor($breadth div ($cell-on-line * 1.5)))))"/>
  <xsl:variable name="pitch" as="xs:decimal" select="$breadth div $n-lines"/>
  <!-- a cell never wider than the line pitch allows: the two rows of a note must not touch the
       next line -->
  <xsl:variable name="cell" as="xs:decimal" select="min(($cell-on-line, $pitch div 1.2))"/>

  <!-- ===== document ============================================================================ -->

  <xsl:template match="/">
    <xsl:variable name="blocks" as="element(zs:block)*">
      <xsl:apply-templates select="tei:TEI/tei:text"/>
    </xsl:variable>
    <html lang="lzh" class="{if ($vertical) then 'vertical' else 'horizontal'}">
      <head>
        <meta charset="utf-8"/>
        <meta name="generator" content="Zhushu"/>
        <title><xsl:value-of select="zs:title(.)"/></title>
        <style>
          <xsl:value-of select="zs:page-css($blocks, zs:running-head(., ''))"/>
          <xsl:value-of select="$print-css"/>
        </style>
      </head>
      <body>
        <xsl:for-each-group select="$blocks" group-adjacent="string(@juan)">
          <xsl:variable name="page" as="xs:string" select="'j' || current-grouping-key()"/>
          <xsl:for-each-group select="current-group()!zs:lines(., $n-cells)"
                              group-adjacent="(position() - 1) idiv $n-lines">
            <div class="pg" style="page:{$page}"><xsl:sequence select="current-group()"/></div>
          </xsl:for-each-group>
        </xsl:for-each-group>
      </body>
    </html>
  </xsl:template>

  <!-- The page geometry, and a named page for each 卷 (j1, j2 …) whose top margin box prints its
       running head; $default is the file's own, for text outside any 卷. -->
  <xsl:function name="zs:page-css" as="xs:string">
    <!-- $blocks: the blocks of the file; $default: the running head of the file -->
    <xsl:param name="blocks" as="element(zs:block)*"/>
    <xsl:param name="default" as="xs:string"/>
    <xsl:sequence select="string-join((
        ':root{--cell:' || zs:mm($cell) || ';--pitch:' || zs:mm($pitch) || ';--line:' || zs:mm($line-length)
          || ';--hang:' || zs:mm($hang)
          || ';--breadth:' || zs:mm($breadth) || '}',
        '@page{size:' || zs:mm($paper-width) || ' ' || zs:mm($paper-height) || ';margin:' || zs:page-margins()
          || ';@top-center{content:' || zs:css-string($default) || '}}',
        for $j in distinct-values($blocks/@juan)
        return '@page j' || $j || '{@top-center{content:'
               || zs:css-string((string($blocks[@juan = $j][1]/@head)[.], $default)[1]) || '}}'
      ), '&#10;') || '&#10;'"/>
  </xsl:function>

  <!-- work · 卷 for a 卷 (a top-level div, or none for the file's own 卷). -->
  <xsl:function name="zs:running-head" as="xs:string">
    <xsl:param name="doc" as="node()"/>
    <xsl:param name="juan" as="xs:string"/>
    <xsl:variable name="parts" as="xs:string*" select="(zs:work($doc), ($juan, zs:juan($doc))[.][1])[.]"/>
    <xsl:sequence select="if (exists($parts)) then string-join($parts, ' · ') else zs:title($doc)"/>
  </xsl:function>

  <!-- The 卷 a top-level div is: 卷 and its @n, else the 卷… ending its heading, else ''. -->
  <xsl:function name="zs:juan-of" as="xs:string">
    <xsl:param name="div" as="element(tei:div)?"/>
    <xsl:variable name="head" as="xs:string" select="normalize-space(string($div/tei:head[1]))"/>
    <xsl:sequence select="if ($div/@n) then zs:juan-label(normalize-space($div/@n))
                          else if (contains($head, '卷')) then '卷' || replace($head, '^.*卷', '')
                          else ''"/>
  </xsl:function>

  <!-- The page margins, top right bottom left. The page's printed area takes what the margin
       spares of $hang at the end of the lines, where closing punctuation hangs: a page that
       overflowed would be shrunk to fit (horizontal) or spill onto another page (vertical). -->
  <xsl:function name="zs:page-margins" as="xs:string">
    <xsl:variable name="end" as="xs:string" select="zs:mm($margin - min(($hang, $spare)))"/>
    <xsl:variable name="all" as="xs:string" select="zs:mm($margin)"/>
    <xsl:sequence select="string-join(if ($vertical) then ($all, $all, $end, $all) else ($all, $end, $all, $all), ' ')"/>
  </xsl:function>

  <xsl:function name="zs:mm" as="xs:string">
    <xsl:param name="x" as="xs:decimal"/>
    <xsl:sequence select="format-number($x, '0.###') || 'mm'"/>
  </xsl:function>

  <!-- A CSS string literal: quotes and backslashes escaped, line breaks dropped. -->
  <xsl:function name="zs:css-string" as="xs:string">
    <xsl:param name="s" as="xs:string"/>
    <xsl:sequence select="'&quot;' || replace(replace(normalize-space($s), '\\', '\\\\'), '&quot;', '\\&quot;') || '&quot;'"/>
  </xsl:function>

  <!-- ===== blocks: the hooks of common.xsl ====================================================== -->

  <xsl:template name="zs:div">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="kind" as="xs:string"/>
    <xsl:param name="depth" as="xs:integer"/>
    <xsl:param name="front" as="element(tei:fw)*"/>
    <xsl:param name="head" as="element(tei:head)*"/>
    <xsl:param name="groups" as="array(element()*)*"/>
    <xsl:choose>
      <!-- a top-level div is a 卷: its blocks carry its key and running head -->
      <xsl:when test="$depth = 1">
        <xsl:apply-templates select="$front, $head, $groups?*">
          <xsl:with-param name="juan" tunnel="yes" select="string(count(preceding-sibling::tei:div) + 1)"/>
          <xsl:with-param name="juan-head" tunnel="yes"
                          select="zs:running-head(., zs:juan-of(.))"/>
        </xsl:apply-templates>
      </xsl:when>
      <xsl:otherwise>
        <xsl:apply-templates select="$front, $head, $groups?*"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A block of text: its runs come from applying templates to $content. -->
  <xsl:template name="block">
    <!-- $class: what it is (unit, shu, yishu, an, head, fw, trailer) -->
    <xsl:param name="class" as="xs:string"/>
    <!-- $indent: cells left empty at the head of each line -->
    <xsl:param name="indent" as="xs:integer" select="0"/>
    <!-- $lead: runs that open the block (a category tag) -->
    <xsl:param name="lead" as="element(zs:t)*" select="()"/>
    <xsl:param name="content" as="node()*" select="node()"/>
    <!-- $level: 1 … 6 for a heading, 0 for none -->
    <xsl:param name="level" as="xs:integer" select="0"/>
    <xsl:param name="juan" as="xs:string" tunnel="yes" select="'0'"/>
    <xsl:param name="juan-head" as="xs:string" tunnel="yes" select="''"/>
    <zs:block class="{$class}" indent="{$indent}" juan="{$juan}" head="{$juan-head}">
      <xsl:if test="$level gt 0">
        <xsl:attribute name="level" select="$level"/>
      </xsl:if>
      <xsl:sequence select="$lead"/>
      <xsl:apply-templates select="$content">
        <xsl:with-param name="size" tunnel="yes" select="'big'"/>
        <xsl:with-param name="class" tunnel="yes" select="$class"/>
      </xsl:apply-templates>
    </zs:block>
  </xsl:template>

  <xsl:template name="zs:unit">
    <xsl:param name="id" as="xs:string"/>
    <xsl:call-template name="block">
      <xsl:with-param name="class" select="'unit'"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template name="zs:inline">
    <xsl:param name="layer" as="xs:string"/>
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="shus" as="xs:string*"/>
    <xsl:apply-templates>
      <xsl:with-param name="size" tunnel="yes" select="if ($layer = 'jing') then 'big' else 'small'"/>
      <xsl:with-param name="class" tunnel="yes" select="$layer"/>
    </xsl:apply-templates>
  </xsl:template>

  <xsl:template name="zs:small">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="kind" as="xs:string"/>
    <xsl:param name="quoted" as="xs:boolean"/>
    <xsl:param name="resp" as="xs:string"/>
    <xsl:param name="shus" as="xs:string*"/>
    <xsl:apply-templates>
      <xsl:with-param name="size" tunnel="yes" select="'small'"/>
      <xsl:with-param name="class" tunnel="yes" select="$kind"/>
    </xsl:apply-templates>
  </xsl:template>

  <!-- A 疏: one step lower than the text, opening with the 疏 mark and its 出文. -->
  <xsl:template name="zs:shu">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="target" as="xs:string"/>
    <xsl:param name="target-end" as="xs:string"/>
    <xsl:param name="covers" as="xs:string*"/>
    <xsl:param name="detached" as="xs:boolean"/>
    <xsl:call-template name="block">
      <xsl:with-param name="class" select="'shu'"/>
      <xsl:with-param name="indent" select="1"/>
    </xsl:call-template>
  </xsl:template>

  <!-- A sub-lemma runs on in its 疏 after a ○, the separator of the woodblock editions. -->
  <xsl:template name="zs:sublemma">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="target" as="xs:string"/>
    <xsl:param name="target-end" as="xs:string"/>
    <zs:t s="big" c="sep">○</zs:t>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- A 義疏 or 案 block: each quotation a block of its own, the category tag opening the first. -->
  <xsl:template name="zs:yishu">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="layer" as="xs:string"/>
    <xsl:param name="category" as="xs:string"/>
    <xsl:param name="category-name" as="xs:string"/>
    <xsl:param name="target" as="xs:string"/>
    <xsl:param name="prev" as="xs:string"/>
    <xsl:param name="detached" as="xs:boolean"/>
    <xsl:variable name="lead" as="element(zs:t)*">
      <xsl:apply-templates select="tei:label">
        <xsl:with-param name="size" tunnel="yes" select="'big'"/>
        <xsl:with-param name="class" tunnel="yes" select="'category'"/>
      </xsl:apply-templates>
    </xsl:variable>
    <xsl:variable name="indent" as="xs:integer" select="if ($layer = 'an') then 2 else 1"/>
    <xsl:for-each-group select="(* | text()[normalize-space()]) except tei:label" group-starting-with="tei:p | tei:cit">
      <xsl:call-template name="block">
        <xsl:with-param name="class" select="$layer"/>
        <xsl:with-param name="indent" select="$indent"/>
        <xsl:with-param name="lead" select="if (position() = 1) then $lead else ()"/>
        <xsl:with-param name="content" select="current-group()"/>
      </xsl:call-template>
    </xsl:for-each-group>
  </xsl:template>

  <xsl:template name="zs:quote">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="resp" as="xs:string"/>
    <xsl:param name="name" as="xs:string"/>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- Furniture printed once (钦定四库全书, the catalogue line) is kept; repeats at page edges
       and the e-text's own source line are not part of the book's text. -->
  <xsl:template name="zs:fw">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="kind" as="xs:string"/>
    <xsl:param name="repeats" as="xs:string"/>
    <xsl:if test="not($repeats) and $kind ne 'source'">
      <xsl:call-template name="block">
        <xsl:with-param name="class" select="'fw'"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template name="zs:translation">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="original" as="xs:string"/>
    <xsl:param name="copy" as="xs:boolean"/>
  </xsl:template>

  <xsl:template name="zs:other">
    <xsl:param name="id" as="xs:string"/>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- A 卷 heading at the head of the line; a section heading three cells down. They are h1, h2 …
       in the HTML, so the PDF has bookmarks for them. -->
  <xsl:template match="tei:head">
    <xsl:call-template name="block">
      <xsl:with-param name="class" select="'head'"/>
      <xsl:with-param name="indent" select="if (parent::tei:div/parent::tei:div) then 3 else 0"/>
      <xsl:with-param name="level" select="min((count(ancestor::tei:div), 6))"/>
    </xsl:call-template>
  </xsl:template>

  <!-- A closing line (右…), one step lower. -->
  <xsl:template match="tei:trailer">
    <xsl:call-template name="block">
      <xsl:with-param name="class" select="'trailer'"/>
      <xsl:with-param name="indent" select="1"/>
    </xsl:call-template>
  </xsl:template>

  <!-- ===== runs ================================================================================ -->

  <!-- The 疏 mark, the 出文, a category tag and a scholar's name are runs of their own class. -->
  <xsl:template match="tei:label[@type = ('mark', 'chuwen', 'category')] | tei:persName | tei:author">
    <xsl:apply-templates>
      <xsl:with-param name="class" tunnel="yes" select="if (self::tei:persName or self::tei:author) then 'name' else string(@type)"/>
    </xsl:apply-templates>
  </xsl:template>

  <!-- A character as the fonts can draw it: a placeholder for a character the source lacks as
       the 缺字 square □ (never the e-text's ▯ ┹ ? as such); a character with no Unicode code point
       (empty, or Kanripo's private-use one) as its declared Unicode form, else the geta mark 〓
       (a character that exists but cannot be set). It stays in its run, so the line rules see
       across it. -->
  <xsl:template match="tei:g">
    <xsl:param name="size" as="xs:string" tunnel="yes" select="'big'"/>
    <xsl:param name="class" as="xs:string" tunnel="yes" select="''"/>
    <zs:t s="{$size}" c="{$class}"><xsl:value-of select="zs:printed-char(.)"/></zs:t>
  </xsl:template>

  <xsl:function name="zs:printed-char" as="xs:string">
    <xsl:param name="g" as="element(tei:g)"/>
    <xsl:variable name="mapping" as="xs:string?"
                  select="zs:resolve($g/@ref)[self::tei:glyph or self::tei:char]/tei:mapping[not(matches(., '\p{Co}'))][1]"/>
    <xsl:sequence select="if ($g/@type = 'placeholder') then '□'
                          else if (string($g) and not(matches(string($g), '\p{Co}'))) then string($g)
                          else ($mapping[.], '〓')[1]"/>
  </xsl:function>

  <xsl:template match="tei:anchor"/>

  <!-- Text becomes a run of the size and class its context gives; outside a block (whitespace
       between elements) it is nothing. Line breaks inside the TEI are layout, not text. Vertical
       lines print the vertical quotation forms. -->
  <xsl:template match="text()">
    <xsl:param name="size" as="xs:string" tunnel="yes" select="''"/>
    <xsl:param name="class" as="xs:string" tunnel="yes" select="''"/>
    <xsl:variable name="text" as="xs:string" select="zs:printed-text(.)"/>
    <xsl:if test="$size and $text">
      <zs:t s="{$size}" c="{$class}"><xsl:value-of select="$text"/></zs:t>
    </xsl:if>
  </xsl:template>

  <!-- A text node as printed: without the TEI's line breaks, in vertical lines with the vertical
       quotation forms. -->
  <xsl:function name="zs:printed-text" as="xs:string">
    <xsl:param name="text" as="xs:string"/>
    <xsl:variable name="flat" as="xs:string" select="replace($text, '[&#10;&#13;&#9;]', '')"/>
    <xsl:sequence select="if ($vertical) then zs:vertical-forms($flat) else $flat"/>
  </xsl:function>

</xsl:stylesheet>
