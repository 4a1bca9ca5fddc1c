"""The embedded agent and model providers: issue 4."""
