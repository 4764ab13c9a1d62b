"""`briefdesk-cli providers check` in a real process: the contract's JSON, exit 0 only when the
endpoint answered, and no Agents SDK import (only `run`, `resume` and `cancel` may pay for it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.cli import REPO_ROOT, CliRunner, cli_env
from tests.support.openai_faults import Fault, FaultyOpenAI

CHECK_TWICE = """
import io, json, sys, contextlib
import agent_core.cli.main as cli
home = sys.argv[1]
results = []
for _ in range(2):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["--home", home, "--json", "providers", "check"])
    results.append({"code": code, "body": json.loads(out.getvalue())})
print(json.dumps({"results": results, "agents": "agents" in sys.modules}))
"""


def test_providers_check_prints_the_provider_and_exits_by_its_health(home: Path) -> None:
    with FaultyOpenAI() as server:
        CliRunner(home)("settings", "set", "openai.base_url", server.base_url, check=True)
        server.fail_at(2, Fault.http(404, code="model_not_found", message="no such model"))
        proc = subprocess.run(
            [sys.executable, "-c", CHECK_TWICE, str(home)],
            capture_output=True,
            text=True,
            env=cli_env(),
            cwd=REPO_ROOT,
            timeout=120,
        )
        exchanges = server.exchanges
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    ok, missing = report["results"]
    assert ok["code"] == 0 and ok["body"]["api"] == 1
    assert ok["body"]["provider"]["ok"] is True
    assert set(ok["body"]["provider"]) == {"model", "base_url", "ok", "message"}
    assert ok["body"]["provider"]["base_url"] == server.base_url
    assert missing["code"] == 1 and missing["body"]["provider"]["ok"] is False
    assert missing["body"]["provider"]["message"].startswith("HTTP 404")
    assert "openai.model" in missing["body"]["provider"]["message"]
    assert report["agents"] is False
    assert [e.path for e in exchanges] == ["/v1/chat/completions"] * 2
    assert [e.json().get("stream") for e in exchanges] == [None, None]  # one small plain request
