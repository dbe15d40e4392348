import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import path, { join } from "node:path";
import { cliInstall } from "../../../lib/cli/install.ts";
import { cliUninstall } from "../../../lib/cli/uninstall.ts";
import { parseJsonTree } from "../../../lib/cli/_settings_json.ts";
import { commandHook, hooksFor, listOurEntries, planInstall, planUninstall } from "../../../lib/cli/_install_plan.ts";
import { commandPrefix, quoteShellPath, resolveBinary } from "../../../lib/cli/_install_command.ts";
import { unifiedDiff } from "../../../lib/cli/_install_diff.ts";

const FIX = join(import.meta.dirname!, "..", "..", "fixtures", "settings");
const ALL = hooksFor(["projects", "orchestration", "dispatch"]);
const PREFIX = "/opt/rehydrate/bin/rehydrate";

function fixture(name: string): string {
  return readFileSync(join(FIX, name), "utf8");
}

/** The settings value with every rehydrate entry (and the containers only they filled) removed, by plain JSON. */
function withoutOurs(value: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(value);
  const hooks = copy.hooks as Record<string, { hooks: { command: string }[] }[]> | undefined;
  if (!hooks) return copy;
  for (const [event, groups] of Object.entries(hooks)) {
    const kept = groups
      .map((g) => ({ ...g, hooks: g.hooks.filter((h) => commandHook(h.command, []) === null) }))
      .filter((g, i) => g.hooks.length > 0 || groups[i].hooks.length === 0);
    if (kept.length === 0 && groups.length > 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (Object.keys(hooks).length === 0 && Object.keys(value.hooks as object).length > 0) delete copy.hooks;
  return copy;
}

function collector(): { io: { out(t: string): void; err(t: string): void }; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return { io: { out: (t) => void (out += t), err: (t) => void (err += t) }, out: () => out, err: () => err };
}

describe("parseJsonTree()", () => {
  test("parseJsonTree() gives the same value as JSON.parse for every valid fixture", () => {
    for (const name of readdirSync(FIX).filter((n) => !n.startsWith("invalid") && n.endsWith(".json"))) {
      const text = fixture(name);
      const tree = parseJsonTree(text);
      assert.equal(tree.error, null, name);
      assert.deepEqual(toValue(tree.value!), JSON.parse(text), name);
    }
  });

  test("parseJsonTree() reports a trailing comma and a comment with their line and column", () => {
    const comma = parseJsonTree(fixture("invalid-trailing-comma.json"));
    assert.equal(comma.value, null);
    assert.deepEqual([comma.error?.code, comma.error?.line, comma.error?.column], ["unexpected_character", 4, 1]);
    const comment = parseJsonTree(fixture("invalid-comment.json"));
    assert.deepEqual([comment.error?.code, comment.error?.line, comment.error?.column], ["unexpected_character", 2, 3]);
  });

  test("parseJsonTree() refuses what JSON.parse refuses", () => {
    for (
      const bad of [
        "",
        "{",
        "[1,]",
        '{"a":01}',
        '"\u0001"',
        '"\\x"',
        "tru",
        "{} {}",
        '{"a" 1}',
        "[".repeat(300) + "]".repeat(300),
      ]
    ) {
      assert.notEqual(parseJsonTree(bad).error, null, JSON.stringify(bad));
      assert.throws(() => {
        if (bad.startsWith("[[[")) throw new Error("too deep for us, fine for JSON.parse");
        JSON.parse(bad);
      });
    }
  });
});

function toValue(node: NonNullable<ReturnType<typeof parseJsonTree>["value"]>): unknown {
  if (node.kind === "object") return Object.fromEntries(node.members.map((m) => [m.key, toValue(m.value)]));
  if (node.kind === "array") return node.items.map(toValue);
  return node.value;
}

describe("hooksFor()", () => {
  test("hooksFor() with no workflow registers the delivery core only, the checkpoint in the background", () => {
    const core = ["PreCompact:pre-compact", "SessionStart:session-start", "UserPromptSubmit:user-prompt-submit"];
    const checkpoint = { hook: "session-checkpoint", event: "Stop", timeout: 30, async: true };
    assert.deepEqual(hooksFor([]).slice(0, 3).map((s) => `${s.event}:${s.hook}`), core);
    assert.deepEqual(hooksFor([]).slice(3), [checkpoint]);
    assert.deepEqual(hooksFor(["projects"]), hooksFor([]));
    assert.deepEqual(hooksFor([]).filter((s) => s.async), [checkpoint], "only the checkpoint runs in the background");
  });

  test("hooksFor() adds the enforcement for dispatch and for reread.enforce true in any repository", () => {
    assert.deepEqual(hooksFor(["dispatch"]).map((s) => `${s.event}:${s.matcher ?? ""}`), [
      "PreCompact:manual|auto",
      "SessionStart:startup|resume|clear|compact|fork",
      "UserPromptSubmit:",
      "PreToolUse:*",
      "PostToolUse:Skill",
      "Stop:",
      "Stop:",
    ]);
    assert.deepEqual(hooksFor(["projects"], { enforceReread: true }), hooksFor([], { enforceReread: true }));
    assert.deepEqual(hooksFor([], { enforceReread: true }).map((s) => `${s.event}:${s.hook}`), [
      "PreCompact:pre-compact",
      "SessionStart:session-start",
      "UserPromptSubmit:user-prompt-submit",
      "PreToolUse:pre-tool-use",
      "Stop:stop",
      "Stop:session-checkpoint",
    ]);
    assert.deepEqual(hooksFor(["orchestration"]).map((s) => `${s.event}:${s.matcher ?? ""}`).slice(3), [
      "PostCompact:manual|auto",
      "PostToolUse:Write|Edit|MultiEdit",
      "Stop:",
    ]);
    assert.equal(ALL.find((s) => s.event === "PostToolUse")?.matcher, "Write|Edit|MultiEdit|Skill");
  });

  test("hooksFor() gives timeouts in seconds, never milliseconds", () => {
    for (const s of ALL) assert.ok(s.timeout >= 5 && s.timeout <= 120, `${s.hook} ${s.timeout}`);
  });
});

describe("planInstall() and planUninstall()", () => {
  const valid = readdirSync(FIX).filter((n) => !n.startsWith("invalid") && n !== "hooks-not-object.json");

  for (const name of valid) {
    test(`planInstall() on ${name} keeps everything else, and is idempotent`, () => {
      const text = fixture(name);
      const once = planInstall(text, { prefix: PREFIX, hooks: ALL });
      assert.ok(once.ok);
      const twice = planInstall(once.text, { prefix: PREFIX, hooks: ALL });
      assert.ok(twice.ok);
      assert.equal(twice.text, once.text);
      assert.equal(twice.changed, false);
      const after = JSON.parse(once.text);
      const mine = listOurEntries(once.text);
      assert.ok("entries" in mine);
      assert.deepEqual(
        mine.entries.map((e) => `${e.event}:${e.hook}:${e.command}`).sort(),
        ALL.map((s) => `${s.event}:${s.hook}:${PREFIX} ${s.hook}`).sort(),
      );
      const before = JSON.parse(text);
      if (name !== "empty-hooks.json") assert.deepEqual(withoutOurs(after), withoutOurs(before));
      // Key order of the untouched top level is kept.
      assert.deepEqual(
        Object.keys(after).filter((k) => k !== "hooks"),
        Object.keys(before).filter((k) => k !== "hooks"),
      );
    });
  }

  for (const name of valid.filter((n) => n !== "old-rehydrate-install.json" && n !== "empty-hooks.json")) {
    test(`planUninstall() after planInstall() gives ${name} back byte for byte`, () => {
      const text = fixture(name);
      const installed = planInstall(text, { prefix: PREFIX, hooks: ALL });
      assert.ok(installed.ok && installed.changed);
      const removed = planUninstall(installed.text);
      assert.ok(removed.ok);
      assert.equal(removed.text, text);
      assert.equal(removed.removed.length, ALL.length);
    });
  }

  test("planInstall() writes CRLF and tabs into a CRLF, tab-indented file, and keeps its missing final newline", () => {
    const text = fixture("tabs-crlf-no-final-newline.json");
    const r = planInstall(text, { prefix: PREFIX, hooks: ALL });
    assert.ok(r.ok);
    assert.equal(r.text.replace(/\r\n/g, "").includes("\n"), false);
    assert.ok(r.text.includes('\r\n\t\t"PreCompact": [\r\n\t\t\t{\r\n\t\t\t\t"matcher": "manual|auto",'));
    assert.ok(!r.text.endsWith("\n"));
  });

  test("planInstall() keeps a minified file on one line", () => {
    const r = planInstall(fixture("minified.json"), { prefix: PREFIX, hooks: ALL });
    assert.ok(r.ok);
    assert.ok(!r.text.includes("\n"));
    assert.ok(
      r.text.includes(
        '{"matcher":"Write|Edit","hooks":[{"type":"command","command":"prettier --write"}]},{"matcher":"Write|Edit|MultiEdit|Skill"',
      ),
    );
  });

  test("planInstall() with no file creates a pretty settings file with a final newline", () => {
    const r = planInstall(null, { prefix: PREFIX, hooks: hooksFor([]) });
    assert.ok(r.ok);
    assert.ok(r.text.startsWith('{\n  "hooks": {\n    "PreCompact": [\n      {\n        "matcher": "manual|auto",'));
    assert.ok(r.text.endsWith("}\n"));
    assert.deepEqual(r.added, [
      "PreCompact:pre-compact",
      "SessionStart:session-start",
      "UserPromptSubmit:user-prompt-submit",
      "Stop:session-checkpoint",
    ]);
    // The checkpoint's entry runs in the background; no other entry says async.
    const stop = JSON.parse(r.text).hooks.Stop;
    assert.deepEqual(stop, [{
      hooks: [{ type: "command", command: `${PREFIX} session-checkpoint`, timeout: 30, async: true }],
    }]);
    assert.equal(r.text.split('"async"').length, 2);
  });

  test("planInstall() upgrades the entries of an old binary in place instead of adding new ones", () => {
    const text = fixture("old-rehydrate-install.json");
    const r = planInstall(text, { prefix: PREFIX, hooks: hooksFor(["dispatch"]) });
    assert.ok(r.ok);
    assert.deepEqual(r.updated, ["PreCompact:pre-compact", "SessionStart:session-start", "Stop:stop"]);
    const v = JSON.parse(r.text);
    assert.equal(v.hooks.PreCompact.length, 1);
    assert.equal(v.hooks.PreCompact[0].hooks[0].command, `${PREFIX} pre-compact`);
    assert.equal(v.hooks.SessionStart[0].hooks[0].command, "echo hello");
    assert.equal(v.hooks.SessionStart[1].hooks[0].command, `${PREFIX} session-start`);
    assert.deepEqual(v.hooks.Stop[0].hooks.map((h: { command: string }) => h.command), [
      `${PREFIX} stop`,
      "notify-send done",
    ]);
    assert.ok(!r.text.includes("/home/me/old"));
  });

  test("planInstall() replaces a checkpoint entry that runs in the foreground, and keeps one in the background", () => {
    const fg = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: "command", command: `${PREFIX} session-checkpoint`, timeout: 30 }] }] },
    });
    const r = planInstall(fg, { prefix: PREFIX, hooks: hooksFor([]) });
    assert.ok(r.ok);
    assert.deepEqual(r.removed, ["Stop:session-checkpoint"]);
    assert.ok(r.added.includes("Stop:session-checkpoint"));
    assert.deepEqual(JSON.parse(r.text).hooks.Stop, [{
      hooks: [{ type: "command", command: `${PREFIX} session-checkpoint`, timeout: 30, async: true }],
    }]);
    const again = planInstall(r.text, { prefix: PREFIX, hooks: hooksFor([]) });
    assert.ok(again.ok);
    assert.equal(again.changed, false);
    assert.ok(again.kept.includes("Stop:session-checkpoint"));
    // `"async": false` is the foreground too; another timeout is updated in place, async kept.
    const foreground = r.text.replace(/"async":(\s*)true/, '"async":$1false');
    assert.notEqual(foreground, r.text);
    const off = planInstall(foreground, { prefix: PREFIX, hooks: hooksFor([]) });
    assert.ok(off.ok);
    assert.equal(off.text, r.text);
    const longer = r.text.replace(/(session-checkpoint",\s*"timeout":\s*)30/, "$199");
    assert.notEqual(longer, r.text);
    const slow = planInstall(longer, { prefix: PREFIX, hooks: hooksFor([]) });
    assert.ok(slow.ok);
    assert.deepEqual(slow.updated, ["Stop:session-checkpoint"]);
    assert.equal(slow.text, r.text);
  });

  test("planInstall() removes entries the chosen workflows no longer need, and uninstall keeps foreign hooks", () => {
    const full = planInstall(fixture("claude-code-style.json"), { prefix: PREFIX, hooks: ALL });
    assert.ok(full.ok);
    const core = planInstall(full.text, { prefix: PREFIX, hooks: hooksFor([]) });
    assert.ok(core.ok);
    assert.deepEqual(core.removed.sort(), [
      "PostCompact:post-compact",
      "PostToolUse:post-tool-use",
      "PreToolUse:pre-tool-use",
      "Stop:stop",
    ]);
    const v = JSON.parse(core.text);
    assert.equal(v.hooks.Stop[0].hooks[0].command, "say done");
    assert.equal(v.hooks.PreToolUse.length, 1);
  });

  test("planInstall() refuses invalid JSON and a hooks key that is not an object, with positions", () => {
    const bad = planInstall(fixture("invalid-trailing-comma.json"), { prefix: PREFIX, hooks: ALL });
    assert.ok(!bad.ok);
    assert.deepEqual([bad.error.line, bad.error.column], [4, 1]);
    const arr = planInstall(fixture("hooks-not-object.json"), { prefix: PREFIX, hooks: ALL });
    assert.ok(!arr.ok);
    assert.deepEqual([arr.error.code, arr.error.line, arr.error.column], ["hooks_not_object", 2, 12]);
  });

  test("planUninstall() drops a pre-existing empty hooks object with our entries (the one case not restored)", () => {
    const installed = planInstall(fixture("empty-hooks.json"), { prefix: PREFIX, hooks: ALL });
    assert.ok(installed.ok);
    const removed = planUninstall(installed.text);
    assert.ok(removed.ok);
    assert.equal(removed.text, "{}\n");
  });

  test("install then uninstall gives random settings files back exactly, and install twice equals once", () => {
    let seed = 0x9e3779b9;
    const rand = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 4294967296;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
    const word = () =>
      pick(["a", "model", "ключ", "with space", 'quote"d', "back\\slash", "tab\t", "😀", "hooks2", "PreCompact"]);
    const scalar = (): unknown =>
      pick<() => unknown>([
        () => word(),
        () => Math.floor(rand() * 1e6) / 100,
        () => rand() < 0.5,
        () => null,
        () => -Math.floor(rand() * 1e4),
      ])();
    const value = (depth: number): unknown => {
      if (depth > 3 || rand() < 0.4) return scalar();
      if (rand() < 0.5) return Array.from({ length: Math.floor(rand() * 4) + 1 }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(rand() * 4) + 1 }, () => [word() + Math.floor(rand() * 9), value(depth + 1)]),
      );
    };
    const foreignGroup = () => {
      const g: Record<string, unknown> = {
        hooks: Array.from(
          { length: Math.floor(rand() * 2) + 1 },
          () => ({
            type: "command",
            command: pick(["echo hi", "~/bin/x --y", "/usr/bin/rehydrate-notes sync", "rehydrate pre-compact --flag"]),
          }),
        ),
      };
      return rand() < 0.5 ? { matcher: pick(["Bash", "auto", "startup", "*"]), ...g } : g;
    };
    const events = ["PreCompact", "SessionStart", "Stop", "PreToolUse", "Notification", "SessionEnd"];
    for (let i = 0; i < 300; i++) {
      const settings: Record<string, unknown> = {};
      const n = Math.floor(rand() * 4);
      for (let k = 0; k < n; k++) settings[word() + k] = value(0);
      if (rand() < 0.7) {
        const hooks: Record<string, unknown> = {};
        for (const e of events) {
          if (rand() < 0.4) hooks[e] = Array.from({ length: Math.floor(rand() * 3) + 1 }, foreignGroup);
        }
        if (Object.keys(hooks).length > 0) settings[rand() < 0.5 ? "hooks" : "hooks"] = hooks;
      }
      for (let k = 0; k < Math.floor(rand() * 2); k++) settings["z" + word() + k] = value(1);
      let text = JSON.stringify(settings, null, pick([0, 2, 4, "\t"]));
      if (rand() < 0.3) text = text.replace(/\n/g, "\r\n");
      if (rand() < 0.6) text += rand() < 0.5 ? "\n" : "\r\n";
      const wanted = pick([ALL, hooksFor([]), hooksFor(["dispatch"]), hooksFor(["orchestration"])]);
      const prefix = pick([PREFIX, '"/Users/me/My Tools/rehydrate"', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/rehydrate']);
      const once = planInstall(text, { prefix, hooks: wanted });
      assert.ok(once.ok, text);
      assert.equal(parseJsonTree(once.text).error, null, once.text);
      const twice = planInstall(once.text, { prefix, hooks: wanted });
      assert.ok(twice.ok);
      assert.equal(twice.text, once.text, text);
      const back = planUninstall(once.text);
      assert.ok(back.ok);
      assert.equal(back.text, text, `case ${i}`);
      assert.deepEqual(withoutOurs(JSON.parse(once.text)), withoutOurs(settings));
    }
  });
});

