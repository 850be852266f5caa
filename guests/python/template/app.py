"""A seam tool plugin: `line_count` counts the lines of a text file read through the fs seam.

Build: guests/python/build guests/python/template target/plugins/my_plugin.wasm
"""

from seam_plugin import Tool, tool  # noqa: F401 - componentize-py exports `Tool`


@tool(
    "line_count",
    "Count the lines of a text file.",
    {
        "type": "object",
        "properties": {"path": {"type": "string", "description": "Absolute, `~/…`, or relative to the session's cwd."}},
        "required": ["path"],
        "additionalProperties": False,
    },
)
def line_count(args, ctx):
    return str(ctx.read_text(args["path"]).count("\n"))
