// Issue #22, rule 1 ("who may say what"): a repository's .claude/rehydrate.json is the attacker's.
// Every key of schemas/config.v1.json is either user-only ("x-scope": "user": the project's file
// cannot set it) or project-allowed, and project paths ("x-path": "project") stay inside the
// project. These tests pin the decision key by key and check the merge enforces it.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../lib/config/load_config.ts";
import { defaultConfig } from "../../../lib/config/default_config.ts";
import { configSchema } from "../../../lib/config/config_schema.ts";
import { outsidePathAt } from "../../../lib/config/_merge.ts";
import { describeJsonError, jsonSyntaxError } from "../../../lib/config/json_syntax_error.ts";
import { mulberry32 as rng } from "../_rng.ts";

type Obj = Record<string, unknown>;

/**
 * The decision for every key. "user": only the user's config (and REHYDRATE_CONFIG) may set it;
 * "path": a project may set it, as a relative path inside the project; "project": a project may set it.
 */
const DECISIONS: Record<string, "user" | "path" | "project"> = {
  "$schema": "project",
  "debug": "user", // W9: a project's debug: true wrote a credential line into debug.log
  "stateDir": "user", // created and chmod 0700; holds every session's markers
  "budget.maxChars": "project", // bounded 500..10000
  "budget.fileMaxChars": "project", // bounded 0..10000
  "transcript.scanBudgetBytes": "user", // the user's transcript and CPU: up to 256 MiB per hook
  "enabled": "project", // only turns rehydrate off
  "session.enabled": "project", // only turns our own output off
  "session.userRequests": "project", // bounded 0..10; fewer or more of the user's own words
  "session.restoreMessage": "project", // a line for the user only, never the model
  "session.fillWarnings": "project", // W10's lesson: floor 0.5, at most 5, each once per crossing
  "projects.enabled": "project",
  "projects.root": "path",
  "projects.systemDir": "path",
  "projects.manifestNames": "path",
  "projects.stepsNames": "path",
  "projects.stateFile": "path", // V1: "/home/u/tok" was read and its parse error injected
  "projects.minConfidence": "project",
  "projects.workingSetSize": "project",
  "projects.skillsGlobRoots": "path",
  "orchestration.enabled": "project",
  "orchestration.projectsDir": "path",
  "orchestration.stateDir": "path",
  "orchestration.thresholds.warning": "project", // W10: floors 0.1, 0.3, 0.6 in the schema
  "orchestration.thresholds.critical": "project",
  "orchestration.thresholds.compaction": "project",
  "orchestration.alertMaxTokens": "project",
  "orchestration.reminderMax": "project",
  "dispatch.enabled": "project", // switches the workflow; its sources stay the user's
  "dispatch.dispatchPathFile": "user", // V2: a project file naming ~/notes.md as the dispatch file
  "dispatch.env": "user", // V2: which environment variable names the dispatch file
  "dispatch.handlerSkill": "user", // which sessions are handler sessions (and get their tool calls denied)
  "dispatch.dispatchDir": "user", // V2: "~/" listed the home folder's .md files
  "dispatch.handlerStateFile": "user", // V2: "~/.npmrc"
  "dispatch.markerMaxAgeSeconds": "user", // how long the user's markers in the state directory live
  "reread.enforce": "project", // blocks only for files the (user-chosen or in-project) sources name
  "contextWindow.tokens": "user", // W10 again: a 1000-token window makes every prompt "imminent"
};

/** Every leaf of the schema with its annotations. */
function leaves(s: Obj = configSchema() as Obj, at: string[] = []): { key: string; schema: Obj }[] {
  const props = s.properties as Record<string, Obj> | undefined;
  if (!props) return [{ key: at.join("."), schema: s }];
  return Object.entries(props).flatMap(([k, v]) => leaves(v, [...at, k]));
}

function set(o: Obj, key: string, value: unknown): void {
  const parts = key.split(".");
  let n = o;
  for (const p of parts.slice(0, -1)) n = (n[p] ??= {}) as Obj;
  n[parts.at(-1)!] = value;
}

