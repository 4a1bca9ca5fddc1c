"""The embedded agent: the chat loop, the offline answerer, citations and sessions."""
