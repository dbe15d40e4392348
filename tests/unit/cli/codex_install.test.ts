// `rehydrate install|uninstall|doctor --agent codex` (lib/cli/_codex_*.ts) on a copy of the
// CODEX_HOME the real Codex 0.171.0 client left in tests/fixtures/codex-0.171.0/codex-home: the
// trust hash the client computes, reproduced from the hashes it wrote itself; hooks.json and
// config.toml written and taken back byte for byte; the trust of other hooks kept, moved when
// ours leave their place; a config.toml rehydrate cannot edit safely left alone.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliInstall } from "../../../lib/cli/install.ts";
import { cliUninstall } from "../../../lib/cli/uninstall.ts";
import { cliDoctor } from "../../../lib/cli/doctor.ts";
import { codexHandlers, codexHookHash } from "../../../lib/cli/_codex_trust.ts";
import { projectTrusted, removeTrustedHashes, setTrustedHashes, trustedHashes } from "../../../lib/cli/_codex_toml.ts";
import { takeAgent } from "../../../lib/cli/_install_detect.ts";

const HOME_FIXTURE = join(import.meta.dirname!, "..", "..", "fixtures", "codex-0.171.0", "codex-home");
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function collector() {
  let out = "";
  let err = "";
  return {
    io: { out: (t: string) => void (out += t), err: (t: string) => void (err += t) },
    out: () => out,
    err: () => err,
  };
}

