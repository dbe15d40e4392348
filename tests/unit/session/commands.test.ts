import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { isCheckCommand } from "../../../lib/session/check_command.ts";
import { commandTracker, MAX_COMMAND_CHARS } from "../../../lib/session/commands.ts";
import { buildSessionSnapshot } from "../../../lib/session/snapshot.ts";
import { callRow, cleanup, devTranscript, resultRow, secretsByKind, userRow, writeRows } from "./_fixtures.ts";

after(cleanup);

describe("isCheckCommand()", () => {
  test("isCheckCommand() knows builds, tests, type checks and linters, behind wrappers and pipes", () => {
    for (
      const c of [
        "npm test",
        "npm run test:unit 2>&1 | tail -30",
        "cd web && pnpm run typecheck",
        "go build ./... && go vet ./...",
        'go test -run "TestA|TestB" ./cmd/...',
        "cargo clippy --all-targets",
        "python -m pytest -x tests/",
        "uv run pytest -q",
        "timeout 120 npx vitest run",
        "CI=1 make",
        "make test",
        "mise run lint 2>&1",
        "./gradlew test",
        "bun test tests/unit",
        "deno check lib/",
        "tsc --noEmit",
        "ruff check .",
        "node --test test/",
      ]
    ) assert.equal(isCheckCommand(c), true, c);
  });

  test("isCheckCommand() leaves out what only mentions a check", () => {
    for (
      const c of [
        'git commit -m "fix the flaky test"',
        "cat test.log",
        "ls tests/",
        "git add a_test.go && git commit -m \"$(cat <<'EOF'\nstaticcheck: fix SA5011\nEOF\n)\"",
        "npm install",
        "npm run dev",
        "echo 'go test ./...'",
        "grep -r pytest .",
      ]
    ) assert.equal(isCheckCommand(c), false, c);
  });
});

describe("commandTracker()", () => {
  const bash = (id: string, command: string) => callRow(id, "Bash", { command });

  test("commandTracker() keeps the newest distinct checks with how each ended, newest first", () => {
    const t = commandTracker();
    const rows = [
      [bash("t1", "go build ./..."), resultRow("t1", "")],
      [
        bash("t2", "go test ./... 2>&1 | tail -20"),
        resultRow(
          "t2",
          "=== RUN TestA\n--- FAIL: TestA (0.00s)\n    a_test.go:12: want 2, got 3\nFAIL\nFAIL\tpkg/a\t0.01s",
        ),
      ],
      [
        bash("t3", "go test ./... 2>&1 | tail -50"),
        resultRow("t3", "Exit code 1\nok pkg/b\nFAIL\tpkg/a\t0.01s", { error: true }),
      ],
      [bash("t4", "ls"), resultRow("t4", "a b")],
    ];
    // Newest first, as the snapshot feeds them: each call after its result.
    for (const [call, result] of rows.reverse()) {
      const r = result.message!.content as { tool_use_id: string; content: string; is_error?: boolean }[];
      t.add(call.message!.content![0] as never, {
        id: r[0].tool_use_id,
        isError: r[0].is_error === true,
        content: r[0].content,
      }, call);
    }
    assert.deepEqual(t.result().map((c) => [c.command, c.exit, c.failure]), [
      ["go test ./... 2>&1 | tail -50", 1, "FAIL\tpkg/a\t0.01s"],
      ["go build ./...", 0, undefined],
    ]);
  });

  test("commandTracker() keeps the session's newest command when it failed, and skips refused ones", () => {
    const t = commandTracker();
    const call = (command: string) => callRow("x", "Bash", { command });
    t.add({ input: { command: "rm -rf /" } }, {
      id: "r",
      isError: true,
      content: "The user doesn't want to proceed with this tool use. The tool use was rejected.",
    }, call("rm -rf /"));
    t.add({ input: { command: "git rebase main" } }, {
      id: "g",
      isError: true,
      content: "Exit code 1\nCONFLICT (content): Merge conflict in src/a.ts\nerror: could not apply 1a2b3c",
    }, call("git rebase main"));
    t.add(
      { input: { command: "npm test" } },
      { id: "n", isError: false, content: "Tests: 12 passed" },
      call("npm test"),
    );
    assert.deepEqual(t.result().map((c) => [c.command, c.exit, c.failure, c.last]), [
      ["git rebase main", 1, "error: could not apply 1a2b3c", true],
      ["npm test", 0, undefined, undefined],
    ]);
  });

  test("commandTracker() takes a TAP failure line from Node's test runner without a terminal", () => {
    const t = commandTracker();
    t.add({ input: { command: "npm test" } }, {
      id: "n",
      isError: true,
      content:
        "Exit code 1\n\n> shop@ test\n> node --test test/\n\nTAP version 13\n# Subtest: adds\nnot ok 1 - adds\n  ---\n# fail 1",
    }, callRow("n", "Bash", {}));
    assert.equal(t.result()[0].failure, "not ok 1 - adds");
  });

  test("commandTracker() reports failures a pipe hid from the exit status", () => {
    const t = commandTracker();
    t.add({ input: { command: "pytest -q | tail -5" } }, {
      id: "p",
      isError: false,
      content: "FAILED tests/test_a.py::test_sum - assert 3 == 2\n1 failed, 4 passed",
    }, callRow("p", "Bash", {}));
    assert.deepEqual(t.result().map((c) => [c.exit, c.failure]), [[
      0,
      "FAILED tests/test_a.py::test_sum - assert 3 == 2",
    ]]);
  });

  test("commandTracker() redacts and caps the command and the failure line", () => {
    const token = secretsByKind().get("github-token")!;
    const t = commandTracker();
    const command = `GITHUB_TOKEN=${token} npm test -- ${"x".repeat(2000)} --last-flag`;
    t.add({ input: { command } }, {
      id: "s",
      isError: true,
      content: `Exit code 1\nError: bad token ${token}`,
    }, callRow("s", "Bash", {}));
    const [c] = t.result();
    assert.ok(!c.command.includes(token) && !(c.failure ?? "").includes(token));
    assert.ok(c.command.length <= MAX_COMMAND_CHARS && c.command.endsWith("--last-flag"), c.command);
  });
});

