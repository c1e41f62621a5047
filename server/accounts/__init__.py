"""Accounts, tokens and trusted clients, the operator's token, and the rate limits counted
against them."""
