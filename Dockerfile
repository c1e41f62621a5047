# The server (and the Discord bot: `skirmish discord`); docker-compose.yml adds PostgreSQL.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1

# DejaVu Sans: the map pictures' labels, in the font the web page asks for.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 1000 skirmish
# The bot's data directory (SKIRMISH_BOT_DATA in docker-compose.yml) and the server's (where
# it keeps the operator's token when SKIRMISH_OPERATOR_TOKEN is unset), the user's own: a new
# named volume mounted there takes its owner.
RUN install -d -o skirmish -g skirmish /home/skirmish/bot-data \
    && install -d -m 700 -o skirmish -g skirmish /home/skirmish/data
ENV SKIRMISH_DATA_DIR=/home/skirmish/data
WORKDIR /app
COPY pyproject.toml README.md ./
# Every package pyproject.toml installs (tests/server/test_container_files.py checks).
COPY server ./server
COPY eventstore ./eventstore
COPY projections ./projections
COPY schema ./schema
COPY rules ./rules
COPY client ./client
COPY discord_bot ./discord_bot
COPY bots ./bots
RUN pip install .

USER skirmish
EXPOSE 8000
# DATABASE_URL must be set: inside a container the server uses that database, not an
# embedded one.
CMD ["skirmish", "serve", "--host", "0.0.0.0", "--port", "8000"]
