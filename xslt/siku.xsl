<?xml version="1.0" encoding="UTF-8"?>
<!--
  The 四庫 style of the print edition: the text set as the 文淵閣 四庫全書 prints it, on leaves of
  two half-leaves of $columns columns × $cells cells, in a frame of double rules on four sides
  (四周雙邊: thick outside, thin inside), thin rules between the columns (烏絲欄) and the 版心
  between the half-leaves (欽定四庫全書, one black 魚尾, the title and 卷, the leaf number).

  Two ways to fill the leaves.
  (a) Source lineation, when the TEI has the edition's <pb>/<lb> (Kanripo input): each side of the
      PDF is a side of the edition (pb/@n 3-1a: 卷 3, leaf 1, side a), each column one of its
      lines (lb), each small note split into its two rows where the edition split it (milestone
      unit="row"; balanced when the piece has none). Every line is kept, furniture included. A
      column longer than the grid is drawn smaller to fit; a side of more lines than columns has
      narrower columns. Both are counted (data-squeezed, data-crowded on the body), and so are the
      edition's lines that break the punctuation rules of the grid (data-punctuation).
  (b) The grid (no lineation, or $lineation 'grid'): the text runs on in one flow per 卷 as the
      四庫 注疏 print it (經 and 注 after its mark full size; 音義 and 疏 after their marks in
      double rows, continued across columns and leaves; a new 經 goes on in the same column),
      broken by grid.xsl; headings, furniture and closing lines start a column, each 義疏 or 案
      block starts a column one cell down, its quotations run on after an empty cell. Each 卷
      starts a leaf, numbered from 一.

  A small character is as long as a full-size one and half as wide (the sources' double rows
  hold 21 characters a row in a column of 21: measured on KR1d0003, KR1d0028, KR1d0053), so
  zs:widths is overridden here: small text measures as full-size text.

  Pages: $leaf 'full', one page per leaf (the paper turned landscape by pdf.py), half-leaf a on
  the right; 'half', one page per half-leaf with the whole 版心 strip at its fold edge (the left
  of side a, the right of side b). Every page is a div.pg; the 版心's text is the last text of
  each page, so that a page's text is its columns' text followed by the 版心's.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:zs="urn:zhushu"
    exclude-result-prefixes="#all">

  <xsl:import href="print.xsl"/>

  <xsl:output method="html" html-version="5" encoding="UTF-8" indent="no" include-content-type="no"/>

  <!-- columns of a half-leaf (8 in the 四庫全書) -->
  <xsl:param name="columns" as="xs:integer" select="8"/>
  <!-- full: a page per leaf (two half-leaves and the 版心); half: a page per half-leaf -->
  <xsl:param name="leaf" as="xs:string" select="'full'"/>
  <!-- auto: the edition's lines where the TEI has lb, else the grid; source; grid -->
  <xsl:param name="lineation" as="xs:string" select="'auto'"/>
  <!-- the style sheet of the leaf (assets/type.css, then assets/siku.css), copied into the
       document as print-css is -->
  <xsl:param name="siku-css" as="xs:string"
             select="unparsed-text('assets/type.css') || unparsed-text('assets/siku.css')"/>

  <!-- No mark hangs past the foot of a column: it would cross the frame. A closing mark that
       does not fit takes the character before it down to the next column (grid.xsl, zs:fit). -->
  <xsl:variable name="zs:max-hanging" as="xs:integer" select="0"/>

  <xsl:variable name="full" as="xs:boolean" select="$leaf ne 'half'"/>
  <xsl:variable name="s-cells" as="xs:integer" select="if ($cells gt 0) then $cells else 21"/>

  <!-- ===== geometry (millimetres; every measure a multiple of the cell) ======================= -->
  <!-- the pitch of the columns, the width of the 版心, the rules (outer, gap, inner = column
       rule), the room above and below the text of a column -->
  <xsl:variable name="k-pitch" as="xs:decimal" select="1.6"/>
  <xsl:variable name="k-heart" as="xs:decimal" select="2"/>
  <xsl:variable name="k-outer" as="xs:decimal" select="0.09"/>
  <xsl:variable name="k-gap" as="xs:decimal" select="0.14"/>
  <xsl:variable name="k-rule" as="xs:decimal" select="0.035"/>
  <xsl:variable name="k-pad" as="xs:decimal" select="0.3"/>
  <xsl:variable name="k-frame" as="xs:decimal" select="$k-outer + $k-gap + $k-rule"/>
  <xsl:variable name="halves" as="xs:integer" select="if ($full) then 2 else 1"/>
  <xsl:variable name="k-width" as="xs:decimal"
                select="$halves * $columns * $k-pitch + $k-heart + 2 * $k-frame"/>
  <xsl:variable name="k-height" as="xs:decimal" select="$s-cells + 2 * $k-pad + 2 * $k-frame"/>
  <!-- the cell: the largest that lets the leaf fit inside the margins -->
  <xsl:variable name="s-cell" as="xs:decimal"
                select="floor(1000 * min((($paper-width - 2 * $margin) div $k-width,
                                          ($paper-height - 2 * $margin) div $k-height))) div 1000"/>

  <!-- ===== document ============================================================================ -->

  <xsl:template match="/">
    <xsl:variable name="source" as="xs:boolean"
                  select="$lineation = 'source' or ($lineation = 'auto' and exists(tei:TEI/tei:text//tei:lb))"/>
    <xsl:variable name="sides" as="element(zs:side)*"
                  select="if ($source) then zs:source-sides(.) else zs:grid-sides(.)"/>
    <html lang="lzh" class="siku">
      <head>
        <meta charset="utf-8"/>
        <meta name="generator" content="Zhushu"/>
        <title><xsl:value-of select="zs:title(.)"/></title>
        <style>
          <xsl:value-of select="zs:siku-geometry()"/>
          <xsl:value-of select="$siku-css"/>
        </style>
      </head>
      <body data-lineation="{if ($source) then 'source' else 'grid'}"
            data-squeezed="{count($sides/*[@data-squeezed])}"
            data-crowded="{count($sides[count(*) gt $columns])}"
            data-punctuation="{count($sides/*[@data-punctuation])}">
        <xsl:choose>
          <xsl:when test="$full">
            <xsl:for-each-group select="$sides" group-adjacent="@juan || '-' || @leaf">
              <xsl:variable name="a" as="element(zs:side)?" select="current-group()[@half = 'a'][1]"/>
              <xsl:variable name="b" as="element(zs:side)?" select="current-group()[@half = 'b'][1]"/>
              <xsl:call-template name="page">
                <xsl:with-param name="side" select="current-group()[1]"/>
                <xsl:with-param name="parts" select="zs:half($a, 'a'), zs:heart(), zs:half($b, 'b')"/>
                <xsl:with-param name="text" select="zs:heart-text(current-group()[1])"/>
              </xsl:call-template>
            </xsl:for-each-group>
          </xsl:when>
          <xsl:otherwise>
            <xsl:for-each select="$sides">
              <xsl:call-template name="page">
                <xsl:with-param name="side" select="."/>
                <xsl:with-param name="parts" select="if (@half = 'b') then (zs:heart(), zs:half(., 'b'))
                                                     else (zs:half(., 'a'), zs:heart())"/>
                <xsl:with-param name="text" select="zs:heart-text(.)"/>
              </xsl:call-template>
            </xsl:for-each>
          </xsl:otherwise>
        </xsl:choose>
      </body>
    </html>
  </xsl:template>

  <!-- A page: the frame (outer and inner rules), its row of half-leaves and 版心 right to left,
       then the 版心's text (drawn in the 版心's place, written last). -->
  <xsl:template name="page">
    <xsl:param name="side" as="element(zs:side)"/>
    <xsl:param name="parts" as="element()+"/>
    <xsl:param name="text" as="element()+"/>
    <div class="pg">
      <div class="leaf">
        <div class="inner"><xsl:sequence select="$parts"/></div>
        <div class="heart-text {if ($full) then 'middle' else if ($side/@half = 'a') then 'left' else 'right'}">
          <xsl:sequence select="$text"/>
        </div>
      </div>
    </div>
  </xsl:template>

  <!-- A half-leaf: its columns, filled up with empty ones to $columns; more columns than that are
       drawn narrower (a custom property the style sheet divides by). -->
  <xsl:function name="zs:half" as="element()">
    <xsl:param name="side" as="element(zs:side)?"/>
    <xsl:param name="half" as="xs:string"/>
    <xsl:variable name="n" as="xs:integer" select="count($side/*)"/>
    <div class="half {$half}">
      <xsl:if test="$n gt $columns">
        <xsl:attribute name="style" select="'--n:' || $n"/>
      </xsl:if>
      <xsl:sequence select="$side/*"/>
      <xsl:for-each select="$n + 1 to $columns">
        <div class="ln"/>
      </xsl:for-each>
    </div>
  </xsl:function>

  <!-- The 版心 column: its rules and the 魚尾 (a black fish-tail, notched below). -->
  <xsl:function name="zs:heart" as="element()">
    <div class="heart">
      <svg class="yuwei" viewBox="0 0 20 10" preserveAspectRatio="none" aria-hidden="true">
        <path d="M0 0H20V10L10 4.5L0 10Z"/>
      </svg>
    </div>
  </xsl:function>

  <!-- The 版心's text: 欽定四庫全書; the title and the 卷 below the 魚尾; the leaf number. -->
  <xsl:function name="zs:heart-text" as="element()+">
    <xsl:param name="side" as="element(zs:side)"/>
    <div class="ht top">欽定四庫全書</div>
    <div class="ht title"><xsl:value-of select="string-join(($side/@title, $side/@juan-label)[string()], ' ')"/></div>
    <div class="ht number"><xsl:value-of select="zs:hanzi-number(xs:integer($side/@leaf))"/></div>
  </xsl:function>

  <xsl:function name="zs:siku-geometry" as="xs:string">
    <xsl:variable name="c" as="xs:decimal" select="$s-cell"/>
    <xsl:variable name="width" as="xs:decimal" select="$k-width * $c"/>
    <xsl:variable name="height" as="xs:decimal" select="$k-height * $c"/>
    <xsl:sequence select="string-join((
        ':root{--cell:' || zs:mm($c) || ';--pitch:' || zs:mm($k-pitch * $c) || ';--heart:' || zs:mm($k-heart * $c)
          || ';--outer:' || zs:mm($k-outer * $c) || ';--gap:' || zs:mm($k-gap * $c)
          || ';--rule:' || zs:mm($k-rule * $c) || ';--pad:' || zs:mm($k-pad * $c)
          || ';--columns:' || $columns || ';--cells:' || $s-cells
          || ';--leaf-width:' || zs:mm($width) || ';--leaf-height:' || zs:mm($height)
          || ';--left:' || zs:mm(($paper-width - $width) div 2) || ';--top:' || zs:mm(($paper-height - $height) div 2)
          || ';--paper-width:' || zs:mm($paper-width) || ';--paper-height:' || zs:mm($paper-height) || '}',
        '@page{size:' || zs:mm($paper-width) || ' ' || zs:mm($paper-height) || ';margin:0}'), '&#10;') || '&#10;'"/>
  </xsl:function>

  <!-- ===== shared by both ways ================================================================== -->

  <!-- Small text is as long as full-size text: a double row of a column of N cells holds N
       characters (grid.xsl's half-size measure is the modern page's). -->
  <xsl:variable name="zs:small-divisor" as="xs:integer" select="1"/>

  <!-- Whether a column or a note row breaks the rules of the grid: it opens with closing
       punctuation or ends with opening punctuation. -->
  <xsl:function name="zs:badly-broken" as="xs:boolean">
    <xsl:param name="text" as="xs:string"/>
    <xsl:variable name="cps" as="xs:integer*" select="string-to-codepoints($text)"/>
    <xsl:sequence select="$cps[1] = $zs:closing or $cps[last()] = $zs:opening"/>
  </xsl:function>

  <!-- A column: div.ln of the runs drawn; drawn smaller when it is longer than the grid. -->
  <xsl:function name="zs:column" as="element()">
    <xsl:param name="class" as="xs:string"/>
    <xsl:param name="indent" as="xs:integer"/>
    <xsl:param name="content" as="node()*"/>
    <xsl:param name="length" as="xs:integer"/>
    <xsl:param name="broken" as="xs:boolean"/>
    <xsl:variable name="cap" as="xs:integer" select="4 * ($s-cells - $indent)"/>
    <div class="{string-join(('ln', $class[.], ('i' || $indent)[$indent gt 0]), ' ')}">
      <!-- siku.css has .i1 to .i3; the edition's deeper indents (a table of contents) are set here -->
      <xsl:variable name="style" as="xs:string*"
                    select="('padding-top:calc(var(--pad) + ' || $indent || ' * var(--cell))')[$indent gt 3],
                            if ($length gt $cap) then 'font-size:' || format-number($cap div $length, '0.0000') || 'em' else ()"/>
      <xsl:if test="exists($style)">
        <xsl:attribute name="style" select="string-join($style, ';')"/>
      </xsl:if>
      <xsl:if test="$length gt $cap">
        <xsl:attribute name="data-squeezed" select="$length"/>
      </xsl:if>
      <xsl:if test="$broken">
        <xsl:attribute name="data-punctuation" select="'yes'"/>
      </xsl:if>
      <xsl:sequence select="$content"/>
    </div>
  </xsl:function>

  <!-- ===== (a) source lineation ================================================================ -->

  <!-- The sides of the edition: the text as tokens (zs:t runs, zs:lb, zs:pb, zs:ms), cut at pb
       into sides and at lb into columns. -->
  <xsl:function name="zs:source-sides" as="element(zs:side)*">
    <xsl:param name="doc" as="document-node()"/>
    <xsl:variable name="tokens" as="element()*">
      <xsl:apply-templates select="$doc/tei:TEI/tei:text" mode="src"/>
    </xsl:variable>
    <xsl:variable name="work" as="xs:string" select="zs:work($doc)"/>
    <!-- Where the TEI records the lines' indentation (space after lb, since issue 18) a line
         without one starts at the top, and a raised line (抬頭) stands out. Older TEI, and an
         e-text that lost its commentary's indentation (a 義疏 卷 of whose commentary no line is
         indented: KR1d0037_010), is indented by what each line holds. -->
    <xsl:variable name="commentary" as="xs:string+" select="'yishu', 'an', 'category'"/>
    <xsl:variable name="indented" as="xs:boolean"
                  select="if (exists($tokens[@c = $commentary]))
                          then some $i in 1 to count($tokens)
                               satisfies $tokens[$i]/self::zs:indent and $tokens[$i + 1]/@c = $commentary
                          else exists($tokens/self::zs:indent)"/>
    <xsl:for-each-group select="$tokens" group-starting-with="zs:pb">
      <xsl:variable name="n" as="xs:string" select="string(current-group()[1]/self::zs:pb/@n)"/>
      <xsl:variable name="parts" as="xs:string*"
                    select="if (matches($n, '^.+-\d+[ab]$')) then tokenize(replace($n, '^(.+)-(\d+)([ab])$', '$1 $2 $3'), ' ') else ()"/>
      <xsl:variable name="lines" as="element()*">
        <xsl:for-each-group select="current-group()" group-starting-with="zs:lb">
          <xsl:if test="current-group()[1]/self::zs:lb or current-group()/self::zs:t">
            <xsl:sequence select="zs:source-column(current-group()[self::zs:t or self::zs:ms],
                                                   if ($indented) then xs:integer(sum(current-group()/self::zs:indent/@n)) else ())"/>
          </xsl:if>
        </xsl:for-each-group>
      </xsl:variable>
      <!-- Some e-texts put empty lines between the printed ones (Kanripo's 欽定儀禮義疏: two after
           nearly every line, 23 to a side): a side of more lines than the half-leaf has columns
           loses its empty lines first; an empty line of a side that fits stays an empty column. -->
      <xsl:variable name="columns" as="element()*"
                    select="if (count($lines) gt $columns) then $lines[string()] else $lines"/>
      <xsl:if test="exists($columns)">
        <zs:side xsl:inherit-namespaces="no" juan="{($parts[1], '')[1]}" leaf="{($parts[2], position())[1]}"
                 half="{($parts[3], 'a')[1]}" title="{$work}"
                 juan-label="{(current-group()[1]/self::zs:pb/@juan[string()], zs:juan($doc)[.],
                                     $parts[1]!zs:juan-label(.))[1]}">
          <xsl:sequence select="$columns"/>
        </zs:side>
      </xsl:if>
    </xsl:for-each-group>
  </xsl:function>

  <!-- One of the edition's lines: full-size runs as they are, each stretch of small runs a piece
       of two rows split at its milestone (balanced when it has none); $indent the cells it
       leaves blank at its head (the edition's, where the TEI records them: a 義疏's commentary
       one cell down, a line raised above it for 抬頭), or () to go by what it holds. -->
  <xsl:function name="zs:source-column" as="element()">
    <xsl:param name="items" as="element()*"/>
    <xsl:param name="indent" as="xs:integer?"/>
    <xsl:variable name="parts" as="element(zs:part)*">
      <xsl:for-each-group select="$items" group-adjacent="exists(self::zs:ms) or @s = 'small'">
        <xsl:variable name="runs" as="element(zs:t)*" select="zs:merge(current-group()[self::zs:t][string()])"/>
        <xsl:choose>
          <xsl:when test="empty($runs)"/>
          <xsl:when test="current-grouping-key()">
            <xsl:variable name="at" as="xs:integer?"
                          select="(for $i in 1 to count(current-group()) return $i[current-group()[$i][self::zs:ms]])[1]"/>
            <xsl:variable name="text" as="xs:string" select="string-join($runs)"/>
            <xsl:variable name="ws" as="xs:integer*" select="zs:widths($text, true())"/>
            <xsl:variable name="split" as="xs:integer"
                          select="if (exists($at)) then string-length(string-join(subsequence(current-group(), 1, $at - 1)[self::zs:t]))
                                  else zs:balance(string-to-codepoints($text), $ws)"/>
            <xsl:variable name="starts" as="xs:integer+" select="zs:starts($runs)"/>
            <xsl:variable name="row1" as="xs:string" select="substring($text, 1, $split)"/>
            <xsl:variable name="row2" as="xs:string" select="substring($text, $split + 1)"/>
            <zs:part xsl:inherit-namespaces="no" w="{max((sum(subsequence($ws, 1, $split)), sum(subsequence($ws, $split + 1))))}"
                     broken="{(zs:badly-broken($row1) and $row1) or (zs:badly-broken($row2) and $row2)}">
              <span class="wr">
                <span class="r"><xsl:sequence select="zs:slice($runs, $starts, 1, $split + 1)"/></span>
                <span class="r"><xsl:sequence select="zs:slice($runs, $starts, $split + 1, string-length($text) + 1)"/></span>
              </span>
            </zs:part>
          </xsl:when>
          <xsl:otherwise>
            <zs:part xsl:inherit-namespaces="no" w="{sum(zs:widths(string-join($runs), false()))}" broken="false">
              <xsl:for-each select="$runs">
                <span class="{@c}"><xsl:sequence select="zs:draw(string(.))"/></span>
              </xsl:for-each>
            </zs:part>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:for-each-group>
    </xsl:variable>
    <xsl:variable name="first" as="element(zs:t)?" select="$items[self::zs:t][string()][1]"/>
    <xsl:variable name="cells-down" as="xs:integer"
                  select="min(($s-cells - 1, ($indent, if ($first/@c = ('yishu', 'an', 'category', 'sp')) then 1 else 0)[1]))"/>
    <xsl:sequence select="zs:column(string($first/@c), $cells-down, $parts!node(), xs:integer(sum($parts/@w)),
                                    zs:badly-broken(string-join($items[self::zs:t])) or $parts/@broken = 'true')"/>
  </xsl:function>

  <xsl:template match="text()" mode="src">
    <xsl:variable name="text" as="xs:string" select="zs:printed-text(.)"/>
    <xsl:if test="$text">
      <zs:t s="{zs:src-size(.)}" c="{zs:src-class(.)}"><xsl:value-of select="$text"/></zs:t>
    </xsl:if>
  </xsl:template>
  <xsl:template match="tei:g" mode="src">
    <zs:t s="{zs:src-size(.)}" c="{if (@type = 'placeholder') then 'gap' else zs:src-class(.)}">
      <xsl:value-of select="zs:printed-char(.)"/>
    </zs:t>
  </xsl:template>
  <xsl:template match="tei:lb" mode="src"><zs:lb/></xsl:template>
  <!-- the 卷 a page is in, from its div's number (pb/@n numbers Kanripo's files: KR1d0037_010
       holds 卷八); a 考證 after its 卷 is on that 卷's leaves -->
  <xsl:template match="tei:pb" mode="src">
    <xsl:variable name="top" as="element(tei:div)?" select="ancestor::tei:div[last()]"/>
    <xsl:variable name="juan" as="element(tei:div)?"
                  select="($top[@type = 'juan'][@n], $top/preceding-sibling::tei:div[@type = 'juan'][@n][1])[1]"/>
    <zs:pb n="{@n}" juan="{$juan/@n!zs:juan-label(normalize-space(.))}"/>
  </xsl:template>
  <xsl:template match="tei:milestone[@unit = 'row']" mode="src"><zs:ms/></xsl:template>
  <xsl:template match="tei:space[@unit = 'chars']" mode="src"><zs:indent n="{@quantity}"/></xsl:template>
  <xsl:template match="tei:anchor | tei:ab[@type = 'translation']" mode="src"/>
  <!-- a 義疏 block's quotations after the first are set off by one empty cell, as in the source -->
  <xsl:template match="(tei:cit | tei:p)[parent::tei:note[@type = ('yishu', 'an')][zs:is-block(.)]]
                       [preceding-sibling::tei:cit or preceding-sibling::tei:p]" mode="src">
    <zs:t s="big" c="sp">　</zs:t>
    <xsl:apply-templates mode="src"/>
  </xsl:template>

  <!-- Full size: 經, 注 (after its mark), the marks, headings, furniture, 義疏 and 案 blocks;
       small: 音義, 疏 and every other note. -->
  <xsl:function name="zs:src-size" as="xs:string">
    <xsl:param name="n" as="node()"/>
    <xsl:variable name="note" as="element(tei:note)?" select="$n/ancestor::tei:note[1]"/>
    <xsl:sequence select="if ($n/ancestor::tei:label[@type = 'mark'] or empty($note)
                              or ($note/@type = 'zhu' and zs:is-piece($note))
                              or ($note/@type = ('yishu', 'an') and zs:is-block($note))) then 'big'
                          else 'small'"/>
  </xsl:function>

  <xsl:function name="zs:src-class" as="xs:string">
    <xsl:param name="n" as="node()"/>
    <xsl:sequence select="if ($n/ancestor::tei:label[@type = ('mark', 'category')])
                          then string($n/ancestor::tei:label[@type = ('mark', 'category')][1]/@type)
                          else (string($n/ancestor::tei:note[1]/@type)[.],
                                'fw'[$n/ancestor::tei:fw], 'head'[$n/ancestor::tei:head],
                                'trailer'[$n/ancestor::tei:trailer], 'jing')[1]"/>
  </xsl:function>

  <!-- ===== (b) the grid ======================================================================== -->

  <!-- The blocks of the print edition, the run-on ones (units and 疏) of a 卷 joined into one
       flow, broken into columns; the columns of each 卷 cut into half-leaves. -->
  <xsl:function name="zs:grid-sides" as="element(zs:side)*">
    <xsl:param name="doc" as="document-node()"/>
    <xsl:variable name="blocks" as="element(zs:block)*">
      <xsl:apply-templates select="$doc/tei:TEI/tei:text"/>
    </xsl:variable>
    <xsl:variable name="work" as="xs:string" select="zs:work($doc)"/>
    <xsl:for-each-group select="$blocks" group-adjacent="string(@juan)">
      <xsl:variable name="head" as="xs:string" select="string(current-group()[1]/@head)"/>
      <xsl:variable name="juan-label" as="xs:string"
                    select="if (contains($head, ' · ')) then replace($head, '^.* · ', '') else zs:juan($doc)"/>
      <xsl:variable name="lines" as="element()*">
        <xsl:for-each-group select="current-group()" group-adjacent="@class = ('unit', 'shu')">
          <xsl:choose>
            <xsl:when test="current-grouping-key()">
              <xsl:variable name="flow" as="element(zs:block)">
                <zs:block class="unit" indent="0"><xsl:sequence select="current-group()!zs:t"/></zs:block>
              </xsl:variable>
              <xsl:sequence select="zs:grid-columns($flow)"/>
            </xsl:when>
            <xsl:otherwise>
              <xsl:sequence select="current-group()!zs:grid-columns(.)"/>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:for-each-group>
      </xsl:variable>
      <xsl:variable name="juan" as="xs:string" select="current-grouping-key()"/>
      <xsl:for-each-group select="$lines" group-adjacent="(position() - 1) idiv $columns">
        <zs:side xsl:inherit-namespaces="no" juan="{$juan}" leaf="{position() idiv 2 + position() mod 2}"
                 half="{if (position() mod 2 = 1) then 'a' else 'b'}" title="{$work}" juan-label="{$juan-label}">
          <xsl:sequence select="current-group()"/>
        </zs:side>
      </xsl:for-each-group>
    </xsl:for-each-group>
  </xsl:function>

  <!-- A block's lines from grid.xsl, as columns (the rules checked, lengths measured). -->
  <xsl:function name="zs:grid-columns" as="element()*">
    <xsl:param name="block" as="element(zs:block)"/>
    <xsl:sequence select="zs:lines($block, $s-cells)"/>
  </xsl:function>

  <!-- 注 after its mark is full size, as the 四庫 注疏 print it; a 注 with no mark (a modern
       edition) stays in double rows, or it could not be told from the 經. -->
  <xsl:template name="zs:inline">
    <xsl:param name="layer" as="xs:string"/>
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="shus" as="xs:string*"/>
    <xsl:apply-templates>
      <xsl:with-param name="size" tunnel="yes"
                      select="if ($layer = 'jing' or ($layer = 'zhu' and preceding-sibling::*[1][self::tei:label[@type = 'mark']]))
                              then 'big' else 'small'"/>
      <xsl:with-param name="class" tunnel="yes" select="$layer"/>
    </xsl:apply-templates>
  </xsl:template>

  <!-- A 疏 runs on in the flow after its mark, in double rows. -->
  <xsl:template name="zs:shu">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="target" as="xs:string"/>
    <xsl:param name="target-end" as="xs:string"/>
    <xsl:param name="covers" as="xs:string*"/>
    <xsl:param name="detached" as="xs:boolean"/>
    <xsl:param name="juan" as="xs:string" tunnel="yes" select="'0'"/>
    <xsl:param name="juan-head" as="xs:string" tunnel="yes" select="''"/>
    <zs:block class="shu" indent="0" juan="{$juan}" head="{$juan-head}">
      <xsl:apply-templates>
        <xsl:with-param name="size" tunnel="yes" select="'small'"/>
        <xsl:with-param name="class" tunnel="yes" select="'shu'"/>
      </xsl:apply-templates>
    </zs:block>
  </xsl:template>

  <!-- The 四庫 prints no separator before a sub-lemma: it runs on. -->
  <xsl:template name="zs:sublemma">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="target" as="xs:string"/>
    <xsl:param name="target-end" as="xs:string"/>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- A 義疏 or 案 block: one block one cell down, its category first, its quotations run on after
       an empty cell. -->
  <xsl:template name="zs:yishu">
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="layer" as="xs:string"/>
    <xsl:param name="category" as="xs:string"/>
    <xsl:param name="category-name" as="xs:string"/>
    <xsl:param name="target" as="xs:string"/>
    <xsl:param name="prev" as="xs:string"/>
    <xsl:param name="detached" as="xs:boolean"/>
    <xsl:param name="juan" as="xs:string" tunnel="yes" select="'0'"/>
    <xsl:param name="juan-head" as="xs:string" tunnel="yes" select="''"/>
    <zs:block class="{$layer}" indent="1" juan="{$juan}" head="{$juan-head}">
      <xsl:for-each-group select="* | text()[normalize-space()]" group-starting-with="tei:p | tei:cit">
        <xsl:if test="position() gt 1 and (self::tei:p or self::tei:cit)">
          <zs:t s="big" c="sp">　</zs:t>
        </xsl:if>
        <xsl:apply-templates select="current-group()">
          <xsl:with-param name="size" tunnel="yes" select="'big'"/>
          <xsl:with-param name="class" tunnel="yes" select="$layer"/>
        </xsl:apply-templates>
      </xsl:for-each-group>
    </zs:block>
  </xsl:template>

  <!-- The marks (注, 音義, 疏) are full size in the 四庫, whatever they stand in. -->
  <xsl:template match="tei:label[@type = 'mark']">
    <xsl:apply-templates>
      <xsl:with-param name="size" tunnel="yes" select="'big'"/>
      <xsl:with-param name="class" tunnel="yes" select="'mark'"/>
    </xsl:apply-templates>
  </xsl:template>

</xsl:stylesheet>
