// CLI input is bounded (SECURITY.md, "What the CLI verbs read"): every file `install`, `uninstall`,
// `doctor`, `status` and `validate` read goes through one bounded, non-blocking reader, a project's
// settings file is never followed out of the project, and the PreCompact hook creates no directory
// outside the project through a linked 00-system. Run against the compiled binaries in dist/
// (bun build.ts first). REHYDRATE_CLI_INPUT_DIST=<dir> runs the same checks against binaries built
// elsewhere, to show that they fail on an older build.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, EXE, FIXTURES, ROOT } from "./_bin.ts";

const posix = process.platform !== "win32";
const hasMkfifo = posix && spawnSync("mkfifo", ["--version"]).status === 0;
/** Generous: the old build used 13 GB in 30 s on /dev/zero and never returned on a FIFO. */
const LIMIT_MS = 10_000;
const OTHER_DIST = process.env.REHYDRATE_CLI_INPUT_DIST;

function exe(name: string): string {
  return OTHER_DIST ? join(OTHER_DIST, name + EXE) : bin(name);
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  signal: NodeJS.Signals | null;
  ms: number;
}

interface Box {
  root: string;
  project: string;
  outside: string;
  home: string;
  env: Record<string, string | undefined>;
}

const boxes: string[] = [];
after(() => {
  for (const b of boxes) rmSync(b, { recursive: true, force: true });
});

function box(): Box {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-cli-input-"));
  boxes.push(root);
  const project = join(root, "project");
  const outside = join(root, "outside");
  const home = join(root, "home");
  for (const d of [join(project, ".claude"), outside, home]) mkdirSync(d, { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    REHYDRATE_STATE_DIR: join(root, "state"),
    CLAUDE_PROJECT_DIR: project,
  };
  return { root, project, outside, home, env };
}

/** Runs `rehydrate <args>` in the project, killed after LIMIT_MS (a hang shows as SIGKILL). */
function cli(b: Box, args: string[]): Ran {
  const started = Date.now();
  const r = spawnSync(exe("rehydrate"), args, {
    cwd: b.project,
    env: b.env as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: LIMIT_MS,
    killSignal: "SIGKILL",
  });
  return {
    status: r.status,
    stdout: r.stdout ?? "",
    stderr: r.stderr ?? "",
    signal: r.signal,
    ms: Date.now() - started,
  };
}

function finished(r: Ran, what: string): void {
  assert.equal(r.signal, null, `${what}: killed after ${LIMIT_MS} ms (it hung or kept reading)`);
}

function oneLine(text: string): string[] {
  return text.split("\n").filter((l) => l !== "");
}

// The project's shared settings file: `install --shared` writes it, uninstall reads it too (the
// default install's settings.local.json goes through the same reads).
const SETTINGS = join(".claude", "settings.json");
/** A settings file with one entry of ours, so uninstall would have something to remove. */
const OURS = JSON.stringify(
  {
    hooks: {
      PreCompact: [{ hooks: [{ type: "command", command: "/opt/rehydrate/bin/rehydrate pre-compact", timeout: 30 }] }],
    },
  },
  null,
  2,
) + "\n";

const VERBS: { verb: string; args: string[] }[] = [
  { verb: "install", args: ["install", "--shared"] },
  { verb: "uninstall", args: ["uninstall"] },
  { verb: "doctor", args: ["doctor", "--no-latency"] },
];

describe("settings files are read bounded and without blocking", () => {
  for (const { verb, args } of VERBS) {
    test(`rehydrate ${verb} refuses a project settings.json linked to /dev/zero quickly, with one line and exit 1`, {
      skip: !posix,
    }, () => {
      const b = box();
      symlinkSync("/dev/zero", join(b.project, SETTINGS));
      const r = cli(b, args);
      finished(r, verb);
      assert.equal(r.status, 1, r.stderr + r.stdout);
      const line = ".claude/settings.json is a link to a file outside the project";
      if (verb === "doctor") assert.match(r.stdout, new RegExp(`^fail\\s+settings\\s+${line}$`, "m"));
      else assert.equal(r.stderr, `rehydrate ${verb}: ${line}; not changed\n`);
      assert.ok(lstatSync(join(b.project, SETTINGS)).isSymbolicLink(), "the link is left as it is");
    });

    test(`rehydrate ${verb} refuses a user settings.json linked to /dev/zero quickly, with one line and exit 1`, {
      skip: !posix,
    }, () => {
      const b = box();
      mkdirSync(join(b.home, ".claude"));
      symlinkSync("/dev/zero", join(b.home, SETTINGS));
      const r = cli(b, verb === "doctor" ? args : [verb, "--user"]);
      finished(r, verb);
      assert.ok(r.ms < LIMIT_MS);
      assert.equal(r.status, 1, r.stderr + r.stdout);
      if (verb === "doctor") assert.match(r.stdout, /^fail\s+settings\s+\S+settings\.json is not a regular file/m);
      else {
        assert.equal(oneLine(r.stderr).length, 1, r.stderr);
        assert.match(
          r.stderr,
          new RegExp(`^rehydrate ${verb}: \\S+settings\\.json is not a regular file .*; not changed\\n$`),
        );
      }
    });

    test(`rehydrate ${verb} refuses a FIFO as settings.json without hanging`, { skip: !hasMkfifo }, () => {
      const b = box();
      execFileSync("mkfifo", [join(b.project, SETTINGS)]);
      const r = cli(b, args);
      finished(r, verb);
      assert.equal(r.status, 1, r.stderr + r.stdout);
      assert.match(verb === "doctor" ? r.stdout : r.stderr, /settings\.json is not a regular file/);
    });
  }

  test("rehydrate install refuses a settings.json over 1 MiB and leaves it untouched", () => {
    const b = box();
    const big = JSON.stringify({ padding: "x".repeat(1024 * 1024) });
    writeFileSync(join(b.project, SETTINGS), big);
    const r = cli(b, ["install", "--shared"]);
    finished(r, "install");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^rehydrate install: .*settings\.json is larger than 1 MiB; not changed\n$/);
    assert.equal(readFileSync(join(b.project, SETTINGS), "utf8"), big);
  });
});

