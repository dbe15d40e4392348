// The Claude Code plugin: .claude-plugin/plugin.json, .claude-plugin/marketplace.json and
// hooks/hooks.json have the shapes Claude Code loads, register the same hooks as
// `rehydrate install`, and run plugin/rehydrate-launcher, which must never break a session.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { HOOK_NAMES } from "../../lib/hook/hook_names.ts";
import { hooksFor, WORKFLOWS } from "../../lib/cli/_install_plan.ts";

const ROOT = join(import.meta.dirname!, "..", "..");
const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
const LAUNCHER = join(ROOT, "plugin", "rehydrate-launcher");
const SKIP_POSIX = process.platform === "win32" ? "the launcher is run by sh (Git Bash on Windows)" : false;

type Json = Record<string, unknown>;

function readJson(path: string): Json {
  return JSON.parse(readFileSync(join(ROOT, path), "utf8"));
}

// Claude Code's plugin-name rule: kebab-case, starting with a letter.
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

// Hook events of Claude Code 2.1.329 (claude-code-hooks.md, HOOK_EVENTS) that take a matcher.
const MATCHER_EVENTS = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PermissionDenied",
  "SessionStart",
  "Setup",
  "PreCompact",
  "PostCompact",
  "Notification",
  "SessionEnd",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "ConfigChange",
  "InstructionsLoaded",
]);
const NO_MATCHER_EVENTS = new Set([
  // PostModelSwitch can match the new model's family; rehydrate leaves it out: every switch counts.
  "PostModelSwitch",
  "UserPromptSubmit",
  "Stop",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "PostToolBatch",
]);

interface CommandHook {
  type: string;
  command: string;
  args?: string[];
  timeout?: number;
  async?: true;
}
interface Group {
  matcher?: string;
  hooks: CommandHook[];
}

const HOOKS_JSON = readJson("hooks/hooks.json") as { hooks: Record<string, Group[]> };

// Events `rehydrate install` registers but the plugin cannot: Claude Code 2.1.197 (the oldest
// client in plugin.json's `engines`) rejects a plugin hooks file that names an event it does not
// know ("hooks.PostModelSwitch: Invalid key in record") and then loads none of its hooks
// (tests/bin/plugin_claude.test.ts runs a real 2.1.197 session).
const PLUGIN_OMITS: string[] = ["PostModelSwitch"];

