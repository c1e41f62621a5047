"""The games, pure: each game one package (skirmish/), beside their shared kit (kit/), and
the registry that names them (registry.py). No I/O, no clock, no randomness of their own."""