describe("a project's settings file is never followed out of the project", () => {
  for (const verb of ["install", "uninstall"]) {
    test(`rehydrate ${verb} refuses a settings.json linked outside: one line, exit 1, the outside file unchanged`, {
      skip: !posix,
    }, () => {
      const b = box();
      const target = join(b.outside, "settings.json");
      writeFileSync(target, OURS);
      symlinkSync(target, join(b.project, SETTINGS));
      const r = cli(b, verb === "install" ? [verb, "--shared"] : [verb]);
      finished(r, verb);
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.equal(
        r.stderr,
        `rehydrate ${verb}: .claude/settings.json is a link to a file outside the project; not changed\n`,
      );
      assert.equal(readFileSync(target, "utf8"), OURS);
      assert.deepEqual(readdirSync(b.outside), ["settings.json"], "no backup or temp file outside");
    });

    test(`rehydrate ${verb} refuses a .claude folder linked outside and writes nothing there`, { skip: !posix }, () => {
      const b = box();
      rmSync(join(b.project, ".claude"), { recursive: true });
      writeFileSync(join(b.outside, "settings.json"), OURS);
      symlinkSync(b.outside, join(b.project, ".claude"));
      const r = cli(b, verb === "install" ? [verb, "--shared"] : [verb]);
      finished(r, verb);
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.equal(r.stderr, `rehydrate ${verb}: .claude is a link to a directory outside the project; not changed\n`);
      assert.equal(readFileSync(join(b.outside, "settings.json"), "utf8"), OURS);
      assert.deepEqual(readdirSync(b.outside), ["settings.json"]);
    });
  }

  test(
    "rehydrate install --dry-run and a dangling link out of the project are refused the same way",
    { skip: !posix },
    () => {
      const b = box();
      symlinkSync(join(b.outside, "new-settings.json"), join(b.project, SETTINGS));
      const r = cli(b, ["install", "--shared", "--dry-run"]);
      assert.equal(r.status, 1);
      assert.equal(
        r.stderr,
        "rehydrate install: .claude/settings.json is a link to a file outside the project; not changed\n",
      );
      const w = cli(b, ["install", "--shared"]);
      assert.equal(w.status, 1);
      assert.deepEqual(readdirSync(b.outside), []);
    },
  );

  test("rehydrate doctor reports a settings.json linked outside as a failed check", { skip: !posix }, () => {
    const b = box();
    writeFileSync(join(b.outside, "settings.json"), OURS);
    symlinkSync(join(b.outside, "settings.json"), join(b.project, SETTINGS));
    const r = cli(b, ["doctor", "--no-latency"]);
    finished(r, "doctor");
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^fail\s+settings\s+\.claude\/settings\.json is a link to a file outside the project$/m);
  });

  test("rehydrate install still writes through a settings.json linked inside the project, keeping the link", {
    skip: !posix,
  }, () => {
    const b = box();
    mkdirSync(join(b.project, "dotfiles"));
    writeFileSync(join(b.project, "dotfiles", "settings.json"), "{}\n");
    symlinkSync(join("..", "dotfiles", "settings.json"), join(b.project, SETTINGS));
    const r = cli(b, ["install", "--shared"]);
    finished(r, "install");
    assert.equal(r.status, 0, r.stderr);
    assert.ok(lstatSync(join(b.project, SETTINGS)).isSymbolicLink());
    assert.match(readFileSync(join(b.project, "dotfiles", "settings.json"), "utf8"), /pre-compact/);
    assert.ok(readdirSync(join(b.project, "dotfiles")).some((n) => n.startsWith("settings.json.bak-")));
  });
});