describe("plugin manifests", () => {
  test("plugin.json names a kebab-case plugin whose version is package.json's", () => {
    const manifest = readJson(".claude-plugin/plugin.json");
    assert.match(manifest.name as string, KEBAB);
    assert.equal(manifest.version, VERSION);
    assert.equal(typeof manifest.description, "string");
    // hooks/hooks.json is loaded from its standard place; naming it again would load it twice.
    assert.equal(manifest.hooks, undefined);
  });

  test("marketplace.json lists the plugin with a source that holds its manifest", () => {
    const market = readJson(".claude-plugin/marketplace.json");
    const plugin = readJson(".claude-plugin/plugin.json");
    assert.match(market.name as string, KEBAB);
    assert.equal(typeof (market.owner as Json).name, "string");
    const entries = market.plugins as Json[];
    assert.equal(entries.length, 1);
    assert.equal(entries[0].name, plugin.name);
    const source = entries[0].source as string;
    assert.match(source, /^\.\//, "a relative source starts with ./");
    assert.ok(existsSync(join(resolve(ROOT, source), ".claude-plugin", "plugin.json")));
  });
});

describe("hooks/hooks.json", () => {
  const events = Object.entries(HOOKS_JSON.hooks);

  test("registers exactly the hooks, matchers and timeouts that rehydrate install writes for every workflow", () => {
    const expected = hooksFor(WORKFLOWS, { enforceReread: true })
      .filter((s) => !PLUGIN_OMITS.includes(s.event))
      .map((s) => ({ event: s.event, hook: s.hook, matcher: s.matcher, timeout: s.timeout, async: s.async }))
      .sort((a, b) => a.event.localeCompare(b.event));
    const actual = events.flatMap(([event, groups]) =>
      groups.flatMap((g) =>
        g.hooks.map((h) => ({ event, hook: h.args?.[0], matcher: g.matcher, timeout: h.timeout, async: h.async }))
      )
    ).sort((a, b) => a.event.localeCompare(b.event));
    assert.deepEqual(actual, expected);
  });

  test("covers every hook binary once, with the event that binary handles", () => {
    const seen = events.flatMap(([event, groups]) => groups.flatMap((g) => g.hooks.map((h) => [h.args?.[0], event])));
    const names = Object.fromEntries(Object.entries(HOOK_NAMES).filter(([, event]) => !PLUGIN_OMITS.includes(event)));
    assert.deepEqual(Object.fromEntries(seen), names);
    assert.equal(seen.length, Object.keys(names).length);
  });

  test("gives a matcher only to events that compare one", () => {
    for (const [event, groups] of events) {
      assert.ok(MATCHER_EVENTS.has(event) || NO_MATCHER_EVENTS.has(event), `${event} is a Claude Code hook event`);
      for (const g of groups) {
        if (NO_MATCHER_EVENTS.has(event)) assert.equal(g.matcher, undefined, event);
        else assert.match(g.matcher!, /^(\*|[A-Za-z]+(\|[A-Za-z]+)*)$/, event);
      }
    }
  });

  test("runs every hook in exec form: the launcher under ${CLAUDE_PLUGIN_ROOT} is the program, no shell", () => {
    // Exec form (`command` + `args`, Claude Code 2.1.197 and later): the placeholder is replaced
    // in each element as a plain string, so no shell parses the plugin's path, and no `sh` is
    // looked up on PATH: the kernel runs the launcher by its `#!/bin/sh` line.
    for (const [event, groups] of events) {
      for (const h of groups.flatMap((g) => g.hooks)) {
        assert.equal(h.type, "command", event);
        assert.equal(h.command, "${CLAUDE_PLUGIN_ROOT}/plugin/rehydrate-launcher", event);
        assert.equal(h.args?.length, 1, event);
        assert.match(h.args![0], /^[a-z-]+$/, event);
      }
    }
    assert.ok(readFileSync(LAUNCHER, "utf8").startsWith("#!/bin/sh\n"));
    if (process.platform !== "win32") assert.ok(statSync(LAUNCHER).mode & 0o111, "the launcher is executable");
  });

  test("gives every hook a timeout in seconds, not milliseconds", () => {
    for (const [event, groups] of events) {
      for (const h of groups.flatMap((g) => g.hooks)) {
        assert.ok(Number.isInteger(h.timeout) && h.timeout! >= 1 && h.timeout! <= 120, `${event}: ${h.timeout}`);
      }
    }
  });

  test("is accepted by Claude Code's own validator", {
    skip: claudeCli() === null && "the @anthropic-ai/claude-code dev dependency is not installed",
    timeout: 120_000,
  }, () => {
    const home = mkdtempSync(join(tmpdir(), "rehydrate-plugin-home-"));
    try {
      for (const manifest of [".claude-plugin/plugin.json", ".claude-plugin/marketplace.json"]) {
        const r = spawnSync(claudeCli()!, ["plugin", "validate", "--strict", manifest], {
          cwd: ROOT,
          encoding: "utf8",
          env: { ...process.env, HOME: home, USERPROFILE: home, CLAUDE_CONFIG_DIR: join(home, ".claude") },
          timeout: 60_000,
        });
        assert.equal(r.status, 0, `${manifest}:\n${r.stdout}${r.stderr}`);
      }
      // The validator reads hooks/hooks.json beside the manifest: a broken copy must fail.
      const copy = join(home, "broken");
      mkdirSync(join(copy, ".claude-plugin"), { recursive: true });
      mkdirSync(join(copy, "hooks"));
      writeFileSync(
        join(copy, ".claude-plugin", "plugin.json"),
        readFileSync(join(ROOT, ".claude-plugin", "plugin.json")),
      );
      writeFileSync(
        join(copy, "hooks", "hooks.json"),
        JSON.stringify({ hooks: { PreCompact: [{ hooks: [{ type: "command", command: "x", timeout: "30s" }] }] } }),
      );
      const bad = spawnSync(claudeCli()!, [
        "plugin",
        "validate",
        "--strict",
        join(copy, ".claude-plugin", "plugin.json"),
      ], {
        encoding: "utf8",
        env: { ...process.env, HOME: home, USERPROFILE: home, CLAUDE_CONFIG_DIR: join(home, ".claude") },
        timeout: 60_000,
      });
      assert.equal(bad.status, 1, bad.stdout + bad.stderr);
      assert.match(bad.stdout + bad.stderr, /timeout/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

/** The Claude Code CLI of the dev dependency (its postinstall puts the native binary there). */
function claudeCli(): string | null {
  const p = join(ROOT, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
  return existsSync(p) && statSync(p).size > 1e6 ? p : null;
}

describe("plugin/rehydrate-launcher", () => {
  function launch(args: string[], env: Record<string, string>, stdin = "{}") {
    // A minimal environment: copying process.env breaks under Deno when another test file has put
    // a value there that Deno's spawnSync cannot pass on (the whole result comes back undefined).
    const base: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
    // Deno's node:child_process spawnSync now and then returns a result with every field
    // undefined right after a test wrote the executable it runs; such a run never started, so
    // it is retried (a real failure still shows as a status, stdout and stderr).
    for (let attempt = 0;; attempt++) {
      const r = spawnSync("sh", [LAUNCHER, ...args], {
        input: stdin,
        encoding: "utf8",
        env: { ...base, ...env },
        timeout: 20_000,
      });
      if (r.status !== undefined || attempt >= 4) return r;
    }
  }

  function withTmp(fn: (tmp: string) => void): void {
    const tmp = mkdtempSync(join(tmpdir(), "rehydrate-launcher-"));
    try {
      fn(tmp);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }

  function fake(path: string, body: string): void {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
  }

  test("pins package.json's version", () => {
    assert.match(readFileSync(LAUNCHER, "utf8"), new RegExp(`^VERSION=${VERSION.replaceAll(".", "\\.")}$`, "m"));
  });

  test("runs the cached binary with the hook's arguments, input and exit code", { skip: SKIP_POSIX }, () => {
    withTmp((tmp) => {
      fake(join(tmp, "data", "bin", `rehydrate-${VERSION}`), 'printf "%s|" "$@"; cat; exit 2');
      const r = launch(
        ["pre-tool-use", "--x"],
        { CLAUDE_PLUGIN_DATA: join(tmp, "data"), HOME: tmp },
        '{"tool_name":"Read"}',
      );
      assert.equal(r.stdout, 'pre-tool-use|--x|{"tool_name":"Read"}');
      assert.equal(r.status, 2, "a deliberate block (exit 2) reaches Claude Code");
    });
  });

  test("prefers REHYDRATE_BIN, and ignores it when it is not executable", { skip: SKIP_POSIX }, () => {
    withTmp((tmp) => {
      fake(join(tmp, "mine"), 'echo "mine $1"');
      fake(join(tmp, "data", "bin", `rehydrate-${VERSION}`), 'echo "cached $1"');
      const env = { CLAUDE_PLUGIN_DATA: join(tmp, "data"), HOME: tmp };
      assert.equal(launch(["stop"], { ...env, REHYDRATE_BIN: join(tmp, "mine") }).stdout, "mine stop\n");
      assert.equal(launch(["stop"], { ...env, REHYDRATE_BIN: join(tmp, "missing") }).stdout, "cached stop\n");
    });
  });

  test(
    "falls back to ~/.cache/rehydrate/plugin where Claude Code sets no CLAUDE_PLUGIN_DATA",
    { skip: SKIP_POSIX },
    () => {
      withTmp((tmp) => {
        fake(join(tmp, ".cache", "rehydrate", "plugin", "bin", `rehydrate-${VERSION}`), 'echo "cached $1"');
        assert.equal(launch(["stop"], { HOME: tmp }).stdout, "cached stop\n");
      });
    },
  );

  test("exits 0 with no output when it has nowhere to keep a binary", { skip: SKIP_POSIX }, () => {
    const r = launch(["pre-tool-use"], {}, "x".repeat(1 << 20));
    assert.equal(r.status, 0);
    assert.equal(r.stdout, "");
    assert.equal(r.error, undefined, "the whole input was read (no EPIPE)");
  });

  test("downloads nothing without pinned hashes, and says so in one line, once, on SessionStart", {
    skip: SKIP_POSIX,
  }, () => {
    withTmp((tmp) => {
      const data = join(tmp, "data");
      // The repository's copy of the launcher pins no hashes (scripts/pin-release.ts fills them in
      // at release): there is nothing to check a download against, so it fetches nothing.
      assert.match(readFileSync(LAUNCHER, "utf8"), /^PINNED_SUMS=""$/m);
      const env = { CLAUDE_PLUGIN_DATA: data, HOME: tmp, REHYDRATE_BASE_URL: "https://127.0.0.1:9/release" };
      const r = launch(["pre-tool-use"], env, "x".repeat(1 << 20));
      assert.equal(r.status, 0);
      assert.equal(r.stdout, "");
      assert.equal(r.error, undefined, "the whole input was read (no EPIPE)");
      assert.equal(existsSync(join(data, "bin", "install.log")), false, "no download was started");
      const start = launch(["session-start"], env);
      assert.equal(start.status, 0);
      assert.equal(start.stdout.trim().split("\n").length, 1);
      const out = JSON.parse(start.stdout);
      assert.deepEqual(Object.keys(out), ["systemMessage"], "SessionStart tells the user, never the model");
      assert.match(out.systemMessage, /pins no binary hashes/);
      assert.equal(launch(["session-start"], env).stdout, "", "the message is given once");
    });
  });

  test("ignores a relative REHYDRATE_BIN or data directory: it would name a file of the project", {
    skip: SKIP_POSIX,
  }, () => {
    withTmp((tmp) => {
      fake(join(tmp, "rehydrate"), 'echo "the project\'s binary ran"');
      fake(join(tmp, "data", "bin", `rehydrate-${VERSION}`), 'echo "the project\'s cached binary ran"');
      const r = spawnSync("sh", [LAUNCHER, "stop"], {
        cwd: tmp,
        input: "{}",
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", REHYDRATE_BIN: "rehydrate", CLAUDE_PLUGIN_DATA: "data" },
      });
      assert.equal(r.status, 0);
      assert.equal(r.stdout, "");
    });
  });
});
