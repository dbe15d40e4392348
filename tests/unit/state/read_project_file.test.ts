// Issue #36, rule 6: one read primitive for every path a project names. The real path must lie
// inside realpath(root), the file must be regular with a single link, and a FIFO never blocks.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readProjectFile } from "../../../lib/state/read_project_file.ts";
import { readSessionState } from "../../../lib/projects/_state.ts";

const POSIX = process.platform !== "win32";
const BASE = mkdtempSync(join(tmpdir(), "rehydrate-read-project-"));
after(() => rmSync(BASE, { recursive: true, force: true }));
let n = 0;

/** A project with `a/b.json` inside, and a home beside it holding `secret.json`. */
function world(): { project: string; home: string } {
  const root = join(BASE, String(n++));
  const project = join(root, "project");
  const home = join(root, "home");
  mkdirSync(join(project, "a"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(project, "a", "b.json"), '{"ok":true}');
  writeFileSync(join(home, "secret.json"), '{"session_id":"s"}');
  return { project, home };
}

test("readProjectFile() reads a file inside the project, relative or absolute, with its real path", () => {
  const { project } = world();
  const r = readProjectFile(project, "a/b.json");
  assert.ok(r.ok);
  assert.equal(r.text, '{"ok":true}');
  assert.ok(readProjectFile(project, join(project, "a", "b.json")).ok);
  const head = readProjectFile(project, "a/b.json", { headBytes: 3 });
  assert.ok(head.ok && head.text === '{"o' && !head.complete);
  assert.deepEqual(readProjectFile(project, "a/b.json", { maxBytes: 3 }), { ok: false, problem: "too_large" });
  assert.deepEqual(readProjectFile(project, "a/none.json"), { ok: false, problem: "missing" });
});

test("readProjectFile() refuses .., the root itself and a directory", () => {
  const { project } = world();
  assert.deepEqual(readProjectFile(project, "../home/secret.json"), { ok: false, problem: "outside" });
  assert.deepEqual(readProjectFile(project, "."), { ok: false, problem: "outside" });
  assert.deepEqual(readProjectFile(project, "a"), { ok: false, problem: "not_regular" });
});

test("readProjectFile() refuses a file or a folder linked out, and a hard link", { skip: !POSIX }, () => {
  const { project, home } = world();
  symlinkSync(join(home, "secret.json"), join(project, "file-link.json"));
  symlinkSync(home, join(project, "dir-link"));
  linkSync(join(home, "secret.json"), join(project, "hard.json"));
  for (const p of ["file-link.json", "dir-link/secret.json", "hard.json"]) {
    assert.deepEqual(readProjectFile(project, p), { ok: false, problem: "outside" }, p);
  }
  // A link that stays inside is followed.
  symlinkSync(join(project, "a"), join(project, "inner"));
  assert.ok(readProjectFile(project, "inner/b.json").ok);
});

test("readProjectFile() refuses a FIFO without blocking", { skip: !POSIX }, () => {
  const { project } = world();
  execFileSync("mkfifo", [join(project, "fifo.json")]);
  assert.deepEqual(readProjectFile(project, "fifo.json"), { ok: false, problem: "not_regular" });
});

test(
  "the flat state file is not read through a folder linked out or a hard link (issue #36, N5)",
  { skip: !POSIX },
  () => {
    for (const how of ["folder", "hard"] as const) {
      const { project, home } = world();
      if (how === "folder") symlinkSync(home, join(project, "cache"));
      else {
        mkdirSync(join(project, "cache"));
        linkSync(join(home, "secret.json"), join(project, "cache", "secret.json"));
      }
      const read = readSessionState("s", { stateDir: null, projectDir: project, stateFile: "cache/secret.json" });
      assert.deepEqual(read, { kind: "none" }, how);
    }
  },
);
