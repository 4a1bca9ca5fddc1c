"""The embedded agent and the model providers it talks to."""
