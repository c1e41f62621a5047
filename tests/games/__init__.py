"""Two tiny games of the tests' own, one simultaneous and one sequential, run by the server
through their definitions alone (rules/game.py): nothing outside this package names them."""
