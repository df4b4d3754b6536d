"""Scale-out: several server processes sharing one database (``intrigue serve --redis``).

`bus` carries short notes between processes over Redis pub/sub (a move stored, a chat line, a
vote, who is connected) and runs a periodic repair pass; `catchup` brings a table held here up
to date from the database, where the truth is; `lease` decides which process plays a table's
bots and clocks (PostgreSQL advisory locks). The tables know this layer only as their
`tables.interfaces.ScaleOut` link.
"""
