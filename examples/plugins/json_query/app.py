"""`json_query`: the value at a dotted path in a JSON file read through the fs seam (the world
file must grant this plugin `fs`)."""

import json

from seam_plugin import Tool, ToolError, tool  # noqa: F401 - componentize-py exports `Tool`

# Larger files are refused (FS_TOO_LARGE) rather than read whole.
MAX_BYTES = 16 << 20

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {
            "type": "string",
            "description": "The JSON file: absolute, `~/…` in the home directory, or relative to the "
            "session's working directory.",
        },
        "query": {
            "type": "string",
            "description": "Dotted path to the value, e.g. `dependencies.serde.version` or "
            "`items.0.name` (numbers index arrays). Empty: the whole document.",
        },
    },
    "required": ["path"],
    "additionalProperties": False,
}


@tool("json_query", "Select a value from a JSON file by a dotted path and show it as JSON.", SCHEMA)
def json_query(args, ctx):
    text = ctx.read_text(args["path"], MAX_BYTES)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ToolError("JSON_INVALID", f"{args['path']} is not valid JSON: {error}")
    return json.dumps(select(document, args.get("query", "")), indent=2, ensure_ascii=False)


def select(document, query):
    value = document
    walked = []
    steps = query.split(".") if query else []
    if "" in steps:
        raise ToolError("INVALID_ARGUMENTS", f"query {query!r} has an empty step: name each key between the dots")
    for step in steps:
        if isinstance(value, dict) and step in value:
            value = value[step]
        elif isinstance(value, list) and step.isdigit() and int(step) < len(value):
            value = value[int(step)]
        else:
            where = ".".join(walked) or "the document"
            raise ToolError("JSON_NO_MATCH", f"no `{step}` in {where} ({kind(value)})")
        walked.append(step)
    return value


def kind(value):
    if isinstance(value, dict):
        keys = ", ".join(list(value)[:10])
        return f"an object with keys: {keys}" if keys else "an empty object"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    return f"a {type(value).__name__}"
