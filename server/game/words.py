"""The bot's fixed words: useless quotes, the cheat sheet (Skirmish Society's hints are its
own: projections/skirmish/hints.py). Pure data: nothing here may draw or tell the time."""

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
