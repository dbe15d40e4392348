import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliValidate } from "../../../lib/cli/validate.ts";
import { SCHEMAS } from "../../../lib/cli/_schemas.ts";

const HERE = join(import.meta.dirname!, "..");
const ROOT = join(HERE, "..", "..");
const M = join(HERE, "..", "fixtures", "workspace", "manifests");
const S = join(HERE, "..", "fixtures", "workspace", "states");

function runValidate(
  args: string[],
  options: { cwd?: string; homeDir?: string; env?: Record<string, string> } = {},
): { code: number; out: string[]; err: string } {
  let out = "";
  let err = "";
  const code = cliValidate(args, { out: (t) => void (out += t), err: (t) => void (err += t) }, options);
  return { code, out: out.split("\n").filter((l) => l !== ""), err };
}

describe("embedded schemas", () => {
  test("lib/cli/_schemas.ts holds every schemas/*.json file, unchanged", () => {
    const files = readdirSync(join(ROOT, "schemas")).filter((f) => f.endsWith(".v1.json")).sort();
    assert.deepEqual(Object.keys(SCHEMAS).map((n) => `${n}.v1.json`).sort(), files);
    for (const f of files) {
      assert.deepEqual(
        SCHEMAS[f.replace(".v1.json", "") as keyof typeof SCHEMAS],
        JSON.parse(readFileSync(join(ROOT, "schemas", f), "utf8")),
        f,
      );
    }
  });
});

