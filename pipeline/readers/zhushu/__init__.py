"""The 注疏 layouts (paren, runon, siku) and the structure recovery only they
use: 疏 lemmas and their anchoring, the 經/注/音義 cut, layer cues.
"""
