import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  cpSync,
  existsSync,
  linkSync,
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
import { listProjects } from "../../../lib/projects/_list.ts";
import { openStartupCache, saveStartupCache } from "../../../lib/projects/_startup_cache.ts";
import { scanSkills } from "../../../lib/projects/scan_skills.ts";
import { redact } from "../../../lib/redact/redact.ts";
import { defaultConfig } from "../../../lib/config/default_config.ts";
import { handleHook } from "../../../lib/hook/handle_hook.ts";
import type { HookContext } from "../../../lib/hook/handle_hook.ts";
import { projectSessionStart } from "../../../lib/projects/session_start.ts";

const HERE = join(import.meta.dirname!, "..");
const WORKSPACE = join(HERE, "..", "fixtures", "workspace", "nexus");
const EXTRA = join(HERE, "..", "fixtures", "workspace", "extra-projects");
const PAYLOADS = join(HERE, "..", "fixtures", "claude-code-2.1.197", "hook-inputs");
const P = defaultConfig().projects;
const KEY = JSON.stringify([P.root, P.manifestNames, P.stepsNames, P.skillsGlobRoots]);
const MANIFEST = "01-planning/resume-context.md";
const STEPS = "01-planning/04-steps.md";

interface Env {
  dir: string;
  ws: string;
  root: string;
  state: string;
}

function setup(): Env {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-scache-"));
  const ws = join(dir, "ws");
  cpSync(WORKSPACE, ws, { recursive: true });
  for (const id of ["04-broken-frontmatter", "06-escape-attempt", "08-no-manifest"]) {
    cpSync(join(EXTRA, id), join(ws, "02-projects", id), { recursive: true });
  }
  const state = join(dir, "state");
  mkdirSync(state, { mode: 0o700 });
  return { dir, ws, root: join(ws, "02-projects"), state };
}

/** What the startup menu gets without any cache (names and tasks redacted, as they are shown). */
function fresh(env: Env): unknown {
  const l = listProjects(env.root, { manifestNames: P.manifestNames, stepsNames: P.stepsNames });
  const active = l.active.map((p) => ({
    ...p,
    name: redact(p.name),
    currentTask: p.currentTask === null ? null : redact(p.currentTask),
  }));
  return { projects: { active, total: l.total }, skills: scanSkills(env.ws, { roots: P.skillsGlobRoots }) };
}

/** One startup with the cache (files count as settled at once); `changed` says whether anything was recomputed. */
function cached(env: Env, key = KEY): { value: unknown; changed: boolean; hits: number } {
  const cache = openStartupCache(env.state, env.ws, key, { racyMs: 0, now: Date.now() + 1000 });
  const projects = listProjects(env.root, { manifestNames: P.manifestNames, stepsNames: P.stepsNames, cache });
  const skills = scanSkills(env.ws, { roots: P.skillsGlobRoots, cache });
  const changed = cache.changed;
  const hits = Object.keys(cache.projects).length;
  saveStartupCache(cache);
  return { value: { projects, skills }, changed, hits };
}

function cacheFile(env: Env): string {
  const dir = join(env.state, "cache");
  const files = readdirSync(dir).filter((f) => f.startsWith("startup-"));
  assert.equal(files.length, 1);
  return join(dir, files[0]);
}

/** Runs `fn` on a fresh workspace, after a first cached run that filled the cache. */
function withWarmCache(fn: (env: Env) => void): void {
  const env = setup();
  try {
    const first = cached(env);
    assert.equal(first.changed, true);
    assert.deepEqual(first.value, fresh(env));
    const second = cached(env);
    assert.equal(second.changed, false, "the second run is served from the cache");
    assert.deepEqual(second.value, fresh(env));
    fn(env);
  } finally {
    rmSync(env.dir, { recursive: true, force: true });
  }
}

function names(value: unknown): Record<string, string> {
  const v = value as { projects: { active: { id: string; name: string }[] } };
  return Object.fromEntries(v.projects.active.map((p) => [p.id, p.name]));
}

