// isInertLine() (lib/transcript/inert_line.ts): the lines PreCompact need not parse. That skipping
// them changes no evidence and no snapshot is checked against the eager pass in
// tests/unit/detect/workspace_lazy.test.ts and tests/unit/session/snapshot_continues.test.ts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { isInertLine } from "../../../lib/transcript/inert_line.ts";

const ENV = '"parentUuid":"p","isSidechain":false,"cwd":"/w","sessionId":"s","uuid":"u","timestamp":"t"';

describe("isInertLine()", () => {
  test("a hook's progress row, a queue's dequeue and a broken line are inert", () => {
    for (
      const line of [
        `{${ENV},"type":"progress","data":{"type":"hook_progress","hookEvent":"PostToolUse","hookName":"PostToolUse:Edit","command":"rehydrate post-tool-use"},"toolUseID":"toolu_1"}`,
        `{"type":"queue-operation","operation":"dequeue","timestamp":"t","sessionId":"s"}`,
        `{"type":"queue-operation","operation":"remove","timestamp":"t","sessionId":"s"}`,
        `{"type":"custom-title","customTitle":"Fix rounding","sessionId":"s"}`,
        `{${ENV},"type":"progress","data":{"type":"hook_progress","command":"echo \\u001b[31m"}}`,
        `not json at all`,
      ]
    ) {
      assert.equal(isInertLine(Buffer.from(line)), true, line);
    }
  });

  test("a row that can matter, or that an escape may disguise, is not", () => {
    for (
      const line of [
        `{${ENV},"type":"user","message":{"role":"user","content":"hi"}}`,
        `{${ENV},"type":"assistant","slug":"plan-a"}`,
        `{${ENV},"type":"attachment","attachment":{"type":"file","filename":"/w/a.md"}}`,
        `{${ENV},"type":"system","subtype":"compact_boundary"}`,
        // A message the user queued while the agent worked: a request.
        `{"type":"queue-operation","operation":"enqueue","timestamp":"t","sessionId":"s","content":"next"}`,
        `{"type":"file-history-snapshot","snapshot":{"trackedFileBackups":{"a.ts":{}}}}`,
        `{${ENV},"type":"progress","data":{"type":"agent_progress","message":{"type":"assistant"}}}`,
        `{${ENV},"type":"user","mess\\u0061ge":{"role":"user","content":"hi"}}`,
        `{${ENV},"type":"\\u0061ssistant","slug":"plan-a"}`,
      ]
    ) {
      assert.equal(isInertLine(Buffer.from(line)), false, line);
    }
  });
});
