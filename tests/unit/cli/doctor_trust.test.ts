// Issue #36, N1: `rehydrate doctor` executed the binary a cloned repository's settings named
// (`--version`, then timed hook runs), found a bare name through relative PATH entries, and listed
// the repository's entries as rehydrate's. Now it runs only the running binary or one the user's
// own settings name outside the project that nobody else can write; every other is "not run".
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliDoctor, type DoctorCheck } from "../../../lib/cli/doctor.ts";
import { VERSION } from "../../../lib/hook/version.ts";

const POSIX = process.platform !== "win32";
const BASE = mkdtempSync(join(tmpdir(), "rehydrate-doctor-trust-"));
after(() => rmSync(BASE, { recursive: true, force: true }));
let n = 0;

interface World {
  home: string;
  project: string;
  canary: string;
  /** The binary that plays the running rehydrate. */
  self: string;
  env: Record<string, string>;
}

/** A stand-in rehydrate that leaves `canary` behind whenever it runs. */
function planted(path: string, canary: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho ran >> ${canary}\nif [ "$1" = --version ]; then echo ${VERSION}; fi\n`);
  chmodSync(path, 0o755);
  return path;
}

function world(): World {
  const root = join(BASE, String(n++));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
  const self = join(root, "bin", "rehydrate");
  mkdirSync(join(root, "bin"));
  writeFileSync(self, `#!/bin/sh\nif [ "$1" = --version ]; then echo ${VERSION}; else cat >/dev/null; fi\n`);
  chmodSync(self, 0o755);
  const state = join(root, "state");
  mkdirSync(state, { mode: 0o700 });
  return {
    home,
    project,
    canary: join(root, "ran.txt"),
    self,
    env: { HOME: home, PATH: `tools:.:/usr/bin:/bin`, REHYDRATE_STATE_DIR: state },
  };
}

function settings(file: string, command: (hook: string) => string): void {
  const entry = (hook: string) => ({ hooks: [{ type: "command", command: command(hook), timeout: 30 }] });
  writeFileSync(
    file,
    JSON.stringify({
      hooks: {
        PreCompact: [entry("pre-compact")],
        SessionStart: [entry("session-start")],
        UserPromptSubmit: [entry("user-prompt-submit")],
      },
    }),
  );
}

function doctor(w: World): { checks: DoctorCheck[] } {
  let out = "";
  cliDoctor(["--json"], { out: (t) => void (out += t), err() {} }, {
    cwd: w.project,
    homeDir: w.home,
    env: w.env,
    execPath: w.self,
    runs: 1,
  });
  return JSON.parse(out);
}

const messages = (r: { checks: DoctorCheck[] }, area: string) =>
  r.checks.filter((c) => c.area === area).map((c) => `${c.status} ${c.message}`);

describe("rehydrate doctor runs no binary a project's settings name", { skip: !POSIX }, () => {
  test("a relative ./tools/rehydrate in the shared or local settings is named, not run, and not ours", () => {
    for (const file of ["settings.json", "settings.local.json"]) {
      const w = world();
      const evil = planted(join(w.project, "tools", "rehydrate"), w.canary);
      settings(join(w.project, ".claude", file), (hook) => `./tools/rehydrate ${hook}`);
      const r = doctor(w);
      assert.equal(existsSync(w.canary), false, `${file}: the planted binary ran`);
      const line = messages(r, "binary").find((m) => m.includes(`names ${evil}, not run`));
      assert.ok(line?.startsWith("warn "), JSON.stringify(messages(r, "binary")));
      assert.match(line!, /are not this rehydrate's/);
      assert.deepEqual(messages(r, "latency").filter((m) => !m.includes("no installed hook")), []);
    }
  });

  test("a bare name is not found through relative PATH entries (tools, .)", () => {
    const w = world();
    planted(join(w.project, "tools", "rehydrate-x"), w.canary);
    planted(join(w.project, "rehydrate-x"), w.canary);
    settings(join(w.project, ".claude", "settings.json"), (hook) => `rehydrate-x ${hook}`);
    const r = doctor(w);
    assert.equal(existsSync(w.canary), false);
    assert.ok(messages(r, "binary").some((m) => /^fail rehydrate-x \(from .*\) does not exist/.test(m)));
  });

  test("the running binary, however a project's settings name it, is checked without being run again", () => {
    const w = world();
    settings(join(w.project, ".claude", "settings.local.json"), (hook) => `${w.self} ${hook}`);
    const r = doctor(w);
    assert.ok(messages(r, "binary").includes(`pass ${w.self} ${VERSION}`));
    assert.equal(messages(r, "latency").length, 3);
  });

  test("a binary of the user's own settings runs when it is outside the project and only the user can write it", () => {
    const w = world();
    const mine = planted(join(w.home, ".local", "bin", "rehydrate"), w.canary);
    settings(join(w.home, ".claude", "settings.json"), (hook) => `${mine} ${hook}`);
    const ok = doctor(w);
    assert.ok(messages(ok, "binary").includes(`pass ${mine} ${VERSION}`), JSON.stringify(messages(ok, "binary")));
    assert.equal(existsSync(w.canary), true);
    rmSync(w.canary);
    chmodSync(mine, 0o777);
    const loose = doctor(w);
    assert.equal(existsSync(w.canary), false, "a binary others can write ran");
    assert.ok(messages(loose, "binary").some((m) => m.includes(`names ${mine}, not run: others can write it`)));
    chmodSync(mine, 0o755);
    if (process.getuid?.() === 0) {
      // As root, a file of another user is easy to make: it is not the user's to vouch for.
      chownSync(mine, 65534, 65534);
      const foreign = doctor(w);
      assert.equal(existsSync(w.canary), false, "a binary of another user ran");
      assert.ok(messages(foreign, "binary").some((m) => m.includes(`not run: it is owned by uid 65534`)));
    }
  });

  test("a binary inside the project is not run even when the user's settings name it", () => {
    const w = world();
    const inside = planted(join(w.project, "bin", "rehydrate"), w.canary);
    settings(join(w.home, ".claude", "settings.json"), (hook) => `${inside} ${hook}`);
    const r = doctor(w);
    assert.equal(existsSync(w.canary), false);
    assert.ok(messages(r, "binary").some((m) => m.includes(`names ${inside}, not run: it lies inside the project`)));
  });
});
