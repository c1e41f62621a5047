"""Bots that play Skirmish Society through the Python client (docs/bots.md)."""
