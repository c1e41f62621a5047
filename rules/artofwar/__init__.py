"""The Art of War (docs/art-of-war.md): a pure rules engine, one small module per concept.

`setup` makes the starting state, `resolve` runs one turn, `contract.adjudicate_json` is the
stateless what-if of the JSON contract.
"""
