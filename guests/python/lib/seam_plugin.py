"""The seam tool plugin kit for Python (componentize-py).

A plugin module registers its tools with ``@tool(name, description, schema)`` and exposes the
kit's ``Tool`` class (``from seam_plugin import Tool``), which componentize-py exports as
``seam:tool/tool``. The kit answers ``describe``, checks arguments against the schema (refusing
bad ones with INVALID_ARGUMENTS before the tool runs), routes ``invoke`` by name and turns
``ToolError`` into an error result carrying its code.

    @tool("hello", "Greet someone.", {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": False,
    })
    def hello(args, ctx):
        return "hello " + args["name"]
"""

import json
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

from componentize_py_types import Err
from wit_world import exports
from wit_world.imports import tool_types as types

# Interfaces a plugin's world may leave out. Imported here, not at first use: this module runs
# when the component is built and its state is snapshotted, so an import done now costs no call.
try:
    from wit_world.imports import context
except ImportError:
    context = None
try:
    from wit_world.imports import fs
except ImportError:
    fs = None

INVALID_ARGUMENTS = "INVALID_ARGUMENTS"
UNKNOWN_TOOL = "UNKNOWN_TOOL"
CONFIG_INVALID = "CONFIG_INVALID"
# An exception the tool did not expect: the call fails, the plugin keeps serving.
PLUGIN_FAILED = "PLUGIN_FAILED"
# The host's code for a component that reached its memory limit, as a Rust plugin's call gets it.
MEMORY_LIMIT = "COMPONENT_MEMORY_LIMIT"

JSON_TYPES = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


class ToolError(Exception):
    """A failed call: a stable code to branch on and a message for the model."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Context:
    """What a tool knows about its call."""

    session_id: str
    cwd: str
    agent: str
    call_id: str

    # These three need `import seam:tool/context@0.1.0` in the plugin's world.

    def progress(self, done: float, total: Optional[float] = None, message: Optional[str] = None) -> None:
        needs(context, "seam:tool/context").progress(done, total, message)

    def cancelled(self) -> bool:
        return needs(context, "seam:tool/context").cancelled()

    def config(self) -> Dict[str, Any]:
        """This plugin's ``[config.<name>]`` table from the world file."""
        try:
            return parse_object(needs(context, "seam:tool/context").config())
        except ValueError as error:
            raise ToolError(CONFIG_INVALID, f"plugin settings: {error}")

    def read_text(self, path: str, max_bytes: Optional[int] = None) -> str:
        """A whole text file (UTF-8, or UTF-16 with its byte order mark) through the fs seam
        (the world must grant ``fs``); the path is absolute, ``~/…`` in the home directory
        (when the world imports ``seam:tool/context``), or relative to the session's working
        directory."""
        seam = needs(fs, "seam:fs/fs")
        try:
            target = seam.resolve(home_expanded(path), self.cwd)
            return seam.read_text(target, max_bytes, self.session_id).content
        except Err as error:
            raise ToolError(error.value.code, error.value.message)


def home_expanded(path: str) -> str:
    """``path`` with a leading ``~`` (alone, or before a ``/``) replaced by the home directory,
    as the first-party tools do; ``~name`` and every other path stay as given, and so does a
    ``~`` path when the plugin's world does not import the context or the host knows no home."""
    if context is None or not (path == "~" or path.startswith("~/")):
        return path
    home = context.home()
    if home is None:
        return path
    return home if path == "~" else home.rstrip("/") + path[1:]


def needs(interface, name: str):
    if interface is None:
        raise ToolError(PLUGIN_FAILED, f"this plugin's world does not import {name}@0.1.0")
    return interface


@dataclass
class Registered:
    description: str
    schema: Dict[str, Any]
    run: Callable[[Dict[str, Any], Context], Any]


TOOLS: Dict[str, Registered] = {}


def tool(name: str, description: str, schema: Dict[str, Any]):
    """Register ``run(args, ctx)``; it returns text (or a ToolResult from ``text_result`` /
    ``error_result``) or raises ToolError. Returning anything else fails the call. A second
    tool of the same name is refused: it would silently replace the first and its checks."""

    def register(run):
        if name in TOOLS:
            raise ValueError(f"two tools named {name!r}: each tool of a plugin needs its own name")
        # Fails the build, naming the tool: later it would be a trap in `describe`.
        try:
            json.dumps(schema)
        except (TypeError, ValueError) as error:
            raise ValueError(f"the schema of tool {name!r} is not JSON: {error}") from None
        TOOLS[name] = Registered(description, schema, run)
        return run

    return register


