// Rule 2 of SECURITY.md in `rehydrate status` and `doctor`: a linked 00-system, 02-projects,
// project folder or .jerry that leads out of the project is named in one line and never read.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { containedPath, namedInside, outsideLine } from "../../../lib/cli/_contained.ts";
import { cliStatus, type StatusReport } from "../../../lib/cli/status.ts";
import { cliDoctor, type DoctorCheck } from "../../../lib/cli/doctor.ts";

const POSIX = process.platform !== "win32";
const ROOT = join(import.meta.dirname!, "..", "..", "..");
const CANARY = "CANARYcontained7f1";

interface World {
  base: string;
  home: string;
  project: string;
  env: Record<string, string>;
}

/** The example workspace as the project, and a HOME beside it holding what a link could lead to. */
function world(): World {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "rehydrate-contained-")));
  const home = join(base, "home");
  const project = join(base, "repo");
  cpSync(join(ROOT, "examples", "workspace"), project, { recursive: true });
  mkdirSync(join(home, "cache"), { recursive: true });
  mkdirSync(join(home, "jerry", "checkpoints"), { recursive: true });
  writeFileSync(
    join(home, "cache", "precompact_state.json"),
    JSON.stringify({ active_project_id: `${CANARY}-project`, confidence: "high" }),
  );
  writeFileSync(
    join(home, "jerry", "checkpoints", "cx-001-checkpoint.json"),
    JSON.stringify({ checkpoint_id: `${CANARY}-checkpoint`, acknowledged: false }),
  );
  writeFileSync(join(home, "jerry", "checkpoints", "cx-002-checkpoint.json"), `${CANARY} is not JSON\n`);
  mkdirSync(join(project, "projects", "PROJ-001"), { recursive: true });
  writeFileSync(join(project, "projects", "PROJ-001", "ORCHESTRATION.yaml"), "workflow:\n  id: w\n");
  return {
    base,
    home,
    project,
    env: { HOME: home, PATH: process.env.PATH ?? "", REHYDRATE_STATE_DIR: join(base, "s") },
  };
}

function status(w: World, args: string[]): { code: number; out: string } {
  let out = "";
  const code = cliStatus(args, { out: (t) => void (out += t), err: (t) => void (out += t) }, {
    cwd: w.project,
    homeDir: w.home,
    env: w.env,
  });
  return { code, out };
}

function doctor(w: World): { code: number; checks: DoctorCheck[]; out: string } {
  let out = "";
  const code = cliDoctor(["--json", "--no-latency"], { out: (t) => void (out += t), err: (t) => void (out += t) }, {
    cwd: w.project,
    homeDir: w.home,
    env: w.env,
  });
  return { code, checks: JSON.parse(out).checks, out };
}

describe("containedPath() and namedInside()", { skip: !POSIX }, () => {
  test("containedPath() gives the real path inside, refuses a link out, and tells a missing path apart", () => {
    const w = world();
    symlinkSync(join(w.home, "cache"), join(w.project, "00-system", ".cache"));
    symlinkSync(join(w.project, "01-memory"), join(w.project, "memory-link"));
    symlinkSync(join(w.home, "gone"), join(w.project, "dangling"));
    assert.deepEqual(containedPath(w.project, "memory-link"), { kind: "inside", real: join(w.project, "01-memory") });
    assert.deepEqual(containedPath(w.project, "00-system/.cache/precompact_state.json"), { kind: "outside" });
    assert.deepEqual(containedPath(w.project, join(w.project, "00-system", ".cache")), { kind: "outside" });
    assert.deepEqual(containedPath(w.project, "nothing/here"), { kind: "missing" });
    assert.deepEqual(containedPath(w.project, "dangling"), { kind: "missing" });
  });

  test("namedInside() reads the path's text only", () => {
    assert.equal(namedInside("/w/app", "02-projects/x.md"), true);
    assert.equal(namedInside("/w/app", "/w/app"), true);
    assert.equal(namedInside("/w/app", "..foo/x.md"), true);
    assert.equal(namedInside("/w/app", "../x.md"), false);
    assert.equal(namedInside("/w/app", "/home/me/.claude/rehydrate.json"), false);
    assert.equal(outsideLine(["a", "b"]), "a, b resolve outside the project (symbolic links); not read");
  });
});

