"""The notes of the body that are more than a piece of a unit: small-character notes, a 疏
with its 出文 and sub-lemmas, a 義疏 block with its quotations, a 考證 entry with its
judgments."""
from __future__ import annotations

from pipeline.model import (AN, SHU, YISHU, Judgment, KaozhengEntry, PieceOrder, Quote, Shu,
                            SmallNote, YishuBlock)
from pipeline.tei.markup import _pointing, resp_attr
from pipeline.tei.text import TextWriter


class NoteWriter(TextWriter):
    """Notes, and the runs of text with small notes in them (`parts`) that notes and blocks hold."""

    piece_order: PieceOrder | None = None       # made at the first span written

    def small(self, n: SmallNote) -> None:
        """A small-character note inline: its kind is the note type; a quoted 疏 is a shu note
        of subtype quoted, credited to its author."""
        sub = ' subtype="quoted"' if n.kind == SHU else ""
        resp = resp_attr(n.resp)
        self.out.append(f'<note type="{n.kind}"{sub} place="inline" xml:id="{n.id}"{resp}>')
        if n.tokens is not None:
            self.put_tokens(n.tokens)
        else:
            self.put(n.text)
        self.out.append("</note>")

    def parts(self, parts: list) -> None:
        for part in parts:
            if isinstance(part, SmallNote):
                self.small(part)
            else:
                self.put(part)

    def yishu(self, b: YishuBlock) -> None:
        kind = f'type="{AN}"' if b.category == AN else f'type="{YISHU}" subtype="{b.category}"'
        target = f' target="#{b.target.id}"' if b.target and b.target.id else ""
        prev = f' prev="#{b.prev.id}"' if b.prev and b.prev.id else ""
        out = self.out
        # place="inline": the block stands where the edition prints it, in the reading order
        # (a TEI tool would otherwise move a note without @place to the foot of the page)
        out.append(f'<note {kind} place="inline" xml:id="{b.id}"{target}{prev}>')
        if b.label:
            out.append(f'<label type="category">{self.text(b.label)}</label>')
        for q in b.quotes:
            self.quotation(q)
        out.append("</note>\n")

    def quotation(self, q: Quote) -> None:
        """One scholar's words: a <cit> whose <bibl> holds the attribution as printed (the name
        an <author> pointing at the scholar, then the verb 曰), and whose <quote> holds the words
        with their small notes. 又曰 (the scholar before, again) has an empty <author>. Words
        nobody is named for are a plain <p>."""
        if not (q.who or q.verb or q.resp):
            self.out.append(f'<p xml:id="{q.id}">')
            self.parts(q.parts)
            self.out.append("</p>")
            return
        ref = resp_attr(q.resp, "ref")
        who = f"<author{ref}>{self.text(q.who)}</author>" if q.who else f"<author{ref}/>" if ref else ""
        self.out.append(f'<cit xml:id="{q.id}"><bibl>{who}{self.text(q.verb)}</bibl><quote>')
        self.parts(q.parts)
        self.out.append("</quote></cit>")

    def shu(self, s: Shu) -> None:
        detached = ' subtype="detached"' if s.detached else ""
        resp = resp_attr(s.resp)
        self.out.append(f'<note type="{SHU}"{detached} place="inline" xml:id="{s.id}"{resp}'
                        f'{self._span(s.target, s.target_end)}>')
        if s.mark:
            self.el("label", s.mark, type="mark")
        if s.chuwen:
            self.out.append('<label type="chuwen">')
            self.put_tokens(s.chuwen.tokens)
            self.out.append("</label>")
        for para in s.paras:
            if para.sub is None:
                self.out.append(f"<p>{self.text(para.text)}</p>")
            else:
                self.sublemma(para)
        self.out.append("</note>\n")

    def _span(self, target, target_end) -> str:
        """@target and @targetEnd of a span, and @corresp: every piece it covers, in order, so
        that the 疏 on a piece are found by its id alone (docs/encoding.md)."""
        if self.piece_order is None:
            self.piece_order = PieceOrder(self.doc)
        covered = " ".join(f"#{p.id}" for p in self.piece_order.covered(target, target_end))
        return _pointing(target, target_end) + (f' corresp="{covered}"' if covered else "")

    def sublemma(self, para) -> None:
        """A paragraph that opens with a sub-lemma: a note of its own, pointing at the span."""
        sub, out, s = para.sub, self.out, para.text
        text = self.text
        out.append(f'<note type="{SHU}" subtype="sublemma" place="inline" xml:id="{sub.id}"'
                   f'{self._span(sub.target, sub.target_end)}><p>')
        pos = 0
        for a, b in sub.quotes:
            out.append(f"{text(s[pos:a])}<mentioned>{text(s[a:b])}</mentioned>")
            pos = b
        out.append(f"{text(s[pos:])}</p></note>")

    def kaozheng_entry(self, k: KaozhengEntry) -> None:
        """A 考證 entry: a paragraph opening with the lemma it quotes; each 臣's judgment a
        note of his, opening with his name."""
        self.out.append(f'<ab type="kaozheng" xml:id="{k.id}">')
        if k.lemma:
            self.out.append(f'<label type="lemma">{self.text(k.lemma)}</label>')
        for part in k.parts:
            if isinstance(part, Judgment):
                resp = resp_attr(part.resp)
                ref = resp_attr(part.resp, "ref")
                self.out.append(f'<note type="{AN}" place="inline" xml:id="{part.id}"{resp}>'
                                f'<persName{ref}>{self.text(part.who)}</persName>{self.text(part.verb)}')
                self.parts(part.parts)
                self.out.append("</note>")
            elif isinstance(part, SmallNote):
                self.small(part)
            else:
                self.put(part)
        self.out.append("</ab>\n")
