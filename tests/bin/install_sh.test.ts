// install.sh (and the plugin launcher that reuses it) against a local directory of release files
// served on 127.0.0.1: platform detection, checksum verification, install location, next steps,
// and one-line errors. The fake "binaries" are small shell scripts that print their target.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

const ROOT = join(import.meta.dirname!, "..", "..");
const INSTALL_SH = join(ROOT, "install.sh");
const LAUNCHER = join(ROOT, "plugin", "rehydrate-launcher");
const PLUGIN_VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
const TARGETS = [
  "linux-x64",
  "linux-arm64",
  "linux-x64-musl",
  "linux-arm64-musl",
  "darwin-x64",
  "darwin-arm64",
  "windows-x64",
];
const WINDOWS = process.platform === "win32";
const SKIP_POSIX = WINDOWS ? "install.sh is a POSIX sh script; Windows users take the .exe from the release" : false;

// Resolved once, so a test may run install.sh with a PATH that lacks sh.
const SH = WINDOWS ? "sh" : spawnSync("sh", ["-c", "command -v sh"], { encoding: "utf8" }).stdout.trim() || "/bin/sh";

function has(tool: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).status === 0;
}

function hostMusl(): boolean {
  if (process.platform !== "linux") return false;
  if (readdirSync("/lib").some((f) => f.startsWith("ld-musl-"))) return true;
  const r = spawnSync("ldd", ["--version"], { encoding: "utf8" });
  return `${r.stdout}${r.stderr}`.includes("musl");
}

function hostTarget(): string {
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  return `${process.platform}-${arch}${hostMusl() ? "-musl" : ""}`;
}

function fakeBinary(target: string): string {
  return `#!/bin/sh\necho "fake rehydrate for ${target} $*"\n`;
}

/** Writes rehydrate-<version>-<target>[.exe] for every target and their SHA256SUMS into `dir`. */
function writeRelease(dir: string, version: string): void {
  mkdirSync(dir, { recursive: true });
  const sums: string[] = [];
  for (const t of TARGETS) {
    const file = `rehydrate-${version}-${t}${t.startsWith("windows") ? ".exe" : ""}`;
    writeFileSync(join(dir, file), fakeBinary(t));
    sums.push(`${createHash("sha256").update(fakeBinary(t)).digest("hex")}  ${file}`);
  }
  writeFileSync(join(dir, "SHA256SUMS"), sums.join("\n") + "\n");
}

