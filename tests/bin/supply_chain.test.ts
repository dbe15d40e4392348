// Supply chain (the trust-boundary issue's W4, W7 and W5 for the plugin, rule 8): install.sh and
// the plugin launcher check a download against hashes pinned in them at release, HTTPS only with
// no downgrade, look their helper tools up only outside the project, and start the binary without
// Bun's code-loading variables. Each test replays a finding against a fake release on 127.0.0.1.
//
// SUPPLY_CHAIN_SCRIPTS=<dir> runs the tests against the install.sh and plugin/rehydrate-launcher
// of another tree (e.g. `git show f2fa902:install.sh`): every test marked W4, W5 or W7 fails on
// those of f2fa902.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bin, ROOT } from "./_bin.ts";
import {
  cleanEnv,
  fileName,
  pinnedCopy,
  serve,
  sh,
  sha256,
  SKIP_HTTPS,
  tlsEnv,
  VERSION,
  waitFor,
  withTmp,
  writeRelease,
} from "./_https_release.ts";
import { parseSums, pinRelease, repositorySlug } from "../../scripts/pin-release.ts";

const SCRIPTS = process.env.SUPPLY_CHAIN_SCRIPTS || ROOT;
const HOST = `${process.platform}-${process.arch === "arm64" ? "arm64" : "x64"}`;
const MUSL = process.platform === "linux" && readdirSync("/lib").some((f) => f.startsWith("ld-musl-"));
const TARGET = HOST + (MUSL ? "-musl" : "");

/** A release of VERSION served over HTTPS, and pinned copies of the scripts under test in `tmp/plugin`. */
async function withPinnedRelease(
  fn: (ctx: { tmp: string; release: string; root: string; url: string }) => Promise<void>,
  tamper?: (release: string) => void,
  redirect?: (served: { url: string; redirects: Map<string, string> }, plain: string) => void,
): Promise<void> {
  await withTmp(async (tmp) => {
    const release = join(tmp, "release");
    const sums = writeRelease(release, VERSION);
    const root = join(tmp, "plugin-root");
    pinnedCopy(SCRIPTS, root, sums);
    tamper?.(release);
    const served = await serve(release);
    const plain = await serve(release, false);
    try {
      redirect?.(served, plain.url);
      await fn({ tmp, release, root, url: served.url });
      assert.deepEqual(plain.requests, [], "nothing is ever fetched over plain http");
    } finally {
      await served.close();
      await plain.close();
    }
  });
}

/** The attacker's release: a different binary, and a SHA256SUMS next to it that matches it. */
function tamperWithMatchingSums(release: string): void {
  const evil = "#!/bin/sh\necho pwned\n";
  writeFileSync(join(release, fileName(VERSION, TARGET)), evil);
  const sums = readFileSync(join(release, "SHA256SUMS"), "utf8").split("\n").map((l) =>
    l.endsWith(`  ${fileName(VERSION, TARGET)}`) ? `${sha256(evil)}  ${fileName(VERSION, TARGET)}` : l
  );
  writeFileSync(join(release, "SHA256SUMS"), sums.join("\n"));
}

