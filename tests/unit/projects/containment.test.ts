// Rule 2 of SECURITY.md for project folders: the one containment check (realPathInside) and the
// readers that read below the real path it returns.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { realPathInside } from "../../../lib/detect/project_boundary.ts";
import { readManifest } from "../../../lib/projects/read_manifest.ts";
import { readSteps } from "../../../lib/projects/read_steps.ts";

const posix = process.platform !== "win32";
const SCRATCH = realpathSync(mkdtempSync(join(tmpdir(), "rehydrate-containment-")));
after(() => rmSync(SCRATCH, { recursive: true, force: true }));

const MANIFEST = `---
resume_schema_version: "1.0"
project_id: "01-site"
project_name: "Site"
current_phase: execution
next_action: execute-project
files_to_load:
  - 01-planning/01-overview.md
last_updated: "2026-11-20"
---
`;

/** A workspace `ws` with one real project folder, and an `outside` folder holding a project too. */
function layout(): { ws: string; outside: string } {
  const base = mkdtempSync(join(SCRATCH, "w-"));
  const ws = join(base, "ws");
  const outside = join(base, "outside");
  for (const root of [ws, outside]) {
    const planning = join(root, "02-projects", "01-site", "01-planning");
    mkdirSync(planning, { recursive: true });
    writeFileSync(join(planning, "resume-context.md"), MANIFEST);
    writeFileSync(join(planning, "04-steps.md"), "- [ ] the current task\n");
    writeFileSync(join(planning, "01-overview.md"), "overview\n");
  }
  return { ws, outside };
}

describe("realPathInside()", () => {
  test("gives the real path of a folder or file inside the project, or the project itself", () => {
    const { ws } = layout();
    assert.equal(realPathInside(ws, "02-projects/01-site"), join(ws, "02-projects", "01-site"));
    assert.equal(realPathInside(ws, join(ws, "02-projects")), join(ws, "02-projects"));
    assert.equal(realPathInside(ws, "."), ws);
  });

  test("refuses `..`, an absolute path elsewhere, a missing path and a missing project", () => {
    const { ws, outside } = layout();
    assert.equal(realPathInside(ws, "../outside"), null);
    assert.equal(realPathInside(ws, outside), null);
    assert.equal(realPathInside(ws, "02-projects/99-none"), null);
    assert.equal(realPathInside(join(ws, "nope"), "02-projects"), null);
    assert.equal(realPathInside(ws, "02-projects\0/x"), null);
  });

  test(
    "refuses a linked projects root or project folder that leads out, keeps one that stays in",
    { skip: !posix },
    () => {
      const { ws, outside } = layout();
      symlinkSync(join(outside, "02-projects"), join(ws, "linked-root"));
      symlinkSync(join(outside, "02-projects", "01-site"), join(ws, "02-projects", "02-out"));
      symlinkSync(join(ws, "02-projects", "01-site"), join(ws, "02-projects", "03-in"));
      assert.equal(realPathInside(ws, "linked-root"), null);
      assert.equal(realPathInside(ws, "linked-root/01-site"), null);
      assert.equal(realPathInside(ws, "02-projects/02-out"), null);
      assert.equal(realPathInside(ws, "02-projects/03-in"), join(ws, "02-projects", "01-site"));
    },
  );
});

describe("the readers below a checked real path", () => {
  test("readManifest() and readSteps() with realRoot read nothing that resolves outside it", { skip: !posix }, () => {
    const { ws, outside } = layout();
    const folder = join(ws, "02-projects", "01-site");
    const real = realPathInside(ws, folder)!;
    // The planning folder swapped for a link out after the folder was checked.
    rmSync(join(folder, "01-planning"), { recursive: true });
    symlinkSync(join(outside, "02-projects", "01-site", "01-planning"), join(folder, "01-planning"));
    const manifest = readManifest(folder, { realRoot: real });
    assert.equal(manifest.ok, false);
    assert.equal(readSteps(folder, { realRoot: real }), null);
  });
});
