"""Learners and their answers: the answer record, the database, per-tab history, CSV."""
