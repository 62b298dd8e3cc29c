"""Zhushu: TEI encoding, validation and publishing for the Chinese classics with their commentaries."""
__version__ = "0.1.0"
