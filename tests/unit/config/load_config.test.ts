import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { type ConfigIssue, loadConfig } from "../../../lib/config/load_config.ts";
import { defaultConfig } from "../../../lib/config/default_config.ts";

const DEFAULT_CONFIG = defaultConfig();
import { configSchema } from "../../../lib/config/config_schema.ts";

const CONFIG_SCHEMA = configSchema();
import { validateSchema } from "../../../lib/schema/validate_schema.ts";
import { isDateTime } from "../../../lib/schema/_check.ts";
import { mulberry32 as rng } from "../_rng.ts";

type Obj = Record<string, unknown>;

const ROOT = join(import.meta.dirname!, "..", "..", "..");
const CONFIG_FIXTURES = join(ROOT, "tests", "fixtures", "config");
const SCRATCH = mkdtempSync(join(tmpdir(), "rehydrate-load-config-"));
after(() => rmSync(SCRATCH, { recursive: true, force: true }));

let counter = 0;
/** A fresh home and project directory, with the given config files (text or JSON). */
function world(files: { home?: unknown; project?: unknown } = {}): { home: string; project: string } {
  const base = join(SCRATCH, String(counter++));
  const home = join(base, "home");
  const project = join(base, "work", "proj");
  for (const [dir, content] of [[home, files.home], [project, files.project]] as const) {
    mkdirSync(join(dir, ".claude"), { recursive: true });
    if (content === undefined) continue;
    const text = typeof content === "string" ? content : JSON.stringify(content);
    writeFileSync(join(dir, ".claude", "rehydrate.json"), text);
  }
  return { home, project };
}

function load(w: { home: string; project: string }, env: Record<string, string | undefined> = {}) {
  return loadConfig(w.project, { homeDir: w.home, env });
}

function codes(issues: ConfigIssue[]): [string, string][] {
  return issues.map((i) => [i.code, i.path]);
}

function expandedDefaults(home: string) {
  const c = defaultConfig();
  c.dispatch.dispatchPathFile = join(home, ".claude", "worker-dispatch-path");
  return c;
}

