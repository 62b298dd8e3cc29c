<?xml version="1.0" encoding="UTF-8"?>
<!--
  The web edition: one HTML5 page per TEI file.

  common.xsl decides what is 經, 注, 音義 and 疏 and what each 疏 explains; this file only says how
  they look. 經 is set large; 注 and 音義 run inline in smaller type, as in the printed editions;
  each 疏 follows its unit as a block whose 出文 links to the span it explains. That span carries
  data-shu (the ids of the 疏 that explain it); an 音義 gloss carries data-glosses, from which the
  script ties it to the character its term names in the glossed piece (span.glossed with
  data-yinyi and aria-describedby: the ids of the glosses).

  The 欽定三禮義疏: each 義疏 block follows its unit, its category (正義, 辨正 …) set as a tag and
  each quotation opening with the scholar's name in bold (a link to the list of commentators);
  the compilers' 案 is a boxed block; small-character notes run in small type; a modern
  translation line is indented (lang zh-Hans, or zh-Hant); page furniture is a muted line, a
  closing 右… line is set apart at the end of its section.

  Every element of a layer carries data-layer: jing, zhu, yinyi, shu, que, yishu, an, translation,
  and for small notes their kind (yinyi, textual, an, xiaozhu, shu). Every unit, 注, 音義, 疏, 義疏
  and 案 block carries its id, from which the script makes a permalink (a.permalink, href="#id")
  and a copy-citation button (button.cite, data-cite="work · 卷 · id", the work and 卷 once in
  body/@data-cite): written out, or even as placeholders, they cost a tenth of the transform
  and of the page.

  Styles and behaviour live in static files, $assets-href zhushu.css, zhushu.js and place.js (copied next
  to the pages by pipeline/render/html.py): nothing is fetched from elsewhere and the pages work from
  file://. The script is an enhancement: the toolbar (nav.toolbar: layer toggles
  button[data-toggle-layer], vertical and parallel modes button[data-toggle], 義疏 category
  filters button[data-filter-category]), folding of 疏, highlighting of the span a 出文 names, the
  音義 tooltip, copying citations, and the keyboard (a skip link to main#text; the text one tab
  stop, the current block, arrows between blocks). A tiny inline script in the head applies the reader's saved
  choices (localStorage: zhushu.layers, zhushu.vertical, zhushu.parallel) as classes on <html>
  before the first paint. Without script the text, links and :target highlighting all still work,
  and the controls that need script are hidden.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:zs="urn:zhushu"
    exclude-result-prefixes="#all">

  <xsl:import href="common.xsl"/>
  <xsl:include href="search.xsl"/>

  <!-- indent="no": whitespace between inline spans would show as gaps in running CJK text. -->
  <xsl:output method="html" html-version="5" encoding="UTF-8" indent="no"
              include-content-type="no" escape-uri-attributes="no"/>

  <!-- Link from each page back to the list of pages; '' (the default) for no link. -->
  <xsl:param name="index-href" as="xs:string" select="''"/>

  <!-- Relative URL prefix (ending in '/', or '' for the page's own folder) of the shared static
       files zhushu.css and zhushu.js, which pipeline/render/html.py copies into <site>/assets/. -->
  <xsl:param name="assets-href" as="xs:string" select="'assets/'"/>

  <!-- The language of the page's text, with its script: lzh-Hans or lzh-Hant, as
       pipeline/render/html.py found it from the characters of the body (the TEI says only lzh);
       the page's own labels are in traditional characters and say so on their elements. -->
  <xsl:param name="lang" as="xs:string" select="'lzh'"/>

  <!-- ===== the page in its site: set per page by pipeline/render/plan.py =====================
       Each is '' when it does not apply (a site of one file, a first 卷, no PDF …). -->

  <!-- The persons index, for the site links; '' for none. -->
  <xsl:param name="persons-href" as="xs:string" select="''"/>

  <!-- The page's title, when the plan names it better than the header (a file holding 卷二十九
       and 卷三十 is 卷二十九—三十); '' for zs:title. -->
  <xsl:param name="title" as="xs:string" select="''"/>

  <!-- The 卷 the file holds as the site names it (卷二十九—三十); '' for zs:juan. -->
  <xsl:param name="juan" as="xs:string" select="''"/>

  <!-- The name of the 篇 a div[@type = 'pian'] with no heading is (the sidecar named it: 祭法),
       from pipeline/data/pian.tsv; '' if none. -->
  <xsl:param name="pian-name" as="xs:string" select="''"/>

  <!-- The page of the work and its name, for the breadcrumbs. -->
  <xsl:param name="work-href" as="xs:string" select="''"/>
  <xsl:param name="work-name" as="xs:string" select="''"/>

  <!-- The previous and next 卷 of the work (input order) and how they are named. -->
  <xsl:param name="prev-href" as="xs:string" select="''"/>
  <xsl:param name="prev-label" as="xs:string" select="''"/>
  <xsl:param name="next-href" as="xs:string" select="''"/>
  <xsl:param name="next-label" as="xs:string" select="''"/>

  <!-- The copy of this TEI file in the site (tei/NAME.xml), and its PDF (only one that exists). -->
  <xsl:param name="tei-href" as="xs:string" select="''"/>
  <xsl:param name="pdf-href" as="xs:string" select="''"/>

  <!-- The colophon's entry for this work (colophon.html#w-…). -->
  <xsl:param name="colophon-href" as="xs:string" select="''"/>

  <!-- The site's absolute URL, ending in '/' (render html - -base-url), and this page's file
       name in it: with them citations and permalinks are absolute (body/@data-base-url). -->
  <xsl:param name="base-url" as="xs:string" select="''"/>
  <xsl:param name="page-name" as="xs:string" select="''"/>

  <!-- Where a facsimile's relative graphic/@url is found, ending in '/' (- -facs-base); '' links
       only absolute http(s) urls: a relative one is relative to the TEI, not to the site. -->
  <xsl:param name="facs-base" as="xs:string" select="''"/>

  <!-- The layers a reader can show or hide, in toolbar order (經 always stays). -->
  <xsl:variable name="toggled-layers" as="xs:string+"
                select="('zhu', 'yinyi', 'shu', 'yishu', 'an', 'translation')"/>

  <!-- The 義疏 categories in the printed order, for the filter buttons. -->
  <xsl:variable name="category-order" as="xs:string+"
                select="('zhengyi', 'bianzheng', 'tonglun', 'yulun', 'cunyi', 'cunyi2', 'zonglun', 'an')"/>

  <!-- Applies the saved reading choices before the first paint; no document text in it. -->
  <xsl:variable name="boot-script" as="xs:string" expand-text="no"
    >(function(){var d=document.documentElement;d.classList.add("js");try{var s=window.localStorage,h=JSON.parse(s.getItem("zhushu.layers")||"[]");if(Array.isArray(h))h.forEach(function(l){if(/^[a-z]+$/.test(l))d.classList.add("hide-"+l)});if(s.getItem("zhushu.vertical")==="1")d.classList.add("vertical");if(s.getItem("zhushu.parallel")==="1")d.classList.add("parallel")}catch(e){}})();</xsl:variable>

  <!-- ===== page ================================================================================ -->

  <xsl:template match="/">
    <xsl:variable name="work" as="xs:string" select="zs:work(.)"/>
    <xsl:variable name="page-title" as="xs:string" select="($title[.], zs:title(.))[1]"/>
    <xsl:variable name="text" as="element(tei:text)*" select="tei:TEI/tei:text"/>
    <html lang="{$lang}">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="generator" content="Zhushu"/>
        <title><xsl:value-of select="$page-title"/></title>
        <xsl:if test="$base-url and $page-name">
          <link rel="canonical" href="{$base-url}{$page-name}"/>
        </xsl:if>
        <xsl:if test="$prev-href">
          <link rel="prev" href="{$prev-href}"/>
        </xsl:if>
        <xsl:if test="$next-href">
          <link rel="next" href="{$next-href}"/>
        </xsl:if>
        <script><xsl:value-of select="$boot-script"/></script>
        <link rel="stylesheet" href="{$assets-href}zhushu.css"/>
        <script src="{$assets-href}zhushu.js" defer="defer"></script>
        <script src="{$assets-href}place.js" defer="defer"></script>
      </head>
      <body data-cite="{zs:cite-prefix(.)}" data-work="{($work[.], $page-title)[1]}">
        <xsl:if test="exists($text//tei:ab[@type = 'translation'])">
          <xsl:attribute name="class">has-translation</xsl:attribute>
        </xsl:if>
        <!-- the URN of the file's 卷 less its 卷: a citation adds 卷.篇.unit (data-n below) -->
        <xsl:variable name="urn" as="xs:string?" select="(//tei:publicationStmt/tei:idno[@type = 'URN'])[1]"/>
        <xsl:if test="$urn">
          <xsl:attribute name="data-urn" select="replace($urn, '[^:]+$', '')"/>
        </xsl:if>
        <xsl:if test="$base-url">
          <xsl:attribute name="data-base-url" select="$base-url"/>
          <xsl:attribute name="data-page" select="$page-name"/>
        </xsl:if>
        <a class="skip" href="#text" lang="zh-Hant">跳至正文</a>
        <header class="masthead">
          <xsl:call-template name="breadcrumbs"/>
          <h1><xsl:value-of select="if ($work) then $work else $page-title"/></h1>
          <xsl:call-template name="search-field"/>
          <xsl:call-template name="credits"/>
          <xsl:call-template name="legend"/>
          <xsl:call-template name="toolbar">
            <xsl:with-param name="text" select="$text"/>
          </xsl:call-template>
          <xsl:call-template name="juan-nav"/>
        </header>
        <xsl:call-template name="toc">
          <xsl:with-param name="text" select="$text"/>
        </xsl:call-template>
        <main id="text" tabindex="-1">
          <xsl:apply-templates select="$text"/>
        </main>
        <xsl:call-template name="page-foot"/>
      </body>
    </html>
  </xsl:template>

  <xsl:include href="navigation.xsl"/>

  <!-- The reading controls: one toggle per layer the page has (aria-pressed="true": shown), the
       vertical and parallel modes, and a filter per 義疏 category present. Buttons only: they
       work from the keyboard; zhushu.js gives them their effect (hidden without script). -->
  <xsl:template name="toolbar">
    <!-- $text: the text of the TEI file -->
    <xsl:param name="text" as="element(tei:text)*"/>
    <xsl:variable name="notes" as="element(tei:note)*" select="$text//tei:note"/>
    <xsl:variable name="present" as="xs:string*"
                  select="$toggled-layers[. = (distinct-values($notes/@type),
                                               'translation'[exists($text//tei:ab[@type = 'translation'])])]"/>
    <xsl:variable name="categories" as="xs:string*"
                  select="$category-order[. = (distinct-values($notes[@type = 'yishu'][parent::tei:div]/@subtype),
                                               'an'[exists($notes[@type = 'an'][parent::tei:div])])]"/>
    <nav class="toolbar" aria-label="閱讀設定" lang="zh-Hant">
      <xsl:if test="exists($present)">
        <span class="group" role="group" aria-label="顯示層次">
          <xsl:for-each select="$present">
            <button type="button" data-toggle-layer="{.}" aria-pressed="true"
                    title="顯示或隱藏{zs:layer-name(.)}"><xsl:value-of select="zs:layer-name(.)"/></button>
          </xsl:for-each>
        </span>
      </xsl:if>
      <span class="group" role="group" aria-label="版式">
        <button type="button" data-toggle="vertical" aria-pressed="false" title="直排：由右至左">直排</button>
        <xsl:if test="'translation' = $present">
          <button type="button" data-toggle="parallel" aria-pressed="false" title="原文與譯文對照">對照</button>
        </xsl:if>
      </span>
      <xsl:if test="exists($categories)">
        <span class="group" role="group" aria-label="義疏類別">
          <button type="button" data-filter-category="all" aria-pressed="true">全部</button>
          <xsl:for-each select="$categories">
            <button type="button" data-filter-category="{.}" aria-pressed="false"
                    class="cat-{.}"><xsl:value-of select="$zs:categories(.)"/></button>
          </xsl:for-each>
        </span>
      </xsl:if>
    </nav>
  </xsl:template>

  <!-- How a citation names the file: work · 卷, else the title. -->
  <xsl:function name="zs:cite-prefix" as="xs:string">
    <!-- $n: any node of the TEI document -->
    <xsl:param name="n" as="node()"/>
    <xsl:variable name="parts" as="xs:string*" select="(zs:work($n), ($juan[.], zs:juan($n))[1])[.]"/>
    <xsl:sequence select="if (exists($parts)) then string-join($parts, ' · ') else zs:title($n)"/>
  </xsl:function>

  <!-- Who wrote which layer, from the standOff persons and the @resp of the notes: open, with its
       summary shown only on narrow screens, where zhushu.js closes it so that the text, not the
       list, fills the first screen. -->
  <xsl:template name="credits">
    <xsl:variable name="people" select="zs:commentators(.)"/>
    <xsl:if test="exists($people)">
      <details class="credits" open="open">
        <summary lang="zh-Hant">注疏者 <xsl:value-of select="count($people)"/> 家</summary>
        <ul>
          <xsl:for-each select="$people">
            <li id="{?id}">
              <span class="name"><xsl:value-of select="?name"/></span>
              <xsl:text> </xsl:text>
              <span class="role" lang="zh-Hant"><xsl:value-of select="string-join(?layers!zs:layer-name(.), '、')"/></span>
            </li>
          </xsl:for-each>
        </ul>
      </details>
    </xsl:if>
  </xsl:template>

  <!-- A key to the type sizes, since colour and size are all that tell the layers apart: 經,
       and the other layers this file has. -->
  <xsl:template name="legend">
    <xsl:variable name="types" as="xs:string*"
                  select="distinct-values((//tei:note/(if (parent::tei:div or @subtype = 'sublemma') then string(@type) else 'inline-' || @type),
                                           //tei:ab/@type))"/>
    <p class="legend" aria-hidden="true" lang="zh-Hant">
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
    <!-- the context item is the div: a 卷 says its 卷 and a 篇 its name, for citations -->
    <xsl:variable name="juan" as="xs:string" select="if (@type = 'juan') then zs:juan-of-div(.) else ''"/>
    <section class="{$kind}" data-depth="{$depth}">
      <xsl:if test="$id">
        <xsl:attribute name="id" select="$id"/>
      </xsl:if>
      <xsl:if test="$juan">
        <xsl:attribute name="data-juan" select="$juan"/>
      </xsl:if>
      <!-- a level of the document's citeStructure (tei/citation.py CITABLE): its @n -->
      <xsl:if test="@type = ('juan', 'pian', 'zhang') and @n">
        <xsl:attribute name="data-n" select="@n"/>
      </xsl:if>
      <xsl:variable name="pian" as="xs:string" select="if (@type = 'pian' and empty($head)) then $pian-name else ''"/>
      <xsl:if test="@type = ('section', 'pian') and ($head or $pian)">
        <xsl:attribute name="data-pian" select="($pian[.], normalize-space(string($head[1])))[1]"/>
      </xsl:if>
      <xsl:apply-templates select="$front"/>
      <xsl:apply-templates select="$head"/>
      <!-- a 卷 with no heading in the text gets the header's, marked as supplied -->
      <xsl:if test="$juan and empty($head)">
        <h2 class="head juan supplied" data-supplied="teiHeader" title="卷次據文件標頭補"><xsl:value-of select="$juan"/></h2>
      </xsl:if>
      <!-- a 篇 the text prints no title of gets its name, marked as supplied -->
      <xsl:if test="$pian">
        <h3 class="head section supplied" data-supplied="pian" title="篇名據元數據補"><xsl:value-of select="$pian"/></h3>
      </xsl:if>
      <xsl:for-each select="$groups">
        <xsl:choose>
          <!-- a section, a closing line or furniture alone stands on its own -->
          <xsl:when test="every $e in ?* satisfies $e[self::tei:div or self::tei:trailer or self::tei:fw]">
            <xsl:apply-templates select="?*"/>
          </xsl:when>
          <xsl:otherwise>
            <div class="{if (?*[self::tei:ab[@type = 'translation']]) then 'entry bilingual' else 'entry'}">
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
      <xsl:call-template name="glossed"/>
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
        <button type="button" class="fold" aria-expanded="true" title="收合此疏" aria-label="收合此疏" lang="zh-Hant"></button>
        <xsl:apply-templates select="tei:label">
          <xsl:with-param name="target" select="$target" tunnel="yes"/>
        </xsl:apply-templates>
        <!-- No 出文 to carry the link: give the reader a plain arrow to the span instead. -->
        <xsl:if test="$target and not(tei:label[@type = 'chuwen'])">
          <a class="to-span" href="#{$target}" title="所釋經注" aria-label="所釋經注" lang="zh-Hant">↑</a>
        </xsl:if>
        <xsl:if test="$detached">
          <span class="elsewhere" lang="zh-Hant">出文在他卷</span>
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
      <p class="lemma">
          <xsl:apply-templates select="tei:label"/>
          <xsl:if test="$prev">
            <a class="continues" href="#{$prev}" title="承前頁" lang="zh-Hant">承前</a>
          </xsl:if>
          <xsl:if test="$target">
            <a class="to-span" href="#{$target}" title="所釋經文" aria-label="所釋經文" lang="zh-Hant">↑</a>
          </xsl:if>
          <xsl:if test="$detached">
            <span class="elsewhere" lang="zh-Hant">經文在他卷</span>
          </xsl:if>
        </p>
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

  <!-- Who said it: in bold, a link to the scholar in the list of commentators when he is there:
       the author of a 義疏 quotation, credited by the quotation itself; a name elsewhere (a 臣's
       judgment, a list of persons) when another note credits him. An empty author (又曰: the
       scholar before, again) shows nothing. -->
  <xsl:template match="tei:author[not(node())]"/>

  <xsl:template match="tei:persName | tei:author">
    <xsl:variable name="resp" as="attribute()?" select="@ref[parent::tei:author]"/>
    <xsl:variable name="person" as="element(tei:person)?" select="zs:person(@ref)"/>
    <xsl:choose>
      <!-- credited: by this very quotation (the usual case: no lookup), else by any other note -->
      <xsl:when test="exists($person) and (string(@ref) = string($resp) or zs:person($resp) is $person
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
      <xsl:call-template name="glossed"/>
      <xsl:apply-templates/>
    </span>
  </xsl:template>

  <!-- On an 音義 gloss (the context item): the ids of the pieces it glosses (its @target). The
       script gives each glossed piece data-yinyi and aria-describedby (the glosses' ids) and
       makes it focusable, for the popup: one attribute per gloss here, instead of a lookup for
       every piece of the text (7 % of the transform). -->
  <xsl:template name="glossed">
    <xsl:if test="self::tei:note[@type = 'yinyi'][@target]">
      <xsl:attribute name="data-glosses" select="string-join(zs:local-ids(@target), ' ')"/>
    </xsl:if>
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
        <!-- the category of the 義疏 or 案 block it translates: it follows that block's filter -->
        <xsl:variable name="block" select="id($original)/self::tei:note[@type = ('yishu', 'an')]"/>
        <xsl:if test="$block">
          <xsl:attribute name="data-original-category"
                         select="if ($block/@type = 'an') then 'an' else string($block/@subtype)"/>
        </xsl:if>
      </xsl:if>
      <xsl:if test="$copy">
        <xsl:attribute name="title">近於原文之複寫</xsl:attribute>
      </xsl:if>
      <xsl:apply-templates/>
      <xsl:if test="$original">
        <a class="to-original" href="#{$original}" title="原文" aria-label="原文" lang="zh-Hant">↑</a>
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
    <div class="sublemma shu" data-layer="shu" id="{$id}">
      <xsl:if test="$target">
        <xsl:attribute name="data-target" select="$target"/>
      </xsl:if>
      <xsl:if test="$target-end">
        <xsl:attribute name="data-target-end" select="$target-end"/>
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
      <xsl:attribute name="class" select="string-join(('head', if (@type = 'pian') then 'section' else @type[. = ('juan', 'section')]), ' ')"/>
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

  <!-- The printed category of a 義疏 block (正义, 存疑 …) or its 案: a coloured tag. The source's
       closing stop (存疑。 正义：) stays in the page, so its text is the source's, but in a span
       hidden from view: a tag is not a sentence. -->
  <xsl:template match="tei:label[@type = 'category']">
    <xsl:variable name="last" as="text()?" select="text()[last()][not(following-sibling::*)]"/>
    <span class="category">
      <xsl:apply-templates select="@xml:id"/>
      <xsl:apply-templates select="node() except $last"/>
      <xsl:analyze-string select="string($last)" regex="[。．.：:，,、；;\s]+$">
        <xsl:matching-substring>
          <span class="stop"><xsl:value-of select="."/></span>
        </xsl:matching-substring>
        <xsl:non-matching-substring>
          <xsl:value-of select="."/>
        </xsl:non-matching-substring>
      </xsl:analyze-string>
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
    <xsl:element name="{if (ancestor::tei:p or ancestor::tei:cit or ancestor::tei:ab or ancestor::tei:label or ancestor::tei:head)
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


</xsl:stylesheet>