describe("cliStatus() and cliDoctor() read nothing through a link out of the project", { skip: !POSIX }, () => {
  test("cliStatus() names a linked 00-system/.cache and .jerry in one line and shows nothing of theirs", () => {
    const w = world();
    symlinkSync(join(w.home, "cache"), join(w.project, "00-system", ".cache"));
    symlinkSync(join(w.home, "jerry"), join(w.project, ".jerry"));
    const text = status(w, []);
    assert.equal(text.code, 0);
    assert.ok(!text.out.includes(CANARY), text.out);
    assert.match(
      text.out,
      /\n00-system\/\.cache\/precompact_state\.json, \.jerry\/checkpoints resolve outside the project \(symbolic links\); not read\n/,
    );
    assert.match(text.out, /Last detection: none yet\nPending checkpoints: none\n/);
    const json = status(w, ["--json"]);
    assert.ok(!json.out.includes(CANARY));
    const report = JSON.parse(json.out) as StatusReport;
    assert.deepEqual(report.refused, ["00-system/.cache/precompact_state.json", ".jerry/checkpoints"]);
  });

  test("cliStatus() refuses one linked checkpoint file and still reads the project's own", () => {
    const w = world();
    mkdirSync(join(w.project, ".jerry", "checkpoints"), { recursive: true });
    writeFileSync(
      join(w.project, ".jerry", "checkpoints", "cx-001-checkpoint.json"),
      JSON.stringify({ checkpoint_id: "cx-001", acknowledged: false }),
    );
    symlinkSync(
      join(w.home, "jerry", "checkpoints", "cx-001-checkpoint.json"),
      join(w.project, ".jerry", "checkpoints", "cx-003-checkpoint.json"),
    );
    const report = JSON.parse(status(w, ["--json"]).out) as StatusReport;
    assert.deepEqual(report.pendingCheckpoints.map((c) => c.id), ["cx-001"]);
    assert.deepEqual(report.refused, [".jerry/checkpoints/cx-003-checkpoint.json"]);
  });

  test("cliDoctor() fails the files check in one line for a linked project folder and .jerry, quoting nothing", () => {
    const w = world();
    writeFileSync(join(w.home, "resume-context.md"), `---\nproject_id: ${CANARY}\n---\n`);
    mkdirSync(join(w.home, "01-planning"));
    writeFileSync(join(w.home, "01-planning", "resume-context.md"), `---\ncurrent_phase: ${CANARY}\n---\n`);
    symlinkSync(w.home, join(w.project, "02-projects", "05-home"));
    symlinkSync(join(w.home, "jerry"), join(w.project, ".jerry"));
    const r = doctor(w);
    assert.equal(r.code, 1);
    assert.ok(!r.out.includes(CANARY), r.out);
    const files = r.checks.filter((c) => c.area === "files");
    assert.deepEqual(files.filter((c) => c.message.includes("resolve")).map((c) => [c.status, c.message]), [[
      "fail",
      "02-projects/05-home, .jerry resolve outside the project (symbolic links); not read; the hooks ignore them too",
    ]]);
    // The workspace's own manifests are still checked (and valid).
    assert.ok(!files.some((c) => c.message.includes("01-website-redesign")), JSON.stringify(files));
  });

  test("cliDoctor() refuses a linked projects root and a linked manifest file", () => {
    // The projects root itself linked to another workspace's.
    const v = world();
    const vRoot = join(v.project, "02-projects");
    cpSync(vRoot, join(v.base, "other-root"), { recursive: true });
    writeFileSync(
      join(v.base, "other-root", "01-website-redesign", "01-planning", "resume-context.md"),
      `---\nproject_id: ${CANARY}\n---\n`,
    );
    rmSync(vRoot, { recursive: true });
    symlinkSync(join(v.base, "other-root"), vRoot);
    const rv = doctor(v);
    assert.ok(!rv.out.includes(CANARY), rv.out);
    assert.ok(rv.checks.some((c) => c.status === "fail" && c.message.startsWith("02-projects resolves outside")));
    // One manifest file linked out.
    const w = world();
    writeFileSync(join(w.home, "m.md"), `---\nproject_id: ${CANARY}\n---\n`);
    const manifest = join(w.project, "02-projects", "01-website-redesign", "01-planning", "resume-context.md");
    rmSync(manifest);
    symlinkSync(join(w.home, "m.md"), manifest);
    const rw = doctor(w);
    assert.ok(!rw.out.includes(CANARY), rw.out);
    const line =
      `${manifest}: not read: it resolves outside ${w.project} (a symbolic link); see rehydrate validate --help`;
    assert.ok(rw.checks.some((c) => c.status === "fail" && c.message === line), JSON.stringify(rw.checks));
  });
});
