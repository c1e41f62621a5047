"""Live games over websockets: the hub, socket auth, frames and limits, and what a reader may
see of the log."""
