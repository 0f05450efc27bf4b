"""The widget's internals, one job per module; ``reversi_widget.widget`` is the shell.

- ``session``: the game, its line, players and practice move; every action returns a
  ``Refusal`` or None (no traits, no threads).
- ``intents``: a front end's message checked into an ``Intent``, and the table from its
  kind to the action.
- ``texts``: ``Text`` values for everything said, rendered in a language when shown;
  ``strings``: the labels the front end draws, in the widget's language.
- ``aids``: the hint, the score overlay and the review, with what each belongs to;
  ``overlays``: the concept overlay, a strategy concept marked on the board.
- ``workers``: the lock, the worker threads and the callbacks; how work is scheduled
  (``slices``: the same work on the event loop where there are no threads).
- ``traits``: the synced traits, declared; ``view``: their values as a function of the
  session, the aids and the language.
- ``puzzling``: puzzle mode; ``editor``: the position editor.
- ``checks``: the settings and annotations a widget accepts; ``loading``: what it loads.
"""

__all__: list[str] = []