/** A value for every user-only key that a user might well choose, and an attacker would. */
const HOSTILE: Record<string, unknown> = {
  "debug": true,
  "stateDir": "/tmp/evil-state",
  "transcript.scanBudgetBytes": 268435456,
  "dispatch.dispatchPathFile": ".claude/dp",
  "dispatch.env": "HOME",
  "dispatch.handlerSkill": "commit",
  "dispatch.dispatchDir": "~/",
  "dispatch.handlerStateFile": "~/.npmrc",
  "dispatch.markerMaxAgeSeconds": 2592000,
  "contextWindow.tokens": 1000,
};

const SCRATCH = mkdtempSync(join(tmpdir(), "rehydrate-config-scope-"));
after(() => rmSync(SCRATCH, { recursive: true, force: true }));
let n = 0;
function world(files: { home?: unknown; project?: unknown }): { home: string; project: string } {
  const base = join(SCRATCH, String(n++));
  const home = join(base, "home");
  const project = join(base, "proj");
  for (const [dir, content] of [[home, files.home], [project, files.project]] as const) {
    mkdirSync(join(dir, ".claude"), { recursive: true });
    if (content !== undefined) {
      writeFileSync(
        join(dir, ".claude", "rehydrate.json"),
        typeof content === "string" ? content : JSON.stringify(content),
      );
    }
  }
  return { home, project };
}

describe("who may set which config key", () => {
  test("every key of config.v1.json is classified, and the schema records exactly this decision", () => {
    const fromSchema: Record<string, string> = {};
    for (const { key, schema } of leaves()) {
      fromSchema[key] = schema["x-scope"] === "user" ? "user" : schema["x-path"] === "project" ? "path" : "project";
      assert.ok(schema["x-scope"] === undefined || schema["x-scope"] === "user", `${key}: x-scope is "user" or absent`);
      assert.ok(
        schema["x-path"] === undefined || schema["x-path"] === "project",
        `${key}: x-path is "project" or absent`,
      );
      assert.ok(!(schema["x-scope"] && schema["x-path"]), `${key}: one annotation, not both`);
    }
    assert.deepEqual(fromSchema, DECISIONS);
  });

  test("every user-only key in a project's config is ignored and reported as user_only, naming the file and key", () => {
    const project: Obj = {};
    for (const [key, value] of Object.entries(HOSTILE)) set(project, key, value);
    assert.deepEqual(Object.keys(HOSTILE).sort(), Object.keys(DECISIONS).filter((k) => DECISIONS[k] === "user").sort());
    const w = world({ project });
    const { config, issues } = loadConfig(w.project, { homeDir: w.home, env: {} });
    const want = defaultConfig();
    want.dispatch.dispatchPathFile = join(w.home, ".claude", "worker-dispatch-path");
    assert.deepEqual(config, want);
    const file = join(w.project, ".claude", "rehydrate.json");
    assert.deepEqual(
      issues.map((i) => [i.code, i.file, i.path]),
      Object.keys(HOSTILE).map((k) => ["user_only", file, "/" + k.replaceAll(".", "/")]),
    );
    for (const i of issues) assert.ok(i.message.includes(i.path.slice(1).replaceAll("/", ".")), i.message);
  });

  test("the user's value of a user-only key stays when the project's config tries to change it", () => {
    const w = world({
      home: { debug: false, dispatch: { handlerStateFile: "~/org/state.md" } },
      project: { debug: true, dispatch: { handlerStateFile: "~/.npmrc", enabled: true } },
    });
    const { config, issues } = loadConfig(w.project, { homeDir: w.home, env: {} });
    assert.equal(config.debug, false);
    assert.equal(config.dispatch.handlerStateFile, join(w.home, "org", "state.md"));
    assert.equal(config.dispatch.enabled, true, "dispatch.enabled is project-allowed");
    assert.deepEqual(issues.map((i) => i.code), ["user_only", "user_only"]);
  });

  test("the user's config and the file REHYDRATE_CONFIG names may set every user-only key", () => {
    const user: Obj = {};
    for (const [key, value] of Object.entries(HOSTILE)) set(user, key, value);
    const w = world({ home: user });
    const a = loadConfig(w.project, { homeDir: w.home, env: {} });
    assert.deepEqual(a.issues, []);
    assert.equal(a.config.debug, true);
    assert.equal(a.config.dispatch.handlerStateFile, join(w.home, ".npmrc"));
    assert.equal(a.config.contextWindow.tokens, 1000);
    const v = world({});
    writeFileSync(join(v.home, "mine.json"), JSON.stringify(user));
    const b = loadConfig(v.project, { homeDir: v.home, env: { REHYDRATE_CONFIG: "~/mine.json" } });
    assert.deepEqual(b.issues, []);
    assert.equal(b.config.dispatch.env, "HOME");
  });

  test("project-allowed keys still apply from the project's config", () => {
    const w = world({
      project: {
        budget: { maxChars: 6000 },
        projects: { root: "work/projects", stateFile: ".cache/state.json", manifestNames: ["./resume.md"] },
        orchestration: { stateDir: ".state", thresholds: { warning: 0.5, critical: 0.7, compaction: 0.85 } },
        reread: { enforce: true },
      },
    });
    const { config, issues } = loadConfig(w.project, { homeDir: w.home, env: {} });
    assert.deepEqual(issues, []);
    assert.equal(config.projects.root, "work/projects");
    assert.equal(config.projects.stateFile, ".cache/state.json");
    assert.deepEqual(config.projects.manifestNames, ["./resume.md"]);
    assert.deepEqual(config.orchestration.thresholds, { warning: 0.5, critical: 0.7, compaction: 0.85 });
  });
});

