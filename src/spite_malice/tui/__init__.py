"""The terminal game: ``spite-malice play`` opens a full-screen Textual table.

``app`` holds :class:`~.app.SpiteMaliceApp`; ``session`` the match against the computer,
free of screen code; ``screens`` and ``widgets`` the parts of the table; ``persistence`` and
``store_link`` where games and statistics are kept. Importing this package alone needs no
Textual, so the command line can list its options without it.
"""

from __future__ import annotations
