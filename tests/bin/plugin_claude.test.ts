// The plugin under the real Claude Code clients: the pinned one (node_modules/.bin/claude) and the
// oldest supported one (the `claude-code-oldest` dev dependency, the lower bound of plugin.json's
// `engines`). Each validates the manifests with its own `claude plugin validate`, and runs a
// session with `--plugin-dir` against the loopback mock API (tests/e2e/mock_api.ts): the hooks in
// hooks/hooks.json, in exec form, reach plugin/rehydrate-launcher with the hook's name, and the
// launcher runs the compiled rehydrate binary.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, ROOT } from "./_bin.ts";
import { CLAUDE, CLAUDE_OLDEST, E2e, OLDEST_VERSION } from "../e2e/harness.ts";

const ENGINES = JSON.parse(readFileSync(join(ROOT, ".claude-plugin", "plugin.json"), "utf8")).engines as Record<
  string,
  string
>;

/** The client's version, or null when it is not installed (or is only npm's placeholder script). */
function version(claude: string): string | null {
  if (!existsSync(claude) || statSync(claude).size < 1e6) return null;
  const r = spawnSync(claude, ["--version"], { encoding: "utf8", timeout: 60_000 });
  return r.stdout.match(/^(\d+\.\d+\.\d+)/)?.[1] ?? null;
}

function newer(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
}

const PINNED = version(CLAUDE);
const OLDEST = version(CLAUDE_OLDEST);

function validate(claude: string, manifest: string, strict: boolean) {
  const home = mkdtempSync(join(tmpdir(), "rehydrate-validate-"));
  try {
    const r = spawnSync(claude, ["plugin", "validate", ...(strict ? ["--strict"] : []), manifest], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, HOME: home, USERPROFILE: home, CLAUDE_CONFIG_DIR: join(home, ".claude") },
      timeout: 60_000,
    });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

describe("the plugin's manifests under Claude Code's own validator", () => {
  test("engines names the oldest client the tests run, and the pinned client is inside it", () => {
    assert.deepEqual(Object.keys(ENGINES), ["claude-code"]);
    assert.equal(ENGINES["claude-code"], `>=${OLDEST_VERSION}`);
    if (PINNED) {
      assert.ok(!newer(OLDEST_VERSION, PINNED), `the pinned client ${PINNED} is older than ${OLDEST_VERSION}`);
    }
  });

  test("the pinned client accepts both manifests with --strict", {
    skip: PINNED === null && "the @anthropic-ai/claude-code dev dependency is not installed",
  }, () => {
    for (const manifest of [".claude-plugin/plugin.json", ".claude-plugin/marketplace.json"]) {
      const r = validate(CLAUDE, manifest, true);
      assert.equal(r.status, 0, `${PINNED}: ${manifest}:\n${r.out}`);
    }
  });

  test("the oldest client accepts them, and warns only about the fields it predates (engines, network)", {
    skip: OLDEST === null && "the claude-code-oldest dev dependency is not installed",
  }, () => {
    for (const manifest of [".claude-plugin/plugin.json", ".claude-plugin/marketplace.json"]) {
      const r = validate(CLAUDE_OLDEST, manifest, false);
      assert.equal(r.status, 0, `${OLDEST}: ${manifest}:\n${r.out}`);
      const warnings = r.out.split("\n").filter((l) => l.trim().startsWith("❯"));
      for (const w of warnings) assert.match(w, /(engines|network): Unknown field '(engines|network)'/, w);
    }
  });
});

describe("the plugin in a real session (--plugin-dir, loopback mock API)", () => {
  for (const [name, claude, v] of [["pinned", CLAUDE, PINNED], ["oldest", CLAUDE_OLDEST, OLDEST]] as const) {
    test(`Claude Code ${v ?? name} runs every hook through the launcher in exec form`, {
      skip: v === null && `the ${name} client is not installed`,
      timeout: 180_000,
    }, async () => {
      const e = await E2e.start(`plugin-${name}`, { claude });
      try {
        // The plugin as a marketplace install copies it: its manifest, hooks and launcher, in a
        // folder whose path has a space and a quote (exec form passes it as one argument).
        const plugin = join(e.dir, `plugin copy 'x'`);
        for (const p of [".claude-plugin", "hooks/hooks.json", "plugin", "install.sh"]) {
          cpSync(join(ROOT, p), join(plugin, p), { recursive: true });
        }
        const project = join(e.dir, "project");
        mkdirSync(project);
        // A repository that plants `sh` and `bash`, with `.` first on PATH: the shell form
        // (`sh "${CLAUDE_PLUGIN_ROOT}/..."`) looked `sh` up there; the exec form looks nothing up.
        const planted = join(e.dir, "planted");
        for (const tool of ["sh", "bash"]) {
          writeFileSync(join(project, tool), `#!/bin/sh\necho "${tool} $*" >>'${planted}'\n`, { mode: 0o755 });
        }
        writeFileSync(
          join(e.home, ".claude.json"),
          JSON.stringify({
            hasCompletedOnboarding: true,
            customApiKeyResponses: { approved: ["e2e-dummy-key-0000000000000000".slice(-20)], rejected: [] },
            projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
          }),
        );
        // REHYDRATE_BIN is a wrapper that records how it was called, then runs the real binary.
        const calls = join(e.dir, "calls");
        const wrapper = join(e.dir, "rehydrate-wrapper");
        writeFileSync(wrapper, `#!/bin/sh\necho "$*" >>'${calls}'\nexec '${bin("rehydrate")}' "$@"\n`, { mode: 0o755 });
        const run = await e.claude(project, "hello", {
          extraArgs: ["--plugin-dir", plugin],
          env: { REHYDRATE_BIN: wrapper, PATH: `.:${process.env.PATH}` },
        });
        assert.ok(run.sessionId, "the session ran");
        const seen = existsSync(calls) ? readFileSync(calls, "utf8").split("\n").filter(Boolean) : [];
        assert.equal(existsSync(planted) ? readFileSync(planted, "utf8") : "", "", "a planted shell ran");
        for (const hook of ["session-start", "user-prompt-submit", "stop"]) {
          assert.ok(
            seen.includes(hook),
            `${hook} did not run through the launcher; calls: ${JSON.stringify(seen)}\n${run.stderr}`,
          );
        }
      } finally {
        e.close();
      }
    });
  }
});
