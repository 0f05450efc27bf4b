"""The pieces of ``reversi_widget.svg``: markup, themes, and the picture of one board."""

__all__: list[str] = []
