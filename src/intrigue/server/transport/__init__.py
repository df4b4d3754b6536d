"""Transport: everything that meets the network, and nothing a table must know.

`app` builds the server (the hub, the scale-out link, the routes); `websocket` serves the game
connection; `protocol` reads client frames and encodes messages; `replays` and `together` are
the HTTP routes of replays, "your tables" and the table screen; `openapi` tells the real error
answers; `run` is ``intrigue serve`` on uvicorn (and `tuning` its process settings).
"""
