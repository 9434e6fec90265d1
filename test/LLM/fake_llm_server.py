#!/usr/bin/env python3
"""A scripted LLM server on loopback, for tests.

    fake_llm_server.py --script STEPS.json [--log REQUESTS.jsonl] -- CMD ARGS...

Starts an HTTP server on a free 127.0.0.1 port, runs CMD with every "{url}"
in its arguments replaced by http://127.0.0.1:PORT, prints CMD's stdout and
stderr, and exits with CMD's exit status. Each request the server receives
takes the next step of the script (a JSON list); when the steps run out it
answers 500. Every request is logged as one JSON line (path, lower-case
headers, body parsed as JSON) so tests can assert on what was sent.

A step is an object:
  {"openai": {"content": "...", "finish_reason": "stop", "refusal": "..."}}
  {"anthropic": {"text": "...", "stop_reason": "end_turn"}}
      a 200 reply in that API's shape (usage and model filled in)
  {"openai": {"mlir_file": "F"}}
      content {"mlir": <the text of F>} (the micro-coder's reply shape); F is
      relative to the script's directory
  {"openai": {"python_file": "F"}}
      content {"python": <the text of F>} (the Triton micro-coder's shape)
  {"status": 429, "headers": {"retry-after": "0"}, "body": {...} or "text"}
  {"delay": SECONDS, ...}   wait before answering (time-out tests)
  {"reset": true}           close the connection without an answer
  {"raw": "text"}           a 200 reply whose body is this text
  {"truncate": true, ...}   announce a longer body than is sent, then close
  {"huge": BYTES}           a 200 reply of that many bytes
  {"sse": ["chunk", ...]}   a 200 text/event-stream of those data lines
"""
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time


def openai_body(spec, base):
    content = spec.get("content")
    for key, field in (("mlir_file", "mlir"), ("python_file", "python")):
        if key in spec:
            with open(os.path.join(base, spec[key])) as f:
                content = json.dumps({field: f.read()})
    message = {"role": "assistant", "content": content}
    if "refusal" in spec:
        message["refusal"] = spec["refusal"]
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": spec.get("model", "fake-model"),
        "choices": [{"index": 0, "message": message,
                     "finish_reason": spec.get("finish_reason", "stop")}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7,
                  "total_tokens": 18},
    }


def anthropic_body(spec):
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": spec.get("model", "fake-claude"),
        "content": [{"type": "text", "text": spec.get("text", "")}],
        "stop_reason": spec.get("stop_reason", "end_turn"),
        "usage": {"input_tokens": 13, "output_tokens": 5},
    }


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode(errors="replace")
        server = self.server
        with server.lock:
            server.log.append({"path": self.path,
                               "headers": {k.lower(): v for k, v in self.headers.items()},
                               "body": body})
            step = server.steps.pop(0) if server.steps else {
                "status": 500, "body": {"error": {"message": "script exhausted"}}}
        time.sleep(step.get("delay", 0))
        if step.get("reset"):
            # SO_LINGER 0: closing sends a TCP reset.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       b"\x01\x00\x00\x00\x00\x00\x00\x00")
            self.close_connection = True
            self.connection.close()
            return
        status = step.get("status", 200)
        content_type = "application/json"
        if "openai" in step:
            payload = json.dumps(openai_body(step["openai"], server.base)).encode()
        elif "anthropic" in step:
            payload = json.dumps(anthropic_body(step["anthropic"])).encode()
        elif "raw" in step:
            payload = step["raw"].encode()
        elif "huge" in step:
            payload = b" " * step["huge"]
        elif "sse" in step:
            content_type = "text/event-stream"
            payload = "".join("data: %s\n\n" % c for c in step["sse"]).encode()
        else:
            b = step.get("body", {})
            payload = (b if isinstance(b, str) else json.dumps(b)).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for k, v in step.get("headers", {}).items():
            self.send_header(k, v)
        announced = len(payload) * 2 + 100 if step.get("truncate") else len(payload)
        self.send_header("Content-Length", str(announced))
        self.end_headers()
        self.wfile.write(payload)
        self.wfile.flush()
        if step.get("truncate"):
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit(__doc__)
    own, cmd = argv[: argv.index("--")], argv[argv.index("--") + 1:]
    options = dict(zip(own[::2], own[1::2]))
    with open(options["--script"]) as f:
        steps = json.load(f)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.steps, server.log, server.lock = steps, [], threading.Lock()
    server.base = os.path.dirname(os.path.abspath(options["--script"]))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d" % server.server_address[1]
    proc = subprocess.run([a.replace("{url}", url) for a in cmd],
                          capture_output=True, text=True)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    if "--log" in options:
        with open(options["--log"], "w") as f:
            for entry in server.log:
                f.write(json.dumps(entry, sort_keys=True) + "\n")
    server.shutdown()
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
