"""Publishing TEI: the web edition (html.py, with site.py for the index pages) and the print
edition (pdf.py), both by the XSLT 3.0 stylesheets of xslt/ run with Saxon (xslt.py).
"""
from pipeline.render.html import render_html

__all__ = ["render_html"]
