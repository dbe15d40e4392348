// The command-line conventions of every verb, on the compiled binary: a usage error is exit 2 with
// `rehydrate <verb>: <message>` (lowercase) and `Try 'rehydrate <verb> --help'.`; a runtime
// failure is exit 1 with that one line; -h/--help and -v/--version answer everywhere, hooks too.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, HOOKS, run } from "./_bin.ts";
import { VERSION } from "../../lib/hook/version.ts";

const MISSING = join(tmpdir(), "rehydrate-no-such-dir", "nope");

/**
 * Per verb: usage errors (argument lists that are wrong on the command line) and one runtime
 * failure (a command line that is right about something that is not there).
 */
const VERBS: Record<string, { usage: string[][]; failure: string[] }> = {
  install: {
    usage: [["--bogus"], ["--project"], ["--user", "--shared"], ["--workflows", "nope"], ["stray"]],
    failure: ["--project", MISSING],
  },
  uninstall: {
    usage: [["--bogus"], ["--local", "--shared"], ["--user", "--project", "."]],
    failure: ["--project", MISSING],
  },
  doctor: { usage: [["--bogus"], ["--project"]], failure: ["--project", MISSING, "--no-latency"] },
  status: { usage: [["--bogus"], ["stray"]], failure: ["--project", MISSING] },
  // Without a transcript or a file, detect and validate take the project's own (issue #37).
  detect: { usage: [["--bogus"], ["--transcript", ""]], failure: ["--transcript", join(MISSING, "t.jsonl")] },
  validate: { usage: [["--bogus"], ["--kind"], ["--kind", "nope", "x.json"]], failure: [join(MISSING, "x.json")] },
  migrate: { usage: [["--bogus"], ["--project"], ["stray"]], failure: ["--project", MISSING] },
  ack: { usage: [["--bogus"], ["--project"]], failure: ["--project", MISSING] },
  "resume-prompt": { usage: [["--bogus"], ["stray"]], failure: ["--project", MISSING] },
};

const env = () => {
  const home = mkdtempSync(join(tmpdir(), "rehydrate-cli-conventions-"));
  return { PATH: process.env.PATH, HOME: home, REHYDRATE_STATE_DIR: join(home, "state") };
};

describe("every verb", () => {
  for (const [verb, cases] of Object.entries(VERBS)) {
    for (const args of cases.usage) {
      test(`rehydrate ${verb} ${args.join(" ")}: a usage error, exit 2, the message line and the hint`, () => {
        const r = run(bin("rehydrate"), [verb, ...args], { env: env(), cwd: tmpdir() });
        assert.equal(r.status, 2, r.stderr);
        assert.equal(r.stdout, "");
        const lines = r.stderr.split("\n");
        assert.equal(lines.length, 3, r.stderr);
        assert.match(lines[0], new RegExp(`^rehydrate ${verb}: [a-z-]`));
        assert.ok(!lines[0].endsWith("."), lines[0]);
        assert.equal(lines[1], `Try 'rehydrate ${verb} --help'.`);
        assert.equal(lines[2], "");
      });
    }

    test(`rehydrate ${verb} ${cases.failure.join(" ")}: a runtime failure, exit 1`, () => {
      const r = run(bin("rehydrate"), [verb, ...cases.failure], { env: env(), cwd: tmpdir() });
      assert.equal(r.status, 1, r.stdout + r.stderr);
      // validate reports on stdout, file by file (file:line: field: message); the others say why on stderr.
      if (verb === "validate") {
        assert.equal(r.stderr, "");
        assert.match(r.stdout, /x\.json:\d+: /);
      } else {
        assert.equal(r.stderr.split("\n").length, 2, r.stderr);
        assert.match(r.stderr, new RegExp(`^rehydrate ${verb}: [a-z]`));
      }
    });

    for (const flag of ["-h", "--help"]) {
      test(`rehydrate ${verb} ${flag} prints its help and exits 0`, () => {
        const r = run(bin("rehydrate"), [verb, flag]);
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, new RegExp(`rehydrate ${verb}`));
        assert.match(r.stdout, /Examples:/);
      });
    }
    for (const flag of ["-v", "--version"]) {
      test(`rehydrate ${verb} ${flag} prints the version and exits 0`, () => {
        const r = run(bin("rehydrate"), [verb, flag]);
        assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${VERSION}\n`, ""]);
      });
    }
  }
});

describe("the top level and the hooks", () => {
  for (const [args, line] of [[[], "missing command"], [["nope"], 'unknown command "nope"']] as const) {
    test(`rehydrate ${args.join(" ")}: a usage error, exit 2`, () => {
      const r = run(bin("rehydrate"), [...args]);
      assert.deepEqual([r.status, r.stdout, r.stderr], [2, "", `rehydrate: ${line}\nTry 'rehydrate --help'.\n`]);
    });
  }

  for (const flag of ["-v", "-V", "--version"]) {
    test(`rehydrate ${flag} prints the version`, () => {
      const r = run(bin("rehydrate"), [flag]);
      assert.deepEqual([r.status, r.stdout], [0, `${VERSION}\n`]);
    });
  }

  for (const flag of ["-h", "--help"]) {
    test(`rehydrate ${flag} lists every verb`, () => {
      const r = run(bin("rehydrate"), [flag]);
      assert.equal(r.status, 0);
      for (const verb of Object.keys(VERBS)) assert.match(r.stdout, new RegExp(`^  ${verb} `, "m"));
    });
  }

  for (const hook of HOOKS) {
    test(`rehydrate ${hook} and dist/${hook} answer -v, --version, -h and --help`, () => {
      for (const [path, pre] of [[bin("rehydrate"), [hook]], [bin(hook), []]] as const) {
        for (const flag of ["-v", "--version"]) {
          const r = run(path, [...pre, flag]);
          assert.deepEqual([r.status, r.stdout], [0, `${VERSION}\n`], `${path} ${flag}`);
        }
        for (const flag of ["-h", "--help"]) {
          const r = run(path, [...pre, flag]);
          assert.equal(r.status, 0);
          assert.match(r.stdout, new RegExp(`^${hook} `), `${path} ${flag}`);
        }
      }
    });
  }
});
