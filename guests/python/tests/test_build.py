"""The build script's error output: a plugin that fails to load fails the build with the error
where Python puts it, naming the plugin's own file. Needs the installed componentize-py
(guests/python/install), which the build runs; skipped without it."""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

KIT = Path(__file__).resolve().parent.parent
COMPONENTIZE = KIT.parent.parent / "target" / "python-kit" / "bin" / "componentize-py"


@unittest.skipUnless(COMPONENTIZE.exists(), "componentize-py is not installed (guests/python/install)")
class Build(unittest.TestCase):
    def test_a_syntax_error_names_the_plugins_file_and_line_without_a_rust_backtrace(self):
        with tempfile.TemporaryDirectory() as scratch:
            plugin = Path(scratch) / "plugin"
            shutil.copytree(KIT / "template", plugin)
            with open(plugin / "app.py", "a") as app:
                app.write("\n\ndef broken(:\n    pass\n")
            lines = (plugin / "app.py").read_text().count("\n")
            build = subprocess.run(
                [KIT / "build", plugin, Path(scratch) / "out.wasm"],
                capture_output=True,
                text=True,
                env={**os.environ, "RUST_BACKTRACE": "1"},
            )
        self.assertNotEqual(build.returncode, 0)
        self.assertIn(f'File "{plugin}/app.py", line {lines - 1}', build.stderr)
        self.assertIn("SyntaxError: invalid syntax", build.stderr)
        self.assertNotIn("Stack backtrace", build.stderr)


if __name__ == "__main__":
    unittest.main()
