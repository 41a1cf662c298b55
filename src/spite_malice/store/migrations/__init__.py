"""Alembic migrations of the store (run by :class:`~spite_malice.store.Store` on opening)."""
