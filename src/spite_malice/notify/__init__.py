"""Telling players about their games when they are away (``docs/deploying.md``,
"Notifications"): Web Push (:mod:`.push`). It knows nothing of rooms or the store: the web
layer decides what to send, and to whom."""
