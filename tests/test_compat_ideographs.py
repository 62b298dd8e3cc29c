"""CJK compatibility ideographs (U+F900–U+FAFF, U+2F800–U+2FA1F): NFC would replace each by its
unified ideograph (U+2F80F 兔 → U+5154 兔), losing the distinction the e-text made. Zhushu reads
each as the standardized variation sequence Unicode gives it (U+5154 U+FE00), which every
normalisation keeps: the TEI stays NFC and the source's character is recoverable."""
import unicodedata

from lxml import etree

from pipeline import chars
from pipeline.textlayers import layer_text

COMPAT_TU = "\U0002F80F"            # 兔, a CJK compatibility ideograph of Kanripo's 周禮
TU_SEQUENCE = "\u5154\ufe00"


def test_every_compatibility_ideograph_has_its_sequence():
    compat = [cp for cp in [*range(0xF900, 0xFB00), *range(0x2F800, 0x2FA20)]
              if unicodedata.decomposition(chr(cp))]     # the twelve unified ones in the block have none
    assert len(compat) == len(chars.COMPAT_SEQUENCES) == 1002
    for cp in compat:
        seq = chars.COMPAT_SEQUENCES[cp]
        assert seq[0] == unicodedata.normalize("NFC", chr(cp)) and "\ufe00" <= seq[1] <= "\ufe0f"
        assert unicodedata.is_normalized("NFC", seq)


def test_normalize_keeps_the_distinction():
    assert chars.normalize(f"雉{COMPAT_TU}兔") == f"雉{TU_SEQUENCE}兔"
    assert chars.normalize("兔") == "兔" and chars.normalize("\uFA0E") == "\uFA0E"   # unified already


def test_a_kanripo_file_keeps_its_compatibility_ideograph(tmp_path, run):
    text = ("#+TITLE: 周禮\n#+PROPERTY: JUAN 1\n<pb:KR9z0002_SBCK_001-1a>¶\n周禮卷第一¶\n天官冢宰第一　鄭氏註¶\n"
            f"惟王建國(建立也周公居攝/而作六典之職)掩{COMPAT_TU}之屬¶\n宮正上士二人中士四人¶\n")
    src = tmp_path / "KR9z0002_001.txt"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "out.xml"
    code, _, err = run("convert", src, "-o", out)
    assert code == 0, err
    assert f"{src}:6:22: warning: ZS-CONV-COMPAT: 1 CJK compatibility ideograph" in err
    root = etree.parse(str(out)).getroot()
    body = layer_text(root, "all")
    assert f"掩{TU_SEQUENCE}之屬" in body and COMPAT_TU not in body
    # the source's character back from the TEI
    back = {seq: chr(cp) for cp, seq in chars.COMPAT_SEQUENCES.items()}
    assert body.replace(TU_SEQUENCE, back[TU_SEQUENCE]).count(COMPAT_TU) == 1
    code, _, err = run("validate", out)
    assert code == 0, err
