"""Whole games against the bots: the table, the live match, the coach and the review."""