describe("the other files the verbs read", () => {
  for (const how of ["zero", "fifo"] as const) {
    test(
      `rehydrate status and validate do not hang on a precompact_state.json that is ${
        how === "fifo" ? "a FIFO" : "a link to /dev/zero"
      }`,
      { skip: how === "fifo" ? !hasMkfifo : !posix },
      () => {
        const b = box();
        mkdirSync(join(b.project, "00-system", ".cache"), { recursive: true });
        mkdirSync(join(b.project, "02-projects"));
        const state = join(b.project, "00-system", ".cache", "precompact_state.json");
        if (how === "fifo") execFileSync("mkfifo", [state]);
        else symlinkSync("/dev/zero", state);
        const s = cli(b, ["status", "--json"]);
        finished(s, "status");
        assert.equal(s.status, 0, s.stderr);
        assert.equal(JSON.parse(s.stdout).lastDetection, null);
        const v = cli(b, ["validate", state]);
        finished(v, "validate");
        assert.equal(v.status, 1);
        // A link to /dev/zero also leads out of the project: refused by rule 2 before any open.
        assert.match(
          v.stdout,
          how === "fifo" ? /Cannot read the file: not a regular file/ : /not read: it resolves outside/,
        );
      },
    );
  }
});

describe("the PreCompact hook and a linked 00-system", () => {
  test("pre-compact creates nothing outside the project when 00-system links out of it", { skip: !posix }, () => {
    const b = box();
    rmSync(b.project, { recursive: true });
    cpSync(join(ROOT, "examples", "workspace"), b.project, { recursive: true });
    const system = join(b.outside, "00-system");
    renameSync(join(b.project, "00-system"), system);
    rmSync(join(system, ".cache"), { recursive: true, force: true });
    symlinkSync(system, join(b.project, "00-system"));
    const before = readdirSync(system).sort();
    const input = {
      ...JSON.parse(readFileSync(join(FIXTURES, "hook-inputs", "PreCompact-manual.json"), "utf8")),
      session_id: "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d",
      transcript_path: join(b.root, "none.jsonl"),
      cwd: b.project,
    };
    const r = spawnSync(exe("pre-compact"), [], {
      input: JSON.stringify(input),
      cwd: b.project,
      env: b.env as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: LIMIT_MS,
      killSignal: "SIGKILL",
    });
    assert.equal(r.signal, null);
    assert.equal(r.status, 0);
    assert.deepEqual(readdirSync(system).sort(), before, "no .cache/ created in the linked folder outside");
    assert.ok(!existsSync(join(system, ".cache")));
  });
});