interface Served {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves the files of `dir` (flat) on 127.0.0.1; anything else is a 404. */
async function serve(dir: string): Promise<Served> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push(path);
    const file = join(dir, basename(decodeURIComponent(path)));
    if (path.startsWith("/release/") && existsSync(file)) {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(readFileSync(file));
    } else {
      res.writeHead(404);
      res.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/release`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script with `sh` without blocking the event loop (the server lives in this process). */
function sh(script: string, args: string[], env: Record<string, string | undefined>, stdin = ""): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(SH, [script, ...args], { env: env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
    child.stdin.on("error", () => {}); // a script may exit without reading its input
    child.stdin.end(stdin);
  });
}

/** The caller's environment without any REHYDRATE_* setting, plus `extra`. */
function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith("REHYDRATE_") && !k.startsWith("CLAUDE_")) env[k] = v;
  }
  return { ...env, ...extra };
}

/** A directory of fake tools to put first on PATH. */
function fakeTools(dir: string, tools: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(tools)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

function fakeUname(s: string, m: string): string {
  return `case "$1" in -s) echo "${s}" ;; -m) echo "${m}" ;; *) echo "${s}" ;; esac`;
}

async function withRelease(
  fn: (ctx: { tmp: string; release: string; server: Served }) => Promise<void>,
): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-install-sh-"));
  const release = join(tmp, "release");
  writeRelease(release, "9.8.7");
  const server = await serve(release);
  try {
    await fn({ tmp, release, server });
  } finally {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

function oneLine(text: string): void {
  assert.equal(text.trim().split("\n").length, 1, `expected one line, got:\n${text}`);
}

describe("install.sh", () => {
  test("picks this platform's binary, verifies it, installs it with mode 755 and prints the next step", {
    skip: SKIP_POSIX,
  }, async () => {
    await withRelease(async ({ tmp, server }) => {
      const dir = join(tmp, "bin dir");
      const r = await sh(
        INSTALL_SH,
        ["--version", "9.8.7", "--dir", dir],
        cleanEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp }),
      );
      assert.equal(r.status, 0, r.stderr);
      const installed = join(dir, "rehydrate");
      assert.equal(readFileSync(installed, "utf8"), fakeBinary(hostTarget()));
      assert.equal(statSync(installed).mode & 0o777, 0o755);
      assert.match(r.stdout, new RegExp(`Installed rehydrate 9\\.8\\.7 \\(${hostTarget()}\\)`));
      assert.match(r.stdout, /install --project \./);
      assert.match(r.stdout, /"[^"]*bin dir\/rehydrate" install/, "a path with a space is quoted in the next step");
      assert.deepEqual(server.requests, ["/release/SHA256SUMS", `/release/rehydrate-9.8.7-${hostTarget()}`]);
      assert.deepEqual(readdirSync(dir), ["rehydrate"], "no temporary files are left behind");
      const run = spawnSync(installed, ["--version"], { encoding: "utf8" });
      assert.equal(run.stdout.trim(), `fake rehydrate for ${hostTarget()} --version`);
    });
  });

  test("without --version installs the release its SHA256SUMS names, into ~/.local/bin by default", {
    skip: SKIP_POSIX,
  }, async () => {
    await withRelease(async ({ tmp, server }) => {
      const r = await sh(INSTALL_SH, [], cleanEnv({ REHYDRATE_BASE_URL: server.url + "/", HOME: tmp }));
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /Installed rehydrate 9\.8\.7 /);
      assert.equal(readFileSync(join(tmp, ".local", "bin", "rehydrate"), "utf8"), fakeBinary(hostTarget()));
    });
  });

  test("refuses a tampered binary with a one-line error and installs nothing", { skip: SKIP_POSIX }, async () => {
    await withRelease(async ({ tmp, release, server }) => {
      writeFileSync(join(release, `rehydrate-9.8.7-${hostTarget()}`), "#!/bin/sh\necho pwned\n");
      const dir = join(tmp, "bin");
      const r = await sh(
        INSTALL_SH,
        ["--version", "9.8.7", "--dir", dir],
        cleanEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp }),
      );
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^install\.sh: checksum mismatch for rehydrate-9\.8\.7-/);
      oneLine(r.stderr);
      assert.equal(r.stdout, "");
      assert.deepEqual(readdirSync(dir), [], "neither the binary nor a temporary file is left");
    });
  });

  test("reports a download failure in one line", { skip: SKIP_POSIX }, async () => {
    await withRelease(async ({ tmp, server }) => {
      const r = await sh(
        INSTALL_SH,
        ["--version", "9.8.7", "--dir", join(tmp, "bin")],
        cleanEnv({ REHYDRATE_BASE_URL: server.url.replace("/release", "/nothing-here"), HOME: tmp }),
      );
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^install\.sh: download failed: http:\/\/127\.0\.0\.1:\d+\/nothing-here\/SHA256SUMS/);
      oneLine(r.stderr);
    });
  });

  test("reports a version that the release does not have", { skip: SKIP_POSIX }, async () => {
    await withRelease(async ({ tmp, server }) => {
      const r = await sh(
        INSTALL_SH,
        ["--version", "1.2.3", "--dir", join(tmp, "bin")],
        cleanEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp }),
      );
      assert.equal(r.status, 1);
      assert.match(r.stderr, /has no entry for rehydrate-1\.2\.3-/);
      oneLine(r.stderr);
    });
  });

  test("refuses an unknown operating system and an unknown CPU in one line", { skip: SKIP_POSIX }, async () => {
    await withRelease(async ({ tmp, server }) => {
      for (
        const [s, m, message] of [["Plan9", "x86_64", /unsupported operating system "Plan9"/], [
          "Linux",
          "mips",
          /unsupported CPU architecture "mips"/,
        ]] as const
      ) {
        const bin = fakeTools(join(tmp, `tools-${s}`), { uname: fakeUname(s, m) });
        const r = await sh(
          INSTALL_SH,
          ["--dir", join(tmp, "bin")],
          cleanEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp, PATH: `${bin}:${process.env.PATH}` }),
        );
        assert.equal(r.status, 1);
        assert.match(r.stderr, message);
        oneLine(r.stderr);
      }
      assert.deepEqual(server.requests, [], "nothing is downloaded for an unknown platform");
    });
  });

  test("maps uname and libc to the release target", { skip: SKIP_POSIX }, async () => {
    await withRelease(async ({ tmp, server }) => {
      const musl = hostMusl() ? "-musl" : "";
      const cases: [string, string, Record<string, string>, string, string][] = [
        ["Linux", "aarch64", {}, `linux-arm64${musl}`, "rehydrate"],
        ["Linux", "x86_64", { ldd: 'echo "musl libc (x86_64)" >&2; exit 1' }, "linux-x64-musl", "rehydrate"],
        ["Darwin", "arm64", { sysctl: "exit 1" }, "darwin-arm64", "rehydrate"],
        ["Darwin", "x86_64", { sysctl: "echo 0" }, "darwin-x64", "rehydrate"],
        ["Darwin", "x86_64", { sysctl: "echo 1" }, "darwin-arm64", "rehydrate"],
        ["MINGW64_NT-10.0-19045", "x86_64", {}, "windows-x64", "rehydrate.exe"],
      ];
      for (const [i, [s, m, extra, target, name]] of cases.entries()) {
        const bin = fakeTools(join(tmp, `tools-${i}`), { uname: fakeUname(s, m), ...extra });
        const dir = join(tmp, `bin-${i}`);
        const r = await sh(
          INSTALL_SH,
          ["--dir", dir, "--quiet"],
          cleanEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp, PATH: `${bin}:${process.env.PATH}` }),
        );
        assert.equal(r.status, 0, `${s} ${m}: ${r.stderr}`);
        assert.equal(r.stdout, "", "--quiet prints nothing");
        assert.equal(readFileSync(join(dir, name), "utf8"), fakeBinary(target), `${s} ${m} ${JSON.stringify(extra)}`);
      }
    });
  });

  test(
    "downloads with wget when asked to",
    { skip: SKIP_POSIX || (!has("wget") && "wget is not installed") },
    async () => {
      await withRelease(async ({ tmp, server }) => {
        const dir = join(tmp, "bin");
        const r = await sh(
          INSTALL_SH,
          ["--version", "9.8.7", "--dir", dir],
          cleanEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp, REHYDRATE_DOWNLOADER: "wget" }),
        );
        assert.equal(r.status, 0, r.stderr);
        assert.equal(readFileSync(join(dir, "rehydrate"), "utf8"), fakeBinary(hostTarget()));
      });
    },
  );

  test("verifies with shasum where sha256sum is missing, and still catches a mismatch", {
    skip: SKIP_POSIX || (!has("shasum") && "shasum is not installed"),
  }, async () => {
    await withRelease(async ({ tmp, release, server }) => {
      // A PATH holding only the tools install.sh uses, minus sha256sum.
      const tools = join(tmp, "only");
      mkdirSync(tools);
      for (
        const t of [
          "uname",
          "sed",
          "head",
          "cut",
          "mkdir",
          "mktemp",
          "rm",
          "chmod",
          "mv",
          "curl",
          "ls",
          "grep",
          "ldd",
          "sysctl",
          "shasum",
          "perl",
          "cat",
        ]
      ) {
        const found = spawnSync("sh", ["-c", `command -v ${t}`], { encoding: "utf8" }).stdout.trim();
        if (found.startsWith("/")) symlinkSync(found, join(tools, t));
      }
      const env = cleanEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp, PATH: tools });
      const ok = await sh(INSTALL_SH, ["--version", "9.8.7", "--dir", join(tmp, "a")], env);
      assert.equal(ok.status, 0, ok.stderr);
      writeFileSync(join(release, `rehydrate-9.8.7-${hostTarget()}`), "tampered\n");
      const bad = await sh(INSTALL_SH, ["--version", "9.8.7", "--dir", join(tmp, "b")], env);
      assert.equal(bad.status, 1);
      assert.match(bad.stderr, /checksum mismatch/);
    });
  });

  test("has no default download location until the repository owner is filled in", { skip: SKIP_POSIX }, async () => {
    const tmp = mkdtempSync(join(tmpdir(), "rehydrate-install-sh-"));
    try {
      const r = await sh(INSTALL_SH, ["--dir", join(tmp, "bin")], cleanEnv({ HOME: tmp }));
      assert.equal(r.status, 1);
      assert.match(r.stderr, /REHYDRATE_BASE_URL/);
      oneLine(r.stderr);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test("answers --help and refuses an unknown option in one line", { skip: SKIP_POSIX }, async () => {
    const help = await sh(INSTALL_SH, ["--help"], cleanEnv({}));
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--base-url URL/);
    const bad = await sh(INSTALL_SH, ["--frobnicate"], cleanEnv({}));
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /unknown option "--frobnicate"/);
    oneLine(bad.stderr);
  });

  test("passes shellcheck", { skip: SKIP_POSIX || (!has("shellcheck") && "shellcheck is not installed") }, () => {
    const scripts = [
      INSTALL_SH,
      LAUNCHER,
      ...readdirSync(join(ROOT, "scripts")).filter((f) => f.endsWith(".sh")).map((f) => join(ROOT, "scripts", f)),
    ];
    const r = spawnSync("shellcheck", ["--shell=sh", ...scripts], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});

describe("the plugin launcher", () => {
  // The plugin's hooks run plugin/rehydrate-launcher, which fetches the binary with install.sh.
  function waitFor(check: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      let tries = 0;
      const tick = () => {
        if (check()) return resolve();
        if (++tries > 400) return reject(new Error("gave up waiting for the background download"));
        setTimeout(tick, 50);
      };
      tick();
    });
  }

  test(
    "fetches and verifies the binary in the background on first use, then runs it",
    { skip: SKIP_POSIX },
    async () => {
      await withRelease(async ({ tmp, server }) => {
        writeRelease(join(tmp, "release"), PLUGIN_VERSION);
        const data = join(tmp, "plugin-data");
        const env = cleanEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp, CLAUDE_PLUGIN_DATA: data });
        const first = await sh(LAUNCHER, ["session-start"], env, '{"hook_event_name":"SessionStart"}');
        assert.equal(first.status, 0);
        assert.match(JSON.parse(first.stdout).systemMessage, /downloading/);
        const bin = join(data, "bin", `rehydrate-${PLUGIN_VERSION}`);
        await waitFor(() => existsSync(bin) && !existsSync(join(data, "bin", ".fetching")));
        assert.equal(statSync(bin).mode & 0o777, 0o755);
        const second = await sh(LAUNCHER, ["pre-tool-use"], env, "{}");
        assert.equal(second.status, 0);
        assert.equal(second.stdout.trim(), `fake rehydrate for ${hostTarget()} pre-tool-use`);
        assert.equal(server.requests.filter((p) => p.endsWith("SHA256SUMS")).length, 1, "downloaded once");
      });
    },
  );

  test("stays silent and retries later when the download fails", { skip: SKIP_POSIX }, async () => {
    await withRelease(async ({ tmp, release, server }) => {
      writeRelease(release, PLUGIN_VERSION);
      writeFileSync(join(release, `rehydrate-${PLUGIN_VERSION}-${hostTarget()}`), "tampered\n");
      const data = join(tmp, "plugin-data");
      const env = cleanEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp, CLAUDE_PLUGIN_DATA: data });
      const first = await sh(LAUNCHER, ["pre-tool-use"], env, "{}");
      assert.equal(first.status, 0);
      assert.equal(first.stdout, "");
      await waitFor(() => existsSync(join(data, "bin", ".failed")) && !existsSync(join(data, "bin", ".fetching")));
      assert.match(readFileSync(join(data, "bin", "install.log"), "utf8"), /checksum mismatch/);
      assert.equal(existsSync(join(data, "bin", `rehydrate-${PLUGIN_VERSION}`)), false);
      const requests = server.requests.length;
      const again = await sh(LAUNCHER, ["session-start"], env, "{}");
      assert.equal(again.status, 0);
      assert.match(JSON.parse(again.stdout).systemMessage, /could not be downloaded/);
      assert.equal(server.requests.length, requests, "no new download within the back-off");
    });
  });
});
