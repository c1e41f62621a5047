"""The bounds of what players and admins may set. The decider (server/game/decide) checks them on
every command, whatever way it came; the HTTP bodies (schema/api.py) declare them too, so that
their decoder refuses a value out of bounds at once and /openapi.json shows each bound."""

# A name: a game's, a player's, an account's (one line of printable text).
MAX_NAME = 32
MAX_VP_TARGET = 50
MAX_VOTE_START_TURN = 10_000
# A player's colour is 1..COLORS, the pattern of their armies 1..PATTERNS.
COLORS, PATTERNS = 20, 16
# Characters of one submission of orders, and of one broadcast message.
MAX_ORDER_TEXT = 4000
MAX_MESSAGE = 1000
# Characters of the reason an admin gives for a rewind (shown to every player).
MAX_REASON = 500
# A game's seed picks its generated map; PostgreSQL keeps it as a bigint.
MAX_SEED = 2**63 - 1