describe("the snapshot's commands", () => {
  test("buildSessionSnapshot() keeps a real session's last checks and the compile error that failed one", () => {
    const s = buildSessionSnapshot(devTranscript("de1ed521", true), { sessionId: "s", git: null });
    assert.deepEqual(s.commands?.map((c) => [c.command, c.exit]), [
      ["mise run fmt && mise run lint && mise run test 2>&1 | tail -30", 0],
      ["go build ./... 2>&1", 1],
      ['go test ./cmd/entire/cli/... -run "TestGetCurrentHookAgent" -v 2>&1', 0],
    ]);
    assert.equal(s.commands?.[1].failure, "cmd/entire/cli/rewind.go:579:13: undefined: agent");
  });

  test("buildSessionSnapshot() finds a check's result far behind the newest requests", () => {
    const rows = [
      userRow("run the tests"),
      callRow("c1", "Bash", { command: "npm test" }),
      resultRow("c1", "Exit code 1\n  ✕ sums cents (3 ms)", { error: true }),
    ];
    for (let i = 0; i < 40; i++) {
      rows.push(userRow(`question ${i}`), callRow(`r${i}`, "Read", { file_path: `/home/dev/work/demo-proj/f${i}.ts` }));
      rows.push(resultRow(`r${i}`, "x".repeat(2000)));
    }
    const s = buildSessionSnapshot(writeRows(rows), { sessionId: "s", cwd: "/home/dev/work/demo-proj", git: null });
    assert.deepEqual(s.commands, [{
      command: "npm test",
      exit: 1,
      failure: "✕ sums cents (3 ms)",
      timestamp: rows[1].timestamp,
    }]);
  });

  test("buildSessionSnapshot() continues the previous snapshot's commands", () => {
    const first = [userRow("build it"), callRow("b1", "Bash", { command: "make" }), resultRow("b1", "ok")];
    const path = writeRows(first);
    const previous = buildSessionSnapshot(path, { sessionId: "s", cwd: "/home/dev/work/demo-proj", git: null });
    assert.deepEqual(previous.commands?.map((c) => c.command), ["make"]);
    const more = [
      ...first,
      userRow("now the tests"),
      callRow("t1", "Bash", { command: "make test" }),
      resultRow("t1", "ok"),
    ];
    const next = buildSessionSnapshot(writeRows(more), {
      sessionId: "s",
      cwd: "/home/dev/work/demo-proj",
      git: null,
      previous,
    });
    assert.equal(next.transcript.continues, previous.created_at);
    assert.deepEqual(next.commands?.map((c) => c.command), ["make test", "make"]);
  });
});
