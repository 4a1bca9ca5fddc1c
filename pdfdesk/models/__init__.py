"""Language models: the provider clients, model names and fallbacks, API keys, and what a model
receives for a PDF. Below the tools (the `pdf` tool calls models) and above core only."""