describe("cliValidate()", () => {
  test("cliValidate() accepts a valid manifest, a legacy one and a valid state file with exit 0", () => {
    const r = runValidate([join(M, "valid.md"), join(M, "legacy.md"), join(S, "precompact-valid.json")]);
    assert.equal(r.code, 0);
    assert.equal(r.out[0], `${join(M, "valid.md")}: ok (manifest)`);
    assert.equal(
      r.out[1],
      `${join(M, "legacy.md")}: legacy (manifest): the legacy key resume_version; rehydrate migrate upgrades it`,
    );
    assert.equal(r.out[2], `${join(S, "precompact-valid.json")}: ok (precompact_state)`);
  });

  test("cliValidate() prints file:line: field: message for each problem of a manifest and exits 1", () => {
    const file = join(M, "bad-fields.md");
    const r = runValidate(["--quiet", file]);
    assert.equal(r.code, 1);
    const fields = r.out.map((l) => {
      const m = /^(.*):(\d+): ([^:]+): (.+)$/.exec(l)!;
      assert.equal(m[1], file);
      return [m[3], Number(m[2])];
    });
    assert.deepEqual(fields, [
      ["next_action", 1],
      ["project_id", 4],
      ["current_phase", 6],
      ["current_task", 10],
    ]);
  });

  test("cliValidate() reports a files_to_load entry that leaves the project folder at its line", () => {
    const text = readFileSync(join(M, "valid.md"), "utf8").replace(
      "  - 01-planning/03-plan.md",
      "  - ../../secrets.env",
    );
    const tmp = join(HERE, "..", "fixtures", "workspace", "manifests", ".tmp-escape.md");
    writeFileSync(tmp, text);
    try {
      const r = runValidate([tmp]);
      assert.equal(r.code, 1);
      assert.deepEqual(r.out, [`${tmp}:15: files_to_load[1]: Path leaves the project folder; it will not be loaded`]);
    } finally {
      rmSync(tmp, { force: true });
    }
  });

  test("cliValidate() reports unterminated frontmatter at the parser's line", () => {
    const r = runValidate([join(M, "unterminated.md")]);
    assert.equal(r.code, 1);
    assert.equal(r.out.length, 1);
    assert.match(r.out[0], /unterminated\.md:1: frontmatter: /);
  });

  test("cliValidate() tells state files by content and locates nested fields", () => {
    const r = runValidate([join(S, "precompact-bad.json")]);
    assert.equal(r.code, 1);
    const located = r.out.map((l) =>
      /^.*?:(\d+): ([^:]+): /.exec(l.slice(join(S, "precompact-bad.json").length))!.slice(1)
    );
    assert.deepEqual(located, [["3", "confidence"], ["7", "working_set[0].score"]]);
  });

  test("cliValidate() validates a config file and says so when it cannot tell the kind", () => {
    const cfg = runValidate([join(S, "rehydrate.json")]);
    assert.equal(cfg.code, 1);
    assert.match(cfg.out[0], /rehydrate\.json:2: budget\.maxChars: /);
    const unknown = runValidate([join(S, "unknown.json")]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.out[0], /unknown\.json:1: \(root\): Cannot tell which kind/);
    assert.equal(runValidate(["--kind", "session_record", join(S, "unknown.json")]).code, 1);
  });

  test("cliValidate() says the same bad value of several items once, and reads a project's config as the hooks do", () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-validate-config-"));
    mkdirSync(join(dir, ".claude"));
    const file = join(dir, ".claude", "rehydrate.json");
    writeFileSync(file, '{\n  "session": {\n    "fillWarnings": [55, 65, 75]\n  },\n  "stateDir": "/tmp/x"\n}\n');
    const r = runValidate([file], { cwd: dir });
    assert.equal(r.code, 1);
    assert.deepEqual(r.out, [
      `${file}:3: session.fillWarnings: Must be at most 1 (items 0, 1 and 2): write fractions, 0.55 for 55 %`,
      `${file}:5: stateDir: stateDir is only read from the user's ~/.claude/rehydrate.json; a project's config cannot set it`,
    ]);
  });

  test("cliValidate() reports JSON syntax errors and unreadable files", () => {
    const broken = runValidate([join(S, "broken.json")]);
    assert.equal(broken.code, 1);
    assert.match(broken.out[0], /broken\.json:\d+: \(root\): Cannot parse JSON/);
    const missing = runValidate([join(S, "nope.json")]);
    assert.equal(missing.code, 1);
    assert.match(missing.out[0], /nope\.json:0: \(root\): Cannot read the file: ENOENT/);
  });

  test("cliValidate() without a file checks the project's own files, found from a subdirectory", () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-validate-project-"));
    const home = join(dir, "home");
    const project = join(dir, "repo");
    mkdirSync(join(project, ".claude"), { recursive: true });
    mkdirSync(join(project, "src"));
    mkdirSync(home);
    const env = { HOME: home };
    const bare = runValidate([], { cwd: join(project, "src"), homeDir: home, env });
    assert.equal(bare.code, 0);
    assert.match(bare.out.join("\n"), /^Nothing to check in .*repo: no rehydrate\.json/m);
    writeFileSync(join(project, ".claude", "rehydrate.json"), '{"session": {"fillWarnings": [55]}}');
    const r = runValidate([], { cwd: join(project, "src"), homeDir: home, env });
    assert.equal(r.code, 1);
    assert.equal(r.out[0], `Project: ${project} (the nearest folder above ${join(project, "src")} with .claude)`);
    assert.match(
      r.out[1],
      /rehydrate\.json:1: session\.fillWarnings\[0\]: Must be at most 1: write fractions, 0\.55 for 55 %$/,
    );
  });

  test("cliValidate() has help with examples and refuses bad usage with exit 2", () => {
    const help = runValidate(["--help"]);
    assert.equal(help.code, 0);
    assert.ok(help.out.some((l) => l.includes("Examples:")));
    assert.equal(runValidate(["--kind", "nope", "x.json"]).code, 2);
    assert.equal(runValidate(["--frobnicate"]).code, 2);
  });
});

