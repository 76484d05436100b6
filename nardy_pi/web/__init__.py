"""The scoreboard page, the control panel and their JSON/SSE API.

The web layer only reads `State` snapshots from a `StateHub` and hands control actions to a
`Controller`; it never reaches into the match, the referee or the camera. `app.create_app`
builds the Flask app, `server.WebServer` serves it with waitress.
"""
