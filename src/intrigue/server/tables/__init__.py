"""Tables: the games in play, each a small live-table core with the parts it owns.

Read in this order: `messages` (what a table sends) and `connection` (a client's queue and
rate limit); `seats` (who sits where, token hashes); `interfaces` (what the parts see of their
table, and the scale-out link as the tables know it); the parts `chat` and `clock` (time
control, absent players, votes and stand-ins); `table` (the core: state, moves, bots); `leave`
(giving up a seat) and `rematch` (the same game again); and `hub` (every live table of this
process, creation and loading). A part that needs its owner is handed it through
`interfaces.TableFace`; it never imports `table`.
"""
