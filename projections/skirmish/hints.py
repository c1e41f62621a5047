"""Skirmish Society's hints: one closes each reminder (when the game's settings say so),
and the /hint command tells one.

Pure: no I/O, no clock. Data only: a reminder draws its hint from the game's randomness.
"""

HINTS: tuple[str, ...] = (
    "A holding army beats an unsupported attacker: the defender wins every tie.",
    "You add strength to a move by supporting it, not by sending a second army into the "
    "same territory.",
    "Two armies of equal strength moving into the same territory bounce: neither gets in.",
    "Two armies can never swap places, but three can rotate.",
    "A support is cut when another player's army moves into the supporter's territory, "
    "unless it comes from the territory the support is directed into.",
    "Your own moves never cut your own supports, and a move never kills your own army.",
    "An army with no order holds. You never have to send hold orders, but you may.",
    "The newest valid order for an army is the one it carries out; send early and change "
    "your mind later. /list shows what stands.",
    "Orders close 5 minutes before the turn resolves and open again 5 minutes after (1 "
    "minute in fast mode); /help says when. Do not wait for the last second.",
    "Hold more barracks than you have armies and you can send a new army: REF to <barracks>.",
    "Build a farm on a barracks (EH B), then farm it (EH F) for 1 VP a turn. A farm is no "
    "longer a barracks, so it no longer counts for new armies.",
    "With at least 5 territories, the player with the most territories earns 1 VP at the "
    "end of every turn (ties all earn it).",
    "Build and farm orders are cut by any other player's move into the territory, even a "
    "failed one.",
    "Falling behind? Two players can join forces once, if one of them is 3 VP behind the "
    "leader and they would not together hold more territories than the biggest player.",
    "A vote's winner applies to the turn after the vote, so you always know the effect when "
    "you write your orders. /help shows the current vote and effect.",
    "Only players with armies on the board can vote, and only once a turn.",
    "Full territory names work wherever an abbreviation does: Betts Frond to Aevora.",
    "A reinforcement can be supported like any move: AE S REF to MA.",
    "You are a diplomat first and a general second: talk to the other players.",
    "Send /list by DM, not in public: it shows every order you have submitted.",
)
