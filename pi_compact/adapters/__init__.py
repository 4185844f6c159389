"""Adapters that put a pi session file behind other agent frameworks' memory interfaces.

Each lives in its own module and imports its framework there, so importing :mod:`pi_compact` or this package
never imports a framework; a missing one raises an ``ImportError`` naming the extra to install:

* :mod:`pi_compact.adapters.openai_agents` — ``PiSession``, an openai-agents ``Session`` that compacts after
  each turn (``pip install 'pi-compact[openai-agents]'``);
* :mod:`pi_compact.adapters.langchain` — ``PiChatMessageHistory``, a LangChain ``BaseChatMessageHistory``
  (``pip install 'pi-compact[langchain]'``);
* :mod:`pi_compact.adapters.pydantic_ai` — ``ModelMessage`` conversions and ``PiHistoryProcessor``, a history
  processor that compacts through pi-compact's pipeline (``pip install 'pi-compact[pydantic-ai]'``).

Whatever the framework asks, nothing is deleted from the file: removing history moves the session's leaf
back or starts a new branch, with one line that records the new position so that pi (and the next process)
opens the file where the framework left it.
"""
