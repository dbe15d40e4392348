// install.sh (and the plugin launcher that reuses it) against a release served over HTTPS on
// 127.0.0.1 (tests/bin/_https_release.ts), pinned the way a release build pins it: platform
// detection, checking against the pinned hash, install location, next steps, one-line errors, and
// the launcher's background download. The fake "binaries" are small shell scripts that print their
// target. The supply-chain findings themselves are replayed in tests/bin/supply_chain.test.ts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./_bin.ts";
import {
  cleanEnv,
  fakeBinary,
  fileName,
  has,
  pinnedCopy,
  serve,
  type Served,
  sh,
  SKIP_HTTPS,
  tlsEnv,
  VERSION,
  waitFor,
  withTmp,
  writeRelease,
} from "./_https_release.ts";

const V_RE = VERSION.replaceAll(".", "\\.");

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

/** A directory of fake tools to put first on PATH (absolute, outside any project: install.sh uses them). */
function fakeTools(dir: string, tools: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(tools)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  }
  return dir;
}

function fakeUname(s: string, m: string): string {
  return `case "$1" in -s) echo "${s}" ;; -m) echo "${m}" ;; *) echo "${s}" ;; esac`;
}

/** A release of VERSION over HTTPS, and pinned copies of install.sh and the launcher in `root`. */
async function withRelease(
  fn: (ctx: { tmp: string; release: string; root: string; installSh: string; server: Served }) => Promise<void>,
): Promise<void> {
  await withTmp(async (tmp) => {
    const release = join(tmp, "release");
    const root = join(tmp, "plugin-root");
    pinnedCopy(ROOT, root, writeRelease(release, VERSION));
    const server = await serve(release);
    try {
      await fn({ tmp, release, root, installSh: join(root, "install.sh"), server });
    } finally {
      await server.close();
    }
  });
}

function oneLine(text: string): void {
  assert.equal(text.trim().split("\n").length, 1, `expected one line, got:\n${text}`);
}

