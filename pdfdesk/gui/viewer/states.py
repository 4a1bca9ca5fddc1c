"""What a DocumentView is showing: nothing, an open in progress, pages, a password prompt, an error."""

STATE_EMPTY = "empty"
STATE_OPENING = "opening"
STATE_OPEN = "open"
STATE_PASSWORD = "password"
STATE_FAILED = "failed"
