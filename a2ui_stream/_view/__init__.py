"""The view layer: element trees drawn for people, as an HTML page or an indented text tree.

Owns the HTML of every generative UI element (semantic tags, props as classes and
generated style rules, Markdown through markdown-it-py with raw HTML off and links under
the converter's URL policy), the SVG icons and charts, the self-contained page (one
section per run, one card per part, a timeline, a strict Content-Security-Policy), and
the text tree ``inspect --tree`` prints. Pure functions of element trees: no I/O.

markdown-it-py is an optional dependency (the ``html`` extra) and only this layer may
import it; ``import a2ui_stream`` never imports this layer.

May import: ``a2ui_stream._convert`` (the URL policy and the vocabulary's tables).
"""