/** A HOME with a copy of the captured CODEX_HOME (its paths this copy's) and a project. */
function machine(): { home: string; codex: string; project: string; binary: string; env: Record<string, string> } {
  const home = mkdtempSync(join(tmpdir(), "rehydrate-codex-install-"));
  made.push(home);
  const codex = join(home, ".codex");
  mkdirSync(codex);
  const project = join(home, "work", "demo-proj");
  mkdirSync(project, { recursive: true });
  for (const name of readdirSync(HOME_FIXTURE)) {
    const text = readFileSync(join(HOME_FIXTURE, name), "utf8")
      .replaceAll("/home/dev/.codex", codex).replaceAll("/home/dev/work/demo-proj", project);
    writeFileSync(join(codex, name), text);
  }
  const binary = join(home, "bin", "rehydrate");
  mkdirSync(join(home, "bin"));
  writeFileSync(binary, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return { home, codex, project, binary, env: { HOME: home } };
}

function run(
  verb: typeof cliInstall | typeof cliUninstall,
  args: string[],
  m: { home: string; project: string; env: Record<string, string> },
) {
  const c = collector();
  const code = verb(args, c.io, { cwd: m.project, homeDir: m.home, env: m.env, now: new Date("2026-11-28T16:00:00Z") });
  return { code, out: c.out(), err: c.err() };
}

describe("the trust hash Codex checks", () => {
  test("codexHookHash() gives the hashes the client wrote for the captured hooks.json", () => {
    const text = readFileSync(join(HOME_FIXTURE, "hooks.json"), "utf8");
    const trusted = trustedHashes(readFileSync(join(HOME_FIXTURE, "config.toml"), "utf8"));
    const handlers = codexHandlers(text, "/home/dev/.codex/hooks.json");
    assert.equal(handlers.length, 12);
    for (const h of handlers) assert.equal(h.hash, trusted.get(h.key), h.key);
  });

  test("codexHookHash() gives the hashes the client wrote for a matcher, a timeout and neither", () => {
    // Written by the interactive client's "Trust all and continue" while developing issue #40.
    const start = { type: "command", command: "/tmp/cx/dump.sh SessionStart", timeout: 30 };
    assert.equal(
      codexHookHash("SessionStart", "startup|resume|clear|compact", start),
      "sha256:cb0d4fe31244e4ac14e98095c1fd3ca99ff99dcfacf3cbe6034a7efcf4402a5f",
    );
    assert.equal(
      codexHookHash("PreCompact", undefined, { type: "command", command: "/tmp/cx/dump.sh PreCompact" }),
      "sha256:758c351aefe9cffab0276a8f621e8f433d4b0ea4408c85e52e3065ae69adedbc",
    );
    // UserPromptSubmit takes no matcher: it is left out of the hash.
    const prompt = { type: "command", command: "x" };
    assert.equal(codexHookHash("UserPromptSubmit", "a", prompt), codexHookHash("UserPromptSubmit", undefined, prompt));
    assert.notEqual(codexHookHash("PreCompact", "a", prompt), codexHookHash("PreCompact", undefined, prompt));
  });
});

describe("config.toml, edited as text", () => {
  test("setTrustedHashes() appends a table, then replaces its value; removeTrustedHashes() gives the text back", () => {
    const original = '# mine\nmodel = "gpt-5.5"\n\n[tui]\nx = 1\n';
    const one = setTrustedHashes(original, [{ key: "/w/hooks.json:pre_compact:0:0", hash: "sha256:aa" }]);
    assert.ok("text" in one);
    assert.equal(
      one.text,
      original + '\n[hooks.state."/w/hooks.json:pre_compact:0:0"]\ntrusted_hash = "sha256:aa"\n',
    );
    const two = setTrustedHashes(one.text, [{ key: "/w/hooks.json:pre_compact:0:0", hash: "sha256:bb" }]);
    assert.ok("text" in two);
    assert.equal(trustedHashes(two.text).get("/w/hooks.json:pre_compact:0:0"), "sha256:bb");
    assert.equal(two.text.split("[hooks.state").length, 2);
    const back = removeTrustedHashes(two.text, ["/w/hooks.json:pre_compact:0:0"]);
    assert.deepEqual(back, { text: original });
  });

  test("CRLF stays CRLF, and a table's other keys stay when its hash changes", () => {
    const text = '[hooks.state."k"]\r\nenabled = true\r\ntrusted_hash = "sha256:aa" # old\r\n';
    const set = setTrustedHashes(text, [{ key: "k", hash: "sha256:cc" }]);
    assert.deepEqual(set, { text: '[hooks.state."k"]\r\nenabled = true\r\ntrusted_hash = "sha256:cc" # old\r\n' });
  });

  test("a file that defines hooks.state another way is refused, not edited", () => {
    for (
      const text of [
        "[hooks]\nstate = {}\n",
        'hooks.state."k".trusted_hash = "x"\n',
        '[hooks.state]\n"k" = { trusted_hash = "sha256:aa" }\n',
        "hooks = { }\n",
      ]
    ) {
      const r = setTrustedHashes(text, [{ key: "k", hash: "sha256:bb" }]);
      assert.ok("error" in r, text);
    }
  });

  test("projectTrusted() reads the project's trust_level", () => {
    assert.equal(projectTrusted('[projects."/w"]\ntrust_level = "trusted"\n', "/w"), true);
    assert.equal(projectTrusted('[projects."/w"]\ntrust_level = "untrusted"\n', "/w"), false);
    assert.equal(projectTrusted('[projects."/x"]\ntrust_level = "trusted"\n', "/w"), false);
    assert.equal(projectTrusted(null, "/w"), false);
  });
});

describe("install and uninstall on a copy of a real ~/.codex", () => {
  test("a project install writes .codex/hooks.json and its trust; uninstall gives config.toml back byte for byte", () => {
    const m = machine();
    const config = readFileSync(join(m.codex, "config.toml"), "utf8");
    const userHooks = readFileSync(join(m.codex, "hooks.json"), "utf8");
    const r = run(cliInstall, ["--agent", "codex", "--command", m.binary], m);
    assert.equal(r.code, 0, r.err);
    const hooksFile = join(m.project, ".codex", "hooks.json");
    const hooks = JSON.parse(readFileSync(hooksFile, "utf8"));
    assert.deepEqual(Object.keys(hooks.hooks), ["PreCompact", "SessionStart", "UserPromptSubmit"]);
    assert.equal(hooks.hooks.SessionStart[0].hooks[0].command, `${m.binary} session-start --agent codex`);
    const trusted = trustedHashes(readFileSync(join(m.codex, "config.toml"), "utf8"));
    for (const h of codexHandlers(readFileSync(hooksFile, "utf8"), hooksFile)) {
      assert.equal(trusted.get(h.key), h.hash, h.key);
    }
    // The client's own entries are untouched.
    assert.equal(readFileSync(join(m.codex, "hooks.json"), "utf8"), userHooks);
    for (const [key, hash] of trustedHashes(config)) assert.equal(trusted.get(key), hash);

    const again = run(cliInstall, ["--agent", "codex", "--command", m.binary], m);
    assert.match(again.out, /Already installed/);
    assert.match(again.out, /Already trusted/);

    const u = run(cliUninstall, ["--agent", "codex"], m);
    assert.equal(u.code, 0, u.err);
    assert.equal(readFileSync(join(m.codex, "config.toml"), "utf8"), config);
    assert.ok(!existsSync(join(m.project, ".codex")));
  });

  test("a user install goes after the client's hooks; uninstall gives both files back byte for byte", () => {
    const m = machine();
    const config = readFileSync(join(m.codex, "config.toml"), "utf8");
    const userHooks = readFileSync(join(m.codex, "hooks.json"), "utf8");
    const r = run(cliInstall, ["--agent", "codex", "--user", "--command", m.binary], m);
    assert.equal(r.code, 0, r.err);
    const file = join(m.codex, "hooks.json");
    const ours = codexHandlers(readFileSync(file, "utf8"), file).filter((h) => h.command.startsWith(m.binary));
    assert.deepEqual(ours.map((h) => [h.event, h.group, h.index]), [
      ["PreCompact", 1, 0],
      ["SessionStart", 1, 0],
      ["UserPromptSubmit", 1, 0],
    ]);
    const u = run(cliUninstall, ["--agent", "codex", "--user"], m);
    assert.equal(u.code, 0, u.err);
    assert.equal(readFileSync(file, "utf8"), userHooks);
    assert.equal(readFileSync(join(m.codex, "config.toml"), "utf8"), config);
  });

  test("uninstall moves the trust of a hook that ours stood before", () => {
    const m = machine();
    rmSync(join(m.codex, "hooks.json"));
    assert.equal(run(cliInstall, ["--agent", "codex", "--user", "--command", m.binary], m).code, 0);
    // The user adds a hook after ours and trusts it (as Codex's review would).
    const file = join(m.codex, "hooks.json");
    const value = JSON.parse(readFileSync(file, "utf8"));
    value.hooks.PreCompact.push({ hooks: [{ type: "command", command: "notify-send compacting", timeout: 5 }] });
    writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
    const theirs = codexHandlers(readFileSync(file, "utf8"), file).find((h) => h.command.startsWith("notify-send"))!;
    assert.equal(theirs.group, 1);
    const trust = setTrustedHashes(readFileSync(join(m.codex, "config.toml"), "utf8"), [theirs]);
    assert.ok("text" in trust);
    writeFileSync(join(m.codex, "config.toml"), trust.text);

    assert.equal(run(cliUninstall, ["--agent", "codex", "--user"], m).code, 0);
    const moved = codexHandlers(readFileSync(file, "utf8"), file).find((h) => h.command.startsWith("notify-send"))!;
    assert.equal(moved.group, 0);
    const trusted = trustedHashes(readFileSync(join(m.codex, "config.toml"), "utf8"));
    assert.equal(trusted.get(moved.key), moved.hash);
    assert.equal(trusted.get(theirs.key), undefined);
  });

  test("a config.toml it cannot edit safely fails the install with both files untouched", () => {
    const m = machine();
    writeFileSync(join(m.codex, "config.toml"), "[hooks]\nstate = {}\n");
    const r = run(cliInstall, ["--agent", "codex", "--command", m.binary], m);
    assert.equal(r.code, 1);
    assert.equal(r.err.split("\n").filter((l) => l !== "").length, 1);
    assert.ok(!existsSync(join(m.project, ".codex", "hooks.json")));
    assert.equal(readFileSync(join(m.codex, "config.toml"), "utf8"), "[hooks]\nstate = {}\n");
  });

  test("--dry-run writes nothing, and an untrusted project is named", () => {
    const m = machine();
    const other = join(m.home, "elsewhere");
    mkdirSync(other);
    const before = readFileSync(join(m.codex, "config.toml"), "utf8");
    const dry = run(cliInstall, ["--agent", "codex", "--command", m.binary, "--dry-run"], m);
    assert.equal(dry.code, 0);
    assert.ok(
      dry.out.split("\n").includes(`+            "command": "${m.binary} pre-compact --agent codex",`),
      dry.out,
    );
    assert.equal(readFileSync(join(m.codex, "config.toml"), "utf8"), before);
    const r = run(cliInstall, ["--agent", "codex", "--command", m.binary, "--project", other], m);
    assert.match(r.out, /only in a trusted project/);
  });

  test("doctor --agent codex passes an install and fails a hook the config does not trust", () => {
    const m = machine();
    assert.equal(run(cliInstall, ["--agent", "codex", "--command", m.binary], m).code, 0);
    const doctor = (): { code: number; out: string } => {
      const c = collector();
      const code = cliDoctor(["--agent", "codex", "--json"], c.io, { cwd: m.project, homeDir: m.home, env: m.env });
      return { code: code as number, out: c.out() };
    };
    const ok = JSON.parse(doctor().out);
    const trust = ok.checks.filter((c: { area: string }) => c.area === "trust");
    assert.deepEqual(trust.map((c: { status: string }) => c.status), ["pass", "pass", "pass"]);
    const file = join(m.project, ".codex", "hooks.json");
    const key = codexHandlers(readFileSync(file, "utf8"), file)[0].key;
    const removed = removeTrustedHashes(readFileSync(join(m.codex, "config.toml"), "utf8"), [key]);
    assert.ok("text" in removed);
    writeFileSync(join(m.codex, "config.toml"), removed.text);
    const bad = doctor();
    assert.equal(bad.code, 1);
    assert.ok(
      JSON.parse(bad.out).checks.some((c: { status: string; area: string }) =>
        c.status === "fail" && c.area === "trust"
      ),
    );
  });
});

describe("--agent", () => {
  test("takeAgent() takes the client out of the arguments, and refuses an unknown one", () => {
    assert.deepEqual(takeAgent(["--agent", "codex", "--user"]), { agent: "codex", rest: ["--user"] });
    assert.deepEqual(takeAgent(["--agent=claude"]), { agent: "claude", rest: [] });
    assert.deepEqual(takeAgent(["--shared"]), { agent: "claude", rest: ["--shared"] });
    assert.ok("error" in takeAgent(["--agent", "vim"]));
    assert.ok("error" in takeAgent(["--agent"]));
  });

  test("install --agent with an unknown client is a usage error (exit 2, one line and the hint)", () => {
    const m = machine();
    const r = run(cliInstall, ["--agent", "vim"], m);
    assert.equal(r.code, 2);
    assert.match(
      r.err,
      /^rehydrate install: unknown agent "vim"; one of claude, codex\nTry 'rehydrate install --help'\.\n$/,
    );
  });
});
