"""Persona policies: the simple players whose mixture the estimates assume."""