describe("startup cache", () => {
  test("listProjects() and scanSkills() give the same result with a cold and a warm cache as without", () => {
    withWarmCache((env) => {
      const r = cached(env);
      assert.deepEqual(r.value, fresh(env));
      assert.equal(r.changed, false);
    });
  });

  test("an edited manifest is read again", () => {
    withWarmCache((env) => {
      const path = join(env.root, "01-website-redesign", MANIFEST);
      writeFileSync(
        path,
        readFileSync(path, "utf8").replace(/project_name: .*/, 'project_name: "Renamed Website Project"'),
      );
      const r = cached(env);
      assert.equal(r.changed, true);
      assert.equal(names(r.value)["01-website-redesign"], "Renamed Website Project");
      assert.deepEqual(r.value, fresh(env));
    });
  });

  test("an edited steps file is read again, and a completed project leaves the list", () => {
    withWarmCache((env) => {
      const path = join(env.root, "02-api-migration", STEPS);
      writeFileSync(path, readFileSync(path, "utf8").replaceAll("[ ]", "[x]"));
      const r = cached(env);
      assert.equal(names(r.value)["02-api-migration"], undefined);
      assert.deepEqual(r.value, fresh(env));
      assert.deepEqual(cached(env).value, fresh(env));
    });
  });

  test("a new project folder is listed and a removed one is gone, from the cache file too", () => {
    withWarmCache((env) => {
      cpSync(join(EXTRA, "09-missing-files"), join(env.root, "09-missing-files"), { recursive: true });
      rmSync(join(env.root, "02-api-migration"), { recursive: true });
      const r = cached(env);
      assert.ok("09-missing-files" in names(r.value));
      assert.equal(names(r.value)["02-api-migration"], undefined);
      assert.deepEqual(r.value, fresh(env));
      const stored = JSON.parse(readFileSync(cacheFile(env), "utf8"));
      assert.ok("09-missing-files" in stored.projects);
      assert.ok(!("02-api-migration" in stored.projects));
    });
  });

  test("a legacy-named manifest added before the one in use is not hidden by the cache", () => {
    withWarmCache((env) => {
      // 08-no-manifest has neither name; the second candidate appears.
      writeFileSync(
        join(env.root, "08-no-manifest", "01-planning", "_resume.md"),
        '---\nproject_name: "Legacy Named"\n---\n',
      );
      const r = cached(env);
      assert.equal(names(r.value)["08-no-manifest"], "Legacy Named");
      assert.deepEqual(r.value, fresh(env));
    });
  });

  test("a manifest replaced by a symbolic link to a file outside the project is still refused", () => {
    withWarmCache((env) => {
      const outside = join(env.dir, "outside.md");
      writeFileSync(outside, '---\nproject_name: "Leaked Outside Name"\ncurrent_phase: planning\n---\n');
      const path = join(env.root, "01-website-redesign", MANIFEST);
      rmSync(path);
      symlinkSync(outside, path);
      for (let i = 0; i < 2; i++) {
        const r = cached(env);
        assert.equal(names(r.value)["01-website-redesign"], "01-website-redesign");
        assert.deepEqual(r.value, fresh(env));
      }
    });
  });

  test("a planning folder moved outside and linked back is refused, though its files are unchanged", () => {
    withWarmCache((env) => {
      const project = join(env.root, "01-website-redesign");
      renameSync(join(project, "01-planning"), join(env.dir, "moved-planning"));
      symlinkSync(join(env.dir, "moved-planning"), join(project, "01-planning"));
      const r = cached(env);
      assert.equal(names(r.value)["01-website-redesign"], "01-website-redesign");
      assert.deepEqual(r.value, fresh(env));
    });
  });

  test("a planning folder linked inside the project is read, and refused once the link chain leaves it", () => {
    withWarmCache((env) => {
      const project = join(env.root, "01-website-redesign");
      renameSync(join(project, "01-planning"), join(project, "planning-real"));
      symlinkSync("planning-real", join(project, "01-planning"));
      for (let i = 0; i < 2; i++) {
        const r = cached(env);
        assert.equal(names(r.value)["01-website-redesign"], "Website redesign");
        assert.deepEqual(r.value, fresh(env));
      }
      // The first link is untouched: only the folder it names is now a link out of the project.
      renameSync(join(project, "planning-real"), join(env.dir, "planning-out"));
      symlinkSync(join(env.dir, "planning-out"), join(project, "planning-real"));
      const r = cached(env);
      assert.equal(names(r.value)["01-website-redesign"], "01-website-redesign");
      assert.deepEqual(r.value, fresh(env));
    });
  });

  test("a manifest given a second hard link is refused", () => {
    withWarmCache((env) => {
      linkSync(join(env.root, "01-website-redesign", MANIFEST), join(env.dir, "second-link.md"));
      const r = cached(env);
      assert.equal(names(r.value)["01-website-redesign"], "01-website-redesign");
      assert.deepEqual(r.value, fresh(env));
    });
  });

  test("added, edited and removed skills are seen", () => {
    withWarmCache((env) => {
      mkdirSync(join(env.ws, "03-skills", "new-skill"));
      writeFileSync(
        join(env.ws, "03-skills", "new-skill", "SKILL.md"),
        "---\nname: new-skill\ndescription: Added later\n---\n",
      );
      let r = cached(env);
      assert.ok(
        (r.value as { skills: { skills: { name: string }[] } }).skills.skills.some((s) => s.name === "new-skill"),
      );
      assert.deepEqual(r.value, fresh(env));
      writeFileSync(
        join(env.ws, "03-skills", "new-skill", "SKILL.md"),
        "---\nname: new-skill\ndescription: Edited description\n---\n",
      );
      r = cached(env);
      assert.ok(
        (r.value as { skills: { skills: { description: string }[] } }).skills.skills.some((s) =>
          s.description === "Edited description"
        ),
      );
      assert.deepEqual(r.value, fresh(env));
      rmSync(join(env.ws, "03-skills", "new-skill"), { recursive: true });
      assert.deepEqual(cached(env).value, fresh(env));
    });
  });

  test("a skill folder moved outside and linked back is not listed from the cache", () => {
    withWarmCache((env) => {
      renameSync(join(env.ws, "03-skills"), join(env.dir, "moved-skills"));
      symlinkSync(join(env.dir, "moved-skills"), join(env.ws, "03-skills"));
      const r = cached(env);
      assert.ok(
        !(r.value as { skills: { skills: { path: string }[] } }).skills.skills.some((s) =>
          s.path.startsWith("03-skills/")
        ),
      );
      assert.deepEqual(r.value, fresh(env));
    });
  });

  test("a corrupt cache file, or one for another configuration, is ignored", () => {
    withWarmCache((env) => {
      const file = cacheFile(env);
      const good = readFileSync(file, "utf8");
      writeFileSync(file, good.slice(0, good.length / 2), { mode: 0o600 });
      let r = cached(env);
      assert.equal(r.changed, true);
      assert.deepEqual(r.value, fresh(env));
      writeFileSync(file, good.replace(/"s":"[^"]*"/g, '"s":""'), { mode: 0o600 });
      assert.deepEqual(cached(env).value, fresh(env));
      r = cached(env, JSON.stringify(["02-projects", ["x.md"], ["y.md"], []]));
      assert.equal(r.hits, 0);
    });
  });

  test("secrets in a current task are cached redacted", () => {
    withWarmCache((env) => {
      const path = join(env.root, "01-website-redesign", STEPS);
      const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
      writeFileSync(path, readFileSync(path, "utf8").replace("- [ ]", `- [ ] Rotate ${token} now\n- [ ]`));
      const r = cached(env);
      assert.deepEqual(r.value, fresh(env));
      assert.ok(!readFileSync(cacheFile(env), "utf8").includes(token));
      assert.ok(JSON.stringify(r.value).includes("[REDACTED:"));
    });
  });

  test("files changed in the last seconds are not cached", () => {
    const env = setup();
    try {
      const cache = openStartupCache(env.state, env.ws, KEY);
      listProjects(env.root, { manifestNames: P.manifestNames, stepsNames: P.stepsNames, cache });
      scanSkills(env.ws, { roots: P.skillsGlobRoots, cache });
      assert.deepEqual(cache.nextProjects, {});
      assert.equal(cache.nextSkills, null);
    } finally {
      rmSync(env.dir, { recursive: true, force: true });
    }
  });

  test("projectSessionStart() shows the same startup context from a warm cache, and after an edit", async () => {
    const env = setup();
    const home = join(env.dir, "home");
    mkdirSync(home);
    const raw = JSON.parse(readFileSync(join(PAYLOADS, "SessionStart-startup.json"), "utf8"));
    raw.cwd = env.ws;
    raw.transcript_path = join(env.dir, "t.jsonl");
    const run = async (): Promise<string> => {
      let text = "";
      await handleHook(
        "SessionStart",
        (ctx: HookContext<"SessionStart">) => {
          text = projectSessionStart(ctx)?.additionalContext ?? "";
          return null;
        },
        JSON.stringify(raw),
        {
          env: { REHYDRATE_STATE_DIR: env.state, CLAUDE_PROJECT_DIR: env.ws, HOME: home },
          homeDir: home,
          now: new Date("2026-11-21T10:00:00.000Z"),
        },
      );
      return text;
    };
    const uncached = async (): Promise<string> => {
      rmSync(join(env.state, "cache"), { recursive: true, force: true });
      const t = await run();
      rmSync(join(env.state, "cache"), { recursive: true, force: true });
      return t;
    };
    try {
      // Files younger than two seconds are never cached.
      await new Promise((r) => setTimeout(r, 2100));
      const reference = await uncached();
      assert.ok(reference.includes("Website redesign"));
      assert.equal(await run(), reference);
      assert.ok(existsSync(cacheFile(env)));
      const stored = JSON.parse(readFileSync(cacheFile(env), "utf8"));
      assert.ok(Object.keys(stored.projects).length >= 4 && stored.skills !== null);
      assert.equal(await run(), reference);
      const path = join(env.root, "01-website-redesign", MANIFEST);
      writeFileSync(path, readFileSync(path, "utf8").replace(/project_name: .*/, 'project_name: "Edited Again"'));
      const edited = await run();
      assert.ok(edited.includes("Edited Again"));
      assert.equal(await run(), edited);
      assert.equal(edited, await uncached());
    } finally {
      rmSync(env.dir, { recursive: true, force: true });
    }
  });
});