describe("cliValidate() and the everyday state files", () => {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-validate-kinds-"));
  const write = (name: string, value: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(value, null, 2) + "\n");
    return path;
  };
  const fill = {
    schema_version: 1,
    session_id: "sess-fill",
    crossed: 0.5,
    percent: 57,
    updated_at: "2026-11-25T12:00:00.000Z",
  };

  test("cliValidate() tells a fill warning state (fill/<session>.json) by content and checks it", () => {
    const ok = write("sess-fill.json", fill);
    assert.deepEqual(runValidate([ok]).out, [`${ok}: ok (fill_warning_state)`]);
    const bad = write("bad-fill.json", { ...fill, crossed: 2, percent: 57.5 });
    const r = runValidate(["--quiet", bad]);
    assert.equal(r.code, 1);
    assert.deepEqual(r.out.map((l) => /^.*?\.json:(\d+): ([^:]+): /.exec(l)!.slice(1)), [["4", "crossed"], [
      "5",
      "percent",
    ]]);
    assert.equal(runValidate(["--kind", "fill_warning_state", write("other.json", { crossed: 0 })]).code, 1);
  });

  test("cliValidate() tells the usual prompt's memo (quiet/<session>.json) by content", () => {
    const memo = {
      schema_version: 1,
      version: "0.1.0",
      session_id: "sess-fill",
      transcript_path: "/home/me/t.jsonl",
      project_dir: "/home/me/app",
      env: { HOME: "/home/me" },
      deps: [["/home/me/app/.claude/rehydrate.json", "content", "-"]],
      monitor: null,
      fill_warning: null,
    };
    const ok = write("memo.json", memo);
    assert.deepEqual(runValidate([ok]).out, [`${ok}: ok (quiet_prompt_memo)`]);
    const bad = write("memo-bad.json", { ...memo, deps: [["x", "sometimes", "-"]] });
    assert.match(runValidate([bad]).out[0], /memo-bad\.json:\d+: deps\[0\]\[1\]: /);
    assert.ok(runValidate(["--help"]).out.some((l) => l.includes("fill_warning_state")));
  });
});

describe(
  "cliValidate() and links out of the directory (rule 2 of SECURITY.md)",
  { skip: process.platform === "win32" },
  () => {
    const base = mkdtempSync(join(tmpdir(), "rehydrate-validate-links-"));
    const project = join(base, "repo");
    const home = join(base, "home");
    mkdirSync(join(project, "02-projects", "01-site", "01-planning"), { recursive: true });
    mkdirSync(join(home, "01-planning"), { recursive: true });
    writeFileSync(join(home, "01-planning", "resume-context.md"), "---\nproject_id: CANARYhome\n---\n");
    writeFileSync(join(home, "secret.json"), "CANARYjson is not JSON\n");
    symlinkSync(home, join(project, "02-projects", "05-home"));
    symlinkSync(join(home, "secret.json"), join(project, "linked.json"));

    test("cliValidate() names a file a link leads out of the directory in one line, reads nothing of it, and fails", () => {
      const files = ["02-projects/05-home/01-planning/resume-context.md", "linked.json"];
      const r = runValidate(files, { cwd: project });
      assert.equal(r.code, 1);
      assert.deepEqual(r.out, [
        `${files[0]}: not read: it resolves outside ${project} (a symbolic link)`,
        `${files[1]}: not read: it resolves outside ${project} (a symbolic link)`,
        "0 of 2 files valid",
      ]);
      assert.ok(!r.out.join("\n").includes("CANARY"));
      // The same through an absolute path inside the directory.
      const abs = runValidate([join(project, "linked.json")], { cwd: project });
      assert.match(abs.out[0], /not read: it resolves outside/);
    });

    test("cliValidate() still reads a file inside the directory, and one the user names outside it", () => {
      mkdirSync(join(project, "02-projects", "01-site", "01-planning"), { recursive: true });
      const inside = runValidate(["02-projects/01-site/01-planning/nope.md"], { cwd: project });
      assert.match(inside.out[0], /Cannot read the file: ENOENT/);
      const outside = runValidate([join(home, "secret.json")], { cwd: project });
      assert.match(outside.out[0], /secret\.json:1: \(root\): Cannot parse JSON/);
    });
  },
);
