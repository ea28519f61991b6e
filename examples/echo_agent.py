#!/usr/bin/env python3
"""A complete bring-your-own-agent example in Python (standard library only).

It speaks the JSON Lines protocol of examples/README.md (schema: examples/command-protocol.schema.json):
asks one question, writes an index.html that repeats the request and the answer, looks at it once and
submits. Replace decide() with calls to your own model.

    IWB_AGENT="command:python3 examples/echo_agent.py" IWB_AGENT_NAME=py-echo npx playwright test --project=p-min
"""
import base64
import html
import json
import os
import sys

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
state = {"instruction": "", "answer": ""}


def send(action):
    # One line per action, flushed at once: a line left in stdout's buffer never reaches the harness,
    # which would end the episode as errored after the step timeout.
    print(json.dumps(action), flush=True)


def log(text):
    # Logs go to stderr (kept as agent-stderr.log in the case folder); stdout carries only actions.
    print(f"[echo_agent.py] {text}", file=sys.stderr, flush=True)


def page():
    answer = f'<p>You told me: <span id="answer">{html.escape(state["answer"])}</span></p>' if state["answer"] else ""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Echo agent</title>
<style>body {{ font-family: sans-serif; margin: 2rem; }} blockquote {{ color: #333; }}</style>
</head>
<body>
<h1>Echo agent</h1>
<p>You asked for:</p>
<blockquote id="request">{html.escape(state["instruction"])}</blockquote>
{answer}
</body>
</html>
"""


def decide(message):
    kind = message["type"]
    if kind == "hello":
        # Sent once before a run's first test, in a process of its own: answering proves the agent starts.
        return {"type": "hello", "name": "py-echo", "version": "1"}
    if message["stepsLeft"] <= 1 and kind != "start":
        return {"type": "submit"}
    if kind == "start":
        state["instruction"] = message["instruction"]
        return {"type": "clarify", "question": "What is the most important thing the page should show?"}
    if kind == "answer":
        state["answer"] = message["answer"]
        return {"type": "implement", "files": [{"path": "index.html", "content": page()}], "usage": {"promptTokens": 0, "completionTokens": 0}}
    if kind == "implemented":
        problems = message["errors"] + message["siteErrors"]
        if problems:
            log("problems: " + "; ".join(problems))
        return {"type": "verify", "path": "/"}
    if kind == "verified":
        inline = base64.b64decode(message["screenshot"]["base64"])
        on_disk = b""
        if os.path.exists(message["screenshot"]["file"]):
            with open(message["screenshot"]["file"], "rb") as f:
                on_disk = f.read(8)
        ok = inline.startswith(PNG_SIGNATURE) and on_disk.startswith(PNG_SIGNATURE)
        log(f'saw "{message["title"]}", screenshot {"is" if ok else "is NOT"} a PNG ({len(inline)} bytes)')
        return {"type": "submit", "note": f'title {message["title"]}; png {str(ok).lower()}'}
    # An error message: the last line was not a valid action. Log it and finish.
    log(f'harness said: {message.get("message", "")}')
    return {"type": "submit"}


def main():
    for line in sys.stdin:
        line = line.strip()
        if line:
            send(decide(json.loads(line)))


if __name__ == "__main__":
    main()
