"""Where the schema and stylesheets are: the checkout's schema/ and xslt/, or, in an installed
wheel, <prefix>/share/zhushu/."""
from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_CANDIDATES = (os.path.dirname(_HERE), os.path.join(sys.prefix, "share", "zhushu"))


def path(kind: str, name: str) -> str:
    """Absolute path of schema/<name> or xslt/<name>."""
    for root in _CANDIDATES:
        p = os.path.join(root, kind, name)
        if os.path.exists(p):
            return p
    raise FileNotFoundError(f"{kind}/{name} not found in {' or '.join(_CANDIDATES)}")
