"""Games between people: a table of phones with a screen as the table, and what people's
decisions say about the bot's estimates."""
