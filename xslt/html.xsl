<?xml version="1.0" encoding="UTF-8"?>
<!--
  The web edition: one HTML5 page per TEI file.

  common.xsl decides what is 經, 注, 音義 and 疏 and what each 疏 explains; this file only says how
  they look. 經 is set large; 注 and 音義 run inline in smaller type, as in the printed editions;
  each 疏 follows its unit as a block whose 出文 links to the span it explains. That span carries
  data-shu (the ids of the 疏 that explain it) for a later script to highlight; without a script,
  :target highlights the span a reader jumped to.

  Self-contained on purpose: styles are inline, there is no script and nothing is fetched.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:zs="urn:zhushu"
    exclude-result-prefixes="#all">

  <xsl:import href="common.xsl"/>

  <!-- indent="no": whitespace between inline spans would show as gaps in running CJK text. -->
  <xsl:output method="html" html-version="5" encoding="UTF-8" indent="no"
              include-content-type="no" escape-uri-attributes="no"/>

  <!-- Link from each page back to the list of pages; '' (the default) for no link. -->
  <xsl:param name="index-href" as="xs:string" select="''"/>

  <!-- ===== page ================================================================================ -->

  <xsl:template match="/">
    <xsl:variable name="work" as="xs:string" select="zs:work(.)"/>
    <html lang="lzh">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="generator" content="Zhushu"/>
        <title><xsl:value-of select="zs:title(.)"/></title>
        <style><xsl:value-of select="$css"/></style>
      </head>
      <body>
        <header class="masthead">
          <xsl:if test="$index-href">
            <nav><a class="to-index" href="{$index-href}">目錄</a></nav>
          </xsl:if>
          <h1><xsl:value-of select="if ($work) then $work else zs:title(.)"/></h1>
          <xsl:call-template name="credits"/>
          <xsl:call-template name="legend"/>
        </header>
        <main>
          <xsl:apply-templates select="tei:TEI/tei:text"/>
        </main>
      </body>
    </html>
  </xsl:template>

  <!-- Who wrote which layer, from the standOff persons and the @resp of the notes. -->
  <xsl:template name="credits">
    <xsl:variable name="people" select="zs:commentators(.)"/>
    <xsl:if test="exists($people)">
      <ul class="credits">
        <xsl:for-each select="$people">
          <li id="{?id}">
            <span class="name"><xsl:value-of select="?name"/></span>
            <xsl:text> </xsl:text>
            <span class="role"><xsl:value-of select="string-join(?layers!zs:layer-name(.), '、')"/></span>
          </li>
        </xsl:for-each>
      </ul>
    </xsl:if>
  </xsl:template>

  <!-- A key to the type sizes, since colour and size are all that tell the layers apart. -->
  <xsl:template name="legend">
    <p class="legend" aria-hidden="true">
      <span class="jing">經</span>
      <span class="zhu">注</span>
      <span class="yinyi">音義</span>
      <span class="key-shu"><span class="mark">疏</span></span>
    </p>
  </xsl:template>

  <!-- ===== hooks called by common.xsl ========================================================== -->

  <xsl:template name="zs:juan">
    <!-- $id: the div's xml:id, '' if none -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $head: the juan heading, if any -->
    <xsl:param name="head" as="element(tei:head)*"/>
    <!-- $groups: one array per unit, holding the ab and the 疏 notes after it -->
    <xsl:param name="groups" as="array(element()*)*"/>
    <section class="juan">
      <xsl:if test="$id">
        <xsl:attribute name="id" select="$id"/>
      </xsl:if>
      <xsl:apply-templates select="$head"/>
      <xsl:for-each select="$groups">
        <div class="entry">
          <xsl:apply-templates select="?*"/>
        </div>
      </xsl:for-each>
    </section>
  </xsl:template>

  <xsl:template name="zs:unit">
    <!-- $id: the unit's xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <p class="unit" id="{$id}">
      <xsl:apply-templates/>
    </p>
  </xsl:template>

  <xsl:template name="zs:inline">
    <!-- $layer: jing, zhu, yinyi or que -->
    <xsl:param name="layer" as="xs:string"/>
    <!-- $id: the piece's xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $shus: ids of the 疏 that explain this piece, whole or in part -->
    <xsl:param name="shus" as="xs:string*"/>
    <span id="{$id}" class="{$layer}" data-layer="{$layer}">
      <xsl:if test="exists($shus)">
        <xsl:attribute name="data-shu" select="string-join($shus, ' ')"/>
      </xsl:if>
      <xsl:if test="$layer = 'que'">
        <xsl:attribute name="title">此處經文已佚</xsl:attribute>
      </xsl:if>
      <xsl:apply-templates/>
    </span>
  </xsl:template>

  <xsl:template name="zs:run">
    <!-- $shus: ids of the 疏 whose span includes this run -->
    <xsl:param name="shus" as="xs:string*"/>
    <xsl:choose>
      <xsl:when test="exists($shus)">
        <span class="run" data-shu="{string-join($shus, ' ')}"><xsl:value-of select="."/></span>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="."/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="zs:shu">
    <!-- $id: the note's xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $target: id of the element (piece or anchor) where its span starts, '' if unresolved -->
    <xsl:param name="target" as="xs:string"/>
    <!-- $target-end: id where the span ends, '' if the span is $target alone -->
    <xsl:param name="target-end" as="xs:string"/>
    <!-- $covers: ids of the pieces the span touches -->
    <xsl:param name="covers" as="xs:string*"/>
    <!-- $detached: true if its 出文 lies outside this file (then $target is '') -->
    <xsl:param name="detached" as="xs:boolean"/>
    <!-- "unresolved": it claims a target that is not in this file (or is no fragment at all). -->
    <aside class="{string-join(('shu', 'detached'[$detached],
                                'unresolved'[not($detached) and not($target)]), ' ')}"
           data-layer="shu">
      <xsl:if test="$id">
        <xsl:attribute name="id" select="$id"/>
      </xsl:if>
      <xsl:if test="$target">
        <xsl:attribute name="data-target" select="$target"/>
      </xsl:if>
      <xsl:if test="$target-end">
        <xsl:attribute name="data-target-end" select="$target-end"/>
      </xsl:if>
      <xsl:if test="exists($covers)">
        <xsl:attribute name="data-covers" select="string-join($covers, ' ')"/>
      </xsl:if>
      <p class="lemma">
        <xsl:apply-templates select="tei:label">
          <xsl:with-param name="target" select="$target" tunnel="yes"/>
        </xsl:apply-templates>
        <!-- No 出文 to carry the link: give the reader a plain arrow to the span instead. -->
        <xsl:if test="$target and not(tei:label[@type = 'chuwen'])">
          <a class="to-span" href="#{$target}" title="所釋經注">↑</a>
        </xsl:if>
        <xsl:if test="$detached">
          <span class="elsewhere">出文在他卷</span>
        </xsl:if>
      </p>
      <xsl:apply-templates select="node() except tei:label"/>
    </aside>
  </xsl:template>

  <xsl:template name="zs:sublemma">
    <!-- $id: the note's xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $target: id where the quoted span starts, '' if unresolved -->
    <xsl:param name="target" as="xs:string"/>
    <!-- $target-end: id where it ends, '' if the span is $target alone -->
    <xsl:param name="target-end" as="xs:string"/>
    <!-- $covers: ids of the pieces the span touches -->
    <xsl:param name="covers" as="xs:string*"/>
    <div class="sublemma shu" data-layer="shu" id="{$id}">
      <xsl:if test="$target">
        <xsl:attribute name="data-target" select="$target"/>
      </xsl:if>
      <xsl:if test="$target-end">
        <xsl:attribute name="data-target-end" select="$target-end"/>
      </xsl:if>
      <xsl:if test="exists($covers)">
        <xsl:attribute name="data-covers" select="string-join($covers, ' ')"/>
      </xsl:if>
      <xsl:apply-templates select="tei:p/node()">
        <xsl:with-param name="target" select="$target" tunnel="yes"/>
      </xsl:apply-templates>
    </div>
  </xsl:template>

  <!-- The quote that opens a sub-lemma links to the span it names. -->
  <xsl:template match="tei:note[@subtype = 'sublemma']/tei:p/tei:mentioned" priority="1">
    <xsl:param name="target" as="xs:string" tunnel="yes" select="''"/>
    <xsl:choose>
      <xsl:when test="$target">
        <a class="mentioned sublemma-quote" href="#{$target}">
          <xsl:apply-templates/>
        </a>
      </xsl:when>
      <xsl:otherwise>
        <span class="mentioned">
          <xsl:apply-templates/>
        </span>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- ===== elements inside pieces and 疏 ====================================================== -->

  <xsl:template match="tei:head">
    <h2 class="head">
      <xsl:apply-templates select="@xml:id"/>
      <xsl:apply-templates/>
    </h2>
  </xsl:template>

  <!-- The printed 疏 marker, set white on black as in the woodblock editions. -->
  <xsl:template match="tei:label[@type = 'mark']">
    <span class="mark">
      <xsl:apply-templates select="@xml:id"/>
      <xsl:apply-templates/>
    </span>
  </xsl:template>

  <!-- The 出文 is the link to what it quotes; $target was resolved (or dropped) by common.xsl. -->
  <xsl:template match="tei:label[@type = 'chuwen']">
    <xsl:param name="target" as="xs:string" tunnel="yes" select="''"/>
    <xsl:choose>
      <xsl:when test="$target">
        <a class="chuwen" href="#{$target}">
          <xsl:apply-templates select="@xml:id"/>
          <xsl:apply-templates/>
        </a>
      </xsl:when>
      <xsl:otherwise>
        <span class="chuwen">
          <xsl:apply-templates select="@xml:id"/>
          <xsl:apply-templates/>
        </span>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="tei:label">
    <span class="label">
      <xsl:apply-templates select="@xml:id"/>
      <xsl:apply-templates/>
    </span>
  </xsl:template>

  <xsl:template match="tei:note[@type = 'shu']/tei:p">
    <p>
      <xsl:apply-templates select="@xml:id"/>
      <xsl:apply-templates/>
    </p>
  </xsl:template>

  <xsl:template match="tei:mentioned | tei:term | tei:seg[not(zs:is-piece(.))]">
    <span class="{(@type, local-name())[1]}">
      <xsl:apply-templates select="@xml:id"/>
      <xsl:apply-templates/>
    </span>
  </xsl:template>

  <!-- A character: its text; an empty g falls back to the declared mapping, then to 〓. -->
  <xsl:template match="tei:g">
    <xsl:variable name="glyph" select="zs:resolve(@ref)[self::tei:glyph or self::tei:char]"/>
    <span class="g{if (@type = 'placeholder') then ' placeholder' else ''}">
      <xsl:apply-templates select="@xml:id"/>
      <xsl:variable name="name" select="string($glyph/tei:localProp[@name = 'name'][1]/@value)"/>
      <xsl:if test="$name">
        <xsl:attribute name="title" select="$name"/>
      </xsl:if>
      <xsl:choose>
        <xsl:when test="string(.)">
          <xsl:apply-templates/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:value-of select="(string($glyph/tei:mapping[1])[.], '〓')[1]"/>
        </xsl:otherwise>
      </xsl:choose>
    </span>
  </xsl:template>

  <!-- An anchor is a point a 疏 starts or ends at: kept only as an id to link to. -->
  <xsl:template match="tei:anchor">
    <span class="anchor">
      <xsl:apply-templates select="@xml:id"/>
    </span>
  </xsl:template>

  <xsl:template name="zs:other">
    <!-- $id: its xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <xsl:element name="{if (ancestor::tei:p or ancestor::tei:ab or ancestor::tei:label or ancestor::tei:head)
                        then 'span' else 'div'}">
      <xsl:attribute name="id" select="$id"/>
      <xsl:attribute name="class" select="local-name()"/>
      <xsl:apply-templates/>
    </xsl:element>
  </xsl:template>

  <!-- Any element we render keeps its TEI id, so permalinks (page.html#u3.z1) keep working. -->
  <xsl:template match="@xml:id">
    <xsl:attribute name="id" select="."/>
  </xsl:template>

  <!-- ===== style =============================================================================== -->

  <xsl:variable name="css" as="xs:string" expand-text="no">
:root {
  --paper: #fbf8f1; --ink: #1d1a16; --zhu: #5b4630; --yinyi: #2c5e63; --shu: #2b2824;
  --accent: #8e2a1c; --rule: #ddd2bd; --mark: #fff3c4;
}
html { background: var(--paper); color: var(--ink); }
body {
  margin: 0 auto; max-width: 46rem; padding: 2rem 1.5rem 5rem;
  font-family: "Noto Serif CJK TC", "Noto Serif CJK SC", "Source Han Serif TC", "Source Han Serif SC",
               "Songti TC", "Songti SC", "MingLiU", "SimSun", serif;
  font-size: 17px; line-height: 1.9;
  text-align: justify;
}
a { color: var(--accent); }
.masthead { text-align: center; margin-bottom: 2.5rem; padding-bottom: 1rem; border-bottom: 3px double var(--rule); }
.masthead nav { text-align: left; font-size: .9rem; }
.masthead nav a { text-decoration: none; }
.masthead h1 { font-size: 2.4rem; letter-spacing: .4em; margin: .3em 0 .2em; font-weight: 700; }
.credits { list-style: none; padding: 0; margin: 0; display: flex; justify-content: center; flex-wrap: wrap; gap: .3rem 2rem; color: #5c554b; }
.credits .role { color: var(--accent); }
.legend { margin: .8rem 0 0; color: #8a8175; font-size: .8rem; }
.legend > span { margin: 0 .6em; }
.legend .jing { font-size: 1.2rem; }
.legend .mark, .shu .mark { display: inline-block; background: var(--ink); color: var(--paper); font-size: .85rem; line-height: 1.45; padding: 0 .3em; border-radius: 2px; vertical-align: .1em; }
.legend .mark { font-size: .75rem; }
h2.head { text-align: center; font-size: 1.6rem; letter-spacing: .6em; margin: 0 0 1.5rem; font-weight: 600; }
.entry { padding: .9rem 0 .6rem; border-bottom: 1px solid var(--rule); }
.entry:last-child { border-bottom: none; }
p.unit { margin: 0 0 .4rem; line-height: 2.3; }
.jing { font-size: 1.5rem; letter-spacing: .04em; }
.zhu, .yinyi { margin: 0 .3em; }
.zhu { font-size: .95rem; color: var(--zhu); }
.yinyi { font-size: .82rem; color: var(--yinyi); }
.yinyi .term { font-weight: 700; }
.que { font-size: .95rem; color: #9a9185; border: 1px dashed #c8bfae; border-radius: 3px; padding: 0 .35em; margin: 0 .3em; }
aside.shu { margin: .5rem 0 .7rem 1.2rem; padding: .1rem 0 .1rem 1rem; border-left: 3px solid var(--rule); color: var(--shu); font-size: 1.02rem; line-height: 1.95; }
aside.shu p { margin: .2rem 0; }
.sublemma { margin: .2rem 0; }
.sublemma a.sublemma-quote { color: inherit; text-decoration: none; border-bottom: 1px dotted var(--accent); }
.sublemma a.sublemma-quote:hover { background: var(--mark); }
aside.shu .lemma { margin-top: .3rem; }
.shu .mark { margin-right: .6em; }
.shu a.chuwen, .shu a.to-span { text-decoration: none; border-bottom: 1px dotted var(--accent); }
.shu a.chuwen:hover, .shu a.to-span:hover { background: var(--mark); }
.shu .mentioned { font-weight: 700; }
.shu .elsewhere { color: #8a8175; font-size: .85rem; margin-left: .6em; }
.g.placeholder { color: #b0413e; }
:target { background: var(--mark); border-radius: 2px; box-shadow: 0 0 0 2px var(--mark); }
aside.shu:target { background: transparent; box-shadow: none; border-left-color: var(--accent); }
@media (max-width: 36rem) {
  body { font-size: 16px; padding: 1rem .9rem 3rem; }
  .jing { font-size: 1.35rem; }
  aside.shu { margin-left: .3rem; }
}
@media print {
  html { background: none; }
  .masthead nav, .legend { display: none; }
  a { color: inherit; border: none; }
}
</xsl:variable>

</xsl:stylesheet>
