// The npm packages (docs/release.md, "npm packages"), offline: scripts/npm-pack.ts packs the
// `rehydrate` package and the host platform's `@rehydrate/<os>-<arch>` from the host build in
// dist/, `npm install --offline` puts both into a temporary prefix with the registry pointed at a
// closed port on 127.0.0.1. Its postinstall step (npm/rehydrate/install.js) must put the native
// binary in the place of the Node shim npm links as `rehydrate`, so `rehydrate` on PATH runs no
// Node: checked with a PATH that has no Node on it, for the command itself, the hooks a local
// install registers and those of a shared install (`exec rehydrate <hook>` from PATH). With
// --ignore-scripts (here through npx, which also puts the binary in npx's cache) the shim stays
// and still works, and install guards the hooks against a later `npm cache npx rm`.
//
// Issue #36, N6 (the last describe block): the package trusts only its own tree. Without its
// platform package, neither postinstall nor the shim runs one planted in a node_modules above the
// project or on NODE_PATH; a platform binary whose SHA-256 is not the pinned one, or that others can
// write, is neither run nor copied. NPM_PACKAGE_TREE=<checkout> packs that tree's npm/ and
// scripts/npm-pack.ts instead (how the tests were shown to fail on bfcc99a's package).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, ROOT } from "./_bin.ts";

const WINDOWS = process.platform === "win32";
/** The checkout whose npm/rehydrate and scripts/npm-pack.ts are packed. */
const TREE = process.env.NPM_PACKAGE_TREE || ROOT;
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