describe("loadConfig()", () => {
  test("loadConfig() returns the defaults, with ~/ expanded, when no file exists", () => {
    const w = world();
    const { config, issues, sources } = load(w);
    assert.deepEqual(config, expandedDefaults(w.home));
    assert.deepEqual(issues, []);
    assert.deepEqual(sources, []);
  });

  test("loadConfig() lets the project file win over the home file, merging objects key by key", () => {
    const w = world({
      home: {
        debug: true,
        budget: { maxChars: 8000, fileMaxChars: 1000 },
        orchestration: { thresholds: { warning: 0.5 } },
      },
      project: { budget: { maxChars: 7000 }, orchestration: { thresholds: { critical: 0.7 } } },
    });
    const { config, issues, sources } = load(w);
    assert.deepEqual(issues, []);
    assert.equal(config.debug, true);
    assert.deepEqual(config.budget, { maxChars: 7000, fileMaxChars: 1000 });
    assert.deepEqual(config.orchestration.thresholds, { warning: 0.5, critical: 0.7, compaction: 0.9 });
    assert.deepEqual(sources, [
      join(w.home, ".claude", "rehydrate.json"),
      join(w.project, ".claude", "rehydrate.json"),
    ]);
  });

  test("loadConfig() replaces arrays instead of merging them", () => {
    const w = world({
      home: { projects: { manifestNames: ["a.md", "b.md", "c.md"] } },
      project: { projects: { manifestNames: ["z.md"] } },
    });
    assert.deepEqual(load(w).config.projects.manifestNames, ["z.md"]);
  });

  test("loadConfig() reports a file that is not JSON and ignores all of it", () => {
    const w = world({ home: { debug: true }, project: '{ "debug": false, ' });
    const { config, issues, sources } = load(w);
    assert.equal(config.debug, true);
    assert.deepEqual(codes(issues), [["invalid_json", ""]]);
    assert.equal(issues[0].file, join(w.project, ".claude", "rehydrate.json"));
    assert.match(issues[0].message, /^Cannot parse/);
    assert.deepEqual(sources, [join(w.home, ".claude", "rehydrate.json")]);
  });

  test("loadConfig() reports unknown keys with their file and path and ignores them", () => {
    const w = world({ project: { budgte: { maxChars: 1 }, projects: { enable: false, root: "P" }, "a/b": 1 } });
    const { config, issues } = load(w);
    assert.deepEqual(codes(issues), [["unknown_key", "/budgte"], ["unknown_key", "/projects/enable"], [
      "unknown_key",
      "/a~1b",
    ]]);
    for (const issue of issues) assert.equal(issue.file, join(w.project, ".claude", "rehydrate.json"));
    assert.equal(config.projects.root, "P");
    assert.equal(config.projects.enabled, "auto");
    assert.equal("budgte" in config, false);
  });

  test("loadConfig() keeps the lower-priority value when a value has the wrong type or is out of range", () => {
    const w = world({
      home: { budget: { maxChars: 8000 }, projects: { stepsNames: ["s.md"] }, stateDir: "" },
      project: {
        budget: { maxChars: 20000, fileMaxChars: "2000" },
        projects: { stepsNames: ["ok.md", 3], enabled: "yes" },
        contextWindow: 5,
      },
    });
    const { config, issues } = load(w);
    assert.deepEqual(
      issues.map((i) => [i.code, i.path, i.keyword]),
      [
        ["invalid_value", "/stateDir", "minLength"],
        ["invalid_value", "/budget/maxChars", "maximum"],
        ["invalid_value", "/budget/fileMaxChars", "type"],
        ["invalid_value", "/projects/stepsNames/1", "type"],
        ["invalid_value", "/projects/enabled", "enum"],
        ["invalid_value", "/contextWindow", "type"],
      ],
    );
    assert.equal(config.budget.maxChars, 8000);
    assert.equal(config.budget.fileMaxChars, DEFAULT_CONFIG.budget.fileMaxChars);
    assert.deepEqual(config.projects.stepsNames, ["s.md"]);
    assert.equal(config.projects.enabled, "auto");
    assert.deepEqual(config.contextWindow, { tokens: null });
    assert.equal(config.stateDir, null);
  });

  test("loadConfig() reports a file whose top level is not an object", () => {
    const w = world({ project: "[1, 2]" });
    const { config, issues } = load(w);
    assert.deepEqual(codes(issues), [["invalid_value", ""]]);
    assert.deepEqual(config, expandedDefaults(w.home));
  });

  test("loadConfig() accepts null where the schema allows it, overriding a lower value", () => {
    const w = world({ home: { contextWindow: { tokens: 1000000 } } });
    writeFileSync(join(w.home, "explicit.json"), JSON.stringify({ contextWindow: { tokens: null } }));
    const { config, issues } = load(w, { REHYDRATE_CONFIG: "~/explicit.json" });
    assert.deepEqual(issues, []);
    assert.equal(config.contextWindow.tokens, null);
  });

  test("loadConfig() expands ~ in stateDir, dispatch.dispatchPathFile and dispatch.handlerStateFile only", () => {
    const w = world({
      home: {
        stateDir: "~/.rehydrate",
        dispatch: { dispatchPathFile: "~", handlerStateFile: "~/dev-org/handler-state.md" },
        projects: { root: "~/projects" },
      },
    });
    const { config, issues } = load(w);
    assert.equal(config.stateDir, join(w.home, ".rehydrate"));
    assert.equal(config.dispatch.dispatchPathFile, w.home);
    assert.equal(config.dispatch.handlerStateFile, join(w.home, "dev-org", "handler-state.md"));
    // projects.root is a path inside the project: ~ is refused there, not expanded.
    assert.equal(config.projects.root, "02-projects");
    assert.deepEqual(issues.map((i) => [i.code, i.path, i.keyword]), [["invalid_value", "/projects/root", "x-path"]]);
  });

  test("loadConfig() leaves relative and absolute paths alone", () => {
    const w = world({
      home: {
        stateDir: "/var/lib/r",
        dispatch: { handlerStateFile: "docs/handler-state.md", dispatchPathFile: "a~/b" },
      },
    });
    const { config } = load(w);
    assert.equal(config.stateDir, "/var/lib/r");
    assert.equal(config.dispatch.handlerStateFile, "docs/handler-state.md");
    assert.equal(config.dispatch.dispatchPathFile, "a~/b");
  });

  test("loadConfig() applies the file named by REHYDRATE_CONFIG over both others", () => {
    const w = world({ home: { debug: true, budget: { maxChars: 8000 } }, project: { budget: { maxChars: 7000 } } });
    const explicit = join(w.home, "explicit.json");
    writeFileSync(explicit, JSON.stringify({ budget: { maxChars: 6000 } }));
    const { config, sources, issues } = load(w, { REHYDRATE_CONFIG: "~/explicit.json" });
    assert.deepEqual(issues, []);
    assert.equal(config.budget.maxChars, 6000);
    assert.equal(config.debug, true);
    assert.equal(sources.at(-1), explicit);
  });

  test("loadConfig() reports a missing REHYDRATE_CONFIG file but not a missing default file", () => {
    const w = world();
    const { issues } = load(w, { REHYDRATE_CONFIG: "nope.json" });
    assert.deepEqual(codes(issues), [["not_found", ""]]);
    assert.equal(issues[0].file, join(w.project, "nope.json"));
  });

  test("loadConfig() reports a config path that cannot be read as a file", () => {
    const w = world();
    mkdirSync(join(w.project, ".claude", "rehydrate.json"));
    const { issues, config } = load(w);
    assert.deepEqual(codes(issues), [["unreadable", ""]]);
    assert.deepEqual(config, expandedDefaults(w.home));
  });

  test("loadConfig() reads a file that starts with a byte order mark", () => {
    const w = world({ project: '\uFEFF{ "reread": { "enforce": true } }' });
    const { config, issues } = load(w);
    assert.deepEqual(issues, []);
    assert.equal(config.reread.enforce, true);
  });

  test("loadConfig() reads a project inside the home directory once", () => {
    const w = world({ home: { budget: { maxChars: 7000 } } });
    const { sources, config } = loadConfig(w.home, { homeDir: w.home, env: {} });
    assert.deepEqual(sources, [join(w.home, ".claude", "rehydrate.json")]);
    assert.equal(config.budget.maxChars, 7000);
  });

  test("loadConfig() falls back to env.HOME for the home directory", () => {
    const w = world({ home: { debug: true } });
    assert.equal(loadConfig(w.project, { env: { HOME: w.home } }).config.debug, true);
  });

  test("loadConfig() returns a config that shares nothing with the defaults or another load", () => {
    const w = world();
    const { config } = load(w);
    config.projects.manifestNames.push("x.md");
    config.orchestration.thresholds.warning = 0.1;
    for (const fresh of [defaultConfig(), load(w).config]) {
      assert.deepEqual(fresh.projects.manifestNames, ["01-planning/resume-context.md", "01-planning/_resume.md"]);
      assert.equal(fresh.orchestration.thresholds.warning, 0.6);
    }
  });

  test("loadConfig() loads every sample in tests/fixtures/config as its expected.json says", () => {
    const cases = readdirSync(CONFIG_FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) =>
      d.name
    );
    assert.ok(cases.length >= 3);
    for (const name of cases) {
      const dir = join(CONFIG_FIXTURES, name);
      const home = join(dir, "home");
      const project = join(dir, "project");
      const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as {
        config: Obj;
        issues: { code: string; file: string; path: string }[];
      };
      const { config, issues } = loadConfig(project, { homeDir: home, env: {} });
      const want = structuredClone(DEFAULT_CONFIG) as unknown as Obj;
      deepAssign(want, expected.config);
      (want.dispatch as Obj).dispatchPathFile = expandHomeForTest(
        (want.dispatch as Obj).dispatchPathFile as string,
        home,
      );
      assert.deepEqual(config, want, name);
      assert.deepEqual(
        issues.map((i) => ({ code: i.code, file: i.file.slice(dir.length + 1), path: i.path })),
        expected.issues,
        name,
      );
    }
  });
});

