"""The stores' shared schema and its history: Alembic migrations run when a store opens a
database (`trainer.database.migrate`), the revisions in `migrations/versions/`."""