def text_result(text: str) -> types.ToolResult:
    return types.ToolResult([types.Content_Text(text)], False, None)


def error_result(code: str, message: str) -> types.ToolResult:
    return types.ToolResult([types.Content_Text(message)], True, code)


def parse_object(text: str) -> Dict[str, Any]:
    """A JSON object; blank text counts as ``{}``."""
    try:
        value = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON ({error})")
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value


def check_arguments(args: Dict[str, Any], schema: Dict[str, Any]) -> None:
    """The schema's top level: required fields, unknown fields, each field's JSON type and bounds."""
    properties = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in args:
            raise ValueError(f"missing field `{name}`")
    for name, value in args.items():
        if name not in properties:
            if schema.get("additionalProperties", True) is False:
                raise ValueError(f"unknown field `{name}`, expected one of {', '.join(properties)}")
            continue
        field = properties[name]
        wanted = field.get("type")
        kinds = JSON_TYPES.get(wanted) if isinstance(wanted, str) else None
        # bool is an int in Python; JSON keeps them apart.
        if kinds and (not isinstance(value, kinds) or (isinstance(value, bool) and wanted != "boolean")):
            raise ValueError(f"`{name}` must be of type {wanted}")
        check_bounds(name, value, field)


def check_bounds(name: str, value: Any, field: Dict[str, Any]) -> None:
    """A field's `enum`, and `minimum` / `maximum` for a number."""
    if "enum" in field and value not in field["enum"]:
        raise ValueError(f"`{name}` must be one of {', '.join(json.dumps(v) for v in field['enum'])}")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return
    if "minimum" in field and value < field["minimum"]:
        raise ValueError(f"`{name}` must be at least {field['minimum']}")
    if "maximum" in field and value > field["maximum"]:
        raise ValueError(f"`{name}` must be at most {field['maximum']}")


class Tool(exports.Tool):
    def describe(self) -> List[types.ToolSpec]:
        return [types.ToolSpec(name, t.description, json.dumps(t.schema)) for name, t in TOOLS.items()]

    def invoke(self, call: types.Call) -> types.ToolResult:
        registered = TOOLS.get(call.name)
        if registered is None:
            return error_result(UNKNOWN_TOOL, f"this plugin has no tool named {call.name!r} (tools: {', '.join(TOOLS)})")
        try:
            args = parse_object(call.arguments)
            check_arguments(args, registered.schema)
        except ValueError as error:
            return error_result(INVALID_ARGUMENTS, f"invalid arguments: {error}")
        session = call.session
        ctx = Context(session.id, session.cwd, session.agent, call.call_id)
        try:
            result = registered.run(args, ctx)
        except ToolError as error:
            return error_result(error.code, error.message)
        except Err as error:
            # A seam's error (its result's error record, raised by the bindings) keeps its code.
            record = error.value
            if isinstance(getattr(record, "code", None), str):
                return error_result(record.code, str(getattr(record, "message", record)))
            return error_result(PLUGIN_FAILED, f"{call.name} failed: {record!r}")
        except MemoryError:
            return error_result(
                MEMORY_LIMIT, f"{call.name} ran out of memory: the plugin's memory limit (memory_mb) was reached"
            )
        except Exception as error:  # noqa: BLE001 - any bug in a tool fails only its call
            return error_result(PLUGIN_FAILED, f"{call.name} failed: {type(error).__name__}: {error}")
        except SystemExit as exit:
            # No process to end here: exiting would trap the whole component.
            return error_result(PLUGIN_FAILED, f"{call.name} called sys.exit({exit.code!r}); a tool returns instead")
        if isinstance(result, str):
            return text_result(result)
        if isinstance(result, types.ToolResult):
            return result
        # Anything else cannot be handed to the host: the call would trap instead of failing.
        return error_result(
            PLUGIN_FAILED,
            f"{call.name} returned {type(result).__name__}; a tool returns text (str) or a ToolResult",
        )
