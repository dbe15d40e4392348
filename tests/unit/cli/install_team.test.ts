// The team-safe install: a local file by default, a shared file whose commands work (or stay
// silent) on every machine, workflows kept across reinstalls, three backups, and an uninstall that
// leaves nothing it created.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliInstall } from "../../../lib/cli/install.ts";
import { cliUninstall } from "../../../lib/cli/uninstall.ts";
import { commandHook, hookCommand, listOurEntries, unguard, workflowsOf } from "../../../lib/cli/_install_plan.ts";
import { settingsPath } from "../../../lib/cli/_install_detect.ts";

function collector(): { io: { out(t: string): void; err(t: string): void }; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return { io: { out: (t) => void (out += t), err: (t) => void (err += t) }, out: () => out, err: () => err };
}

function setup(): {
  root: string;
  home: string;
  project: string;
  binary: string;
  env: { cwd: string; homeDir: string; env: Record<string, string>; now: Date };
} {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-install-team-"));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const binary = join(root, "bin", "rehydrate");
  mkdirSync(join(root, "bin"));
  writeFileSync(binary, "#!/bin/sh\necho 0.1.0\n");
  chmodSync(binary, 0o755);
  return {
    root,
    home,
    project,
    binary,
    env: {
      cwd: project,
      homeDir: home,
      env: { HOME: home, PATH: "/nonexistent" },
      now: new Date("2026-03-04T05:06:07Z"),
    },
  };
}

const at = (s: number) => new Date(Date.UTC(2026, 2, 4, 5, 6, s));

describe("guarded commands", () => {
  test("hookCommand() guards a name on PATH with command -v and a path with [ -x ], and exec keeps the exit code", () => {
    assert.equal(hookCommand("/opt/rehydrate", "stop"), "/opt/rehydrate stop");
    assert.equal(
      hookCommand("rehydrate", "stop", { guarded: true }),
      "command -v rehydrate >/dev/null 2>&1 || exit 0; exec rehydrate stop",
    );
    assert.equal(
      hookCommand('"$CLAUDE_PROJECT_DIR"/bin/rehydrate', "pre-compact", { guarded: true }),
      '[ -x "$CLAUDE_PROJECT_DIR"/bin/rehydrate ] || exit 0; exec "$CLAUDE_PROJECT_DIR"/bin/rehydrate pre-compact',
    );
  });

  test("unguard() and commandHook() recognise both guards, and not a guard that tests another binary", () => {
    for (
      const prefix of ["rehydrate", '"$CLAUDE_PROJECT_DIR"/bin/rehydrate', '"$CLAUDE_PROJECT_DIR/my tools/rehydrate"']
    ) {
      const command = hookCommand(prefix, "session-start", { guarded: true });
      assert.deepEqual(unguard(command), { command: `${prefix} session-start`, guarded: true });
      assert.equal(commandHook(command, []), "session-start", command);
    }
    const other = "command -v jq >/dev/null 2>&1 || exit 0; exec rehydrate stop";
    assert.deepEqual(unguard(other), { command: other, guarded: false });
    assert.equal(commandHook(other, []), null);
    assert.equal(commandHook("[ -x rehydrate ] || exit 0; exec rehydrate stop now", []), null);
  });

  test("listOurEntries() marks guarded entries", () => {
    const text = JSON.stringify({
      hooks: {
        Stop: [{ hooks: [{ type: "command", command: hookCommand("rehydrate", "stop", { guarded: true }) }] }],
        PreCompact: [{ hooks: [{ type: "command", command: "/x/rehydrate pre-compact" }] }],
      },
    });
    const listed = listOurEntries(text);
    assert.ok("entries" in listed);
    assert.deepEqual(listed.entries.map((e) => [e.hook, e.guarded]), [["stop", true], ["pre-compact", false]]);
  });

  test("workflowsOf() reads the workflows back from the entries they registered", () => {
    assert.deepEqual(workflowsOf([{ hook: "pre-compact", matcher: "manual|auto" }]), []);
    assert.deepEqual(
      workflowsOf([{ hook: "post-compact" }, { hook: "post-tool-use", matcher: "Write|Edit|MultiEdit" }]),
      [
        "orchestration",
      ],
    );
    assert.deepEqual(
      workflowsOf([{ hook: "pre-tool-use", matcher: "*" }, { hook: "post-tool-use", matcher: "Skill" }]),
      [
        "dispatch",
      ],
    );
    // PreToolUse and Stop alone come from reread.enforce, which the config says again at each install.
    assert.deepEqual(workflowsOf([{ hook: "pre-tool-use", matcher: "*" }, { hook: "stop" }]), []);
    assert.deepEqual(
      workflowsOf([{ hook: "post-tool-use", matcher: "Write|Edit|MultiEdit|Skill" }, { hook: "stop" }]),
      ["orchestration", "dispatch"],
    );
  });

  test("settingsPath() names the local, shared and user files", () => {
    const dirs = { projectDir: "/w", homeDir: "/h" };
    assert.equal(settingsPath("local", dirs), join("/w", ".claude", "settings.local.json"));
    assert.equal(settingsPath("shared", dirs), join("/w", ".claude", "settings.json"));
    assert.equal(settingsPath("user", dirs), join("/h", ".claude", "settings.json"));
  });
});