function deepAssign(target: Obj, patch: Obj): void {
  for (const [key, value] of Object.entries(patch)) {
    if (
      typeof value === "object" && value !== null && !Array.isArray(value) && typeof target[key] === "object" &&
      target[key] !== null
    ) {
      deepAssign(target[key] as Obj, value as Obj);
    } else {
      target[key] = value;
    }
  }
}

/** `"<pointer> x-path"` for each schema-valid value of an x-path key that leaves the project. */
function outsidePaths(doc: Obj): string[] {
  const found: string[] = [];
  const walk = (s: Obj, v: unknown, at: string): void => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return;
    for (const [key, sub] of Object.entries(s.properties as Record<string, Obj>)) {
      if (!(key in (v as Obj))) continue;
      const value = (v as Obj)[key];
      if (sub.properties) walk(sub, value, `${at}/${key}`);
      else if (sub["x-path"] === "project" && validateSchema(sub, value).length === 0) {
        const bad = (p: unknown) =>
          typeof p === "string" && (/^[/\\~]|^[A-Za-z]:/.test(p) || p.split(/[/\\]/).includes(".."));
        if (typeof value === "string" && bad(value)) found.push(`${at}/${key} x-path`);
        if (Array.isArray(value)) {
          const i = value.findIndex(bad);
          if (i >= 0) found.push(`${at}/${key}/${i} x-path`);
        }
      }
    }
  };
  walk(CONFIG_SCHEMA as unknown as Obj, doc, "");
  return found;
}