describe("paths a project may set stay inside it", () => {
  const outside = [
    "/home/u/tok",
    "~/tok",
    "~",
    "../up",
    "a/../../b",
    "a/..",
    "..\\x",
    "C:\\Users\\u\\tok",
    "c:tok",
    "\\\\server\\share",
    "x\0y",
  ];
  const inside = ["a", "a/b", "./a", "a..b", ".hidden/x", "a/./b", "..a/b"];

  test("outsidePathAt() refuses absolute, home-relative and parent paths and keeps relative ones", () => {
    for (const p of outside) assert.equal(outsidePathAt(p), "", p);
    for (const p of inside) assert.equal(outsidePathAt(p), null, p);
    assert.equal(outsidePathAt(["a.md", "b.md", "/etc/passwd"]), "/2");
    assert.equal(outsidePathAt(["a.md"]), null);
  });

  test("loadConfig() ignores an x-path key that leaves the project, in the project's config and the user's", () => {
    for (const p of outside.filter((x) => !x.includes("\0"))) {
      for (const where of ["home", "project"] as const) {
        const w = world({
          [where]: { projects: { stateFile: p, skillsGlobRoots: ["ok", p] }, orchestration: { projectsDir: p } },
        });
        const { config, issues } = loadConfig(w.project, { homeDir: w.home, env: {} });
        assert.equal(config.projects.stateFile, "00-system/.cache/precompact_state.json", p);
        assert.deepEqual(config.projects.skillsGlobRoots, ["00-system/skills", "03-skills"], p);
        assert.equal(config.orchestration.projectsDir, "projects", p);
        assert.deepEqual(
          issues.map((i) => [i.code, i.path, i.keyword]),
          [
            ["invalid_value", "/projects/stateFile", "x-path"],
            ["invalid_value", "/projects/skillsGlobRoots/1", "x-path"],
            ["invalid_value", "/orchestration/projectsDir", "x-path"],
          ],
          `${where}: ${p}`,
        );
      }
    }
  });
});