describe("our entries", () => {
  test("commandHook() recognises a rehydrate binary with one hook name and nothing else", () => {
    assert.equal(commandHook("/usr/local/bin/rehydrate pre-compact", []), "pre-compact");
    assert.equal(commandHook('"/Users/me/My Tools/rehydrate" stop', []), "stop");
    assert.equal(commandHook('"$CLAUDE_PROJECT_DIR"/.claude/hooks/rehydrate session-start', []), "session-start");
    assert.equal(commandHook('"C:\\Users\\me\\bin\\rehydrate.exe" user-prompt-submit', []), "user-prompt-submit");
    assert.equal(commandHook("/opt/rh pre-compact", ["/opt/rh"]), "pre-compact");
    assert.equal(commandHook("/opt/rh pre-compact", []), null);
    assert.equal(commandHook("rehydrate pre-compact --flag", []), null);
    assert.equal(commandHook("echo rehydrate pre-compact", []), null);
    assert.equal(commandHook("/usr/bin/rehydrate compact-now", []), null);
    assert.equal(commandHook("/usr/bin/rehydrate", []), null);
  });
});

describe("command paths", () => {
  test("quoteShellPath() leaves plain POSIX paths bare and double-quotes the rest with escapes", () => {
    assert.equal(quoteShellPath("/usr/local/bin/rehydrate", "linux"), "/usr/local/bin/rehydrate");
    assert.equal(quoteShellPath("/Users/me/My Tools/rehydrate", "darwin"), '"/Users/me/My Tools/rehydrate"');
    assert.equal(quoteShellPath('/home/a$b/`x`/"q"/rehydrate', "linux"), '"/home/a\\$b/\\`x\\`/\\"q\\"/rehydrate"');
  });

  test("quoteShellPath() double-quotes Windows paths and keeps their backslashes readable", () => {
    const p = path.win32.join("C:\\Program Files", "rehydrate", "rehydrate.exe");
    assert.equal(quoteShellPath(p, "win32"), '"C:\\Program Files\\rehydrate\\rehydrate.exe"');
    assert.equal(quoteShellPath("C:\\tools\\rehydrate.exe", "win32"), '"C:\\tools\\rehydrate.exe"');
    assert.equal(quoteShellPath("\\\\server\\share\\rehydrate.exe", "win32"), '"\\\\\\server\\share\\rehydrate.exe"');
    assert.equal(quoteShellPath("C:/tools/rehydrate.exe", "win32"), "C:/tools/rehydrate.exe");
    // What bash makes of the quoted word is the original path.
    for (const original of [p, "\\\\server\\share\\rehydrate.exe", "C:\\a$b\\rehydrate.exe"]) {
      const word = quoteShellPath(original, "win32");
      assert.equal(bashDoubleQuoted(word), original);
    }
  });

  test('commandPrefix() writes a binary inside the project as "$CLAUDE_PROJECT_DIR"/relative, on POSIX and Windows', () => {
    assert.equal(
      commandPrefix("/work/repo/.claude/hooks/rehydrate", { projectDir: "/work/repo", platform: "linux" }),
      '"$CLAUDE_PROJECT_DIR"/.claude/hooks/rehydrate',
    );
    assert.equal(
      commandPrefix("/work/repo/my hooks/rehydrate", { projectDir: "/work/repo", platform: "linux" }),
      '"$CLAUDE_PROJECT_DIR/my hooks/rehydrate"',
    );
    assert.equal(
      commandPrefix("/usr/local/bin/rehydrate", { projectDir: "/work/repo", platform: "linux" }),
      "/usr/local/bin/rehydrate",
    );
    assert.equal(
      commandPrefix("C:\\work\\repo\\.claude\\hooks\\rehydrate.exe", {
        projectDir: "C:\\work\\repo",
        platform: "win32",
      }),
      '"$CLAUDE_PROJECT_DIR"/.claude/hooks/rehydrate.exe',
    );
    assert.equal(
      commandPrefix("D:\\bin\\rehydrate.exe", { projectDir: "C:\\work\\repo", platform: "win32" }),
      '"D:\\bin\\rehydrate.exe"',
    );
  });

  test("resolveBinary() refuses a source run, a virtual path and a binary not named rehydrate", () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-bin-"));
    const good = join(dir, "rehydrate");
    const other = join(dir, "rh");
    writeFileSync(good, "");
    writeFileSync(other, "");
    assert.ok(
      "error" in resolveBinary({ execPath: "/usr/local/bin/bun", moduleUrl: "file:///work/main/lib/cli/install.ts" }),
    );
    assert.ok(
      "error" in resolveBinary({ execPath: "C:\\tools\\deno.exe", moduleUrl: "file:///C:/src/lib/cli/install.ts" }),
    );
    assert.ok(
      "error" in resolveBinary({ execPath: "/$bunfs/root/rehydrate", moduleUrl: "file:///$bunfs/root/rehydrate" }),
    );
    assert.ok("error" in resolveBinary({ command: "B:/~BUN/root/rehydrate.exe" }));
    assert.ok("error" in resolveBinary({ command: other }));
    assert.ok("error" in resolveBinary({ command: join(dir, "missing-rehydrate") }));
    assert.deepEqual(resolveBinary({ command: "rehydrate", cwd: dir }), { path: good });
    assert.deepEqual(resolveBinary({ execPath: good, moduleUrl: "file:///$bunfs/root/rehydrate" }), { path: good });
  });
});

