import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { dispatchFile } from "../../../lib/dispatch/dispatch_file.ts";
import { DISPATCH, PROJECT } from "../_reread_harness.ts";

const D = join(PROJECT, "docs", "handler-dispatches");

test("dispatchFile() reads status, title, contract and progress from frontmatter and sections", () => {
  const d = dispatchFile(join(D, "fix-login.md"))!;
  assert.equal(d.status, "in-progress");
  assert.equal(d.active, true);
  assert.equal(d.title, "Fix the login redirect");
  assert.match(d.contract, /^- Repo: ~\/projects\/web/);
  assert.doesNotMatch(d.contract, /Progress|pending/);
  assert.deepEqual(d.progress.map((l) => l.slice(0, 18)), [
    "- 2026-02-15 10:02",
    "- 2026-02-15 10:40",
    "- 2026-02-15 11:15",
  ]);
});

test("dispatchFile() reads a bold status line and drops its note; done is not active", () => {
  const d = dispatchFile(join(D, "old-cleanup.md"))!;
  assert.equal(d.status, "done");
  assert.equal(d.active, false);
  assert.deepEqual(d.progress, ["- removed both files, PR merged"]);
});

test("dispatchFile() reads a list-item status with a dash note, and an empty Progress section", () => {
  const d = dispatchFile(join(D, "api-rate-limit.md"))!;
  assert.equal(d.status, "dispatched");
  assert.equal(d.active, true);
  assert.deepEqual(d.progress, []);
  assert.match(d.contract, /token bucket/);
});

test("dispatchFile() reads a status from a table row, a Status section, and CRLF text", () => {
  assert.equal(dispatchFile(join(DISPATCH, "elsewhere", "queue-worker.md"))!.status, "in-progress");
  const section = dispatchFile(join(DISPATCH, "status_section.md"))!;
  assert.deepEqual([section.status, section.active], ["blocked", true]);
  const crlf = dispatchFile(join(DISPATCH, "crlf_bold.md"))!;
  assert.deepEqual([crlf.status, crlf.active, crlf.title, crlf.progress], ["completed", false, "CRLF ticket", [
    "- did it",
  ]]);
});

test("dispatchFile() gives a file without a status no status and does not call it active", () => {
  const d = dispatchFile(join(DISPATCH, "no_status.md"))!;
  assert.equal(d.status, null);
  assert.equal(d.active, false);
  assert.deepEqual(d.progress, ["- one"]);
});

test("dispatchFile() returns null for a missing file and for a directory", () => {
  assert.equal(dispatchFile(join(DISPATCH, "nope.md")), null);
  assert.equal(dispatchFile(D), null);
});
