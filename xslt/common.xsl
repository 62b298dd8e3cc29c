<?xml version="1.0" encoding="UTF-8"?>
<!--
  Layer logic shared by both Zhushu renderings: html.xsl (the web edition) and print.xsl (the print
  edition, laid out by grid.xsl).

  It knows which TEI element belongs to which layer (經 注 音義 疏 阙; the 義疏 and 案 blocks, the
  small-character notes and the translation of the 欽定三禮義疏), how a 疏 points at the span it
  explains (zs:shu-covers), and the titles and
  commentators of a file. It produces no output markup of its own:
  the importing stylesheet overrides the named templates zs:div, zs:unit, zs:inline, zs:run,
  zs:shu, zs:sublemma, zs:yishu, zs:quote, zs:small, zs:translation, zs:fw and zs:other (the
  hooks), which receive everything already worked out as typed parameters.

  Pointers are trusted only as same-document fragments: a @target, @targetEnd, @prev, @corresp,
  @sameAs, @resp or @ref token that does not start with '#', or names no element of the file, is
  dropped here, so no renderer can turn one into a link elsewhere.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:tei="http://www.tei-c.org/ns/1.0"
    xmlns:zs="urn:zhushu"
    exclude-result-prefixes="#all">

  <!-- Unknown elements still show their text: nothing of the source may silently vanish. -->
  <xsl:mode on-no-match="text-only-copy"/>

  <!-- The layers in reading order; also the order commentators are credited in (the scholars
       quoted in 義疏 blocks last). -->
  <xsl:variable name="zs:layers" as="xs:string+" select="('jing', 'zhu', 'yinyi', 'shu', 'yishu')"/>

  <!-- The 義疏 categories (note[@type='yishu']/@subtype, and 'an' for a 案 block) as printed. -->
  <xsl:variable name="zs:categories" as="map(xs:string, xs:string)"
                select="map{'zhengyi': '正義', 'bianzheng': '辨正', 'tonglun': '通論', 'yulun': '餘論',
                            'cunyi': '存疑', 'cunyi2': '存異', 'zonglun': '總論', 'an': '案'}"/>

  <!-- The 疏 sections that touch each piece (seg, inline note), indexed once per document.
       Sub-lemmas are left out: there are many, each narrow, and cutting the text into runs for
       them too would cost more than the page is worth; their divs carry data-target and
       data-target-end (anchors), which is all a script needs to light their span. -->
  <xsl:key name="zs:shu-by-piece" match="tei:div/tei:note[@type = 'shu']" use="zs:shu-covers(.)"/>
  <!-- Notes and 義疏 quotations by the person they are credited to (a note's @resp, a
       quotation's author), for the list of commentators. -->
  <xsl:key name="zs:note-by-resp" match="tei:note[@resp] | tei:cit[tei:bibl/tei:author/@ref]"
           use="zs:local-ids(if (self::tei:cit) then tei:bibl/tei:author/@ref else @resp)"/>
  <!-- Declared glyphs, for a readable name of a placeholder character. -->
  <!-- A translation that goes beside its original (see zs:beside-original), by the original's id. -->
  <xsl:key name="zs:translation-of" match="tei:ab[@type = 'translation'][zs:beside-original(.)]"
           use="string(zs:resolve(@corresp)/@xml:id)"/>
  <xsl:key name="zs:glyph" match="tei:charDecl/tei:glyph | tei:charDecl/tei:char" use="@xml:id"/>

  <!-- ===== pointers ============================================================================ -->

  <!-- The ids named by the same-document pointers ("#x") among $pointers; other tokens are dropped. -->
  <xsl:variable name="zs:digits" as="xs:string+" select="('一', '二', '三', '四', '五', '六', '七', '八', '九')"/>

  <!-- 0 … 999 in Chinese numerals, as 卷 and leaves are numbered: 十, 二十一, 一百零五 (memoised:
       every leaf of a 卷 names the same 卷). -->
  <xsl:function name="zs:hanzi-number" as="xs:string" cache="yes">
    <!-- $i: 0 to 999 -->
    <xsl:param name="i" as="xs:integer"/>
    <xsl:variable name="h" select="$i idiv 100"/>
    <xsl:variable name="t" select="$i mod 100 idiv 10"/>
    <xsl:variable name="u" select="$i mod 10"/>
    <xsl:sequence select="if ($i = 0) then '〇' else string-join((
                            ($zs:digits[$h] || '百')[$h gt 0],
                            (if ($t gt 0) then ($zs:digits[$t][not($t = 1 and $h = 0)], '十')
                             else '零'[$h gt 0 and $u gt 0]),
                            $zs:digits[$u][$u gt 0]), '')"/>
  </xsl:function>

  <!-- A 卷's @n as the page names it (pipeline/numerals.py juan_label): 29 → 卷二十九, 0a → 卷首上,
       3-2 → 卷三之二; any other @n after 卷 as it is. -->
  <xsl:function name="zs:juan-label" as="xs:string">
    <!-- $n: a div[@type = 'juan']/@n -->
    <xsl:param name="n" as="xs:string"/>
    <xsl:variable name="parts" as="xs:string*" select="tokenize(replace($n, '^(\d{1,3})(-(\d{1,3}))?([abc]?)$', '$1 $3 $4'), ' ')"/>
    <xsl:sequence select="if (not(matches($n, '^\d{1,3}(-\d{1,3})?[abc]?$'))) then '卷' || $n
                          else '卷' || (if ($parts[1] = '0') then '首' else zs:hanzi-number(xs:integer($parts[1])))
                               || (if ($parts[2]) then '之' || zs:hanzi-number(xs:integer($parts[2])) else '')
                               || translate($parts[3], 'abc', '上中下')"/>
  </xsl:function>

  <!-- The divisions inside a 卷 (a 篇, an office, a 章, any other section), rendered alike. -->
  <xsl:variable name="zs:sections" as="xs:string+" select="('section', 'pian', 'guan', 'zhang')"/>

  <xsl:function name="zs:local-ids" as="xs:string*">
    <!-- $pointers: a TEI pointer attribute value, possibly several whitespace-separated pointers -->
    <xsl:param name="pointers" as="xs:string?"/>
    <xsl:sequence select="tokenize($pointers)[starts-with(., '#')]!substring(., 2)[. castable as xs:NCName]"/>
  </xsl:function>

  <!-- The element named by the first same-document pointer in $pointer, if it exists in $doc. -->
  <xsl:function name="zs:resolve" as="element()?">
    <!-- $pointer: a TEI pointer attribute (@target, @targetEnd, @ref), or nothing -->
    <xsl:param name="pointer" as="attribute()?"/>
    <!-- The usual pointer, one "#id", goes straight to id(), which ignores a token that is no
         NCName just as zs:local-ids does; pointers are resolved thousands of times a page. -->
    <xsl:sequence select="if (starts-with($pointer, '#') and not(contains($pointer, ' ')))
                          then id(substring($pointer, 2), root($pointer))[1]
                          else let $id := zs:local-ids($pointer)[1]
                          return if (exists($id)) then id($id, root($pointer))[1] else ()"/>
  </xsl:function>

  <!-- ===== layers ============================================================================== -->

  <!-- A unit: an ab of the text (a 經 passage), not a line of translation. -->
  <!-- Whether a translation (ab[@type='translation']) is grouped with the element it translates
       rather than where it stands: the e-texts print a translation some blocks after its
       original, even in the next 卷's section, so where it stands says little. True when its
       @corresp names an element that is itself a group member of some div (a unit, a 義疏, 案
       or 疏 block, furniture after the heading), not a heading, a div or another translation. -->
  <xsl:function name="zs:beside-original" as="xs:boolean">
    <!-- $ab: a translation -->
    <xsl:param name="ab" as="element(tei:ab)"/>
    <xsl:variable name="original" as="element()?" select="zs:resolve($ab/@corresp)"/>
    <xsl:sequence select="exists($original[parent::tei:div]
                                 [not(self::tei:head or self::tei:div or self::tei:ab[@type = 'translation'])]
                                 [not(self::tei:fw and following-sibling::tei:head)])"/>
  </xsl:function>

  <xsl:function name="zs:is-unit" as="xs:boolean">
    <!-- $e: any element -->
    <xsl:param name="e" as="element()?"/>
    <xsl:sequence select="exists($e/self::tei:ab[not(@type = 'translation')])"/>
  </xsl:function>

  <!-- A piece: a direct child of a unit that carries text of one layer. -->
  <xsl:function name="zs:is-piece" as="xs:boolean">
    <!-- $e: any element -->
    <xsl:param name="e" as="element()"/>
    <xsl:sequence select="zs:is-unit($e/parent::*) and exists($e/@xml:id)"/>
  </xsl:function>

  <!-- A block note: a 疏, 義疏 or 案 block (or a later layer's note) between the blocks of a div.
       It is place="inline" too (it stands in the reading order): where it stands tells it apart. -->
  <xsl:function name="zs:is-block" as="xs:boolean">
    <!-- $e: any element -->
    <xsl:param name="e" as="element()"/>
    <xsl:sequence select="exists($e/self::tei:note/parent::tei:div)"/>
  </xsl:function>

  <!-- A note in small characters (note[@place='inline'], not a block nor a sub-lemma) that is not
       注 or 音義 of a unit: a textual note, a 案 remark, a 小注, a quoted 疏, or any inline note of
       a 義疏 quotation or a translation. -->
  <xsl:function name="zs:is-small" as="xs:boolean">
    <!-- $e: any element -->
    <xsl:param name="e" as="element()"/>
    <xsl:sequence select="exists($e/self::tei:note[@place = 'inline'][not(zs:is-block(.) or @subtype = 'sublemma')]
                                 [@type = ('textual', 'an', 'xiaozhu') or @subtype = 'quoted'
                                  or not(zs:is-unit(parent::*))])"/>
  </xsl:function>

  <!-- The layer of a piece or block: jing, zhu, yinyi, shu, que (a lost passage); yishu, an (a 案
       block), translation; for a small note its kind (yinyi, textual, an, xiaozhu, shu); '' if none. -->
  <xsl:function name="zs:layer" as="xs:string">
    <!-- $e: a seg, note or ab of the body -->
    <xsl:param name="e" as="element()"/>
    <xsl:sequence select="
        if ($e/self::tei:seg[zs:is-unit(parent::*)]) then (if ($e/@type = 'que') then 'que' else 'jing')
        else if ($e/self::tei:note[@type = ('zhu', 'yinyi', 'shu', 'yishu', 'an', 'textual', 'xiaozhu')])
             then string($e/@type)
        else if ($e/self::tei:ab) then (if ($e/@type = 'translation') then 'translation' else 'jing')
        else ''"/>
  </xsl:function>

  <!-- The piece an element lies in (itself for a piece, the enclosing one for an anchor). -->
  <xsl:function name="zs:piece-of" as="element()?">
    <!-- $e: a piece or anything inside one -->
    <xsl:param name="e" as="element()?"/>
    <xsl:sequence select="$e/ancestor-or-self::*[zs:is-piece(.)][1]"/>
  </xsl:function>

  <!-- ===== the span a 疏 explains ============================================================== -->

  <!-- Where the span starts: a piece (its start) or an anchor (that point). -->
  <xsl:function name="zs:shu-start" as="element()?" cache="yes">
    <!-- $shu: a note[@type='shu'] -->
    <xsl:param name="shu" as="element(tei:note)"/>
    <xsl:sequence select="zs:resolve($shu/@target)"/>
  </xsl:function>

  <!-- Where the span ends: a piece (its end) or an anchor (that point); the start piece if unset. -->
  <xsl:function name="zs:shu-end" as="element()?" cache="yes">
    <!-- $shu: a note[@type='shu'] -->
    <xsl:param name="shu" as="element(tei:note)"/>
    <xsl:variable name="start" as="element()?" select="zs:shu-start($shu)"/>
    <xsl:variable name="end" as="element()?" select="zs:resolve($shu/@targetEnd)"/>
    <!-- An end before the start is an encoding error: fall back to the start alone. -->
    <xsl:sequence select="if (exists($end) and exists($start) and not($end &lt;&lt; $start))
                          then $end else $start"/>
  </xsl:function>

  <!-- The pieces (seg, inline note) the 疏 touches, in document order: whole or in part. -->
  <xsl:function name="zs:shu-pieces" as="element()*">
    <!-- $shu: a note[@type='shu'] -->
    <xsl:param name="shu" as="element(tei:note)"/>
    <xsl:variable name="first" as="element()?" select="zs:piece-of(zs:shu-start($shu))"/>
    <xsl:variable name="last" as="element()?" select="zs:piece-of(zs:shu-end($shu))"/>
    <xsl:choose>
      <xsl:when test="empty($first) or empty($last)"/>
      <xsl:when test="$first is $last">
        <xsl:sequence select="$first"/>
      </xsl:when>
      <xsl:otherwise>
        <!-- Walk forward and stop at the last piece: a span is short, a file may be long. -->
        <xsl:sequence select="$first"/>
        <xsl:iterate select="$first/following::*[@xml:id][parent::tei:ab[not(@type = 'translation')]]">
          <xsl:sequence select="."/>
          <xsl:if test=". is $last">
            <xsl:break/>
          </xsl:if>
        </xsl:iterate>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- The ids of the pieces a 疏 covers (whole or in part): what a reader should see highlighted. -->
  <xsl:function name="zs:shu-covers" as="xs:string*">
    <!-- $shu: a note[@type='shu'] -->
    <xsl:param name="shu" as="element(tei:note)"/>
    <xsl:sequence select="zs:shu-pieces($shu)/@xml:id!string()"/>
  </xsl:function>

  <!-- The spans of the 疏 that touch a piece, resolved once per piece: maps with the 疏 id and
       its start and end elements. Text nodes of the piece test against these, not the pointers. -->
  <xsl:function name="zs:spans-of" as="map(xs:string, item()?)*">
    <!-- $piece: a seg (a 經 sentence or a lost passage) or an inline note of a unit -->
    <xsl:param name="piece" as="element()"/>
    <xsl:sequence select="for $s in zs:shus-of($piece)
                          return map{'id': string($s/@xml:id), 'start': zs:shu-start($s), 'end': zs:shu-end($s)}"/>
  </xsl:function>

  <!-- The 疏 notes that touch a piece, in document order. -->
  <xsl:function name="zs:shus-of" as="element(tei:note)*">
    <!-- $piece: a seg (a 經 sentence or a lost passage) or an inline note of a unit -->
    <xsl:param name="piece" as="element()"/>
    <xsl:sequence select="if ($piece/@xml:id) then key('zs:shu-by-piece', string($piece/@xml:id), root($piece)) else ()"/>
  </xsl:function>

  <!-- ===== titles and people =================================================================== -->

  <!-- The title of the file: the main title, else work and juan, else a placeholder. -->
  <xsl:function name="zs:title" as="xs:string">
    <!-- $doc: the TEI document (any node of it) -->
    <xsl:param name="doc" as="node()"/>
    <xsl:variable name="ts" select="root($doc)/tei:TEI/tei:teiHeader/tei:fileDesc/tei:titleStmt"/>
    <xsl:variable name="main" as="xs:string" select="normalize-space(string($ts/tei:title[@type = 'main'][1]))"/>
    <xsl:sequence select="if ($main) then $main
                          else (string-join((zs:work($doc), zs:juan($doc))[.], ' ')[.], '未題名')[1]"/>
  </xsl:function>

  <!-- The work (e.g. 周禮注疏), or '' if not given. -->
  <xsl:function name="zs:work" as="xs:string">
    <!-- $doc: the TEI document (any node of it) -->
    <xsl:param name="doc" as="node()"/>
    <xsl:sequence select="normalize-space(string(root($doc)/tei:TEI/tei:teiHeader/tei:fileDesc
                          /tei:titleStmt/tei:title[@type = 'work'][1]))"/>
  </xsl:function>

  <!-- The juan (e.g. 卷三十八), or '' if not given. -->
  <xsl:function name="zs:juan" as="xs:string">
    <!-- $doc: the TEI document (any node of it) -->
    <xsl:param name="doc" as="node()"/>
    <xsl:sequence select="normalize-space(string(root($doc)/tei:TEI/tei:teiHeader/tei:fileDesc
                          /tei:titleStmt/tei:title[@type = 'juan'][1]))"/>
  </xsl:function>

  <!-- The commentators as maps {id, name, layers}, in layer order (注 before 音義 before 疏). -->
  <xsl:function name="zs:commentators" as="map(xs:string, item()*)*">
    <!-- $doc: the TEI document (any node of it) -->
    <xsl:param name="doc" as="node()"/>
    <xsl:variable name="people" as="map(xs:string, item()*)*">
      <xsl:for-each select="root($doc)/tei:TEI/tei:standOff/tei:listPerson/tei:person[@xml:id]">
        <xsl:sequence select="map{'id': string(@xml:id), 'name': zs:person-name(.),
                                  'layers': zs:credited-layers(.)}"/>
      </xsl:for-each>
    </xsl:variable>
    <xsl:sequence select="for $l in $zs:layers, $p in $people[?layers[1] = $l] return $p"/>
  </xsl:function>

  <!-- The layers (of $zs:layers) a person is credited with: the layers of the notes whose @resp
       names them; a 義疏 quotation counts as yishu, a quoted 疏 as shu. -->
  <xsl:function name="zs:credited-layers" as="xs:string*" cache="yes">
    <!-- $person: a person of the standOff -->
    <xsl:param name="person" as="element(tei:person)"/>
    <xsl:variable name="used" as="xs:string*"
                  select="distinct-values(key('zs:note-by-resp', string($person/@xml:id), root($person))
                          !(if (self::tei:cit) then 'yishu' else if (@subtype = 'quoted') then 'shu' else string(@type)))"/>
    <xsl:sequence select="$zs:layers[. = $used]"/>
  </xsl:function>

  <!-- A person's name for display: the full name, else the first name given. Memoised: a page
       names the same few scholars thousands of times. -->
  <xsl:function name="zs:person-name" as="xs:string" cache="yes">
    <!-- $person: a person of the standOff -->
    <xsl:param name="person" as="element(tei:person)"/>
    <xsl:variable name="full" as="xs:string" select="normalize-space($person/tei:persName[@type = 'full'][1])"/>
    <xsl:sequence select="if ($full) then $full else normalize-space(string-join($person/tei:persName[1]//text(), ''))"/>
  </xsl:function>

  <!-- The person (of the standOff) a pointer names, if any. -->
  <xsl:function name="zs:person" as="element(tei:person)?">
    <!-- $pointer: a @resp or @ref, or nothing -->
    <xsl:param name="pointer" as="attribute()?"/>
    <xsl:sequence select="zs:resolve($pointer)/self::tei:person"/>
  </xsl:function>

  <!-- The layers' conventional names (a global: a map written inside the function would be
       built again on every call, and it is called for every note of a page). -->
  <xsl:variable name="zs:layer-names" as="map(xs:string, xs:string)"
                select="map{'jing': '經', 'zhu': '注', 'yinyi': '音義', 'shu': '疏', 'que': '阙',
                            'yishu': '義疏', 'an': '案', 'translation': '譯', 'textual': '校',
                            'xiaozhu': '小注'}"/>

  <!-- The conventional name of a layer's text, for headings and credits. -->
  <xsl:function name="zs:layer-name" as="xs:string">
    <!-- $layer: jing, zhu, yinyi, shu, que, yishu, an, translation, textual or xiaozhu -->
    <xsl:param name="layer" as="xs:string"/>
    <xsl:sequence select="($zs:layer-names($layer), $layer)[1]"/>
  </xsl:function>

  <!-- ===== structure: the hooks are called from here ========================================== -->

  <xsl:template match="tei:div">
    <xsl:variable name="front" as="element(tei:fw)*" select="tei:head[1]/preceding-sibling::tei:fw"/>
    <xsl:call-template name="zs:div">
      <xsl:with-param name="id" select="string(@xml:id)"/>
      <xsl:with-param name="kind" select="if (@type = $zs:sections) then 'section' else 'juan'"/>
      <xsl:with-param name="depth" select="count(ancestor::tei:div) + 1"/>
      <xsl:with-param name="front" select="$front"/>
      <xsl:with-param name="head" select="tei:head"/>
      <!-- Each unit with the 疏, 義疏, 案 and furniture that follow it; what comes before any
           unit (detached 疏) forms a group alone; a nested div and a trailer are groups of their
           own. A translation goes right after its original, in the original's group, wherever
           the file prints it (zs:beside-original); one that cannot stays where it stands. -->
      <xsl:with-param name="groups" as="array(element()*)*">
        <xsl:for-each-group select="(* except (tei:head, $front))
                                    [not(self::tei:ab[@type = 'translation'] and zs:beside-original(.))]"
                            group-starting-with="*[zs:is-unit(.)] | tei:div | tei:trailer
                                                 | *[preceding-sibling::*[not(self::tei:ab[@type = 'translation'])][1]
                                                                        [self::tei:div or self::tei:trailer]]">
          <xsl:sequence select="array{current-group()!(., if (@xml:id) then key('zs:translation-of', string(@xml:id)) else ())}"/>
        </xsl:for-each-group>
      </xsl:with-param>
    </xsl:call-template>
  </xsl:template>

  <xsl:template match="tei:ab[@type = 'translation']" priority="1">
    <xsl:call-template name="zs:translation">
      <xsl:with-param name="id" select="string(@xml:id)"/>
      <xsl:with-param name="original" select="string(zs:resolve(@corresp)/@xml:id)"/>
      <xsl:with-param name="copy" select="@subtype = 'copy'"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template match="tei:ab">
    <xsl:call-template name="zs:unit">
      <xsl:with-param name="id" select="string(@xml:id)"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template match="tei:ab/*[zs:is-piece(.)]">
    <xsl:variable name="piece" select="."/>
    <xsl:variable name="spans" as="map(xs:string, item()?)*" select="zs:spans-of(.)"/>
    <xsl:choose>
      <xsl:when test="zs:is-small(.)">
        <xsl:call-template name="zs:small">
          <xsl:with-param name="id" select="string(@xml:id)"/>
          <xsl:with-param name="kind" select="string(@type)"/>
          <xsl:with-param name="quoted" select="@subtype = 'quoted'"/>
          <xsl:with-param name="resp" select="string(zs:person(@resp)/@xml:id)"/>
          <xsl:with-param name="shus" select="$spans?id"/>
          <xsl:with-param name="runs" tunnel="yes" select="zs:runs($piece, $spans)"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="zs:inline">
          <xsl:with-param name="layer" select="zs:layer(.)"/>
          <xsl:with-param name="id" select="string(@xml:id)"/>
          <xsl:with-param name="shus" select="$spans?id"/>
          <xsl:with-param name="runs" tunnel="yes" select="zs:runs($piece, $spans)"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A small note outside a unit: in a 義疏 quotation or a translation. -->
  <xsl:template match="tei:note[@place = 'inline'][not(zs:is-piece(.) or zs:is-block(.))]">
    <xsl:call-template name="zs:small">
      <xsl:with-param name="id" select="string(@xml:id)"/>
      <xsl:with-param name="kind" select="string(@type)"/>
      <xsl:with-param name="quoted" select="@subtype = 'quoted'"/>
      <xsl:with-param name="resp" select="string(zs:person(@resp)/@xml:id)"/>
      <xsl:with-param name="shus" select="()"/>
    </xsl:call-template>
  </xsl:template>

  <!-- Which 疏 cover each child node of a piece: a map from generate-id() of the child to the
       疏 ids, computed in one sweep over the children (anchors open and close spans). Empty
       when every 疏 that touches the piece covers all of it. -->
  <xsl:function name="zs:runs" as="map(xs:string, xs:string*)">
    <!-- $piece: a seg (a 經 sentence or a lost passage) or an inline note; $spans: zs:spans-of($piece) -->
    <xsl:param name="piece" as="element()"/>
    <xsl:param name="spans" as="map(xs:string, item()?)*"/>
    <xsl:variable name="anchors" as="element()*" select="$piece/tei:anchor"/>
    <xsl:variable name="inside" as="map(xs:string, item()?)*"
                  select="$spans[exists((?start, ?end) intersect $anchors)]"/>
    <xsl:choose>
      <xsl:when test="empty($inside)">
        <xsl:sequence select="map{}"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:iterate select="$piece/node()">
          <xsl:param name="active" as="xs:string*"
                     select="$spans[not(?start intersect $anchors)]?id"/>
          <xsl:param name="runs" as="map(xs:string, xs:string*)" select="map{}"/>
          <xsl:on-completion select="$runs"/>
          <xsl:variable name="a" select="self::tei:anchor"/>
          <xsl:variable name="now" as="xs:string*"
                        select="if (empty($a)) then $active
                                else $spans?id[. = ($active[not(. = $inside[?end is $a]?id)],
                                                    $inside[?start is $a]?id)]"/>
          <xsl:next-iteration>
            <xsl:with-param name="active" select="$now"/>
            <xsl:with-param name="runs" select="map:put($runs, generate-id(), $now)"/>
          </xsl:next-iteration>
        </xsl:iterate>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- Text of a partly covered piece is cut at the anchors, each run knowing which 疏 cover it. -->
  <xsl:template match="tei:ab//text()">
    <!-- $runs: zs:runs of the enclosing piece; empty when no 疏 covers it only in part -->
    <xsl:param name="runs" as="map(xs:string, xs:string*)" tunnel="yes" select="map{}"/>
    <xsl:choose>
      <xsl:when test="map:size($runs) gt 0">
        <!-- the piece's child this text is, or lies in -->
        <xsl:variable name="child" select="ancestor-or-self::node()[parent::*[parent::tei:ab]][1]"/>
        <xsl:call-template name="zs:run">
          <xsl:with-param name="shus" select="$runs(generate-id($child))"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="."/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="tei:div/tei:note[@type = 'shu']">
    <xsl:variable name="start" as="element()?" select="zs:shu-start(.)"/>
    <xsl:variable name="end" as="element()?" select="zs:shu-end(.)"/>
    <xsl:call-template name="zs:shu">
      <xsl:with-param name="id" select="string(@xml:id)"/>
      <xsl:with-param name="target" select="string($start/@xml:id)"/>
      <xsl:with-param name="target-end" select="if ($end is $start) then '' else string($end/@xml:id)"/>
      <xsl:with-param name="covers" select="zs:shu-covers(.)"/>
      <xsl:with-param name="detached" select="@subtype = 'detached'"/>
    </xsl:call-template>
  </xsl:template>

  <!-- A sub-lemma inside a 疏 section (○“X”者, 云“X”者): its own span, a narrower one. Its two
       ends are resolved here directly, not through the memoised zs:shu-start/zs:shu-end, and the
       pieces between them are not listed: a page has many sub-lemmas (thousands per MB), and
       both cost a fifth of the page's transform; a script finds the pieces from the two ends. -->
  <xsl:template match="tei:note[@type = 'shu'][@subtype = 'sublemma']" priority="1">
    <xsl:variable name="start" as="element()?" select="zs:resolve(@target)"/>
    <xsl:variable name="end" as="element()?" select="zs:resolve(@targetEnd)"/>
    <xsl:call-template name="zs:sublemma">
      <xsl:with-param name="id" select="string(@xml:id)"/>
      <xsl:with-param name="target" select="string($start/@xml:id)"/>
      <!-- an end before the start is an encoding error: the span is the start alone -->
      <xsl:with-param name="target-end"
                      select="if (empty($start) or empty($end) or $end is $start or $end &lt;&lt; $start)
                              then '' else string($end/@xml:id)"/>
    </xsl:call-template>
  </xsl:template>

  <!-- A 義疏 block (a category: 正義 … 總論) or a 案 block, after the unit it is on. -->
  <xsl:template match="tei:div/tei:note[@type = ('yishu', 'an')]">
    <xsl:variable name="category" as="xs:string"
                  select="if (@type = 'an') then 'an' else if (@subtype = 'detached') then '' else string(@subtype)"/>
    <xsl:call-template name="zs:yishu">
      <xsl:with-param name="id" select="string(@xml:id)"/>
      <xsl:with-param name="layer" select="string(@type)"/>
      <xsl:with-param name="category" select="$category"/>
      <xsl:with-param name="category-name" select="($zs:categories($category), '')[1]"/>
      <xsl:with-param name="target" select="string(zs:resolve(@target)/self::tei:ab/@xml:id)"/>
      <xsl:with-param name="prev" select="string(zs:resolve(@prev)/self::tei:note/@xml:id)"/>
      <xsl:with-param name="detached" select="@subtype = 'detached'"/>
    </xsl:call-template>
  </xsl:template>

  <!-- One scholar's words in a 義疏 or 案 block (a cit, credited to its author), or words nobody
       is named for (a p). -->
  <xsl:template match="tei:div/tei:note[@type = ('yishu', 'an')]/tei:cit | tei:div/tei:note[@type = ('yishu', 'an')]/tei:p">
    <xsl:variable name="person" as="element(tei:person)?" select="zs:person(tei:bibl/tei:author/@ref)"/>
    <xsl:call-template name="zs:quote">
      <xsl:with-param name="id" select="string(@xml:id)"/>
      <xsl:with-param name="resp" select="string($person/@xml:id)"/>
      <xsl:with-param name="name" select="if ($person) then zs:person-name($person) else ''"/>
    </xsl:call-template>
  </xsl:template>

  <!-- Page furniture: a running title, 钦定四库全书, the catalogue line, the e-text's source. -->
  <xsl:template match="tei:fw">
    <xsl:call-template name="zs:fw">
      <xsl:with-param name="id" select="string(@xml:id)"/>
      <xsl:with-param name="kind" select="string(@type)"/>
      <xsl:with-param name="repeats" select="string(zs:resolve(@sameAs)/@xml:id)"/>
    </xsl:call-template>
  </xsl:template>

  <!-- Any other element with an id: the renderer must keep the id, whatever else it does. -->
  <xsl:template match="tei:*[@xml:id]" priority="-1">
    <xsl:call-template name="zs:other">
      <xsl:with-param name="id" select="string(@xml:id)"/>
    </xsl:call-template>
  </xsl:template>

  <!-- The header is metadata, reached only through the functions above. -->
  <xsl:template match="tei:teiHeader | tei:standOff"/>

  <!-- ===== default hooks: plain text, overridden by the importing stylesheet ==================== -->

  <!-- One div (a juan, or a section inside one): its furniture, head and groups. -->
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
         furniture after it; a nested div or a trailer alone in an array; what precedes the first
         unit in an array of its own -->
    <xsl:param name="groups" as="array(element()*)*"/>
    <xsl:apply-templates select="$front, $head, $groups?*"/>
  </xsl:template>

  <!-- One unit (ab): the context item; its pieces in order. -->
  <xsl:template name="zs:unit">
    <!-- $id: the unit's xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- One line of a translation (ab[@type='translation'], in zh-Hans or zh-Hant): the context item. -->
  <xsl:template name="zs:translation">
    <!-- $id: its xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $original: id of what it translates (a unit, a 義疏 block, furniture), '' if unresolved -->
    <xsl:param name="original" as="xs:string"/>
    <!-- $copy: true if it is a near-copy of the original rather than a translation -->
    <xsl:param name="copy" as="xs:boolean"/>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- A note in small characters: the context item. -->
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
    <xsl:apply-templates/>
  </xsl:template>

  <!-- One 義疏 or 案 block: the context item; its label and quotations in order. -->
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
    <xsl:apply-templates/>
  </xsl:template>

  <!-- One quotation of a 義疏 or 案 block (a p, opening with the scholar's name): the context item. -->
  <xsl:template name="zs:quote">
    <!-- $id: its xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $resp: id of the person quoted, '' if none or unresolved -->
    <xsl:param name="resp" as="xs:string"/>
    <!-- $name: that person's full name, '' if none -->
    <xsl:param name="name" as="xs:string"/>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- A line of page furniture: the context item. -->
  <xsl:template name="zs:fw">
    <!-- $id: its xml:id, '' if none -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $kind: its @type (header, title, catalogue, source, responsibility, …) -->
    <xsl:param name="kind" as="xs:string"/>
    <!-- $repeats: id of its first printing (an fw or a head) when it is printed again, else '' -->
    <xsl:param name="repeats" as="xs:string"/>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- One piece of a unit: the context item. -->
  <xsl:template name="zs:inline">
    <!-- $layer: jing, zhu, yinyi or que -->
    <xsl:param name="layer" as="xs:string"/>
    <!-- $id: the piece's xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $shus: ids of the 疏 that explain this piece, whole or in part -->
    <xsl:param name="shus" as="xs:string*"/>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- A run of text in a partly covered piece: the context item. -->
  <xsl:template name="zs:run">
    <!-- $shus: ids of the 疏 whose span includes this run -->
    <xsl:param name="shus" as="xs:string*"/>
    <xsl:value-of select="."/>
  </xsl:template>

  <!-- An element with an id that no other hook renders: the context item. -->
  <xsl:template name="zs:other">
    <!-- $id: its xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- One 疏 block: the context item. -->
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
    <xsl:apply-templates/>
  </xsl:template>

  <!-- A sub-lemma inside a 疏 section: the context item. -->
  <xsl:template name="zs:sublemma">
    <!-- $id: the note's xml:id -->
    <xsl:param name="id" as="xs:string"/>
    <!-- $target: id (a piece or an anchor) where the quoted span starts, '' if unresolved -->
    <xsl:param name="target" as="xs:string"/>
    <!-- $target-end: id where it ends, '' if the span is $target alone -->
    <xsl:param name="target-end" as="xs:string"/>
    <xsl:apply-templates/>
  </xsl:template>

</xsl:stylesheet>
