"""The rules engine: cards, the two rule presets, melds, legal moves, one deal and a match.

It knows nothing of solvers, bots or widgets (``make lint`` checks the layers); only the
``_repr_html_`` methods reach up, lazily, to ``rummy_widget.display`` to draw themselves.
"""
