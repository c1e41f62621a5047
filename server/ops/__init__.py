"""Running the server: the command line, serving and its workers, the database, the scheduler,
logs, and the tools that rebuild, replay and verify."""
