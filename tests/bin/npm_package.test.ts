// The npm packages (docs/release.md, "npm packages"), offline: scripts/npm-pack.ts packs the
// `rehydrate` package and the host platform's `@rehydrate/<os>-<arch>` from the host build in
// dist/, `npm install --offline` puts both into a temporary prefix with the registry pointed at a
// closed port on 127.0.0.1, and then `npx rehydrate --version` and `rehydrate install` run through
// the Node shim. The hooks that install registers must call the native binary itself: they run
// here with a PATH that has no Node on it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, ROOT } from "./_bin.ts";

const WINDOWS = process.platform === "win32";
const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
// Every release target's package, in Node's names for os and cpu (an oracle for npm-pack.ts).
const PLATFORM_PACKAGES = [
  "linux-x64",
  "linux-arm64",
  "linux-x64-musl",
  "linux-arm64-musl",
  "darwin-x64",
  "darwin-arm64",
  "win32-x64",
].map((p) => `@rehydrate/${p}`);

function hostMusl(): boolean {
  if (process.platform !== "linux") return false;
  if (readdirSync("/lib").some((f) => f.startsWith("ld-musl-"))) return true;
  const r = spawnSync("ldd", ["--version"], { encoding: "utf8" });
  return `${r.stdout}${r.stderr}`.includes("musl");
}

/** build.ts's name for the host (`windows-x64`) and the npm package's (`win32-x64`). */
const HOST_TARGET = `${WINDOWS ? "windows" : process.platform}-${process.arch}${hostMusl() ? "-musl" : ""}`;
const HOST_PACKAGE = `@rehydrate/${process.platform}-${process.arch}${hostMusl() ? "-musl" : ""}`;

const NPM_MISSING = spawnSync(WINDOWS ? "npm.cmd" : "npm", ["--version"], { shell: WINDOWS }).status !== 0;
const SKIP = NPM_MISSING ? "npm is not on PATH" : false;

let dir = "";
let prefix = "";
/** npm's settings for every run: no registry to reach, no cache or npmrc of the user's. */
let npmEnv: Record<string, string | undefined> = {};

/** A .cmd runs only through a shell on Windows, which splits unquoted arguments at spaces. */
function quoted(args: string[]): string[] {
  return WINDOWS ? args.map((a) => (/\s/.test(a) ? `"${a}"` : a)) : args;
}