describe("cliInstall() scopes", () => {
  test("the default writes .claude/settings.local.json with this machine's path and leaves settings.json alone", () => {
    const s = setup();
    const c = collector();
    assert.equal(cliInstall(["--command", s.binary], c.io, s.env), 0, c.err());
    assert.deepEqual(readdirSync(join(s.project, ".claude")), ["settings.local.json"]);
    const v = JSON.parse(readFileSync(join(s.project, ".claude", "settings.local.json"), "utf8"));
    assert.equal(v.hooks.PreCompact[0].hooks[0].command, `${s.binary} pre-compact`);
    assert.ok(!c.out().includes("Note:"), "not a git checkout: nothing to say");
  });

  test("a new settings.local.json in a git checkout that does not ignore it gets a note, once", () => {
    const s = setup();
    mkdirSync(join(s.project, ".git"));
    const c = collector();
    assert.equal(cliInstall(["--command", s.binary], c.io, s.env), 0, c.err());
    assert.match(c.out(), /^Note: \.claude\/settings\.local\.json names this machine's binary; keep it out of git/m);
    const again = collector();
    assert.equal(cliInstall(["--command", s.binary, "--workflows", "dispatch"], again.io, s.env), 0);
    assert.ok(!again.out().includes("Note:"));
    const ignored = setup();
    mkdirSync(join(ignored.project, ".git"));
    writeFileSync(join(ignored.project, ".gitignore"), "node_modules\n.claude/settings.local.json\n");
    const quiet = collector();
    assert.equal(cliInstall(["--command", ignored.binary], quiet.io, ignored.env), 0);
    assert.ok(!quiet.out().includes("Note:"));
  });

  test("--shared writes settings.json with guarded commands and no path of this machine, and warns when PATH lacks it", () => {
    const s = setup();
    const c = collector();
    assert.equal(cliInstall(["--shared", "--command", s.binary], c.io, s.env), 0, c.err());
    const text = readFileSync(join(s.project, ".claude", "settings.json"), "utf8");
    assert.ok(!text.includes(s.root), text);
    assert.equal(
      JSON.parse(text).hooks.SessionStart[0].hooks[0].command,
      "command -v rehydrate >/dev/null 2>&1 || exit 0; exec rehydrate session-start",
    );
    assert.match(c.err(), /^rehydrate install: warning: rehydrate is not on PATH here/m);
    const onPath = collector();
    assert.equal(
      cliInstall(["--shared", "--command", s.binary], onPath.io, {
        ...s.env,
        env: { HOME: s.home, PATH: join(s.root, "bin") },
      }),
      0,
    );
    assert.equal(onPath.err(), "");
    assert.match(onPath.out(), /Already installed/);
  });

  test("--shared names a binary inside the project through $CLAUDE_PROJECT_DIR behind [ -x ]", () => {
    const s = setup();
    mkdirSync(join(s.project, "tools"));
    const inner = join(s.project, "tools", "rehydrate");
    writeFileSync(inner, "#!/bin/sh\n");
    chmodSync(inner, 0o755);
    assert.equal(cliInstall(["--shared", "--command", inner], collector().io, s.env), 0);
    const v = JSON.parse(readFileSync(join(s.project, ".claude", "settings.json"), "utf8"));
    assert.equal(
      v.hooks.UserPromptSubmit[0].hooks[0].command,
      '[ -x "$CLAUDE_PROJECT_DIR"/tools/rehydrate ] || exit 0; exec "$CLAUDE_PROJECT_DIR"/tools/rehydrate user-prompt-submit',
    );
  });

  test("--shared from a project-local npm install names node_modules/.bin/rehydrate, else rehydrate on PATH (issue #36, I3)", () => {
    const s = setup();
    const platform = join(s.project, "node_modules", "@rehydrate", "linux-x64", "bin");
    mkdirSync(platform, { recursive: true });
    const native = join(platform, "rehydrate");
    writeFileSync(native, "#!/bin/sh\n");
    chmodSync(native, 0o755);
    assert.equal(cliInstall(["--shared", "--command", native], collector().io, s.env), 0);
    const command = () =>
      JSON.parse(readFileSync(join(s.project, ".claude", "settings.json"), "utf8")).hooks.SessionStart[0].hooks[0]
        .command;
    assert.equal(command(), "command -v rehydrate >/dev/null 2>&1 || exit 0; exec rehydrate session-start");
    mkdirSync(join(s.project, "node_modules", ".bin"));
    writeFileSync(join(s.project, "node_modules", ".bin", "rehydrate"), "#!/bin/sh\n");
    assert.equal(cliInstall(["--shared", "--command", native], collector().io, s.env), 0);
    assert.equal(
      command(),
      '[ -x "$CLAUDE_PROJECT_DIR"/node_modules/.bin/rehydrate ] || exit 0; exec "$CLAUDE_PROJECT_DIR"/node_modules/.bin/rehydrate session-start',
    );
    assert.ok(!readFileSync(join(s.project, ".claude", "settings.json"), "utf8").includes("@rehydrate"));
  });

  test("--shared rewrites the absolute entries of an old install in place", () => {
    const s = setup();
    mkdirSync(join(s.project, ".claude"));
    const file = join(s.project, ".claude", "settings.json");
    const old = {
      permissions: { allow: ["Read"] },
      hooks: {
        PreCompact: [{
          matcher: "manual|auto",
          hooks: [{ type: "command", command: `${s.binary} pre-compact`, timeout: 60 }],
        }],
      },
    };
    writeFileSync(file, JSON.stringify(old, null, 2) + "\n");
    const c = collector();
    assert.equal(cliInstall(["--shared", "--command", s.binary], c.io, s.env), 0, c.err());
    assert.match(c.out(), /updated PreCompact:pre-compact/);
    const v = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(v.hooks.PreCompact.length, 1);
    assert.deepEqual(v.permissions, { allow: ["Read"] });
    assert.ok(!readFileSync(file, "utf8").includes(s.root));
  });

  test("a reinstall without --workflows keeps the workflows installed before; --workflows replaces them, the config's hooks stay", () => {
    const s = setup();
    mkdirSync(join(s.project, ".claude"));
    const config = join(s.project, ".claude", "rehydrate.json");
    writeFileSync(config, JSON.stringify({ reread: { enforce: true } }));
    assert.equal(
      cliInstall(["--command", s.binary, "--workflows", "projects,orchestration"], collector().io, s.env),
      0,
    );
    const file = join(s.project, ".claude", "settings.local.json");
    const hooks = () => Object.keys(JSON.parse(readFileSync(file, "utf8")).hooks).sort();
    const all = ["PostCompact", "PostToolUse", "PreCompact", "PreToolUse", "SessionStart", "Stop", "UserPromptSubmit"];
    assert.deepEqual(hooks(), all);
    const again = collector();
    assert.equal(cliInstall(["--command", s.binary], again.io, { ...s.env, now: at(8) }), 0, again.err());
    assert.match(again.out(), /orchestration \(installed before; --workflows replaces the list\)/);
    assert.match(
      again.out(),
      /^Hooks the config asks for: PreToolUse, Stop \(re-read\) \(reread\.enforce: true in .*rehydrate\.json\)$/m,
    );
    assert.match(again.out(), /Already installed/);
    assert.deepEqual(hooks(), all);
    // reread.enforce: true keeps PreToolUse and Stop whatever --workflows says.
    assert.equal(cliInstall(["--command", s.binary, "--workflows", "none"], collector().io, s.env), 0);
    assert.deepEqual(hooks(), ["PreCompact", "PreToolUse", "SessionStart", "Stop", "UserPromptSubmit"]);
    writeFileSync(config, JSON.stringify({ reread: { enforce: "auto" } }));
    assert.equal(
      cliInstall(["--command", s.binary, "--workflows", "none"], collector().io, { ...s.env, now: at(9) }),
      0,
    );
    assert.deepEqual(hooks(), ["PreCompact", "SessionStart", "Stop", "UserPromptSubmit"]);
  });

  test("the newest 3 backups are kept beside the file, older ones (also an old version's) deleted", () => {
    const s = setup();
    mkdirSync(join(s.project, ".claude"));
    const file = join(s.project, ".claude", "settings.local.json");
    writeFileSync(file, '{"model": "x"}\n');
    writeFileSync(`${file}.bak-20250101T000000Z`, "{}\n");
    const lists = ["orchestration", "dispatch", "none", "projects,dispatch", "orchestration"];
    lists.forEach((w, i) => {
      assert.equal(cliInstall(["--command", s.binary, "--workflows", w], collector().io, { ...s.env, now: at(i) }), 0);
    });
    assert.deepEqual(readdirSync(join(s.project, ".claude")).sort(), [
      "settings.local.json",
      "settings.local.json.bak-20260304T050602Z",
      "settings.local.json.bak-20260304T050603Z",
      "settings.local.json.bak-20260304T050604Z",
    ]);
  });
});

describe("cliUninstall() leaves nothing it created", () => {
  test("install (local and shared), reinstall, uninstall: no file, no backup, no .claude folder left", () => {
    const s = setup();
    assert.equal(
      cliInstall(["--command", s.binary, "--workflows", "dispatch"], collector().io, { ...s.env, now: at(1) }),
      0,
    );
    assert.equal(
      cliInstall(["--command", s.binary, "--workflows", "none"], collector().io, { ...s.env, now: at(2) }),
      0,
    );
    assert.equal(cliInstall(["--shared", "--command", s.binary], collector().io, { ...s.env, now: at(3) }), 0);
    assert.ok(readdirSync(join(s.project, ".claude")).some((n) => n.includes(".bak-")));
    const c = collector();
    assert.equal(cliUninstall([], c.io, { ...s.env, now: at(4) }), 0, c.err());
    assert.match(c.out(), /settings\.local\.json: removed .*; the file held nothing else: deleted/);
    assert.match(c.out(), /settings\.json: removed .*; the file held nothing else: deleted/);
    assert.equal(existsSync(join(s.project, ".claude")), false);
    const again = collector();
    assert.equal(cliUninstall([], again.io, s.env), 0);
    assert.match(again.out(), /^Nothing to uninstall: no .*settings\.local\.json or .*settings\.json$/m);
  });

  test("uninstall keeps a file with the user's own keys, writes a backup, and keeps backups that held them", () => {
    const s = setup();
    mkdirSync(join(s.project, ".claude"));
    const file = join(s.project, ".claude", "settings.local.json");
    writeFileSync(file, '{\n  "permissions": {"allow": ["Read"]}\n}\n');
    writeFileSync(join(s.project, ".claude", "CLAUDE.md"), "mine\n");
    assert.equal(cliInstall(["--command", s.binary], collector().io, { ...s.env, now: at(1) }), 0);
    assert.equal(cliUninstall(["--local"], collector().io, { ...s.env, now: at(2) }), 0);
    assert.equal(readFileSync(file, "utf8"), '{\n  "permissions": {"allow": ["Read"]}\n}\n');
    assert.deepEqual(readdirSync(join(s.project, ".claude")).sort(), [
      "CLAUDE.md",
      "settings.local.json",
      "settings.local.json.bak-20260304T050601Z",
      "settings.local.json.bak-20260304T050602Z",
    ]);
  });

  test("--shared and --local pick one file; a dry run says the file would be deleted and writes nothing", () => {
    const s = setup();
    assert.equal(cliInstall(["--command", s.binary], collector().io, s.env), 0);
    assert.equal(cliInstall(["--shared", "--command", s.binary], collector().io, s.env), 0);
    const dry = collector();
    assert.equal(cliUninstall(["--shared", "--dry-run"], dry.io, s.env), 0);
    assert.match(dry.out(), /^\+\+\+ b\/\.claude\/settings\.json$/m);
    assert.match(dry.out(), /and delete the file/);
    assert.equal(cliUninstall(["--shared"], collector().io, s.env), 0);
    assert.deepEqual(readdirSync(join(s.project, ".claude")), ["settings.local.json"]);
    const bad = collector();
    assert.equal(cliUninstall(["--shared", "--local"], bad.io, s.env), 2);
    assert.equal(
      bad.err(),
      "rehydrate uninstall: --shared and --local exclude each other\nTry 'rehydrate uninstall --help'.\n",
    );
  });
});