describe("install.sh (supply chain)", { skip: SKIP_HTTPS }, () => {
  test("installs over HTTPS when the binary matches the hash pinned in the script", async () => {
    await withPinnedRelease(async ({ tmp, root, url }) => {
      const dir = join(tmp, "bin");
      const r = await sh(join(root, "install.sh"), ["--dir", dir], tlsEnv({ REHYDRATE_BASE_URL: url, HOME: tmp }));
      assert.equal(r.status, 0, r.stderr);
      assert.match(readFileSync(join(dir, "rehydrate"), "utf8"), /^#!\/bin\/sh\necho "fake rehydrate for /);
    });
  });

  test("W4: a tampered binary is refused although the SHA256SUMS served next to it matches it", async () => {
    await withPinnedRelease(async ({ tmp, root, url }) => {
      const dir = join(tmp, "bin");
      const r = await sh(
        join(root, "install.sh"),
        ["--version", VERSION, "--dir", dir],
        tlsEnv({ REHYDRATE_BASE_URL: url, HOME: tmp }),
      );
      assert.equal(r.status, 1, `installed the attacker's binary: ${r.stdout}`);
      assert.match(r.stderr, /^install\.sh: checksum mismatch for rehydrate-/);
      assert.equal(r.stderr.trim().split("\n").length, 1);
      assert.deepEqual(existsSync(dir) ? readdirSync(dir) : [], [], "nothing is installed, no temporary file left");
    }, tamperWithMatchingSums);
  });

  test("W4: an http:// download location is refused before any request", async () => {
    await withTmp(async (tmp) => {
      const release = join(tmp, "release");
      const sums = writeRelease(release, VERSION);
      pinnedCopy(SCRIPTS, join(tmp, "root"), sums);
      const plain = await serve(release, false);
      try {
        const r = await sh(
          join(tmp, "root", "install.sh"),
          ["--version", VERSION, "--dir", join(tmp, "bin")],
          cleanEnv({ REHYDRATE_BASE_URL: plain.url, HOME: tmp }),
        );
        assert.equal(r.status, 1, `installed over plain http: ${r.stdout}`);
        assert.match(r.stderr, /only https:\/\/ is allowed/);
        assert.deepEqual(plain.requests, []);
        assert.equal(existsSync(join(tmp, "bin", "rehydrate")), false);
      } finally {
        await plain.close();
      }
    });
  });

  test("W4: an HTTPS download redirected to http:// is refused (no downgrade)", async () => {
    await withPinnedRelease(
      async ({ tmp, root, url }) => {
        const dir = join(tmp, "bin");
        const r = await sh(
          join(root, "install.sh"),
          ["--version", VERSION, "--dir", dir],
          tlsEnv({ REHYDRATE_BASE_URL: url, HOME: tmp }),
        );
        assert.equal(r.status, 1, `followed a redirect to http: ${r.stdout}`);
        assert.match(r.stderr, /^install\.sh: download failed: https:\/\/127\.0\.0\.1:\d+\/release\/rehydrate-/);
        assert.equal(existsSync(join(dir, "rehydrate")), false);
      },
      undefined,
      (served, plain) => {
        for (const f of ["SHA256SUMS", fileName(VERSION, TARGET)]) {
          served.redirects.set(`/release/${f}`, `${plain}/${f}`);
        }
      },
    );
  });

  test("another version needs a SHA256SUMS the user trusts, given as a local file", async () => {
    await withTmp(async (tmp) => {
      const release = join(tmp, "release");
      const sums = writeRelease(release, "9.8.7");
      pinnedCopy(ROOT, join(tmp, "root"), []);
      const served = await serve(release);
      try {
        const env = tlsEnv({ REHYDRATE_BASE_URL: served.url, HOME: tmp });
        const refused = await sh(join(tmp, "root", "install.sh"), ["--version", "9.8.7", "--dir", join(tmp, "a")], env);
        assert.equal(refused.status, 1);
        assert.match(refused.stderr, new RegExp(`pins the hashes of ${VERSION.replaceAll(".", "\\.")}, not 9\\.8\\.7`));
        assert.deepEqual(served.requests, [], "nothing is downloaded without a hash to check it against");
        writeFileSync(join(tmp, "trusted-sums"), sums.join("\n") + "\n");
        const ok = await sh(join(tmp, "root", "install.sh"), [
          "--version",
          "9.8.7",
          "--sums",
          join(tmp, "trusted-sums"),
          "--dir",
          join(tmp, "b"),
        ], env);
        assert.equal(ok.status, 0, ok.stderr);
        assert.deepEqual(served.requests, [`/release/${fileName("9.8.7", TARGET)}`], "no SHA256SUMS is fetched");
      } finally {
        await served.close();
      }
    });
  });

  test("the repository's own copy pins nothing and says where a pinned one is, in one line", async () => {
    await withTmp(async (tmp) => {
      const r = await sh(join(ROOT, "install.sh"), ["--dir", join(tmp, "bin")], cleanEnv({ HOME: tmp }));
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^install\.sh: this install\.sh pins no release .*attached to a release/);
      assert.equal(r.stderr.trim().split("\n").length, 1);
    });
  });
});