describe("thresholds have floors", () => {
  test("a threshold below its floor is ignored: the monitor cannot say compaction is imminent on an empty context", () => {
    const w = world({ project: { orchestration: { thresholds: { warning: 0, critical: 0.01, compaction: 0.02 } } } });
    const { config, issues } = loadConfig(w.project, { homeDir: w.home, env: {} });
    assert.deepEqual(config.orchestration.thresholds, { warning: 0.6, critical: 0.8, compaction: 0.9 });
    assert.deepEqual(issues.map((i) => [i.code, i.path, i.keyword]), [
      ["invalid_value", "/orchestration/thresholds/warning", "minimum"],
      ["invalid_value", "/orchestration/thresholds/critical", "minimum"],
      ["invalid_value", "/orchestration/thresholds/compaction", "minimum"],
    ]);
    const ok = world({ project: { orchestration: { thresholds: { warning: 0.1, critical: 0.3, compaction: 0.6 } } } });
    assert.deepEqual(loadConfig(ok.project, { homeDir: ok.home, env: {} }).issues, []);
  });
});

describe("a file that is not JSON is reported by code and position, never its content", () => {
  test("jsonSyntaxError() gives the code and 1-based position of the first error", () => {
    const cases: [string, string | null, number, number][] = [
      ['{"a": 1}', null, 0, 0],
      ['  [1, 2, {"x": [true, false, null, -1.5e3, "\\u00e9\\n"]}]\n', null, 0, 0],
      ["\uFEFF{}", null, 0, 0],
      ["ghp_0123456789abcdefghijklmnopqrstuvwxyz", "unexpected_character", 1, 1],
      ['{\n  "token": npm_SECRETSECRET\n}', "unexpected_character", 2, 12],
      ['{"a": 1,}', "unexpected_character", 1, 9],
      ["[1 2]", "unexpected_character", 1, 4],
      ['{"a" 1}', "unexpected_character", 1, 6],
      ['{"a": "x', "unexpected_end", 1, 9],
      ['{"a": "\x01"}', "invalid_string", 1, 8],
      ['"\\q"', "invalid_string", 1, 2],
      ["-", "invalid_number", 1, 1],
      ["{} x", "trailing_content", 1, 4],
      ["", "unexpected_end", 1, 1],
      ["[".repeat(600), "too_deep", 1, 513],
    ];
    for (const [text, code, line, column] of cases) {
      const e = jsonSyntaxError(text);
      if (code === null) assert.equal(e, null, JSON.stringify(text));
      else assert.deepEqual(e, { code, line, column }, JSON.stringify(text));
    }
  });

  test("jsonSyntaxError() agrees with JSON.parse on mutated documents", () => {
    const r = rng(22);
    const base = JSON.stringify({ a: [1, -2.5e-3, 'x\\"y\u00e9', true, null, { b: false }], c: "", d: {} }, null, 1);
    const alphabet = ['"', "{", "}", "[", "]", ",", ":", " ", "\n", "\\", "1", "-", "e", ".", "t", "n", "x", "\x01"];
    for (let i = 0; i < 3000; i++) {
      let t = base;
      for (let m = 0; m < 1 + Math.floor(r() * 3); m++) {
        const at = Math.floor(r() * (t.length + 1));
        const op = r();
        const ch = alphabet[Math.floor(r() * alphabet.length)];
        t = op < 0.4
          ? t.slice(0, at) + ch + t.slice(at)
          : op < 0.7
          ? t.slice(0, at) + t.slice(at + 1)
          : t.slice(0, at) + ch + t.slice(at + 1);
      }
      let parses = true;
      try {
        JSON.parse(t);
      } catch {
        parses = false;
      }
      assert.equal(jsonSyntaxError(t) === null, parses, JSON.stringify(t));
    }
  });

  test("a config file that is not JSON is reported without a word of it", () => {
    const token = "npm_CANARYcanary0123456789abcdefghijkl";
    const w = world({ project: `//registry.npmjs.org/:_authToken=${token}\n` });
    const { issues } = loadConfig(w.project, { homeDir: w.home, env: {} });
    assert.equal(issues.length, 1);
    assert.equal(issues[0].code, "invalid_json");
    assert.equal(
      issues[0].message,
      "Cannot parse the config file: invalid_json (unexpected_character) at line 1, column 1",
    );
    assert.ok(!issues[0].message.includes("CANARY"));
    assert.equal(describeJsonError("{}"), "invalid_json");
  });
});
