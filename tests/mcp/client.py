"""An MCP client (the official Python SDK) driving `seam mcp`, for tests/suite/mcp.rs.

Usage: client.py SCENARIO SEAM_EXE [SEAM_ARG...] -- [ARG...]

Prints one JSON object per line on stdout (events, then the scenario's outcome). The cancel
scenario reads its command and then cues from stdin, to stay in step with the test, which
watches the processes; the live scenario reads all its commands from stdin, to stay in step
with a test that edits the world file (tests/suite/hot_swap.rs).
"""

import json
import sys
import time

import anyio
import mcp.types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError


def emit(**event):
    print(json.dumps(event), flush=True)


def dump(result):
    return result.model_dump(by_alias=True, mode="json", exclude_none=True)


async def wait_for_line():
    return await anyio.to_thread.run_sync(sys.stdin.readline)


async def list_tools(session, _args):
    tools = await session.list_tools()
    emit(tools=[tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools.tools])


async def call(session, args):
    """Call bash with each JSON arguments object given, one after the other."""
    for arguments in args:
        emit(result=dump(await session.call_tool("bash", json.loads(arguments))))


async def unknown(session, args):
    """Call a tool the server does not have."""
    try:
        result = await session.call_tool(json.loads(args[0]), {})
        emit(result=dump(result))
    except MCPError as e:
        emit(error={"code": e.code, "message": e.message})


async def parallel(session, args):
    results = {}

    async def one(index, arguments):
        results[index] = dump(await session.call_tool("bash", json.loads(arguments)))

    start = time.monotonic()
    async with anyio.create_task_group() as group:
        for index, arguments in enumerate(args):
            group.start_soon(one, index, arguments)
    emit(seconds=time.monotonic() - start, results=[results[i] for i in range(len(args))])


async def cancel(session, _args):
    """Read a command from stdin and start it, wait for the test to say "cancel", cancel it,
    wait for "next", then check the server still serves. The command comes on stdin so that
    this client's own command line does not show it to the test's process scan."""
    finished = {}
    command = (await wait_for_line()).strip()

    async def the_call(scope):
        with scope:
            finished["result"] = dump(await session.call_tool("bash", {"command": command}))

    scope = anyio.CancelScope()
    async with anyio.create_task_group() as group:
        group.start_soon(the_call, scope)
        emit(event="calling")
        await wait_for_line()
        scope.cancel()
    emit(event="cancelled", finished=finished.get("result"))
    await wait_for_line()
    emit(result=dump(await session.call_tool("bash", {"command": "echo after"})))


async def progress(session, args):
    seen = []

    async def on_progress(done, total, message):
        seen.append({"progress": done, "total": total, "message": message})

    result = await session.call_tool("bash", json.loads(args[0]), progress_callback=on_progress)
    emit(progress=seen, result=dump(result))


class Notifications:
    """Server notifications as they arrive, for scenarios that wait for one."""

    def __init__(self):
        self.seen = []
        self.arrived = anyio.Event()

    async def handle(self, message):
        if isinstance(message, types.ToolListChangedNotification):
            self.seen.append({"kind": "tools"})
        elif isinstance(message, types.LoggingMessageNotification):
            self.seen.append({"kind": "log", "level": message.params.level, "data": message.params.data})
        else:
            return
        self.arrived.set()

    async def wait(self, kind, seconds):
        with anyio.move_on_after(seconds):
            while True:
                found = [n for n in self.seen if n["kind"] == kind]
                if found:
                    return found[0]
                self.arrived = anyio.Event()
                await self.arrived.wait()
        return None


NOTIFICATIONS = Notifications()


async def live(session, _args):
    """Commands from stdin, one per line, to stay in step with a test that edits the world:
    `stream ARGS` calls bash with ARGS from two concurrent workers until the line `stop`, then
    prints every result text in completion order; `wait KIND` waits (up to 20 s) for a
    notification of KIND (tools, log); `call ARGS` calls bash once; `list` prints the tool
    names; `quit` ends."""
    while True:
        line = (await wait_for_line()).strip()
        command, _, rest = line.partition(" ")
        if command == "stream":
            texts, errors, stop = [], [], anyio.Event()

            async def worker():
                while not stop.is_set():
                    result = await session.call_tool("bash", json.loads(rest))
                    if result.is_error:
                        errors.append(dump(result))
                    texts.append(result.content[0].text if result.content else "")

            async with anyio.create_task_group() as group:
                group.start_soon(worker)
                group.start_soon(worker)
                emit(event="streaming")
                await wait_for_line()
                stop.set()
            emit(texts=texts, errors=errors)
        elif command == "wait":
            emit(notification=await NOTIFICATIONS.wait(rest, 20))
        elif command == "call":
            emit(result=dump(await session.call_tool("bash", json.loads(rest))))
        elif command == "list":
            emit(tools=[tool.name for tool in (await session.list_tools()).tools])
        else:
            return


def human(answers):
    """An elicitation callback answering from a list: "yes", "no" (accepts the form with
    approve=false), "decline" or "cancel"; it records each question."""
    asked = []

    async def answer(_context, params):
        asked.append({"message": params.message, "schema": params.requested_schema})
        reply = answers.pop(0) if answers else "decline"
        if reply in ("yes", "no"):
            return types.ElicitResult(action="accept", content={"approve": reply == "yes"})
        return types.ElicitResult(action=reply)

    return asked, answer


class Unanswered:
    """An elicitation callback of a human who never answers; it notes whether the server
    withdrew the question (the SDK cancels a request its peer cancelled)."""

    def __init__(self):
        self.asked = anyio.Event()
        self.withdrawn = anyio.Event()

    async def callback(self, _context, _params):
        self.asked.set()
        try:
            await anyio.sleep_forever()
        except anyio.get_cancelled_exc_class():
            self.withdrawn.set()
            raise


async def withdrawn(session, args, human):
    """Start a call that asks for approval, cancel it once the question is asked, and report
    whether the server withdrew its question."""
    scope = anyio.CancelScope()

    async def the_call():
        with scope:
            await session.call_tool("bash", json.loads(args[0]))

    async with anyio.create_task_group() as group:
        group.start_soon(the_call)
        await human.asked.wait()
        scope.cancel()
    with anyio.move_on_after(10):
        await human.withdrawn.wait()
    emit(withdrawn=human.withdrawn.is_set())


SCENARIOS = {
    "list": list_tools,
    "call": call,
    "unknown": unknown,
    "parallel": parallel,
    "cancel": cancel,
    "progress": progress,
    "live": live,
}


async def main():
    scenario, seam, *rest = sys.argv[1:]
    # Arguments after "--" go to the scenario; before it, to seam.
    split = rest.index("--") if "--" in rest else len(rest)
    seam_args, args = rest[:split], rest[split + 1 :]
    elicitation = None
    asked = None
    run = SCENARIOS.get(scenario)
    if scenario.startswith("elicit:"):
        # elicit:ANSWER,ANSWER... runs the "call" scenario with a human who answers so.
        asked, elicitation = human(scenario.split(":", 1)[1].split(","))
        run = call
    elif scenario == "withdrawn":
        unanswered = Unanswered()
        elicitation = unanswered.callback

        async def run(session, args):
            await withdrawn(session, args, unanswered)

    server = StdioServerParameters(command=seam, args=[*seam_args, "mcp"])
    async with stdio_client(server) as (read, write):
        async with ClientSession(
            read, write, elicitation_callback=elicitation, message_handler=NOTIFICATIONS.handle
        ) as session:
            await session.initialize()
            await run(session, args)
    if asked is not None:
        emit(asked=asked)


if __name__ == "__main__":
    anyio.run(main)
