"""End-games solved exactly: known-role tables now, hidden roles to follow."""
