"""Reference tables and rule-text sources: what the Rules page and the command line print."""
