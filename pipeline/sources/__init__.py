"""Source syntax: bytes to text (decoding), and the mandoku markup of Kanripo
files read into the same located text the layout readers read.
"""