describe("install.sh", { skip: SKIP_HTTPS }, () => {
  test("picks this platform's binary, verifies it, installs it with mode 755 and prints the next step", async () => {
    await withRelease(async ({ tmp, installSh, server }) => {
      const dir = join(tmp, "bin dir");
      const r = await sh(
        installSh,
        ["--version", VERSION, "--dir", dir],
        tlsEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp }),
      );
      assert.equal(r.status, 0, r.stderr);
      const installed = join(dir, "rehydrate");
      assert.equal(readFileSync(installed, "utf8"), fakeBinary(hostTarget()));
      assert.equal(statSync(installed).mode & 0o777, 0o755);
      assert.match(r.stdout, new RegExp(`Installed rehydrate ${V_RE} \\(${hostTarget()}\\)`));
      assert.match(r.stdout, /install --project \./);
      assert.match(r.stdout, /"[^"]*bin dir\/rehydrate" install/, "a path with a space is quoted in the next step");
      assert.deepEqual(server.requests, [`/release/${fileName(VERSION, hostTarget())}`], "only the binary is fetched");
      assert.deepEqual(readdirSync(dir), ["rehydrate"], "no temporary files are left behind");
      const run = spawnSync(installed, ["--version"], { encoding: "utf8" });
      assert.equal(run.stdout.trim(), `fake rehydrate for ${hostTarget()} --version`);
    });
  });

  test("without --version installs the release it pins, into ~/.local/bin by default", async () => {
    await withRelease(async ({ tmp, installSh, server }) => {
      const r = await sh(installSh, [], tlsEnv({ REHYDRATE_BASE_URL: server.url + "/", HOME: tmp }));
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`Installed rehydrate ${V_RE} `));
      assert.equal(readFileSync(join(tmp, ".local", "bin", "rehydrate"), "utf8"), fakeBinary(hostTarget()));
    });
  });

  test("refuses a tampered binary with a one-line error and installs nothing", async () => {
    await withRelease(async ({ tmp, release, installSh, server }) => {
      writeFileSync(join(release, fileName(VERSION, hostTarget())), "#!/bin/sh\necho pwned\n");
      const dir = join(tmp, "bin");
      const r = await sh(
        installSh,
        ["--version", VERSION, "--dir", dir],
        tlsEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp }),
      );
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^install\.sh: checksum mismatch for rehydrate-/);
      oneLine(r.stderr);
      assert.equal(r.stdout, "");
      assert.deepEqual(readdirSync(dir), [], "neither the binary nor a temporary file is left");
    });
  });

  test("reports a download failure in one line", async () => {
    await withRelease(async ({ tmp, installSh, server }) => {
      const r = await sh(
        installSh,
        ["--version", VERSION, "--dir", join(tmp, "bin")],
        tlsEnv({ REHYDRATE_BASE_URL: server.url.replace("/release", "/nothing-here"), HOME: tmp }),
      );
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^install\.sh: download failed: https:\/\/127\.0\.0\.1:\d+\/nothing-here\/rehydrate-/);
      oneLine(r.stderr);
    });
  });

  test("refuses a version it has no hash for, before downloading anything", async () => {
    await withRelease(async ({ tmp, installSh, server }) => {
      const r = await sh(
        installSh,
        ["--version", "1.2.3", "--dir", join(tmp, "bin")],
        tlsEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp }),
      );
      assert.equal(r.status, 1);
      assert.match(r.stderr, /pins the hashes of .*, not 1\.2\.3/);
      oneLine(r.stderr);
      assert.deepEqual(server.requests, []);
    });
  });

  test("refuses an unknown operating system and an unknown CPU in one line", async () => {
    await withRelease(async ({ tmp, installSh, server }) => {
      for (
        const [s, m, message] of [["Plan9", "x86_64", /unsupported operating system "Plan9"/], [
          "Linux",
          "mips",
          /unsupported CPU architecture "mips"/,
        ]] as const
      ) {
        const bin = fakeTools(join(tmp, `tools-${s}`), { uname: fakeUname(s, m) });
        const r = await sh(
          installSh,
          ["--dir", join(tmp, "bin")],
          tlsEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp, PATH: `${bin}:${process.env.PATH}` }),
        );
        assert.equal(r.status, 1);
        assert.match(r.stderr, message);
        oneLine(r.stderr);
      }
      assert.deepEqual(server.requests, [], "nothing is downloaded for an unknown platform");
    });
  });

  test("maps uname and libc to the release target", async () => {
    await withRelease(async ({ tmp, installSh, server }) => {
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
          installSh,
          ["--dir", dir, "--quiet"],
          tlsEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp, PATH: `${bin}:${process.env.PATH}` }),
        );
        assert.equal(r.status, 0, `${s} ${m}: ${r.stderr}`);
        assert.equal(r.stdout, "", "--quiet prints nothing");
        assert.equal(readFileSync(join(dir, name), "utf8"), fakeBinary(target), `${s} ${m} ${JSON.stringify(extra)}`);
      }
    });
  });

  test("verifies with shasum where sha256sum is missing, still catches a mismatch, and needs curl", {
    skip: !has("shasum") && "shasum is not installed",
  }, async () => {
    await withRelease(async ({ tmp, release, installSh, server }) => {
      // A PATH holding only the tools install.sh uses, minus sha256sum.
      const tools = join(tmp, "only");
      mkdirSync(tools);
      for (
        const t of ["uname", "sed", "head", "cut", "mkdir", "mktemp", "rm", "chmod", "mv", "curl", "ls", "grep"]
          .concat(["ldd", "sysctl", "shasum", "perl", "cat", "awk"])
      ) {
        const found = spawnSync("sh", ["-c", `command -v ${t}`], { encoding: "utf8" }).stdout.trim();
        if (found.startsWith("/")) symlinkSync(found, join(tools, t));
      }
      const env = tlsEnv({ REHYDRATE_BASE_URL: server.url, HOME: tmp, PATH: tools });
      const ok = await sh(installSh, ["--version", VERSION, "--dir", join(tmp, "a")], env);
      assert.equal(ok.status, 0, ok.stderr);
      writeFileSync(join(release, fileName(VERSION, hostTarget())), "tampered\n");
      const bad = await sh(installSh, ["--version", VERSION, "--dir", join(tmp, "b")], env);
      assert.equal(bad.status, 1);
      assert.match(bad.stderr, /checksum mismatch/);
      spawnSync("rm", [join(tools, "curl")]);
      const noCurl = await sh(installSh, ["--version", VERSION, "--dir", join(tmp, "c")], env);
      assert.equal(noCurl.status, 1);
      assert.match(noCurl.stderr, /^install\.sh: curl is not installed/);
      oneLine(noCurl.stderr);
    });
  });

  test("answers --help and refuses an unknown option in one line", async () => {
    const help = await sh(join(ROOT, "install.sh"), ["--help"], cleanEnv({}));
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--base-url URL/);
    assert.match(help.stdout, /--sums FILE/);
    const bad = await sh(join(ROOT, "install.sh"), ["--frobnicate"], cleanEnv({}));
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /unknown option "--frobnicate"/);
    oneLine(bad.stderr);
  });

  test("passes shellcheck", { skip: !has("shellcheck") && "shellcheck is not installed" }, () => {
    const scripts = [
      join(ROOT, "install.sh"),
      join(ROOT, "plugin", "rehydrate-launcher"),
      ...readdirSync(join(ROOT, "scripts")).filter((f) => f.endsWith(".sh")).map((f) => join(ROOT, "scripts", f)),
    ];
    const r = spawnSync("shellcheck", ["--shell=sh", ...scripts], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});

describe("the plugin launcher", { skip: SKIP_HTTPS }, () => {
  // The plugin's hooks run plugin/rehydrate-launcher, which fetches the binary with install.sh.
  const launcherEnv = (tmp: string, root: string, url: string) =>
    tlsEnv({
      REHYDRATE_BASE_URL: url,
      HOME: tmp,
      CLAUDE_PLUGIN_DATA: join(tmp, "plugin-data"),
      CLAUDE_PLUGIN_ROOT: root,
    });

  test("fetches and verifies the binary in the background on first use, then runs it", async () => {
    await withRelease(async ({ tmp, root, server }) => {
      const data = join(tmp, "plugin-data");
      const env = launcherEnv(tmp, root, server.url);
      const launcher = join(root, "plugin", "rehydrate-launcher");
      const first = await sh(launcher, ["session-start"], env, '{"hook_event_name":"SessionStart"}');
      assert.equal(first.status, 0);
      assert.match(JSON.parse(first.stdout).systemMessage, /downloading/);
      const bin = join(data, "bin", `rehydrate-${VERSION}`);
      await waitFor(() => existsSync(bin) && !existsSync(join(data, "bin", ".fetching")));
      assert.equal(statSync(bin).mode & 0o777, 0o755);
      const second = await sh(launcher, ["pre-tool-use"], env, "{}");
      assert.equal(second.status, 0);
      assert.equal(second.stdout.trim(), `fake rehydrate for ${hostTarget()} pre-tool-use`);
      assert.deepEqual(
        server.requests,
        [`/release/${fileName(VERSION, hostTarget())}`],
        "downloaded once, no SHA256SUMS",
      );
    });
  });

  test("stays silent, says so once on SessionStart, and retries later when the download fails", async () => {
    await withRelease(async ({ tmp, release, root, server }) => {
      writeFileSync(join(release, fileName(VERSION, hostTarget())), "tampered\n");
      const data = join(tmp, "plugin-data");
      const env = launcherEnv(tmp, root, server.url);
      const launcher = join(root, "plugin", "rehydrate-launcher");
      const first = await sh(launcher, ["pre-tool-use"], env, "{}");
      assert.equal(first.status, 0);
      assert.equal(first.stdout, "");
      await waitFor(() => existsSync(join(data, "bin", ".failed")) && !existsSync(join(data, "bin", ".fetching")));
      assert.match(readFileSync(join(data, "bin", "install.log"), "utf8"), /checksum mismatch/);
      assert.equal(existsSync(join(data, "bin", `rehydrate-${VERSION}`)), false);
      const requests = server.requests.length;
      const again = await sh(launcher, ["session-start"], env, "{}");
      assert.equal(again.status, 0);
      assert.equal(again.stdout.trim().split("\n").length, 1);
      assert.match(JSON.parse(again.stdout).systemMessage, /could not be downloaded/);
      const third = await sh(launcher, ["session-start"], env, "{}");
      assert.equal(third.stdout, "", "the message is given once");
      assert.equal(server.requests.length, requests, "no new download within the back-off");
    });
  });
});
