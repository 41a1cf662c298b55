"""Alembic's environment: the store passes its open connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context

from spite_malice.store.schema import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