/** `rehydrate` as npm linked it into `root`'s node_modules/.bin: the native binary, or the Node shim. */
function dotBin(root: string): string {
  return join(root, "node_modules", ".bin", WINDOWS ? "rehydrate.cmd" : "rehydrate");
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {},
) {
  const r = spawnSync(quoted([command])[0], quoted(args), {
    cwd: options.cwd ?? dir,
    env: (options.env ?? npmEnv) as NodeJS.ProcessEnv,
    input: options.input,
    encoding: "utf8",
    shell: WINDOWS,
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** The environment of a hook Claude Code runs, with `path` as PATH: no Node on it. */
function noNode(path: string): Record<string, string | undefined> {
  return { HOME: npmEnv.HOME, PATH: path, REHYDRATE_STATE_DIR: npmEnv.REHYDRATE_STATE_DIR };
}

/** A script starts with `#!`; a native binary with its format's magic number. */
function firstBytes(file: string): string {
  return readFileSync(file).subarray(0, 4).toString("latin1");
}

function sameFile(a: string, b: string): boolean {
  const sa = statSync(a);
  const sb = statSync(b);
  return sa.ino === sb.ino && sa.dev === sb.dev;
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

/** The platform package's binary under `root` (default: the prefix). */
function nativeBinary(root = prefix): string {
  return realpathSync(join(root, "node_modules", HOST_PACKAGE, "bin", WINDOWS ? "rehydrate.exe" : "rehydrate"));
}

/** The one directory npx installed the tarballs into: `<cache>/_npx/<hash>`. */
function npxRoot(): string {
  const base = join(dir, "npm-cache", "_npx");
  const [hash, ...more] = readdirSync(base);
  assert.ok(hash && more.length === 0, `expected one npx install in ${base}`);
  return realpathSync(join(base, hash));
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
        join(TREE, "scripts", "npm-pack.ts"),
        "--target",
        HOST_TARGET,
        "--binary",
        bin("rehydrate"),
        "--outdir",
        join(dir, "npm"),
      ],
      { cwd: TREE, encoding: "utf8", timeout: 90_000 },
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
    assert.deepEqual(manifest.bin, { rehydrate: "bin/rehydrate" });
    assert.deepEqual(manifest.scripts, { postinstall: "node install.js" });
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

  test("postinstall puts the native binary where npm's rehydrate command points, and it runs without Node", {
    skip: WINDOWS && "npm's .cmd wrappers run node on the file: the shim stays on Windows",
  }, () => {
    const bin = join(prefix, "node_modules", "rehydrate", "bin");
    assert.equal(realpathSync(dotBin(prefix)), realpathSync(join(bin, "rehydrate")));
    assert.doesNotMatch(firstBytes(join(bin, "rehydrate")), /^#!/);
    assert.match(firstBytes(join(bin, "rehydrate")), /^(\x7fELF|\xcf\xfa\xed\xfe|\xca\xfe\xba\xbe)/);
    // A hard link to the platform package's binary: no second copy of 110 MB, no temporary file left.
    assert.ok(sameFile(join(bin, "rehydrate"), nativeBinary()), "not a link to the platform package's binary");
    assert.equal(statSync(join(bin, "rehydrate")).mode & 0o777, 0o755);
    assert.deepEqual(readdirSync(bin), ["rehydrate"]);
    const r = run(dotBin(prefix), ["--version"], { env: noNode("/nonexistent") });
    assert.deepEqual([r.status, r.stdout.trim(), r.stderr], [0, VERSION, ""]);
  });

  test("npx rehydrate --version prints the version, offline", () => {
    const r = npm(["exec", "--offline", "--prefix", prefix, "--", "rehydrate", "--version"], prefix);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), VERSION);
  });

  test("rehydrate install registers the native binary, and its hooks run without Node", () => {
    const project = join(dir, "project");
    mkdirSync(project);
    const r = run(dotBin(prefix), ["install"], { cwd: project });
    assert.equal(r.status, 0, `install failed: ${r.stdout}${r.stderr}`);
    assert.equal(r.stderr, "");
    const commands = hookCommands(project);
    assert.ok(commands.length >= 3, `expected the core hooks, got ${JSON.stringify(commands)}`);
    for (const command of commands) {
      assert.doesNotMatch(command, /\bnode\b|rehydrate\.js|\[ -x/);
      const binary = command.slice(0, command.lastIndexOf(" ")).replace(/^"(.*)"$/, "$1");
      assert.ok(sameFile(binary, nativeBinary()), `${command} does not call the native binary`);
    }
    if (WINDOWS) return;
    // As Claude Code runs them (through sh), with no Node reachable: bad input, exit 0, no output.
    for (const command of commands) {
      const hook = spawnSync("/bin/sh", ["-c", command], {
        input: "{}",
        cwd: project,
        env: noNode("/nonexistent"),
        encoding: "utf8",
      });
      assert.equal(hook.status, 0, `${command}: ${hook.stderr}`);
      assert.equal(hook.stdout, "", command);
    }
  });

  test("rehydrate install --shared: the hooks run the rehydrate on PATH, which is the native binary", {
    skip: WINDOWS && "the shim stays on Windows",
  }, () => {
    const project = join(dir, "shared-project");
    mkdirSync(project);
    // PATH as after `npm install -g`: npm's bin directory and nothing else, so no Node.
    const path = join(prefix, "node_modules", ".bin");
    const r = run(dotBin(prefix), ["install", "--shared"], { cwd: project, env: noNode(path) });
    assert.equal(r.status, 0, `install --shared failed: ${r.stdout}${r.stderr}`);
    assert.equal(r.stderr, "");
    const commands = hookCommands(project);
    assert.ok(commands.length >= 3, JSON.stringify(commands));
    for (const command of commands) {
      assert.match(command, /^command -v rehydrate >\/dev\/null 2>&1 \|\| exit 0; exec rehydrate [a-z-]+$/);
      // The shim would fail here: `env: 'node': No such file or directory`, exit 127.
      const hook = spawnSync("/bin/sh", ["-c", command], { input: "{}", cwd: project, env: noNode(path) });
      assert.equal(hook.status, 0, `${command}: ${hook.stderr}`);
      assert.equal(hook.stdout.length, 0, command);
    }
    const version = spawnSync("/bin/sh", ["-c", "rehydrate --version"], { env: noNode(path), encoding: "utf8" });
    assert.deepEqual([version.status, version.stdout.trim()], [0, VERSION], version.stderr);
  });

  test("npx --ignore-scripts --package <tarballs> rehydrate install: the shim stays and works; install warns and guards", () => {
    const project = join(dir, "npx-project");
    mkdirSync(project);
    const r = npm(
      ["exec", "--offline", "--yes", "--ignore-scripts", "--package", tarball("rehydrate")]
        .concat(["--package", tarball(HOST_PACKAGE), "--", "rehydrate", "install"]),
      project,
    );
    assert.equal(r.status, 0, `npx rehydrate install failed: ${r.stdout}${r.stderr}`);
    const root = npxRoot();
    // --ignore-scripts: no postinstall, bin/rehydrate is still the Node shim, and it ran the binary.
    assert.match(firstBytes(join(root, "node_modules", "rehydrate", "bin", "rehydrate")), /^#!/);
    const native = nativeBinary(root);
    assert.match(
      r.stderr,
      /^rehydrate install: warning: \S+ is in npx's cache, which npm cache npx rm --force [^\n]*npm install -g rehydrate[^\n]*\n$/m,
    );
    const commands = hookCommands(project);
    assert.ok(commands.length >= 3, JSON.stringify(commands));
    for (const command of commands) {
      assert.ok(command.includes(join("_npx", "")), `${command} is not in npx's cache`);
      assert.ok(command.startsWith(`[ -x ${native} ] || exit 0; exec ${native} `), command);
      assert.doesNotMatch(command, /\bnode\b|rehydrate\.js/);
    }
  });

  test("the shim passes arguments, stdin, stdout and the exit code through", () => {
    const root = npxRoot();
    const native = nativeBinary(root);
    for (const args of [["--help"], ["no-such-verb"], ["status", "--no-such-option"]]) {
      const direct = spawnSync(native, args, { cwd: dir, env: npmEnv as NodeJS.ProcessEnv, encoding: "utf8" });
      const via = run(dotBin(root), args);
      assert.equal(via.status, direct.status, `exit code of rehydrate ${args.join(" ")}`);
      assert.equal(via.stdout, direct.stdout, `stdout of rehydrate ${args.join(" ")}`);
      assert.equal(via.stderr, direct.stderr, `stderr of rehydrate ${args.join(" ")}`);
    }
    // A hook reads its input from stdin: bad input is exit 0 and no output, as from the binary.
    const r = run(dotBin(root), ["stop"], { input: "not json" });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, "");
  });

  test("after npm cache npx rm --force, the hooks npx's install registered exit 0 silently", {
    skip: WINDOWS && "the guard runs under Git Bash there",
  }, () => {
    const project = join(dir, "npx-project");
    const commands = hookCommands(project);
    // `npm cache clean --force` empties _cacache only; `npm cache npx rm` (npm 11) empties _npx.
    const clean = npm(["cache", "npx", "rm", "--force"]);
    if (clean.status !== 0) rmSync(join(dir, "npm-cache", "_npx"), { recursive: true, force: true });
    assert.equal(existsSync(join(dir, "npm-cache", "_npx")), false);
    for (const command of commands) {
      const hook = spawnSync("/bin/sh", ["-c", command], { input: "{}", cwd: project, env: noNode("/nonexistent") });
      assert.equal(hook.status, 0, `${command}: ${hook.stderr}`);
      assert.equal(`${hook.stdout}${hook.stderr}`, "", command);
    }
  });

  test("install.js again (npm rebuild) keeps the binary; without the platform package it restores the shim", {
    skip: WINDOWS && "the shim stays on Windows",
  }, () => {
    const pkg = join(prefix, "node_modules", "rehydrate");
    const env = { ...npmEnv, npm_config_user_agent: `npm/11 node/${process.version}` };
    const again = spawnSync("node", ["install.js"], { cwd: pkg, env: env as NodeJS.ProcessEnv, encoding: "utf8" });
    assert.deepEqual([again.status, again.stdout, again.stderr], [0, "", ""]);
    assert.ok(sameFile(join(pkg, "bin", "rehydrate"), nativeBinary()));
    assert.deepEqual(readdirSync(join(pkg, "bin")), ["rehydrate"]);

    rmSync(join(prefix, "node_modules", "@rehydrate"), { recursive: true, force: true });
    const gone = spawnSync("node", ["install.js"], { cwd: pkg, env: env as NodeJS.ProcessEnv, encoding: "utf8" });
    assert.deepEqual([gone.status, gone.stderr], [0, ""]);
    assert.match(firstBytes(join(pkg, "bin", "rehydrate")), /^#!/);
    assert.equal(statSync(join(pkg, "bin", "rehydrate")).mode & 0o777, 0o755);
    // The shim then says what is missing, in one line, and exits 1.
    const r = run(dotBin(prefix), ["--version"]);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^rehydrate: the package @rehydrate\/\S+ (or \S+ )?is not installed; [^\n]*\n$/);
  });
  test("the packed rehydrate package pins the SHA-256 of the host's binary (issue #36, N6)", () => {
    const manifest = JSON.parse(readFileSync(join(prefix, "node_modules", "rehydrate", "package.json"), "utf8"));
    const hash = createHash("sha256").update(readFileSync(bin("rehydrate"))).digest("hex");
    assert.deepEqual(manifest.binarySha256, { [HOST_PACKAGE]: hash });
  });

  test(
    "without its platform package, neither postinstall nor the shim runs one planted above the project or on NODE_PATH (issue #36, N6)",
    {
      skip: WINDOWS && "the shim stays on Windows and install.js does nothing there",
    },
    () => {
      const shared = join(dir, "shared");
      const project = join(shared, "proj");
      mkdirSync(project, { recursive: true });
      const canary = join(dir, "planted-ran.txt");
      const plant = (root: string) => {
        const pkg = join(root, ...HOST_PACKAGE.split("/"));
        mkdirSync(join(pkg, "bin"), { recursive: true });
        writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: HOST_PACKAGE, version: VERSION }));
        writeFileSync(join(pkg, "bin", "rehydrate"), `#!/bin/sh\necho "$0" >> ${canary}\necho ${VERSION}\n`);
        chmodSync(join(pkg, "bin", "rehydrate"), 0o755);
      };
      plant(join(shared, "node_modules"));
      plant(join(dir, "node-path"));
      const env = { ...npmEnv, NODE_PATH: join(dir, "node-path") };
      const r = spawnSync(
        "npm",
        ["install", "--offline", "--omit=optional", "--prefix", project, tarball("rehydrate")],
        {
          cwd: project,
          env: env as NodeJS.ProcessEnv,
          encoding: "utf8",
          timeout: 60_000,
        },
      );
      assert.equal(r.status, 0, `npm install failed:\n${r.stderr}`);
      assert.equal(
        existsSync(join(project, "node_modules", "@rehydrate")),
        false,
        "the platform package was installed",
      );
      const shim = join(project, "node_modules", "rehydrate", "bin", "rehydrate");
      const run = spawnSync("node", [shim, "--version"], {
        cwd: project,
        env: env as NodeJS.ProcessEnv,
        encoding: "utf8",
      });
      assert.equal(
        existsSync(canary),
        false,
        `a planted binary ran: ${existsSync(canary) ? readFileSync(canary, "utf8") : ""}`,
      );
      assert.match(readFileSync(shim, "utf8"), /require\("\.\.\/lib\/shim\.js"\)/, "postinstall replaced the shim");
      assert.equal(run.status, 1, run.stdout);
      assert.match(run.stderr, /^rehydrate: the package @rehydrate\/\S+ (or \S+ )?is not installed; /);
    },
  );

  test(
    "a platform binary that is not the pinned one, or that others can write, is neither run nor copied (issue #36, N6)",
    {
      skip: WINDOWS && "no owner or mode bits on Windows",
    },
    () => {
      const root = join(dir, "tampered");
      mkdirSync(root);
      const r = npm([
        "install",
        "--offline",
        "--ignore-scripts",
        "--prefix",
        root,
        tarball("rehydrate"),
        tarball(HOST_PACKAGE),
      ]);
      assert.equal(r.status, 0, `npm install failed:\n${r.stderr}`);
      const pkg = join(root, "node_modules", "rehydrate");
      const shim = join(pkg, "bin", "rehydrate");
      const native = join(root, "node_modules", ...HOST_PACKAGE.split("/"), "bin", "rehydrate");
      const canary = join(dir, "tampered-ran.txt");
      const agent = { ...npmEnv, npm_config_user_agent: `npm/11 node/${process.version}` } as NodeJS.ProcessEnv;
      const attempt = () => ({
        shim: spawnSync("node", [shim, "--version"], { cwd: root, env: npmEnv as NodeJS.ProcessEnv, encoding: "utf8" }),
        postinstall: spawnSync("node", ["install.js"], { cwd: pkg, env: agent, encoding: "utf8" }),
      });

      // Another binary in the package's place: its hash is not the pinned one.
      rmSync(native);
      writeFileSync(native, `#!/bin/sh\necho ran >> ${canary}\necho ${VERSION}\n`);
      chmodSync(native, 0o755);
      const swapped = attempt();
      assert.equal(swapped.shim.status, 1);
      assert.match(swapped.shim.stderr, /^rehydrate: refusing \S+: its SHA-256 is not the one this package pins; /);
      assert.equal(swapped.postinstall.status, 0);
      assert.match(firstBytes(shim), /^#!/, "postinstall copied a binary whose hash is wrong");
      assert.equal(existsSync(canary), false, "a binary that is not the pinned one ran");

      // The right binary, writable by others: refused until it is not.
      rmSync(native);
      copyFileSync(bin("rehydrate"), native);
      chmodSync(native, 0o757);
      const loose = attempt();
      assert.equal(loose.shim.status, 1);
      assert.match(loose.shim.stderr, /^rehydrate: refusing \S+: others can write /);
      assert.match(firstBytes(shim), /^#!/);
      chmodSync(native, 0o755);
      if (process.getuid?.() === 0) {
        chownSync(native, 65534, 65534);
        const foreign = attempt();
        assert.match(foreign.shim.stderr, /^rehydrate: refusing \S+: \S+ is owned by uid 65534; /);
        chownSync(native, 0, 0);
      }
      const fine = attempt();
      assert.deepEqual([fine.shim.status, fine.shim.stdout.trim()], [0, VERSION], fine.shim.stderr);
      assert.ok(sameFile(shim, native), "postinstall did not put the checked binary in the shim's place");
    },
  );
});
