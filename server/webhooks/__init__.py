"""Webhooks: the outbox, its sender and where a webhook may point."""
