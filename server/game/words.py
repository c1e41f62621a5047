"""The bot's fixed words: hints, useless quotes, the cheat sheet. Pure data: the decider
reads the hints, so nothing here may draw or tell the time."""

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

QUOTES: tuple[str, ...] = (
    '"The best defence is a territory nobody wants." - General Ambrose Fettle',
    '"An army marches on its stomach, so keep the floors clean." - Quartermaster Lyle Pim',
    '"Never retreat. There is no retreat phase anyway." - Field Marshal Doreen Quask',
    '"If your flank is exposed, simply have fewer flanks." - Colonel Ivo Brattle',
    '"Victory loves preparation, and also snacks." - Sergeant Minna Holt',
    '"The enemy cannot attack what the enemy has not noticed yet." - Major Otto Vern',
    '"A plan is only a plan until it is an order, and then it is a rumour." - Admiral '
    "Pell Quintus, who never saw a ship",
    '"Hold the line, unless the line moves, in which case hold something nearby." - '
    "Captain Rosa Tenk",
    '"Every map is flat if you fold it hard enough." - Cartographer-General Fitch',
    '"Support your friends, and support your friends\' friends, and then count again." - '
    "Brigadier Alma Coe",
    '"The fog of war is mostly from the farms." - Lieutenant Hob Darrow',
    '"Strike where the enemy is weakest, or at lunchtime, which is the same." - General '
    "Tamsin Reed",
    '"There are no bad barracks, only bad neighbours." - Commandant Ulric Fenn',
    '"Loyalty is temporary. Adjacency is forever." - Chancellor Vesna Kroll',
    '"A soldier who farms is a soldier who has stopped asking questions." - Drill '
    "Instructor Gus Malley",
    '"To bounce is human; to bounce twice is diplomacy." - Envoy Perrin Lask',
    '"The first casualty of war is the group chat." - Private First Class Dee Otis',
    '"Always have an exit strategy, and a second exit strategy for the first one." - '
    "Colonel Ruth Amberly",
)

CHEAT_SHEET = """\
Orders start with the territory of the army (id or full name), are not case-sensitive,
and go several to a /submit, separated by commas or new lines:
- Hold: SI H  or  SI hold
- Move: EH to AE  or  EH -> AE  or  EH > AE
- Support a hold: FI S SI  or  FI S SI H  (S = support)
- Support a move: OG S RG to SI
- Support a reinforcement: AE S REF to MA
- Build a farm on a barracks: EH B  or  EH build
- Farm a farm for 1 VP: EH F  or  EH farm
- New army on a barracks of yours (more barracks than armies): REF to MA  or  REF MA
Example: /submit BL S CR to SL, TR H, REF to MA
An army without an order holds. Each army carries out its newest valid order.
Other commands: /list, /vote EFFECT, /join_forces @name, /color 1-20, /pattern 1-16,
/notifications true|false, /refresh_name [name], /broadcast message, /resign, /help,
/hint, /call_of_duty_loading_screen."""
