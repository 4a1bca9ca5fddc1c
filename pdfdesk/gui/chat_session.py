"""What the chat pane needs of a conversation, and the one it builds by default (the agent's)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Protocol

from pdfdesk.agent.events import AgentEvent


class ChatSessionLike(Protocol):
    """What the pane needs of a session (the agent's ChatSession; tests pass lighter ones).
    A session may also hold `passwords` (reference -> password) for its tool calls."""

    documents: list[str]

    @property
    def offline(self) -> bool: ...

    @property
    def model_label(self) -> str: ...

    def send(self, text: str) -> AsyncIterator[AgentEvent] | Awaitable[AsyncIterator[AgentEvent]]: ...


SessionFactory = Callable[[Sequence[str]], ChatSessionLike]  # documents -> session


def default_session_factory(documents: Sequence[str]) -> ChatSessionLike:
    """The agent's session; its tool calls run in killable worker processes, like the panels'.
    The pane's banner says how to set up a model, so the offline answers do not."""
    from pdfdesk.agent.session import ChatSession
    from pdfdesk.gui.tool_calls import call_tool_in_worker

    return ChatSession(documents=list(documents), tool_runner=call_tool_in_worker, setup_advice=False)