function expandHomeForTest(path: string, home: string): string {
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

describe("loadConfig() against the schema", () => {
  test("loadConfig() reports exactly the issues that validating the file against config.v1.json finds, and ajv agrees", () => {
    const Ctor = ((Ajv2020 as unknown as { default?: unknown }).default ?? Ajv2020) as new (o: Obj) => {
      compile(s: unknown): (v: unknown) => boolean;
      addFormat(name: string, f: (s: string) => boolean): unknown;
    };
    const ajv = new Ctor({ strict: false });
    ajv.addFormat("date-time", isDateTime);
    const ajvValidate = ajv.compile(CONFIG_SCHEMA);
    const full: Obj = structuredClone(DEFAULT_CONFIG) as unknown as Obj;
    (full.budget as Obj).maxChars = 9000;
    (full.contextWindow as Obj).tokens = 1000000;
    const pool: unknown[] = [
      null,
      true,
      false,
      0,
      1,
      -5,
      0.5,
      500,
      10001,
      1e12,
      "",
      "auto",
      "x",
      "~/a",
      [],
      ["a"],
      [1],
      {},
      { maxChars: 1 },
    ];
    const r = rng(42);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)];
    const w = world();
    // The user's config: it may set every key (a project's own config may not set stateDir).
    mkdirSync(join(w.home, ".claude"), { recursive: true });
    const file = join(w.home, ".claude", "rehydrate.json");
    let clean = 0;
    for (let i = 0; i < 400; i++) {
      const doc = structuredClone(full);
      for (let m = 0; m < 1 + Math.floor(r() * 3); m++) {
        const section = pick(Object.keys(doc));
        const holder =
          typeof doc[section] === "object" && doc[section] !== null && !Array.isArray(doc[section]) && r() < 0.7
            ? doc[section] as Obj
            : doc;
        const key = r() < 0.15 ? pick(["extra", "maxchars", "enable"]) : pick(Object.keys(holder));
        if (r() < 0.2) delete holder[key];
        else holder[key] = structuredClone(pick(pool));
      }
      writeFileSync(file, JSON.stringify(doc));
      const { config, issues } = load(w);
      // The schema's issues, plus paths that leave the project ("x-path", which no validator knows).
      const fromSchema = [
        ...validateSchema(CONFIG_SCHEMA, doc).map((x) => `${x.path} ${x.keyword}`),
        ...outsidePaths(doc),
      ].sort();
      assert.deepEqual(issues.map((x) => `${x.path} ${x.keyword}`).sort(), fromSchema, JSON.stringify(doc));
      assert.equal(issues.filter((x) => x.keyword !== "x-path").length === 0, ajvValidate(doc), JSON.stringify(doc));
      // Whatever the file holds, the merged result is always a valid config.
      assert.deepEqual(validateSchema(CONFIG_SCHEMA, config), [], JSON.stringify(doc));
      if (issues.length === 0) clean++;
    }
    assert.ok(clean > 10 && clean < 300, `clean ${clean}`);
  });
});

test("loadConfig() ignores stateDir in a project's own config and reports it; the user config may set it", () => {
  const home = mkdtempSync(join(tmpdir(), "rehydrate-home-"));
  const project = mkdtempSync(join(tmpdir(), "rehydrate-proj-"));
  mkdirSync(join(project, ".claude"));
  writeFileSync(
    join(project, ".claude", "rehydrate.json"),
    JSON.stringify({ stateDir: "/tmp/evil-state", reread: { enforce: true } }),
  );
  const fromProject = loadConfig(project, { homeDir: home, env: {} });
  assert.equal(fromProject.config.stateDir, null);
  assert.equal(fromProject.config.reread.enforce, true, "the rest of the project config still applies");
  assert.deepEqual(fromProject.issues.map((i) => [i.code, i.path]), [["user_only", "/stateDir"]]);
  mkdirSync(join(home, ".claude"));
  writeFileSync(join(home, ".claude", "rehydrate.json"), JSON.stringify({ stateDir: "~/state" }));
  assert.equal(loadConfig(project, { homeDir: home, env: {} }).config.stateDir, join(home, "state"));
});
