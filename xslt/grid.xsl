<?xml version="1.0" encoding="UTF-8"?>
<!--
  The print edition's line grid: lays a block of text on lines of N cells, with the small notes
  (注, 音義 and the like) set as 雙行小注, two rows of half-size characters inside the line.

  CSS has no warichu (w3c/clreq#109) and a browser breaks lines by its own rules, so the lines
  are decided here and the page only draws them. Measures are in quarter cells ("units"): a
  full-size character that a CJK font sets full width is 4 units (CJK ideographs of every
  extension, kana, hangul, CJK punctuation, fullwidth forms, the Private Use Area, and the
  East-Asian-ambiguous marks a CJK font draws full width: “ ” ‘ ’ ○ □ …); any other character
  (Latin, digits, ASCII marks, ·) is narrow, 2 units; combining and format characters take none.
  A small character is half as long. A line of N cells holds 4N units; a note piece is two rows
  and is as long as its longer row. The characters that are not surely full width in every CJK
  font are drawn in boxes of exactly their measure (span.f, span.n), so the page keeps the grid
  whatever the font's own advance.

  Rules: closing punctuation never starts a line (or a note row): it hangs at the end of the
  previous one, two marks at most (before a longer run, ’。” say, the character the marks
  follow goes down to the next line with them); opening punctuation does not end a line
  (within a run: text of one kind; markup such as a placeholder character does not split it);
  a note that does not fit
  in the rest of a line fills it with two full rows and continues on the next line; the last
  piece of a note is split into two balanced rows (the first row the longer by at most one
  character, unless punctuation that may not open the second row moves the split).

  Input: a zs:block (attributes class, indent, and level for a heading) whose zs:t children are runs of text, @s 'big'
  or 'small' and @c a class for styling. Output: zs:lines() returns HTML div.ln lines holding
  span (big text, class @c) and span.wr (a note piece) with two span.r rows.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:fn="http://www.w3.org/2005/xpath-functions"
    xmlns:zs="urn:zhushu"
    exclude-result-prefixes="#all">

  <!-- A character outside the ranges a CJK font sets full width: it needs measuring. -->
  <xsl:variable name="zs:not-wide" as="xs:string"
                select="'[^&#x1100;-&#x115F;&#x2E80;-&#x303E;&#x3041;-&#x33FF;&#x3400;-&#x4DBF;&#x4E00;-&#x9FFF;&#xA000;-&#xA4CF;&#xA960;-&#xA97F;&#xAC00;-&#xD7A3;&#xE000;-&#xFAFF;&#xFE10;-&#xFE19;&#xFE30;-&#xFE6F;&#xFF01;-&#xFF60;&#xFFE0;-&#xFFE6;&#x1F300;-&#x1F64F;&#x1F900;-&#x1F9FF;&#x20000;-&#x2FFFD;&#x30000;-&#x3FFFD;]'"/>

  <!-- East-Asian-ambiguous characters a CJK font draws full width (quotation marks, circles,
       squares, box drawing, ellipsis, reference marks …): one cell, like an ideograph. -->
  <xsl:variable name="zs:ambiguous-wide" as="xs:string"
                select="'[&#xA7;&#xB0;&#xB1;&#xD7;&#xF7;&#x2016;&#x2018;&#x2019;&#x201C;&#x201D;&#x2020;&#x2021;&#x2025;&#x2026;&#x2030;&#x203B;&#x2103;&#x2160;-&#x217F;&#x2190;-&#x21FF;&#x2200;-&#x22FF;&#x2460;-&#x24FF;&#x2500;-&#x257F;&#x25A0;-&#x25FF;&#x2600;-&#x26FF;]'"/>

  <!-- Characters with no advance of their own: combining marks, variation selectors, joiners. -->
  <xsl:variable name="zs:zero-width" as="xs:string" select="'[\p{Mn}\p{Me}\p{Cf}]'"/>

  <!-- Punctuation that may not start a line or a note row (it hangs instead). Not the ASCII ?
       and !: in these e-texts a ? stands for a character the source could not show. -->
  <xsl:variable name="zs:closing" as="xs:integer*"
                select="string-to-codepoints('、。，．：；？！）」』”’〉》】〕〗〙〛｝］﹂﹄・·…‥々〻,.;:)]}')"/>

  <!-- Punctuation that may not end a line. -->
  <xsl:variable name="zs:opening" as="xs:integer*"
                select="string-to-codepoints('（「『“‘〈《【〔〖〘〚｛［﹁﹃([{')"/>

  <!-- Quotation marks in vertical text: the corner forms of vertical setting (“ ” ‘ ’ as ﹁ ﹂ ﹃ ﹄).
       The upright Western marks are drawn as a sideways 〃 in vertical lines; the TEI's text is
       not changed, only what is printed. -->
  <xsl:function name="zs:vertical-forms" as="xs:string">
    <xsl:param name="text" as="xs:string"/>
    <xsl:sequence select="translate($text, '“”‘’', '﹁﹂﹃﹄')"/>
  </xsl:function>

  <!-- ===== measuring =========================================================================== -->

  <!-- The length of one full-size character that is not surely full width: 4, 2 or 0 units. -->
  <xsl:function name="zs:odd-width" as="xs:integer">
    <!-- $c: one character -->
    <xsl:param name="c" as="xs:string"/>
    <xsl:sequence select="if (matches($c, $zs:zero-width)) then 0
                          else if (matches($c, $zs:ambiguous-wide)) then 4 else 2"/>
  </xsl:function>

  <!-- How much shorter a small character is than a full-size one: half (the modern page's
       half-size notes); the 四庫 leaf's are as long (siku.xsl). -->
  <xsl:variable name="zs:small-divisor" as="xs:integer" select="2"/>

  <!-- The length in units of each character of $text, full size or small. One regular-expression
       pass finds the few characters that need a look of their own; the rest are 4 (or 2). -->
  <xsl:function name="zs:widths" as="xs:integer*">
    <!-- $text: a run of text; $small: true for a note's half-size characters -->
    <xsl:param name="text" as="xs:string"/>
    <xsl:param name="small" as="xs:boolean"/>
    <xsl:variable name="full" as="xs:integer*"
                  select="analyze-string($text, $zs:not-wide)/*
                          !(if (self::fn:match) then zs:odd-width(.) else (1 to string-length(.))!4)"/>
    <xsl:sequence select="if ($small) then $full!(. idiv $zs:small-divisor) else $full"/>
  </xsl:function>

  <!-- $text as it is drawn: each character that is not surely full width in a box of its
       measure (span.f one cell, span.n half a cell); combining characters left with their base. -->
  <xsl:function name="zs:draw" as="item()*">
    <!-- $text: a piece of one run -->
    <xsl:param name="text" as="xs:string"/>
    <xsl:for-each select="analyze-string($text, $zs:not-wide)/*">
      <xsl:choose>
        <xsl:when test="self::fn:non-match">
          <xsl:value-of select="."/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="w" as="xs:integer" select="zs:odd-width(.)"/>
          <xsl:choose>
            <xsl:when test="$w = 0">
              <xsl:value-of select="."/>
            </xsl:when>
            <xsl:otherwise>
              <span class="{if ($w = 4) then 'f' else 'n'}"><xsl:value-of select="."/></span>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:for-each>
  </xsl:function>

  <!-- ===== breaking ============================================================================ -->

  <!-- How many of the leading characters go on a line with $room units left. As many as fit;
       then the closing punctuation (and zero-width characters) right after them, which hang;
       then, if the line breaks inside the text, back off opening punctuation from its end. A
       fresh line (nothing on it yet) takes at least one character, so every line progresses. -->
  <xsl:function name="zs:fit" as="xs:integer">
    <!-- $cps: code points; $ws: their lengths; $room: units left; $fresh: the line is empty -->
    <xsl:param name="cps" as="xs:integer*"/>
    <xsl:param name="ws" as="xs:integer*"/>
    <xsl:param name="room" as="xs:integer"/>
    <xsl:param name="fresh" as="xs:boolean"/>
    <xsl:variable name="total" as="xs:integer" select="count($cps)"/>
    <xsl:variable name="fits" as="xs:integer">
      <xsl:iterate select="$ws">
        <xsl:param name="sum" as="xs:integer" select="0"/>
        <xsl:on-completion select="$total"/>
        <xsl:variable name="next" as="xs:integer" select="$sum + ."/>
        <xsl:choose>
          <xsl:when test="$next gt $room">
            <xsl:break select="position() - 1"/>
          </xsl:when>
          <xsl:otherwise>
            <xsl:next-iteration>
              <xsl:with-param name="sum" select="$next"/>
            </xsl:next-iteration>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:iterate>
    </xsl:variable>
    <xsl:variable name="hanging" as="xs:integer" select="zs:hang($cps, $ws, $fits)"/>
    <!-- a run of more closing marks than may hang (’。” at the end of a line): the character
         they follow goes down to the next line with them (when it opens the run on a line that
         has something already, the run starts the next line) -->
    <xsl:variable name="base" as="xs:integer" select="zs:before-marks($cps, $fits)"/>
    <xsl:variable name="hung" as="xs:integer"
                  select="if ($hanging lt $total and $cps[$hanging + 1] = $zs:closing)
                          then (if ($base gt 1) then $base - 1 else if ($fresh) then $hanging else 0)
                          else $hanging"/>
    <xsl:variable name="kept" as="xs:integer"
                  select="if ($hung lt $total) then zs:back-off($cps, $hung) else $hung"/>
    <xsl:sequence select="if ($kept gt 0) then $kept
                          else if ($hung gt 0 and $fresh) then $hung
                          else if ($fresh and $total gt 0) then zs:hang($cps, $ws, 1)
                          else 0"/>
  </xsl:function>

  <!-- How many closing marks may hang past the end of a line (the page keeps room for them). -->
  <xsl:variable name="zs:max-hanging" as="xs:integer" select="2"/>

  <!-- $n, extended over the closing punctuation ($zs:max-hanging marks at most) and the
       zero-width characters that follow it. -->
  <xsl:function name="zs:hang" as="xs:integer">
    <xsl:param name="cps" as="xs:integer*"/>
    <xsl:param name="ws" as="xs:integer*"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:sequence select="zs:hang($cps, $ws, $n, $zs:max-hanging)"/>
  </xsl:function>

  <xsl:function name="zs:hang" as="xs:integer">
    <xsl:param name="cps" as="xs:integer*"/>
    <xsl:param name="ws" as="xs:integer*"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:param name="marks" as="xs:integer"/>
    <xsl:sequence select="if ($n ge count($cps)) then $n
                          else if ($ws[$n + 1] = 0) then zs:hang($cps, $ws, $n + 1, $marks)
                          else if ($marks gt 0 and $cps[$n + 1] = $zs:closing) then zs:hang($cps, $ws, $n + 1, $marks - 1)
                          else $n"/>
  </xsl:function>

  <!-- The last character at or before $n that is no closing mark (0 if none). -->
  <xsl:function name="zs:before-marks" as="xs:integer">
    <xsl:param name="cps" as="xs:integer*"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:sequence select="if ($n gt 0 and $cps[$n] = $zs:closing) then zs:before-marks($cps, $n - 1) else $n"/>
  </xsl:function>

  <!-- $n, shortened while the character it ends on is opening punctuation. -->
  <xsl:function name="zs:back-off" as="xs:integer">
    <xsl:param name="cps" as="xs:integer*"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:sequence select="if ($n gt 0 and $cps[$n] = $zs:opening) then zs:back-off($cps, $n - 1) else $n"/>
  </xsl:function>

  <!-- A run of full-size text cut into lines: the number of characters of each piece. The first
       piece goes on the current line ($room units left; 0 characters if none fit), every other
       one starts a line of $cap units. -->
  <xsl:function name="zs:chunks" as="xs:integer*">
    <xsl:param name="cps" as="xs:integer*"/>
    <xsl:param name="ws" as="xs:integer*"/>
    <xsl:param name="room" as="xs:integer"/>
    <xsl:param name="cap" as="xs:integer"/>
    <xsl:param name="fresh" as="xs:boolean"/>
    <xsl:variable name="k" as="xs:integer" select="zs:fit($cps, $ws, $room, $fresh)"/>
    <xsl:sequence select="$k, if ($k lt count($cps))
                              then zs:chunks(subsequence($cps, $k + 1), subsequence($ws, $k + 1), $cap, $cap, true())
                              else ()"/>
  </xsl:function>

  <!-- A note cut into pieces of two rows: the number of characters of each row, two numbers per
       piece. The first piece goes on the current line ($room units left; (0, 0) if nothing fits),
       every other one starts a line. A piece that ends the note is balanced; one that does not
       fills both its rows (row 2 is no fresh line: with a cell or two left it may stay empty
       rather than take a lone opening mark). -->
  <xsl:function name="zs:pieces" as="xs:integer*">
    <xsl:param name="cps" as="xs:integer*"/>
    <xsl:param name="ws" as="xs:integer*"/>
    <xsl:param name="room" as="xs:integer"/>
    <xsl:param name="cap" as="xs:integer"/>
    <xsl:param name="fresh" as="xs:boolean"/>
    <xsl:variable name="total" as="xs:integer" select="count($cps)"/>
    <xsl:variable name="k" as="xs:integer" select="zs:balance($cps, $ws)"/>
    <xsl:variable name="first" as="xs:integer" select="sum(subsequence($ws, 1, $k))"/>
    <xsl:choose>
      <xsl:when test="max(($first, sum($ws) - $first)) le $room">
        <xsl:sequence select="$k, $total - $k"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="r1" as="xs:integer" select="zs:fit($cps, $ws, $room, $fresh)"/>
        <xsl:choose>
          <xsl:when test="$r1 = 0">
            <xsl:sequence select="0, 0, zs:pieces($cps, $ws, $cap, $cap, true())"/>
          </xsl:when>
          <xsl:otherwise>
            <xsl:variable name="r2" as="xs:integer"
                          select="if ($r1 lt $total)
                                  then zs:fit(subsequence($cps, $r1 + 1), subsequence($ws, $r1 + 1), $room, false())
                                  else 0"/>
            <xsl:variable name="used" as="xs:integer" select="$r1 + $r2"/>
            <xsl:sequence select="$r1, $r2,
                                  if ($used lt $total)
                                  then zs:pieces(subsequence($cps, $used + 1), subsequence($ws, $used + 1), $cap, $cap, true())
                                  else ()"/>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- Where to split a note's last piece into two rows: after the first characters that make up
       half its length or more. Closing punctuation may not open row 2: then the split moves
       past it (the punctuation ends row 1) or back before the character it follows, whichever
       leaves the shorter piece (forward on a tie, so row 1 is the longer). Opening punctuation
       may not end row 1: it goes down to open row 2. -->
  <xsl:function name="zs:balance" as="xs:integer">
    <xsl:param name="cps" as="xs:integer*"/>
    <xsl:param name="ws" as="xs:integer*"/>
    <xsl:variable name="total" as="xs:integer" select="sum($ws)"/>
    <xsl:variable name="half" as="xs:integer">
      <xsl:iterate select="$ws">
        <xsl:param name="sum" as="xs:integer" select="0"/>
        <xsl:on-completion select="count($ws)"/>
        <xsl:choose>
          <xsl:when test="2 * ($sum + .) ge $total">
            <xsl:break select="position()"/>
          </xsl:when>
          <xsl:otherwise>
            <xsl:next-iteration>
              <xsl:with-param name="sum" select="$sum + ."/>
            </xsl:next-iteration>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:iterate>
    </xsl:variable>
    <!-- marks moved into row 1 stay inside the piece (its length is checked), so they are not
         limited as marks hanging past a line's end are -->
    <xsl:variable name="forward" as="xs:integer" select="zs:hang($cps, $ws, $half, 2)"/>
    <xsl:variable name="back" as="xs:integer" select="zs:before-closing($cps, $half)"/>
    <xsl:variable name="split" as="xs:integer"
                  select="if ($forward eq $half or $back eq 0
                              or zs:piece-length($ws, $forward) le zs:piece-length($ws, $back))
                          then $forward else $back"/>
    <xsl:variable name="kept" as="xs:integer" select="zs:back-off($cps, $split)"/>
    <xsl:sequence select="if ($kept gt 0) then $kept else $split"/>
  </xsl:function>

  <!-- The largest split at or before $n whose row 2 does not open with closing punctuation. -->
  <xsl:function name="zs:before-closing" as="xs:integer">
    <xsl:param name="cps" as="xs:integer*"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:sequence select="if ($n gt 0 and $cps[$n + 1] = $zs:closing) then zs:before-closing($cps, $n - 1) else $n"/>
  </xsl:function>

  <!-- The length of a piece split after $k characters: its longer row. -->
  <xsl:function name="zs:piece-length" as="xs:integer">
    <xsl:param name="ws" as="xs:integer*"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:variable name="first" as="xs:integer" select="sum(subsequence($ws, 1, $k))"/>
    <xsl:sequence select="max(($first, sum($ws) - $first))"/>
  </xsl:function>

  <!-- ===== lines =============================================================================== -->

  <!-- The lines of one block, on lines of $cells cells less the block's indent. -->
  <xsl:function name="zs:lines" as="element()*">
    <!-- $block: a zs:block of zs:t runs; $cells: cells per line -->
    <xsl:param name="block" as="element(zs:block)"/>
    <xsl:param name="cells" as="xs:integer"/>
    <xsl:variable name="indent" as="xs:integer" select="min((xs:integer(($block/@indent, 0)[1]), $cells - 1))"/>
    <xsl:variable name="cap" as="xs:integer" select="4 * ($cells - $indent)"/>
    <xsl:variable name="class" as="xs:string"
                  select="string-join(('ln', $block/@class, ('i' || $indent)[$indent gt 0]), ' ')"/>
    <!-- a heading's first line is an h1 … h6 (PDF bookmarks and tags come from it) -->
    <xsl:variable name="first-tag" as="xs:string"
                  select="if ($block/@level = (1 to 6)!string()) then 'h' || $block/@level else 'div'"/>
    <!-- each full-size run alone; consecutive small runs (注 then 音義) as one note -->
    <xsl:variable name="groups" as="array(element(zs:t))*">
      <xsl:for-each-group select="zs:carry-closing(zs:carry-opening(zs:merge($block/zs:t[string()])))"
                          group-adjacent="@s = 'small'">
        <xsl:sequence select="if (current-grouping-key()) then array{current-group()} else current-group()!array{.}"/>
      </xsl:for-each-group>
    </xsl:variable>
    <xsl:iterate select="$groups">
      <xsl:param name="line" as="node()*" select="()"/>
      <xsl:param name="used" as="xs:integer" select="0"/>
      <xsl:param name="tag" as="xs:string" select="$first-tag"/>
      <xsl:on-completion>
        <xsl:if test="exists($line)">
          <xsl:element name="{$tag}"><xsl:attribute name="class" select="$class"/><xsl:sequence select="$line"/></xsl:element>
        </xsl:if>
      </xsl:on-completion>
      <xsl:variable name="runs" as="element(zs:t)+" select="?*"/>
      <xsl:variable name="parts" as="element(zs:part)+"
                    select="if ($runs[1]/@s = 'small')
                            then zs:note-parts($runs, $cap - $used, $cap, empty($line))
                            else zs:text-parts($runs, $cap - $used, $cap, empty($line))"/>
      <xsl:choose>
        <xsl:when test="count($parts) = 1">
          <xsl:next-iteration>
            <xsl:with-param name="line" select="$line, $parts/node()"/>
            <xsl:with-param name="used" select="$used + xs:integer($parts/@w)"/>
          </xsl:next-iteration>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="closed" as="xs:boolean" select="exists(($line, $parts[1]/node()))"/>
          <xsl:if test="$closed">
            <xsl:element name="{$tag}"><xsl:attribute name="class" select="$class"/><xsl:sequence select="$line, $parts[1]/node()"/></xsl:element>
          </xsl:if>
          <xsl:for-each select="$parts[position() gt 1 and position() lt last()]">
            <xsl:element name="{if (position() = 1 and not($closed)) then $tag else 'div'}">
              <xsl:attribute name="class" select="$class"/><xsl:sequence select="node()"/>
            </xsl:element>
          </xsl:for-each>
          <xsl:next-iteration>
            <xsl:with-param name="line" select="$parts[last()]/node()"/>
            <xsl:with-param name="used" select="xs:integer($parts[last()]/@w)"/>
            <xsl:with-param name="tag" select="if (not($closed) and count($parts) = 2) then $tag else 'div'"/>
          </xsl:next-iteration>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:iterate>
  </xsl:function>

  <!-- Adjacent runs of the same size and class as one: text split only by markup (a placeholder
       character, an anchor) is one run, so punctuation rules apply across the split. -->
  <xsl:function name="zs:merge" as="element(zs:t)*">
    <xsl:param name="runs" as="element(zs:t)*"/>
    <xsl:for-each-group select="$runs" group-adjacent="@s || ' ' || @c">
      <xsl:sequence select="if (count(current-group()) eq 1) then .
                            else zs:run(string(@s), string(@c), string-join(current-group()))"/>
    </xsl:for-each-group>
  </xsl:function>

  <!-- Opening punctuation ending a run goes to the start of the next run, whatever its size (a “
       before a scholar's name; in the 四庫 flow a note ending on “ runs straight into full-size
       text): the line breaking sees one run at a time, and would otherwise end a line or a note
       row on the mark when the next run starts the next line. -->
  <xsl:function name="zs:carry-opening" as="element(zs:t)*">
    <xsl:param name="runs" as="element(zs:t)*"/>
    <xsl:iterate select="$runs">
      <xsl:param name="carried" as="xs:string" select="''"/>
      <!-- the last run's kind, for marks that end the text and have nowhere to go -->
      <xsl:param name="kind" as="xs:string+" select="'big', 'jing'"/>
      <xsl:on-completion>
        <xsl:sequence select="zs:run($kind[1], $kind[2], $carried)[string()]"/>
      </xsl:on-completion>
      <xsl:variable name="text" as="xs:string" select="$carried || string(.)"/>
      <xsl:variable name="body" as="xs:string"
                    select="substring($text, 1, zs:back-off(string-to-codepoints($text), string-length($text)))"/>
      <xsl:sequence select="if ($body eq string(.)) then . else zs:run(string(@s), string(@c), $body)[string()]"/>
      <xsl:next-iteration>
        <xsl:with-param name="carried" select="substring($text, string-length($body) + 1)"/>
        <xsl:with-param name="kind" select="string(@s), string(@c)"/>
      </xsl:next-iteration>
    </xsl:iterate>
  </xsl:function>

  <!-- Closing punctuation opening a run goes to the end of the run before it, whatever its size
       (曰 ending a 出文, ： opening the 疏's words): inside one run a closing mark that does not
       fit hangs or takes the character before it down with it (zs:fit), which it cannot do across
       runs. A run that is all closing marks gives them all. -->
  <xsl:function name="zs:carry-closing" as="element(zs:t)*">
    <xsl:param name="runs" as="element(zs:t)*"/>
    <xsl:variable name="leading" as="xs:integer*"
                  select="0, subsequence($runs, 2)!zs:leading-closing(string-to-codepoints(string(.)), 0)"/>
    <xsl:for-each select="$runs">
      <xsl:variable name="i" as="xs:integer" select="position()"/>
      <xsl:variable name="text" as="xs:string"
                    select="substring(., $leading[$i] + 1) || substring(string($runs[$i + 1]), 1, ($leading[$i + 1], 0)[1])"/>
      <xsl:sequence select="if ($text eq string(.)) then . else zs:run(string(@s), string(@c), $text)[string()]"/>
    </xsl:for-each>
  </xsl:function>

  <!-- How many of the code points from position $n + 1 on are closing punctuation in a row. -->
  <xsl:function name="zs:leading-closing" as="xs:integer">
    <xsl:param name="cps" as="xs:integer*"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:sequence select="if ($n lt count($cps) and $cps[$n + 1] = $zs:closing) then zs:leading-closing($cps, $n + 1) else $n"/>
  </xsl:function>

  <xsl:function name="zs:run" as="element(zs:t)">
    <xsl:param name="size" as="xs:string"/>
    <xsl:param name="class" as="xs:string"/>
    <xsl:param name="text" as="xs:string"/>
    <zs:t s="{$size}" c="{$class}"><xsl:value-of select="$text"/></zs:t>
  </xsl:function>

  <!-- A full-size run as parts (zs:part, @w its length in units): the first for the current line,
       each other one a line of its own. -->
  <xsl:function name="zs:text-parts" as="element(zs:part)+">
    <!-- $runs: one zs:t; $room: units left on the line; $cap: units of a line; $fresh: line empty -->
    <xsl:param name="runs" as="element(zs:t)+"/>
    <xsl:param name="room" as="xs:integer"/>
    <xsl:param name="cap" as="xs:integer"/>
    <xsl:param name="fresh" as="xs:boolean"/>
    <xsl:variable name="text" as="xs:string" select="string($runs[1])"/>
    <xsl:variable name="cps" as="xs:integer*" select="string-to-codepoints($text)"/>
    <xsl:variable name="ws" as="xs:integer*" select="zs:widths($text, false())"/>
    <xsl:variable name="lengths" as="xs:integer+" select="zs:chunks($cps, $ws, $room, $cap, $fresh)"/>
    <xsl:for-each select="$lengths">
      <xsl:variable name="from" as="xs:integer" select="sum(subsequence($lengths, 1, position() - 1)) + 1"/>
      <zs:part xsl:inherit-namespaces="no" w="{sum(subsequence($ws, $from, .))}">
        <xsl:if test=". gt 0">
          <span class="{$runs[1]/@c}"><xsl:sequence select="zs:draw(substring($text, $from, .))"/></span>
        </xsl:if>
      </zs:part>
    </xsl:for-each>
  </xsl:function>

  <!-- Consecutive small runs (one note, or a 注 and its 音義) as parts of two rows (span.wr with
       two span.r): the first for the current line, each other one a line of its own. A row may
       hold pieces of several runs, each keeping its class. -->
  <xsl:function name="zs:note-parts" as="element(zs:part)+">
    <!-- $runs: zs:t of @s 'small'; $room: units left on the line; $cap: units of a line; $fresh: line empty -->
    <xsl:param name="runs" as="element(zs:t)+"/>
    <xsl:param name="room" as="xs:integer"/>
    <xsl:param name="cap" as="xs:integer"/>
    <xsl:param name="fresh" as="xs:boolean"/>
    <xsl:variable name="text" as="xs:string" select="string-join($runs)"/>
    <xsl:variable name="cps" as="xs:integer*" select="string-to-codepoints($text)"/>
    <xsl:variable name="ws" as="xs:integer*" select="zs:widths($text, true())"/>
    <xsl:variable name="starts" as="xs:integer+" select="zs:starts($runs)"/>
    <xsl:variable name="rows" as="xs:integer+" select="zs:pieces($cps, $ws, $room, $cap, $fresh)"/>
    <xsl:for-each select="1 to count($rows) idiv 2">
      <xsl:variable name="r1" as="xs:integer" select="$rows[2 * current() - 1]"/>
      <xsl:variable name="r2" as="xs:integer" select="$rows[2 * current()]"/>
      <xsl:variable name="from" as="xs:integer" select="sum(subsequence($rows, 1, 2 * current() - 2)) + 1"/>
      <xsl:variable name="w1" as="xs:integer" select="sum(subsequence($ws, $from, $r1))"/>
      <xsl:variable name="w2" as="xs:integer" select="sum(subsequence($ws, $from + $r1, $r2))"/>
      <zs:part xsl:inherit-namespaces="no" w="{max(($w1, $w2))}">
        <xsl:if test="$r1 gt 0">
          <span class="wr">
            <span class="r"><xsl:sequence select="zs:slice($runs, $starts, $from, $from + $r1)"/></span>
            <span class="r"><xsl:sequence select="zs:slice($runs, $starts, $from + $r1, $from + $r1 + $r2)"/></span>
          </span>
        </xsl:if>
      </zs:part>
    </xsl:for-each>
  </xsl:function>

  <!-- Where each run starts in the runs' joined text (1-based), and one past the end. -->
  <xsl:function name="zs:starts" as="xs:integer+">
    <xsl:param name="runs" as="element(zs:t)*"/>
    <xsl:sequence select="1, for $i in 1 to count($runs) return 1 + sum(subsequence($runs, 1, $i)!string-length(.))"/>
  </xsl:function>

  <!-- Characters $from to $to - 1 of the runs' joined text, as spans keeping each run's class. -->
  <xsl:function name="zs:slice" as="element()*">
    <xsl:param name="runs" as="element(zs:t)+"/>
    <xsl:param name="starts" as="xs:integer+"/>
    <xsl:param name="from" as="xs:integer"/>
    <xsl:param name="to" as="xs:integer"/>
    <xsl:for-each select="$runs">
      <xsl:variable name="i" as="xs:integer" select="position()"/>
      <xsl:variable name="a" as="xs:integer" select="max(($from, $starts[$i]))"/>
      <xsl:variable name="b" as="xs:integer" select="min(($to, $starts[$i + 1]))"/>
      <xsl:if test="$a lt $b">
        <span class="{@c}"><xsl:sequence select="zs:draw(substring(., $a - $starts[$i] + 1, $b - $a))"/></span>
      </xsl:if>
    </xsl:for-each>
  </xsl:function>

</xsl:stylesheet>