describe("pin-release: the repository comes from package.json", () => {
  test("a release's install.sh and launcher name package.json's repository and carry its hashes", async () => {
    await withTmp((tmp) => {
      const sums = writeRelease(tmp, VERSION);
      const slug = repositorySlug(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")));
      pinRelease(tmp);
      const install = readFileSync(join(tmp, "install.sh"), "utf8");
      const launcher = readFileSync(join(tmp, "rehydrate-launcher"), "utf8");
      assert.match(install, new RegExp(`^REPO="${slug}"$`, "m"));
      assert.match(install, new RegExp(`^PINNED_VERSION="${VERSION.replaceAll(".", "\\.")}"$`, "m"));
      for (const text of [install, launcher]) {
        assert.ok(text.includes(`PINNED_SUMS="${sums.join("\n")}"`));
        assert.doesNotMatch(text, /OWNER\//);
      }
      // Pinning again (a second release build) replaces the values, it does not stack them.
      writeFileSync(join(tmp, "SHA256SUMS"), sums.slice(0, 2).join("\n") + "\n");
      pinRelease(tmp);
      assert.ok(readFileSync(join(tmp, "install.sh"), "utf8").includes(`PINNED_SUMS="${sums.slice(0, 2).join("\n")}"`));
      // The tracked scripts are left alone without --tree.
      assert.match(readFileSync(join(ROOT, "install.sh"), "utf8"), /^PINNED_SUMS=""$/m);
    });
  });

  test("the documents name package.json's repository wherever they name one", () => {
    const slug = repositorySlug(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")));
    const docs = ["README.md", "SECURITY.md", ...readdirSync(join(ROOT, "docs")).map((f) => join("docs", f))]
      .filter((f) => f.endsWith(".md"));
    for (const doc of docs) {
      const text = readFileSync(join(ROOT, doc), "utf8");
      for (const m of text.matchAll(/github\.com\/([\w.-]+\/rehydrate)\b|marketplace add ([\w.-]+\/[\w.-]+)/g)) {
        assert.equal(m[1] ?? m[2], slug, `${doc} names ${m[0]}`);
      }
    }
  });

  test("refuses a missing, foreign or placeholder repository, and a stale SHA256SUMS", () => {
    assert.throws(() => repositorySlug({}), /no "repository"/);
    assert.throws(() => repositorySlug({ repository: "OWNER/rehydrate" }), /placeholder/);
    assert.throws(() => repositorySlug({ repository: "https://gitlab.com/a/b.git" }), /not a GitHub repository/);
    assert.equal(repositorySlug({ repository: "github:acme/rehydrate" }), "acme/rehydrate");
    assert.equal(
      repositorySlug({ repository: { url: "git+https://github.com/acme/rehydrate.git" } }),
      "acme/rehydrate",
    );
    const hex = "ab".repeat(32);
    assert.throws(() => parseSums(`${hex}  rehydrate-0.0.9-linux-x64\n`, "0.1.0"), /not a 0\.1\.0 binary/);
    assert.throws(
      () => parseSums(`${hex}  rehydrate-0.1.0-linux-x64 ; rm -rf ~\n`, "0.1.0"),
      /not "<sha256> {2}<file>"/,
    );
    assert.deepEqual(parseSums(`${hex}  stop-0.1.0-linux-x64\n${hex} *rehydrate-0.1.0-linux-x64\n`, "0.1.0"), [
      `${hex}  rehydrate-0.1.0-linux-x64`,
    ]);
  });
});

describe("the plugin launcher (supply chain)", { skip: SKIP_HTTPS }, () => {
  const launcherEnv = (tmp: string, root: string, url: string, extra: Record<string, string> = {}) =>
    tlsEnv({
      REHYDRATE_BASE_URL: url,
      HOME: tmp,
      CLAUDE_PLUGIN_DATA: join(tmp, "plugin-data"),
      CLAUDE_PLUGIN_ROOT: root,
      ...extra,
    });
  const settled = (tmp: string) => () =>
    !existsSync(join(tmp, "plugin-data", "bin", ".fetching")) &&
    (existsSync(join(tmp, "plugin-data", "bin", ".failed")) ||
      existsSync(join(tmp, "plugin-data", "bin", `rehydrate-${VERSION}`)));

  test("W4: refuses a tampered binary whose served SHA256SUMS matches it: the launcher's own pins count", async () => {
    await withPinnedRelease(async ({ tmp, root, url }) => {
      const env = launcherEnv(tmp, root, url);
      const first = await sh(join(root, "plugin", "rehydrate-launcher"), ["pre-tool-use"], env, "{}");
      assert.equal(first.status, 0);
      assert.equal(first.stdout, "");
      await waitFor(settled(tmp));
      assert.equal(
        existsSync(join(tmp, "plugin-data", "bin", `rehydrate-${VERSION}`)),
        false,
        "the binary was installed",
      );
      assert.match(readFileSync(join(tmp, "plugin-data", "bin", "install.log"), "utf8"), /checksum mismatch/);
    }, tamperWithMatchingSums);
  });

  test("W7: with `.` and a folder of the project on PATH, none of the repository's tools runs", async () => {
    await withPinnedRelease(async ({ tmp, root, url }) => {
      // A cloned repository full of tools named like the ones the launcher and install.sh use.
      const repo = join(tmp, "repo");
      const canary = join(tmp, "canary");
      mkdirSync(join(repo, "node_modules", ".bin"), { recursive: true });
      const tools = ["cat", "find", "mkdir", "uname", "dirname", "sed", "rm", "rmdir", "sh", "curl", "sha256sum"]
        .concat(["shasum", "awk", "mktemp", "chmod", "mv", "head", "cut", "ls", "grep", "ldd", "printf", "rehydrate"]);
      for (const dir of [repo, join(repo, "node_modules", ".bin")]) {
        for (const t of tools) {
          writeFileSync(join(dir, t), `#!/bin/sh\necho "${t} $*" >>"${canary}"\n`);
          chmodSync(join(dir, t), 0o755);
        }
      }
      const env = launcherEnv(tmp, root, url, {
        PATH: `.:${join(repo, "node_modules", ".bin")}:${process.env.PATH}`,
        CLAUDE_PROJECT_DIR: repo,
        // A relative binary path names the repository's file: it is not run either.
        REHYDRATE_BIN: "./rehydrate",
      });
      for (const hook of ["session-start", "pre-tool-use"]) {
        const r = await sh(join(root, "plugin", "rehydrate-launcher"), [hook], env, "{}", repo);
        assert.equal(r.status, 0, r.stderr);
      }
      await waitFor(settled(tmp)).catch(() => {}); // a planted tool that ran may have broken the download
      assert.equal(existsSync(canary) ? readFileSync(canary, "utf8") : "", "", "a tool of the repository ran");
      assert.ok(existsSync(join(tmp, "plugin-data", "bin", `rehydrate-${VERSION}`)), "the download itself still works");
    });
  });

  test("W5: BUN_OPTIONS from a project's settings does not reach the compiled binary", async () => {
    await withTmp(async (tmp) => {
      const repo = join(tmp, "repo");
      mkdirSync(repo);
      const canary = join(tmp, "preloaded");
      writeFileSync(join(repo, "evil.js"), `require("node:fs").writeFileSync(${JSON.stringify(canary)}, "ran");\n`);
      const binary = bin("rehydrate");
      const env = cleanEnv({ HOME: tmp, BUN_OPTIONS: "--preload=./evil.js" });
      // The probe is real: run directly, the compiled binary loads the preload.
      const direct = spawnSync(binary, ["stop"], { cwd: repo, env: env as NodeJS.ProcessEnv, input: "{}" });
      assert.equal(direct.status, 0);
      assert.ok(existsSync(canary), "the compiled binary no longer honours BUN_OPTIONS: this test needs another probe");
      // Through the launcher, by REHYDRATE_BIN and from the plugin's data directory.
      for (const extra of [{ REHYDRATE_BIN: binary }, { CLAUDE_PLUGIN_DATA: join(tmp, "data") }]) {
        mkdirSync(join(tmp, "data", "bin"), { recursive: true });
        spawnSync("cp", [binary, join(tmp, "data", "bin", `rehydrate-${VERSION}`)]);
        writeFileSync(canary, "");
        const r = await sh(join(SCRIPTS, "plugin", "rehydrate-launcher"), ["stop"], { ...env, ...extra }, "{}", repo);
        assert.equal(r.status, 0, r.stderr);
        assert.equal(
          readFileSync(canary, "utf8"),
          "",
          `the preload ran through the launcher (${Object.keys(extra)[0]})`,
        );
      }
    });
  });
});
