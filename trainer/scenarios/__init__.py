"""Scenarios: lesson files in YAML, read with line numbers, replayed through the engine."""
