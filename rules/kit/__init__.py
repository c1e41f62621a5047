"""What the games share: seeded random streams, plane geometry, map graphs and layouts."""
