"""The kit's own logic, run by the host's python3: routing, argument checks, and what a tool's
return or raise becomes. The generated bindings exist only inside a built component, so the
few shapes the kit uses are declared here as componentize-py generates them."""

import sys
import types
import unittest
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional


def install_bindings() -> None:
    @dataclass
    class Err(Exception):
        value: Any

    @dataclass
    class Content_Text:  # noqa: N801 - componentize-py's name for a variant case
        value: str

    @dataclass
    class ToolResult:
        content: List[Any]
        is_error: bool
        code: Optional[str]

    @dataclass
    class ToolSpec:
        name: str
        description: str
        schema: str

    @dataclass
    class Session:
        id: str
        cwd: str
        agent: str

    @dataclass
    class Call:
        name: str
        arguments: str
        session: Session
        call_id: str

    class Tool:
        pass

    def module(name: str, **items: Any) -> types.ModuleType:
        made = types.ModuleType(name)
        made.__dict__.update(items)
        sys.modules[name] = made
        return made

    module("componentize_py_types", Err=Err)
    tool_types = module(
        "wit_world.imports.tool_types",
        Content_Text=Content_Text,
        ToolResult=ToolResult,
        ToolSpec=ToolSpec,
        Session=Session,
        Call=Call,
    )
    # No context or fs: the plugin's world imports neither.
    imports = module("wit_world.imports", tool_types=tool_types)
    exports = module("wit_world.exports", Tool=Tool)
    module("wit_world", imports=imports, exports=exports)


install_bindings()
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))
import seam_plugin  # noqa: E402
from wit_world.imports import tool_types  # noqa: E402

SCHEMA = {
    "type": "object",
    "properties": {
        "n": {"type": "integer", "minimum": 1, "maximum": 6},
        "mode": {"type": "string", "enum": ["fast", "slow"]},
    },
    "required": ["n"],
    "additionalProperties": False,
}


def invoke(run, arguments: str = '{"n": 1}', name: str = "t") -> Any:
    seam_plugin.TOOLS.clear()
    seam_plugin.tool("t", "d", SCHEMA)(run)
    session = tool_types.Session("s", "/", "a")
    return seam_plugin.Tool().invoke(tool_types.Call(name, arguments, session, "c"))


class Invoke(unittest.TestCase):
    def test_text_becomes_a_result_and_a_result_passes_as_it_is(self):
        self.assertEqual(invoke(lambda args, ctx: f"n={args['n']}"), seam_plugin.text_result("n=1"))
        made = seam_plugin.error_result("MINE", "no")
        self.assertIs(invoke(lambda args, ctx: made), made)

    def test_a_return_the_host_cannot_take_fails_the_call_instead_of_trapping(self):
        for value, words in [(None, "returned NoneType"), (42, "returned int"), ({"a": 1}, "returned dict")]:
            result = invoke(lambda args, ctx, value=value: value)
            self.assertTrue(result.is_error, value)
            self.assertEqual(result.code, "PLUGIN_FAILED")
            self.assertIn(words, result.content[0].value)

    def test_bad_arguments_are_refused_before_the_tool_runs(self):
        ran = []
        for arguments in [
            "{}", '{"n": "x"}', '{"n": true}', '{"n": 1, "extra": 1}', "[1]", "{",
            '{"n": 0}', '{"n": 7}', '{"n": 1, "mode": "medium"}',
        ]:
            result = invoke(lambda args, ctx: ran.append(args) or "ran", arguments)
            self.assertEqual(result.code, "INVALID_ARGUMENTS", arguments)
        self.assertEqual(ran, [])

    def test_errors_keep_their_code_and_anything_else_raised_is_plugin_failed(self):
        def refuse(args, ctx):
            raise seam_plugin.ToolError("MY_CODE", "no")

        def bug(args, ctx):
            raise KeyError("oops")

        self.assertEqual(invoke(refuse).code, "MY_CODE")
        failed = invoke(bug)
        self.assertEqual(failed.code, "PLUGIN_FAILED")
        self.assertIn("t failed: KeyError", failed.content[0].value)
        self.assertEqual(invoke(lambda args, ctx: "x", name="other").code, "UNKNOWN_TOOL")

    def test_a_seams_error_keeps_its_code_and_running_out_of_memory_is_the_memory_limit(self):
        @dataclass
        class FsError:
            code: str
            message: str

        def missing(args, ctx):
            raise sys.modules["componentize_py_types"].Err(FsError("FS_NOT_FOUND", "no such file: x"))

        def hog(args, ctx):
            raise MemoryError()

        self.assertEqual(invoke(missing), seam_plugin.error_result("FS_NOT_FOUND", "no such file: x"))
        self.assertEqual(invoke(hog).code, "COMPONENT_MEMORY_LIMIT")

    def test_a_schema_that_is_not_json_fails_when_the_tool_is_defined(self):
        seam_plugin.TOOLS.clear()
        with self.assertRaisesRegex(ValueError, "schema of tool 's' is not JSON"):
            seam_plugin.tool("s", "d", {"type": "object", "properties": {"x": {"enum": {"a"}}}})(lambda a, c: "")

    def test_arguments_within_bounds_reach_the_tool(self):
        self.assertEqual(invoke(lambda args, ctx: "ran", '{"n": 6, "mode": "slow"}'), seam_plugin.text_result("ran"))

    def test_sys_exit_fails_the_call_instead_of_the_component(self):
        result = invoke(lambda args, ctx: sys.exit(3))
        self.assertEqual(result.code, "PLUGIN_FAILED")
        self.assertIn("sys.exit(3)", result.content[0].value)

    def test_seams_the_world_does_not_import_fail_the_call_by_name(self):
        result = invoke(lambda args, ctx: ctx.read_text("a.txt"))
        self.assertEqual(result.code, "PLUGIN_FAILED")
        self.assertIn("does not import seam:fs/fs", result.content[0].value)


class Register(unittest.TestCase):
    def test_a_second_tool_with_the_same_name_is_refused_naming_it(self):
        seam_plugin.TOOLS.clear()
        seam_plugin.tool("t", "first", SCHEMA)(lambda args, ctx: "first")
        with self.assertRaisesRegex(ValueError, "two tools named 't'"):
            seam_plugin.tool("t", "second", {"type": "object"})(lambda args, ctx: "second")
        # The first keeps its description and its checks.
        self.assertEqual([spec.description for spec in seam_plugin.Tool().describe()], ["first"])
        session = tool_types.Session("s", "/", "a")
        refused = seam_plugin.Tool().invoke(tool_types.Call("t", "{}", session, "c"))
        self.assertEqual(refused.code, "INVALID_ARGUMENTS")


if __name__ == "__main__":
    unittest.main()
