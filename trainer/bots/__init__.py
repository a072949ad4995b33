"""Bots that play every variant through the same interface: a policy over an observation."""
