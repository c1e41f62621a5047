"""The game room: the application layer every entry point calls, the async shell around the
decider, each game's home worker, and the decider itself."""
