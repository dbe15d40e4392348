import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliInstall } from "../../../lib/cli/install.ts";
import { cliUninstall } from "../../../lib/cli/uninstall.ts";

function setup() {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-slash-"));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const binary = join(root, "bin", "rehydrate");
  mkdirSync(join(root, "bin"));
  writeFileSync(binary, "#!/bin/sh\necho 0.1.0\n");
  chmodSync(binary, 0o755);
  const env = { cwd: project, homeDir: home, env: { HOME: home, PATH: "/nonexistent" }, now: new Date() };
  const run = (verb: typeof cliInstall | typeof cliUninstall, args: string[]) => {
    let out = "";
    let err = "";
    const code = verb(args, { out: (t) => void (out += t), err: (t) => void (err += t) }, env);
    return { code, out, err };
  };
  return { project, home, binary, run };
}

describe("/rehydrate-last", () => {
  test("install offers it; --slash-command writes it, running the hooks' binary; uninstall takes it away with .claude/", () => {
    const s = setup();
    const plain = s.run(cliInstall, ["--command", s.binary]);
    assert.match(plain.out, /^Tip: rehydrate install --slash-command adds \/rehydrate-last/m);
    const file = join(s.project, ".claude", "commands", "rehydrate-last.md");
    assert.equal(existsSync(file), false);
    const r = s.run(cliInstall, ["--command", s.binary, "--slash-command"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^Slash command: \/rehydrate-last in .*rehydrate-last\.md: type it in Claude Code/m);
    const text = readFileSync(file, "utf8");
    assert.ok(text.includes(`\n!\`${s.binary} status --last\`\n`), text);
    assert.ok(text.includes(`allowed-tools: Bash(${s.binary} status --last)\n`), text);
    assert.match(s.run(cliInstall, ["--command", s.binary, "--slash-command"]).out, /already in/);
    const u = s.run(cliUninstall, []);
    assert.equal(u.code, 0, u.err);
    assert.match(u.out, /^Removed .*rehydrate-last\.md \(\/rehydrate-last\)$/m);
    assert.equal(existsSync(join(s.project, ".claude")), false, "nothing of ours is left in the project");
  });

  test("a command file of the user's own with that name is left as it is, and uninstall keeps it", () => {
    const s = setup();
    mkdirSync(join(s.project, ".claude", "commands"), { recursive: true });
    const file = join(s.project, ".claude", "commands", "rehydrate-last.md");
    writeFileSync(file, "mine\n");
    assert.match(
      s.run(cliInstall, ["--command", s.binary, "--slash-command"]).out,
      /is not rehydrate's: left as it is/,
    );
    s.run(cliUninstall, []);
    assert.equal(readFileSync(file, "utf8"), "mine\n");
  });
});