/** How bash reads a double-quoted word (the only form we write). */
function bashDoubleQuoted(word: string): string {
  assert.ok(word.startsWith('"') && word.endsWith('"'));
  let out = "";
  for (let i = 1; i < word.length - 1; i++) {
    if (word[i] === "\\" && '"\\$`'.includes(word[i + 1])) out += word[++i];
    else out += word[i];
  }
  return out;
}

describe("unifiedDiff()", () => {
  test("unifiedDiff() prints hunks with context, removed lines before added ones", () => {
    const d = unifiedDiff("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nd\nX\nf\ng\nh\n", "s.json");
    assert.equal(d, "--- a/s.json\n+++ b/s.json\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+X\n f\n g\n h\n");
    assert.equal(unifiedDiff("same", "same", "x"), "");
    assert.match(unifiedDiff("", "{}\n", "x"), /^@@ -0,0 \+1,1 @@\n\+\{\}$/m);
  });
});

describe("cliInstall() and cliUninstall()", () => {
  function setup(): { home: string; project: string; binary: string; now: Date } {
    const root = mkdtempSync(join(tmpdir(), "rehydrate-install-"));
    const home = join(root, "home");
    const project = join(root, "project");
    mkdirSync(home, { recursive: true });
    mkdirSync(join(project, "projects", "PROJ-001"), { recursive: true });
    writeFileSync(join(project, "projects", "PROJ-001", "ORCHESTRATION.yaml"), "workflow:\n  id: w\n");
    const binary = join(root, "bin", "rehydrate");
    mkdirSync(join(root, "bin"));
    writeFileSync(binary, "#!/bin/sh\necho 0.1.0\n");
    chmodSync(binary, 0o755);
    return { home, project, binary, now: new Date("2026-03-04T05:06:07Z") };
  }

  test("cliInstall() detects orchestration, writes the settings, and says already installed the second time", () => {
    const s = setup();
    const env = { cwd: s.project, homeDir: s.home, env: { HOME: s.home }, now: s.now };
    const c = collector();
    assert.equal(cliInstall(["--command", s.binary], c.io, env), 0, c.err());
    assert.match(c.out(), /Workflows: orchestration \(1 run\(s\), e\.g\. projects\/PROJ-001\/ORCHESTRATION\.yaml\)/);
    assert.match(
      c.out(),
      /^After each compaction the agent gets what the summary lacks: your latest request, the last test commands and how they ended, then the open tasks and files the summary left out \(<session-context>\), plus the orchestration run.s compaction alert; workflows: orchestration; rehydrate status shows it$/m,
    );
    const file = join(s.project, ".claude", "settings.local.json");
    const first = readFileSync(file, "utf8");
    assert.deepEqual(Object.keys(JSON.parse(first).hooks), [
      "PreCompact",
      "SessionStart",
      "UserPromptSubmit",
      "PostCompact",
      "PostToolUse",
      "Stop",
    ]);
    const again = collector();
    assert.equal(cliInstall(["--command", s.binary], again.io, env), 0);
    assert.match(again.out(), /Already installed in /);
    assert.match(again.out(), /^After each compaction the agent gets .*; workflows: orchestration; /m);
    assert.equal(readFileSync(file, "utf8"), first);
    assert.deepEqual(readdirSync(join(s.project, ".claude")).sort(), ["settings.local.json"]);
  });

  test("cliInstall() promises no <session-context> when the project's config sets session.enabled: false", () => {
    const s = setup();
    mkdirSync(join(s.project, ".claude"), { recursive: true });
    writeFileSync(join(s.project, ".claude", "rehydrate.json"), JSON.stringify({ session: { enabled: false } }));
    const env = { cwd: s.project, homeDir: s.home, env: { HOME: s.home }, now: s.now };
    const c = collector();
    assert.equal(cliInstall(["--command", s.binary], c.io, env), 0, c.err());
    assert.match(
      c.out(),
      /^After each compaction the agent gets the orchestration run's compaction alert \(the everyday layer is off: session\.enabled is false\); workflows: orchestration; rehydrate status shows it$/m,
    );
    assert.ok(!c.out().includes("<session-context>"));
    const none = collector();
    assert.equal(cliInstall(["--command", s.binary, "--workflows", ""], none.io, env), 0, none.err());
    assert.match(
      none.out(),
      /^After each compaction the agent gets nothing from rehydrate \(the everyday layer is off/m,
    );
  });

  test("cliInstall() backs the old file up before changing it, and cliUninstall() restores its text", () => {
    const s = setup();
    const env = { cwd: s.project, homeDir: s.home, env: { HOME: s.home }, now: s.now };
    mkdirSync(join(s.project, ".claude"));
    const file = join(s.project, ".claude", "settings.local.json");
    const original = fixture("odd-formatting.json");
    writeFileSync(file, original);
    const installed = collector();
    assert.equal(cliInstall(["--command", s.binary, "--workflows", "dispatch"], installed.io, env), 0);
    assert.match(installed.out(), /\(<session-context>\), plus the worker's dispatch pointer; workflows: dispatch; /);
    assert.equal(
      readFileSync(join(s.project, ".claude", "settings.local.json.bak-20260304T050607Z"), "utf8"),
      original,
    );
    assert.notEqual(readFileSync(file, "utf8"), original);
    const c = collector();
    assert.equal(cliUninstall([], c.io, { ...env, now: new Date("2026-03-04T05:06:08Z") }), 0);
    assert.match(c.out(), /removed .*PreCompact:pre-compact/);
    assert.equal(readFileSync(file, "utf8"), original);
  });

  test("cliInstall() --dry-run prints a diff and writes nothing", () => {
    const s = setup();
    const c = collector();
    assert.equal(
      cliInstall(["--dry-run", "--command", s.binary, "--write-config"], c.io, {
        cwd: s.project,
        homeDir: s.home,
        env: { HOME: s.home },
      }),
      0,
    );
    assert.match(c.out(), /^\+\+\+ b\/\.claude\/settings\.local\.json$/m);
    assert.match(c.out(), /^\+ {12}"command": "[^"]*rehydrate pre-compact",$/m);
    assert.match(c.out(), /Would write .*rehydrate\.json|would write .*rehydrate\.json/);
    assert.ok(!c.out().includes("After each compaction"), "a dry run registers nothing");
    assert.equal(existsSync(join(s.project, ".claude")), false);
  });

  test("cliInstall() leaves a settings file that is not JSON untouched and exits 1 with one line", () => {
    const s = setup();
    mkdirSync(join(s.project, ".claude"));
    const file = join(s.project, ".claude", "settings.local.json");
    writeFileSync(file, fixture("invalid-comment.json"));
    const c = collector();
    assert.equal(
      cliInstall(["--command", s.binary], c.io, { cwd: s.project, homeDir: s.home, env: { HOME: s.home } }),
      1,
    );
    assert.equal(c.err().split("\n").filter(Boolean).length, 1);
    assert.match(c.err(), /settings\.local\.json:2:3: .*left untouched/);
    assert.equal(readFileSync(file, "utf8"), fixture("invalid-comment.json"));
    assert.deepEqual(readdirSync(join(s.project, ".claude")), ["settings.local.json"]);
  });

  test("cliInstall() --user writes ~/.claude/settings.json, and warns about a project install of ours", () => {
    const s = setup();
    const env = { cwd: s.project, homeDir: s.home, env: { HOME: s.home }, now: s.now };
    assert.equal(cliInstall(["--command", s.binary], collector().io, env), 0);
    const c = collector();
    assert.equal(cliInstall(["--user", "--command", s.binary, "--workflows", "none"], c.io, env), 0);
    const user = JSON.parse(readFileSync(join(s.home, ".claude", "settings.json"), "utf8"));
    assert.equal(user.hooks.PreCompact[0].hooks[0].command, `${s.binary} pre-compact`);
    assert.match(c.err(), /registers rehydrate too/);
  });

  test("cliInstall() names a binary inside the project with $CLAUDE_PROJECT_DIR", () => {
    const s = setup();
    const inner = join(s.project, ".claude", "hooks", "rehydrate");
    mkdirSync(join(s.project, ".claude", "hooks"), { recursive: true });
    writeFileSync(inner, "");
    assert.equal(
      cliInstall(["--command", inner], collector().io, { cwd: s.project, homeDir: s.home, env: { HOME: s.home } }),
      0,
    );
    const v = JSON.parse(readFileSync(join(s.project, ".claude", "settings.local.json"), "utf8"));
    assert.equal(
      v.hooks.SessionStart[0].hooks[0].command,
      '"$CLAUDE_PROJECT_DIR"/.claude/hooks/rehydrate session-start',
    );
  });

  test("cliInstall() --write-config writes $schema and the detected workflow's keys once, never overwriting", () => {
    const s = setup();
    const env = { cwd: s.project, homeDir: s.home, env: { HOME: s.home } };
    assert.equal(cliInstall(["--command", s.binary, "--write-config"], collector().io, env), 0);
    const file = join(s.project, ".claude", "rehydrate.json");
    const config = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(config.$schema, "https://rehydrate.dev/schemas/config.v1.json");
    assert.ok("orchestration" in config && !("projects" in config) && !("dispatch" in config));
    writeFileSync(file, '{"debug": true}\n');
    const c = collector();
    assert.equal(cliInstall(["--command", s.binary, "--write-config"], c.io, env), 0);
    assert.match(c.out(), /exists, left as it is/);
    assert.equal(readFileSync(file, "utf8"), '{"debug": true}\n');
  });

  test("cliInstall() refuses bad usage with a line and a hint (exit 2), a missing project and a source run with one line (exit 1)", () => {
    const s = setup();
    const env = { cwd: s.project, homeDir: s.home, env: { HOME: s.home } };
    for (
      const [args, code] of [[["--user", "--project", "x"], 2], [["--shared", "--user"], 2], [
        ["--workflows", "nope"],
        2,
      ], [
        ["--bogus"],
        2,
      ], [[
        "--project",
        join(s.project, "missing"),
      ], 1], [[], 1]] as const
    ) {
      const c = collector();
      assert.equal(
        cliInstall([...args], c.io, { ...env, execPath: "/usr/bin/bun", moduleUrl: "file:///src/lib/cli/install.ts" }),
        code,
        args.join(" "),
      );
      const lines = c.err().split("\n").filter(Boolean);
      assert.equal(lines.length, code === 2 ? 2 : 1, args.join(" "));
      assert.match(lines[0], /^rehydrate install: [a-z-]/, args.join(" "));
      if (code === 2) assert.equal(lines[1], "Try 'rehydrate install --help'.");
    }
  });

  test("cliInstall() of a binary in npx's cache warns once and guards the commands; a lasting binary replaces them", () => {
    const s = setup();
    const npxBinary = join(s.home, ".npm", "_npx", "0a1b2c", "node_modules", "rehydrate", "bin", "rehydrate");
    mkdirSync(path.dirname(npxBinary), { recursive: true });
    writeFileSync(npxBinary, "#!/bin/sh\necho 0.1.0\n");
    chmodSync(npxBinary, 0o755);
    const env = { cwd: s.project, homeDir: s.home, env: { HOME: s.home }, now: s.now };
    const file = join(s.project, ".claude", "settings.local.json");
    const commands = () =>
      Object.values(JSON.parse(readFileSync(file, "utf8")).hooks as Record<string, { hooks: { command: string }[] }[]>)
        .flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));

    const c = collector();
    assert.equal(cliInstall(["--workflows", "none"], c.io, { ...env, execPath: npxBinary }), 0, c.err());
    const lines = c.err().split("\n").filter(Boolean);
    assert.equal(lines.length, 1, c.err());
    assert.match(lines[0], /^rehydrate install: warning: \S+_npx\S+ is in npx's cache, which npm cache npx rm --force/);
    assert.match(lines[0], /npm install -g rehydrate \(or install\.sh\) and run rehydrate install again$/);
    const real = realpathSync(npxBinary);
    assert.deepEqual(commands(), [
      `[ -x ${real} ] || exit 0; exec ${real} pre-compact`,
      `[ -x ${real} ] || exit 0; exec ${real} session-start`,
      `[ -x ${real} ] || exit 0; exec ${real} user-prompt-submit`,
      `[ -x ${real} ] || exit 0; exec ${real} session-checkpoint`,
    ]);
    if (process.platform !== "win32") {
      // As Claude Code runs it, after `npm cache npx rm --force`: silent, exit 0.
      rmSync(join(s.home, ".npm"), { recursive: true });
      // No `input`: Deno's spawnSync returns {} when the child exits before reading it (EPIPE).
      const run = spawnSync("/bin/sh", ["-c", commands()[0]], { encoding: "utf8" });
      assert.deepEqual([run.status, run.stdout, run.stderr], [0, "", ""]);
    }

    // `npm install -g rehydrate`, then `rehydrate install` again: the same entries, unguarded, no warning.
    const again = collector();
    assert.equal(cliInstall(["--command", s.binary, "--workflows", "none"], again.io, env), 0, again.err());
    assert.equal(again.err(), "");
    assert.match(again.out(), /updated PreCompact:pre-compact, /);
    assert.deepEqual(commands().map((cmd) => cmd.split(" ").pop()), [
      "pre-compact",
      "session-start",
      "user-prompt-submit",
      "session-checkpoint",
    ]);
    for (const cmd of commands()) assert.ok(cmd.startsWith(`${realpathSync(s.binary)} `), cmd);
  });

  test("cliUninstall() on a file without our hooks changes nothing and exits 0", () => {
    const s = setup();
    mkdirSync(join(s.project, ".claude"));
    writeFileSync(join(s.project, ".claude", "settings.json"), fixture("claude-code-style.json"));
    const c = collector();
    assert.equal(cliUninstall([], c.io, { cwd: s.project, homeDir: s.home, env: { HOME: s.home } }), 0);
    assert.match(c.out(), /Nothing to uninstall/);
    assert.deepEqual(readdirSync(join(s.project, ".claude")), ["settings.json"]);
  });

  test("every verb answers --help with examples", () => {
    for (const verb of [cliInstall, cliUninstall]) {
      const c = collector();
      assert.equal(verb(["--help"], c.io), 0);
      assert.match(c.out(), /^Usage: rehydrate /);
      assert.match(c.out(), /Examples:\n {2}rehydrate /);
    }
  });
});
