"""The 欽定三禮義疏 layout. reader.py is its face (NAME, sniff, read, the Kanripo entry points);
lines.py says what each line is by itself (labels, closings, furniture, titles); driver.py reads
the lines in order and blocks.py builds the 經 units, category blocks and quotations;
kanripo.py joins a Kanripo file's printed lines into paragraphs; smallnotes.py, attribution.py
(quotations attributed to scholars) and interleave.py (translations interleaved with the
original) serve them.
"""
