"""The table's scoreboard on the players' phones: the game as JSON, its page, and its server."""
