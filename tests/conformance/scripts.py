"""Random session trees as scripts of operations, replayable by pi's writer and by ours.

A script is the op list `conformance/pi_write.mjs` understands (``message``, ``thinking``, ``model``,
``compaction``, ``branch``, ``resetLeaf``, ``branchWithSummary``, ``label``, ``name``, ``custom``,
``customMessage``); ``index``/``firstKeptIndex`` name an earlier op (that created an entry) by position.
:func:`scripts` draws such lists with messages of every role and every kind of content, branches to any
earlier entry, leaf resets, compactions keeping from anywhere (on or off the path, or nothing), branch
summaries (empty ones and at the root too), labels set and cleared, names, custom entries and custom
messages. :func:`replay` runs a script on one of our :class:`~pi_compact.Session`s; :func:`v1_files`
draws version-1 files (no ids, ``firstKeptEntryIndex``) for the migration path.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from pi_compact import Session

# -- JSON values ------------------------------------------------------------------------------------------

# Integers stay within JavaScript's safe range: beyond it a double cannot hold them and the comparison
# would test JSON.parse rather than session handling.
SAFE_INT = 2**53 - 1

KEYS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC_", min_size=1, max_size=6)
TEXT = st.text(max_size=20)
SHORT = st.text(alphabet="abcdefgh-_ ", min_size=1, max_size=8)
JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-SAFE_INT, SAFE_INT)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=6,
)
JSON_OBJECTS = st.dictionaries(KEYS, JSON_VALUES, max_size=3)
MS = st.integers(0, 2_000_000_000_000)


# A dict holding each of ``fields`` or leaving it out (pi's ``undefined``).
def _optional(**fields: st.SearchStrategy) -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries({}, optional=fields)


# -- content blocks and messages (pi's AgentMessage roles) ------------------------------------------------

TEXT_BLOCK = st.builds(lambda t, extra: {"type": "text", "text": t, **extra}, TEXT, _optional(textSignature=SHORT))
IMAGE_BLOCK = st.builds(
    lambda data, mime: {"type": "image", "data": data, "mimeType": mime},
    st.text(alphabet="ABCDEFabcdef0123456789+/", max_size=16).map(lambda s: s + "=="),
    st.sampled_from(["image/png", "image/jpeg", "image/gif", "image/webp"]),
)
THINKING_BLOCK = st.builds(
    lambda t, extra: {"type": "thinking", "thinking": t, **extra},
    TEXT,
    _optional(thinkingSignature=SHORT, redacted=st.booleans()),
)
TOOL_CALL_BLOCK = st.builds(
    lambda call_id, name, args, extra: {"type": "toolCall", "id": call_id, "name": name, "arguments": args, **extra},
    SHORT,
    st.sampled_from(["read", "bash", "edit", "write", "grep"]),
    JSON_OBJECTS,
    _optional(thoughtSignature=SHORT),
)
USAGE = st.builds(
    lambda i, o, r, w, cost: {
        "input": i,
        "output": o,
        "cacheRead": r,
        "cacheWrite": w,
        "totalTokens": i + o + r + w,
        "cost": {"input": cost, "output": cost * 2, "cacheRead": 0, "cacheWrite": 0, "total": cost * 3},
    },
    *[st.integers(0, 200_000)] * 4,
    st.floats(0, 10, allow_nan=False),
)
PROVIDERS = st.sampled_from(
    [("anthropic", "claude-opus-4-5"), ("anthropic", "claude-sonnet-4-5"), ("openai", "gpt-5"), ("google", "gemini-3-pro")]
)
STOP_REASONS = st.sampled_from(["stop", "length", "toolUse", "error", "aborted"])


@st.composite
def user_messages(draw) -> dict:
    content = draw(TEXT | st.lists(TEXT_BLOCK | IMAGE_BLOCK, max_size=3))
    return {"role": "user", "content": content, "timestamp": draw(MS)}


@st.composite
def assistant_messages(draw) -> dict:
    provider, model = draw(PROVIDERS)
    stop = draw(STOP_REASONS)
    message = {
        "role": "assistant",
        "content": draw(st.lists(TEXT_BLOCK | THINKING_BLOCK | TOOL_CALL_BLOCK, max_size=3)),
        "api": "anthropic-messages" if provider == "anthropic" else "openai-responses",
        "provider": provider,
        "model": model,
        **draw(_optional(responseModel=SHORT, responseId=SHORT)),
        "usage": draw(USAGE),
        "stopReason": stop,
    }
    if stop in ("error", "aborted") and draw(st.booleans()):
        message["errorMessage"] = draw(TEXT)
    message["timestamp"] = draw(MS)
    return message


@st.composite
def tool_results(draw) -> dict:
    message = {
        "role": "toolResult",
        "toolCallId": draw(SHORT),
        "toolName": draw(st.sampled_from(["read", "bash", "edit"])),
        "content": draw(st.lists(TEXT_BLOCK | IMAGE_BLOCK, max_size=2)),
        **draw(_optional(details=JSON_VALUES)),
        "isError": draw(st.booleans()),
        "timestamp": draw(MS),
    }
    return message


@st.composite
def bash_executions(draw) -> dict:
    message: dict[str, Any] = {"role": "bashExecution", "command": draw(TEXT), "output": draw(TEXT)}
    message.update(draw(_optional(exitCode=st.integers(-1, 255))))
    message.update({"cancelled": draw(st.booleans()), "truncated": draw(st.booleans())})
    message.update(draw(_optional(fullOutputPath=SHORT)))
    message["timestamp"] = draw(MS)
    message.update(draw(_optional(excludeFromContext=st.booleans())))
    return message


CUSTOM_CONTENT = TEXT | st.lists(TEXT_BLOCK | IMAGE_BLOCK, max_size=2)


@st.composite
def custom_role_messages(draw) -> dict:
    return {
        "role": "custom",
        "customType": draw(SHORT),
        "content": draw(CUSTOM_CONTENT),
        "display": draw(st.booleans()),
        **draw(_optional(details=JSON_VALUES)),
        "timestamp": draw(MS),
    }


# A role pi does not know: appendMessage stores it and buildSessionContext passes it through.
ODD_ROLE_MESSAGES = st.builds(
    lambda role, extra: {"role": role, **extra, "timestamp": 7}, st.sampled_from(["system", "note", "hookMessage"]), JSON_OBJECTS
)

MESSAGES = st.one_of(
    user_messages(), assistant_messages(), tool_results(), bash_executions(), custom_role_messages(), ODD_ROLE_MESSAGES
)

# -- scripts ----------------------------------------------------------------------------------------------

# Ops and how often they are drawn; the ones that need an earlier entry come second.
_FREE_OPS = ["message"] * 8 + ["thinking", "model", "name", "custom", "customMessage", "resetLeaf", "branchWithSummary"]
_TARGET_OPS = ["branch"] * 3 + ["compaction"] * 2 + ["label"] * 2 + ["branchWithSummary"]


# One script; ``existing`` entries (positions ``0..existing-1``) may be named before the first op.
@st.composite
def scripts(draw, max_ops: int = 24, existing: int = 0) -> list[dict]:
    created = list(range(existing))  # positions of ops (or existing entries) that created an entry
    ops: list[dict] = []
    for _ in range(draw(st.integers(1, max_ops))):
        position = existing + len(ops)
        kind = draw(st.sampled_from(_FREE_OPS + (_TARGET_OPS if created else [])))
        target = st.sampled_from(created) if created else st.none()
        op = draw(_op(kind, target))
        ops.append(op)
        if kind not in ("branch", "resetLeaf"):
            created.append(position)
    if existing == 0 and not any(_is_assistant(op) for op in ops):
        # pi writes its file only once an assistant message exists.
        ops.append({"op": "message", "message": draw(assistant_messages())})
    elif all(op["op"] in ("branch", "resetLeaf") for op in ops):
        # Appending to an existing file means appending something.
        ops.append({"op": "message", "message": draw(user_messages())})
    return ops


def _is_assistant(op: dict) -> bool:
    return op["op"] == "message" and op["message"].get("role") == "assistant"


def _op(kind: str, target: st.SearchStrategy) -> st.SearchStrategy[dict]:
    summary = st.just("") | TEXT
    if kind == "message":
        return st.builds(lambda m: {"op": "message", "message": m}, MESSAGES)
    if kind == "thinking":
        levels = st.sampled_from(["off", "minimal", "low", "medium", "high", "xhigh"])
        return st.builds(lambda level: {"op": "thinking", "level": level}, levels)
    if kind == "model":
        return st.builds(lambda pm: {"op": "model", "provider": pm[0], "modelId": pm[1]}, PROVIDERS)
    if kind == "name":
        return st.builds(lambda name: {"op": "name", "name": name}, st.just("") | TEXT)
    if kind == "custom":
        return st.builds(lambda t, extra: {"op": "custom", "customType": t, **extra}, SHORT, _optional(data=JSON_VALUES))
    if kind == "customMessage":
        return st.builds(
            lambda t, content, display, extra: {
                "op": "customMessage", "customType": t, "content": content, "display": display, **extra
            },
            SHORT,
            CUSTOM_CONTENT,
            st.booleans(),
            _optional(details=st.none() | JSON_VALUES),
        )
    if kind == "resetLeaf":
        return st.just({"op": "resetLeaf"})
    if kind == "branch":
        return st.builds(lambda i: {"op": "branch", "index": i}, target)
    if kind == "label":
        return st.builds(lambda i, label: {"op": "label", "index": i, "label": label}, target, st.none() | SHORT)
    if kind == "compaction":
        return st.builds(
            lambda keep, s, tokens, extra: {
                "op": "compaction", "summary": s, "firstKeptIndex": keep, "tokensBefore": tokens, **extra
            },
            st.none() | target,
            summary,
            st.integers(0, 500_000),
            _optional(
                details=st.builds(lambda r, m: {"readFiles": r, "modifiedFiles": m}, st.lists(SHORT, max_size=2), st.lists(SHORT, max_size=2)),
                fromHook=st.booleans(),
            ),
        )
    if kind == "branchWithSummary":
        return st.builds(
            lambda at, s, extra: {"op": "branchWithSummary", "index": at, "summary": s, **extra},
            st.none() | target,
            summary,
            _optional(details=JSON_VALUES, fromHook=st.booleans()),
        )
    raise AssertionError(kind)


# Run ``script`` through our append API; returns the id each op created (``None`` for moves).
def replay(script: list[dict], session: Session, existing: list[str] = ()) -> list[str | None]:
    ids: list[str | None] = list(existing)
    for op in script:
        kind = op["op"]
        at = ids[op["index"]] if op.get("index") is not None else None
        created: dict | None = None
        if kind == "message":
            created = session.append_message(op["message"])
        elif kind == "thinking":
            created = session.append_thinking_level_change(op["level"])
        elif kind == "model":
            created = session.append_model_change(op["provider"], op["modelId"])
        elif kind == "compaction":
            keep = ids[op["firstKeptIndex"]] if op.get("firstKeptIndex") is not None else None
            created = session.append_compaction(
                op["summary"], keep, op["tokensBefore"], op.get("details"), op.get("fromHook")
            )
        elif kind == "branch":
            session.move_leaf(at)
        elif kind == "resetLeaf":
            session.move_leaf(None)
        elif kind == "branchWithSummary":
            created = session.append_branch_summary(at, op["summary"], op.get("details"), op.get("fromHook"))
        elif kind == "label":
            created = session.append_label(at, op["label"])
        elif kind == "name":
            created = session.append_session_info(op["name"])
        elif kind == "custom":
            created = session.append_custom(op["customType"], op.get("data"))
        elif kind == "customMessage":
            created = session.append_custom_message(op["customType"], op["content"], op["display"], op.get("details"))
        else:
            raise AssertionError(kind)
        ids.append(created["id"] if created is not None else None)
    return ids[len(existing) :]


# -- version-1 files --------------------------------------------------------------------------------------


# The lines of a v1 file: a header without ``version``, entries without ids, compactions by index.
@st.composite
def v1_files(draw, max_entries: int = 12) -> list[dict]:
    provider, model = draw(PROVIDERS)
    header = {
        "type": "session",
        "id": "0b9e5b1c-6f0e-4c2b-9a55-2f4d3c1e8a70",
        "timestamp": "2025-12-01T10:00:00.000Z",
        "cwd": "/tmp/v1-project",
        "provider": provider,
        "modelId": model,
        "thinkingLevel": "off",
    }
    lines = [header]
    count = draw(st.integers(1, max_entries))
    for n in range(count):
        timestamp = f"2025-12-01T10:{n // 60:02d}:{n % 60:02d}.{n:03d}Z"
        kind = draw(st.sampled_from(["message"] * 5 + ["model_change", "thinking_level_change", "compaction"]))
        if kind == "message":
            entry = {"type": "message", "timestamp": timestamp, "message": draw(MESSAGES)}
        elif kind == "model_change":
            p, m = draw(PROVIDERS)
            entry = {"type": "model_change", "timestamp": timestamp, "provider": p, "modelId": m}
        elif kind == "thinking_level_change":
            entry = {"type": "thinking_level_change", "timestamp": timestamp, "thinkingLevel": draw(st.sampled_from(["off", "high"]))}
        else:
            # Counts the header as line 0; may point forward, at the header, or past the end.
            index = draw(st.integers(0, count + 1))
            entry = {"type": "compaction", "timestamp": timestamp, "summary": draw(TEXT),
                     "firstKeptEntryIndex": index, "tokensBefore": draw(st.integers(0, 10_000))}
        lines.append(entry)
    return lines