function npm(args: string[], cwd = dir): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(WINDOWS ? "npm.cmd" : "npm", quoted(args), {
    cwd,
    env: npmEnv as NodeJS.ProcessEnv,
    encoding: "utf8",
    shell: WINDOWS,
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** The `rehydrate` command npm linked into the prefix (the Node shim). */
function shim(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
  const path = join(prefix, "node_modules", ".bin", WINDOWS ? "rehydrate.cmd" : "rehydrate");
  const r = spawnSync(quoted([path])[0], quoted(args), {
    cwd: options.cwd ?? dir,
    env: (options.env ?? npmEnv) as NodeJS.ProcessEnv,
    encoding: "utf8",
    shell: WINDOWS,
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** Every hook command `rehydrate install` wrote into the project's settings files. */
function hookCommands(project: string): string[] {
  const commands: string[] = [];
  for (const file of ["settings.json", "settings.local.json"]) {
    const path = join(project, ".claude", file);
    if (!existsSync(path)) continue;
    const settings = JSON.parse(readFileSync(path, "utf8"));
    for (const groups of Object.values(settings.hooks ?? {}) as Array<Array<{ hooks: Array<{ command: string }> }>>) {
      for (const group of groups) for (const hook of group.hooks) commands.push(hook.command);
    }
  }
  return commands;
}

function tarball(pkg: string): string {
  return join(dir, "npm", `${pkg.replace(/^@/, "").replace("/", "-")}-${VERSION}.tgz`);
}

function nativeBinary(): string {
  return realpathSync(join(prefix, "node_modules", HOST_PACKAGE, "bin", WINDOWS ? "rehydrate.exe" : "rehydrate"));
}

describe("npm packages", { skip: SKIP }, () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "rehydrate-npm-"));
    prefix = join(dir, "prefix");
    mkdirSync(prefix);
    // Built from nothing: `npm run` exports npm_config_* settings of its own that must not leak in.
    const windowsEnv = ["SYSTEMROOT", "ComSpec", "PATHEXT", "APPDATA", "LOCALAPPDATA", "TEMP", "TMP"];
    npmEnv = {
      PATH: process.env.PATH,
      ...(WINDOWS ? Object.fromEntries(windowsEnv.map((k) => [k, process.env[k]])) : {}),
      HOME: join(dir, "home"),
      USERPROFILE: join(dir, "home"),
      // Port 9 (discard) on loopback: nothing listens, so any fetch fails at once.
      npm_config_registry: "http://127.0.0.1:9/",
      npm_config_cache: join(dir, "npm-cache"),
      npm_config_userconfig: join(dir, "npmrc"),
      npm_config_update_notifier: "false",
      npm_config_audit: "false",
      npm_config_fund: "false",
      REHYDRATE_STATE_DIR: join(dir, "state"),
    };
    const packed = spawnSync(
      process.execPath,
      [
        join(ROOT, "scripts", "npm-pack.ts"),
        "--target",
        HOST_TARGET,
        "--binary",
        bin("rehydrate"),
        "--outdir",
        join(dir, "npm"),
      ],
      { cwd: ROOT, encoding: "utf8", timeout: 90_000 },
    );
    assert.equal(packed.status, 0, `npm-pack.ts failed: ${packed.stderr}`);
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("npm-pack.ts writes the rehydrate package and the host platform's", () => {
    assert.deepEqual(
      readdirSync(join(dir, "npm")).sort(),
      [
        `rehydrate-${VERSION}.tgz`,
        `${HOST_PACKAGE.slice(1).replace("/", "-")}-${VERSION}.tgz`,
      ].sort(),
    );
  });

  test("npm install --offline installs both tarballs without reaching a registry", () => {
    const r = npm(
      [
        "install",
        "--offline",
        "--prefix",
        prefix,
        tarball("rehydrate"),
        tarball(HOST_PACKAGE),
      ],
    );
    assert.equal(r.status, 0, `npm install failed:\n${r.stderr}`);
    const manifest = JSON.parse(readFileSync(join(prefix, "node_modules", "rehydrate", "package.json"), "utf8"));
    assert.equal(manifest.version, VERSION);
    assert.deepEqual(manifest.bin, { rehydrate: "bin/rehydrate.js" });
    assert.deepEqual(
      manifest.optionalDependencies,
      Object.fromEntries(PLATFORM_PACKAGES.map((p) => [p, VERSION])),
    );
    // The other platforms' packages were skipped, not fetched.
    assert.deepEqual(readdirSync(join(prefix, "node_modules", "@rehydrate")), [HOST_PACKAGE.split("/")[1]]);
    const platform = JSON.parse(readFileSync(join(prefix, "node_modules", HOST_PACKAGE, "package.json"), "utf8"));
    assert.deepEqual(platform.os, [process.platform]);
    assert.deepEqual(platform.cpu, [process.arch]);
  });

  test("npx rehydrate --version prints the version, offline", () => {
    const r = npm(["exec", "--offline", "--prefix", prefix, "--", "rehydrate", "--version"], prefix);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), VERSION);
  });

  test("the shim passes arguments, stdin, stdout and the exit code through", () => {
    const native = nativeBinary();
    for (const args of [["--help"], ["no-such-verb"], ["status", "--no-such-option"]]) {
      const direct = spawnSync(native, args, { cwd: dir, env: npmEnv as NodeJS.ProcessEnv, encoding: "utf8" });
      const via = shim(args);
      assert.equal(via.status, direct.status, `exit code of rehydrate ${args.join(" ")}`);
      assert.equal(via.stdout, direct.stdout, `stdout of rehydrate ${args.join(" ")}`);
      assert.equal(via.stderr, direct.stderr, `stderr of rehydrate ${args.join(" ")}`);
    }
    // A hook reads its input from stdin: bad input is exit 0 and no output, as from the binary.
    const r = spawnSync(quoted([join(prefix, "node_modules", ".bin", WINDOWS ? "rehydrate.cmd" : "rehydrate")])[0], [
      "stop",
    ], { input: "not json", env: npmEnv as NodeJS.ProcessEnv, encoding: "utf8", shell: WINDOWS });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, "");
  });

  test("rehydrate install through the shim registers the native binary, and its hooks run without Node", () => {
    const project = join(dir, "project");
    mkdirSync(project);
    const r = shim(["install"], { cwd: project });
    assert.equal(r.status, 0, `install failed: ${r.stdout}${r.stderr}`);
    const native = nativeBinary();
    const commands = hookCommands(project);
    assert.ok(commands.length >= 3, `expected the core hooks, got ${JSON.stringify(commands)}`);
    for (const command of commands) {
      assert.ok(command.includes(native), `${command} does not call ${native}`);
      assert.doesNotMatch(command, /\bnode\b|rehydrate\.js/);
    }
    if (WINDOWS) return;
    // As Claude Code runs them (through sh), with no Node reachable: bad input, exit 0, no output.
    for (const command of commands) {
      const run = spawnSync("/bin/sh", ["-c", command], {
        input: "{}",
        cwd: project,
        env: { HOME: npmEnv.HOME, PATH: "/nonexistent", REHYDRATE_STATE_DIR: npmEnv.REHYDRATE_STATE_DIR },
        encoding: "utf8",
      });
      assert.equal(run.status, 0, `${command}: ${run.stderr}`);
      assert.equal(run.stdout, "", command);
    }
  });

  test("npx --package <tarballs> rehydrate install, npx's own way, registers the binary in npx's cache", () => {
    const project = join(dir, "npx-project");
    mkdirSync(project);
    const r = npm(
      ["exec", "--offline", "--yes", "--package", tarball("rehydrate"), "--package", tarball(HOST_PACKAGE), "--"]
        .concat(["rehydrate", "install"]),
      project,
    );
    assert.equal(r.status, 0, `npx rehydrate install failed: ${r.stdout}${r.stderr}`);
    const commands = hookCommands(project);
    assert.ok(commands.length >= 3, JSON.stringify(commands));
    const npxCache = join(realpathSync(join(dir, "npm-cache")), "_npx");
    for (const command of commands) {
      assert.ok(command.includes(npxCache), `${command} is not in ${npxCache}`);
      assert.ok(command.includes(join("node_modules", HOST_PACKAGE, "bin", "rehydrate")), command);
      assert.doesNotMatch(command, /\bnode\b|rehydrate\.js/);
    }
  });

  test("without the platform package the shim says so in one line and exits 1", () => {
    rmSync(join(prefix, "node_modules", "@rehydrate"), { recursive: true, force: true });
    const r = shim(["--version"]);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^rehydrate: the package @rehydrate\/\S+ (or \S+ )?is not installed; [^\n]*\n$/);
  });
});
