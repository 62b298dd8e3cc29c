<?xml version="1.0" encoding="UTF-8"?>
<!--
  The web edition: one HTML5 page per TEI file.

  common.xsl decides what is 經, 注, 音義 and 疏 and what each 疏 explains; this file only says how
  they look. 經 is set large; 注 and 音義 run inline in smaller type, as in the printed editions;
  each 疏 follows its unit as a block whose 出文 links to the span it explains. That span carries
  data-shu (the ids of the 疏 that explain it) for a later script to highlight; without a script,
  :target highlights the span a reader jumped to.

  The 欽定三禮義疏: each 義疏 block follows its unit, its category (正義, 辨正 …) set as a coloured
  tag and each quotation opening with the scholar's name in bold (a link to the list of
  commentators); the compilers' 案 is a boxed block; small-character notes run in small type,
  coloured by kind; a modern translation line is indented and grey (lang zh-Hans, or zh-Hant); page furniture
  is a muted line, a closing 右… line is set apart at the end of its section.

  Every element of a layer carries data-layer: jing, zhu, yinyi, shu, que, yishu, an, translation,
  and for small notes their kind (yinyi, textual, an, xiaozhu, shu).

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

  <!-- A key to the type sizes, since colour and size are all that tell the layers apart: 經,
       and the other layers this file has. -->
  <xsl:template name="legend">
    <xsl:variable name="types" as="xs:string*"
                  select="distinct-values((//tei:note/(if (@place = 'inline') then 'inline-' || @type else string(@type)),
                                           //tei:ab/@type))"/>
    <p class="legend" aria-hidden="true">
      <span class="jing">經</span>
      <xsl:if test="$types = 'inline-zhu'">
        <span class="zhu">注</span>
      </xsl:if>
      <xsl:if test="$types = 'inline-yinyi'">
        <span class="yinyi">音義</span>
      </xsl:if>
      <xsl:if test="$types = 'shu'">
        <span class="key-shu"><span class="mark">疏</span></span>
      </xsl:if>
      <xsl:if test="$types = 'yishu'">
        <span class="key-yishu"><span class="category">義疏</span></span>
      </xsl:if>
      <xsl:if test="$types = 'an'">
        <span class="key-an">案</span>
      </xsl:if>
      <xsl:if test="$types = ('inline-textual', 'inline-an', 'inline-xiaozhu', 'inline-shu')">
        <span class="key-small small">小注</span>
      </xsl:if>
      <xsl:if test="$types = 'translation'">
        <span class="key-translation">譯</span>
      </xsl:if>
    </p>
  </xsl:template>

  <!-- ===== hooks called by common.xsl ========================================================== -->

  <xsl:template name="zs:div">
    <!-- $id: the div's xml:id, '' if none -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $kind: juan or section -->
    <xsl:param name="kind" as="xs:string"/>
    <!-- $depth: 1 for a div of the body, 2 for a section inside it, … -->
    <xsl:param name="depth" as="xs:integer"/>
    <!-- $front: furniture printed before the heading -->
    <xsl:param name="front" as="element(tei:fw)*"/>
    <!-- $head: the heading, if any -->
    <xsl:param name="head" as="element(tei:head)*"/>
    <!-- $groups: one array per unit, holding the ab and the 疏, 義疏, 案, translations and
         furniture after it; a nested div or a trailer alone in an array -->
    <xsl:param name="groups" as="array(element()*)*"/>
    <section class="{$kind}" data-depth="{$depth}">
      <xsl:if test="$id">
        <xsl:attribute name="id" select="$id"/>
      </xsl:if>
      <xsl:apply-templates select="$front"/>
      <xsl:apply-templates select="$head"/>
      <xsl:for-each select="$groups">
        <xsl:choose>
          <!-- a section, a closing line or furniture alone stands on its own -->
          <xsl:when test="every $e in ?* satisfies $e[self::tei:div or self::tei:trailer or self::tei:fw]">
            <xsl:apply-templates select="?*"/>
          </xsl:when>
          <xsl:otherwise>
            <div class="entry">
              <xsl:apply-templates select="?*"/>
            </div>
          </xsl:otherwise>
        </xsl:choose>
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

  <xsl:template name="zs:yishu">
    <!-- $id: its xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $layer: yishu or an -->
    <xsl:param name="layer" as="xs:string"/>
    <!-- $category: zhengyi, bianzheng, tonglun, yulun, cunyi, cunyi2, zonglun, an; '' if detached -->
    <xsl:param name="category" as="xs:string"/>
    <!-- $category-name: the category as printed in full (正義 …), '' if none -->
    <xsl:param name="category-name" as="xs:string"/>
    <!-- $target: id of the unit it is on, '' if none or unresolved -->
    <xsl:param name="target" as="xs:string"/>
    <!-- $prev: id of the block it continues (across a page edge), '' if none -->
    <xsl:param name="prev" as="xs:string"/>
    <!-- $detached: true if its unit lies outside this file -->
    <xsl:param name="detached" as="xs:boolean"/>
    <aside class="{string-join(($layer, ('cat-' || $category)[$category and $layer = 'yishu'],
                                'continued'[$prev], 'detached'[$detached]), ' ')}"
           data-layer="{$layer}" id="{$id}">
      <xsl:if test="$category">
        <xsl:attribute name="data-category" select="$category"/>
      </xsl:if>
      <xsl:if test="$category-name and not(tei:label)">
        <xsl:attribute name="aria-label" select="$category-name"/>
      </xsl:if>
      <xsl:if test="$target">
        <xsl:attribute name="data-target" select="$target"/>
      </xsl:if>
      <xsl:if test="$prev">
        <xsl:attribute name="data-prev" select="$prev"/>
      </xsl:if>
      <xsl:if test="tei:label or $target or $prev or $detached">
        <p class="lemma">
          <xsl:apply-templates select="tei:label"/>
          <xsl:if test="$prev">
            <a class="continues" href="#{$prev}" title="承前頁">承前</a>
          </xsl:if>
          <xsl:if test="$target">
            <a class="to-span" href="#{$target}" title="所釋經文">↑</a>
          </xsl:if>
          <xsl:if test="$detached">
            <span class="elsewhere">經文在他卷</span>
          </xsl:if>
        </p>
      </xsl:if>
      <xsl:apply-templates select="node() except tei:label"/>
    </aside>
  </xsl:template>

  <xsl:template name="zs:quote">
    <!-- $id: its xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $resp: id of the person quoted, '' if none or unresolved -->
    <xsl:param name="resp" as="xs:string"/>
    <!-- $name: that person's full name, '' if none -->
    <xsl:param name="name" as="xs:string"/>
    <p class="quote" id="{$id}">
      <xsl:if test="$resp">
        <xsl:attribute name="data-resp" select="$resp"/>
      </xsl:if>
      <xsl:apply-templates/>
    </p>
  </xsl:template>

  <!-- Who said it: in bold, a link to the scholar in the list of commentators when he is there
       (the person of @ref, else of the quotation's @resp). -->
  <xsl:template match="tei:persName">
    <xsl:variable name="person" as="element(tei:person)?"
                  select="(zs:person(@ref), zs:person(ancestor::tei:p[1]/@resp))[1]"/>
    <xsl:choose>
      <!-- credited: quoted in this very p (the usual case: no lookup), else by any other note -->
      <xsl:when test="exists($person) and (zs:person(ancestor::tei:p[1]/@resp) is $person
                                           or exists(zs:credited-layers($person)))">
        <a class="who" href="#{$person/@xml:id}" title="{zs:person-name($person)}">
          <xsl:apply-templates select="@xml:id"/>
          <xsl:apply-templates/>
        </a>
      </xsl:when>
      <xsl:otherwise>
        <b class="who">
          <xsl:apply-templates select="@xml:id"/>
          <xsl:if test="exists($person)">
            <xsl:attribute name="title" select="zs:person-name($person)"/>
          </xsl:if>
          <xsl:apply-templates/>
        </b>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="zs:small">
    <!-- $id: its xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $kind: yinyi, textual, an, xiaozhu or shu (a quoted 疏) -->
    <xsl:param name="kind" as="xs:string"/>
    <!-- $quoted: true for a quotation of the 疏 -->
    <xsl:param name="quoted" as="xs:boolean"/>
    <!-- $resp: id of the person it is credited to, '' if none or unresolved -->
    <xsl:param name="resp" as="xs:string"/>
    <!-- $shus: ids of the 疏 that explain it (a piece of a unit only) -->
    <xsl:param name="shus" as="xs:string*"/>
    <span id="{$id}" class="{string-join(('small', $kind, 'quoted'[$quoted]), ' ')}" data-layer="{$kind}">
      <xsl:if test="$resp">
        <xsl:attribute name="data-resp" select="$resp"/>
        <xsl:attribute name="title" select="zs:person-name(zs:person(@resp))"/>
      </xsl:if>
      <xsl:if test="exists($shus)">
        <xsl:attribute name="data-shu" select="string-join($shus, ' ')"/>
      </xsl:if>
      <xsl:apply-templates/>
    </span>
  </xsl:template>

  <xsl:template name="zs:translation">
    <!-- $id: its xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $original: id of what it translates (a unit, a 義疏 block, furniture), '' if unresolved -->
    <xsl:param name="original" as="xs:string"/>
    <!-- $copy: true if it is a near-copy of the original rather than a translation -->
    <xsl:param name="copy" as="xs:boolean"/>
    <p id="{$id}" class="{string-join(('translation', 'copy'[$copy]), ' ')}" data-layer="translation"
       lang="{(@xml:lang, 'zh-Hans')[1]}">
      <xsl:if test="$original">
        <xsl:attribute name="data-original" select="$original"/>
      </xsl:if>
      <xsl:if test="$copy">
        <xsl:attribute name="title">近於原文之複寫</xsl:attribute>
      </xsl:if>
      <xsl:apply-templates/>
      <xsl:if test="$original">
        <a class="to-original" href="#{$original}" title="原文">↑</a>
      </xsl:if>
    </p>
  </xsl:template>

  <xsl:template name="zs:fw">
    <!-- $id: its xml:id, '' if none -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $kind: its @type (header, title, catalogue, source, responsibility, …) -->
    <xsl:param name="kind" as="xs:string"/>
    <!-- $repeats: id of its first printing (an fw or a head) when it is printed again, else '' -->
    <xsl:param name="repeats" as="xs:string"/>
    <p class="{string-join(('fw', $kind[.], 'repeat'[$repeats]), ' ')}" data-furniture="{($kind[.], 'fw')[1]}">
      <xsl:if test="$id">
        <xsl:attribute name="id" select="$id"/>
      </xsl:if>
      <xsl:if test="$repeats">
        <xsl:attribute name="data-same-as" select="$repeats"/>
        <xsl:attribute name="title">版心重出</xsl:attribute>
      </xsl:if>
      <xsl:apply-templates/>
    </p>
  </xsl:template>

  <!-- A closing line (右…): ends its section, set apart. -->
  <xsl:template match="tei:trailer">
    <p class="trailer">
      <xsl:apply-templates select="@xml:id"/>
      <xsl:apply-templates/>
    </p>
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

  <!-- A 卷 heading is an h2, a section heading inside it an h3 (h4 … deeper). -->
  <xsl:template match="tei:head">
    <xsl:element name="h{min((count(ancestor::tei:div) + 1, 6))}">
      <xsl:attribute name="class" select="string-join(('head', @type[. = ('juan', 'section')]), ' ')"/>
      <xsl:apply-templates select="@xml:id"/>
      <xsl:apply-templates/>
    </xsl:element>
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

  <!-- The printed category of a 義疏 block (正义, 存疑 …) or its 案: a coloured tag. -->
  <xsl:template match="tei:label[@type = 'category']">
    <span class="category">
      <xsl:apply-templates select="@xml:id"/>
      <xsl:apply-templates/>
    </span>
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
h3.head, h4.head, h5.head, h6.head { text-align: center; font-size: 1.25rem; letter-spacing: .4em; margin: 1.6rem 0 1rem; font-weight: 600; }
section.section { margin: 0; }
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
.small { font-size: .8rem; margin: 0 .25em; }
.small.yinyi { color: var(--yinyi); }
.small.textual { color: #6b6f4a; }
.small.xiaozhu { color: var(--zhu); }
.small.an { color: var(--accent); }
.small.shu { color: var(--shu); border-bottom: 1px dotted #a89f8e; }
aside.yishu, aside.an { margin: .5rem 0 .7rem 1.2rem; padding: .1rem 0 .1rem 1rem; border-left: 3px solid var(--rule); font-size: 1.02rem; line-height: 1.95; }
aside.yishu p, aside.an p { margin: .2rem 0; }
aside.yishu .lemma, aside.an .lemma { margin: .3rem 0 0; }
.category { display: inline-block; font-size: .85rem; line-height: 1.45; padding: 0 .4em; border-radius: 2px; margin-right: .6em; color: var(--paper); background: #6b5a45; }
.legend .category { font-size: .75rem; }
aside.cat-zhengyi { border-left-color: #8e2a1c; } aside.cat-zhengyi .category { background: #8e2a1c; }
aside.cat-bianzheng { border-left-color: #2c5e63; } aside.cat-bianzheng .category { background: #2c5e63; }
aside.cat-tonglun { border-left-color: #4a6b2c; } aside.cat-tonglun .category { background: #4a6b2c; }
aside.cat-yulun { border-left-color: #6b5a45; } aside.cat-yulun .category { background: #6b5a45; }
aside.cat-cunyi, aside.cat-cunyi2 { border-left-color: #9a9185; } aside.cat-cunyi .category, aside.cat-cunyi2 .category { background: #9a9185; }
aside.cat-zonglun { border-left-color: #4b3b6b; } aside.cat-zonglun .category { background: #4b3b6b; }
aside.an { border: 1px solid var(--rule); border-left: 3px double var(--accent); background: #f6f0e2; padding: .3rem .8rem; }
aside.an .category, .legend .key-an { background: none; color: var(--accent); border: 1px solid var(--accent); padding: 0 .3em; border-radius: 2px; font-size: .85rem; }
.legend .key-an { font-size: .75rem; }
.who { font-weight: 700; color: inherit; text-decoration: none; }
a.who:hover { text-decoration: underline; }
aside.yishu a.to-span, aside.an a.to-span, a.continues, a.to-original { text-decoration: none; color: var(--accent); margin-right: .4em; }
a.continues { font-size: .85rem; }
aside.continued { border-left-style: dashed; }
p.translation { margin: .3rem 0 .5rem 2.4rem; color: #6f685e; font-size: .95rem; line-height: 1.8; }
p.translation.copy { color: #9a9185; }
p.translation .mark, .legend .key-translation { display: inline-block; color: #8a8175; border: 1px solid #c8bfae; font-size: .75rem; line-height: 1.4; padding: 0 .3em; border-radius: 2px; margin-right: .5em; }
p.translation a.to-original { font-size: .8rem; margin-left: .4em; }
p.fw { margin: .4rem 0; text-align: center; color: #a89f8e; font-size: .85rem; letter-spacing: .2em; }
p.fw.repeat { opacity: .7; }
p.trailer { margin: .8rem 0 1.2rem 2em; color: var(--zhu); font-weight: 600; letter-spacing: .3em; }
:target { background: var(--mark); border-radius: 2px; box-shadow: 0 0 0 2px var(--mark); }
aside.shu:target, aside.yishu:target, aside.an:target { background: transparent; box-shadow: none; border-left-color: var(--accent); }
@media (max-width: 36rem) {
  body { font-size: 16px; padding: 1rem .9rem 3rem; }
  .jing { font-size: 1.35rem; }
  aside.shu, aside.yishu, aside.an { margin-left: .3rem; }
  p.translation { margin-left: 1rem; }
}
@media print {
  html { background: none; }
  .masthead nav, .legend, a.to-original, a.continues { display: none; }
  a { color: inherit; border: none; }
}
</xsl:variable>

</xsl:stylesheet>
