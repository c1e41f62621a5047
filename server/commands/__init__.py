"""The Discord commands of the rulebook as text (`/submit BL H`), answered as the
skirmish-commissioner bot would. docs/commands.md lists them.

parse (text -> request) and the reply modules (replies, status, announcements, words, text)
are pure; players and admin run the commands; dispatch ties them together."""
