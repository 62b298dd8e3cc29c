"""The 欽定三禮義疏 layout: its reader, small notes, attributions of quotations
to scholars, and translations interleaved with the original.
"""
