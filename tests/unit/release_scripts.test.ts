// The release helpers: scripts/release-notes.ts (the CHANGELOG section that becomes the release
// notes) and scripts/check-release.sh (no release from a dirty tree, a mismatched or an existing tag).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { releaseNotes } from "../../scripts/release-notes.ts";

const ROOT = join(import.meta.dirname!, "..", "..");
const CHECK = join(ROOT, "scripts", "check-release.sh");
const SKIP_POSIX = process.platform === "win32" ? "check-release.sh is a POSIX sh script" : false;

const CHANGELOG = [
  "# Changelog",
  "",
  "## Unreleased",
  "",
  "## [0.2.0] - 2026-12-01",
  "### Added",
  "- `rehydrate doctor`",
  "",
  "```md",
  "## 0.1.0",
  "```",
  "",
  "## 0.2.0-beta.1",
  "- a preview",
  "",
  "## v0.1.0",
  "- First release",
  "",
].join("\n");

describe("releaseNotes()", () => {
  test("returns the section of the version, up to the next heading, whatever the heading style", () => {
    assert.equal(releaseNotes(CHANGELOG, "0.2.0"), "### Added\n- `rehydrate doctor`\n\n```md\n## 0.1.0\n```");
    assert.equal(releaseNotes(CHANGELOG, "v0.1.0"), "- First release");
    assert.equal(releaseNotes(CHANGELOG, "0.2.0-beta.1"), "- a preview");
  });

  test("ignores headings inside fenced code blocks", () => {
    assert.equal(releaseNotes("## 1.0.0\n- real\n\n```\n## 0.9.0\n```\n\n## 0.9.0\n- older\n", "0.9.0"), "- older");
  });

  test("reads CRLF line endings and a byte-order mark", () => {
    assert.equal(releaseNotes("\uFEFF# Changelog\r\n\r\n## 1.0.0\r\n- one\r\n- two\r\n", "1.0.0"), "- one\n- two");
  });

  test("throws for a version without a section, and for an empty section", () => {
    assert.throws(() => releaseNotes(CHANGELOG, "0.3.0"), /no "## 0\.3\.0" section/);
    assert.throws(
      () => releaseNotes(CHANGELOG, "0.2"),
      /no "## 0\.2" section/,
      "a prefix of a version is not that version",
    );
    assert.throws(() => releaseNotes(CHANGELOG, "Unreleased"), /section is empty/);
  });

  test("prints the section from the command line, and fails in one line without one", () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-notes-"));
    try {
      writeFileSync(join(dir, "CHANGELOG.md"), CHANGELOG);
      const runtime = "Deno" in globalThis ? [process.execPath, "run", "-A"] : [process.execPath];
      const run = (version: string) =>
        spawnSync(runtime[0], [
          ...runtime.slice(1),
          join(ROOT, "scripts", "release-notes.ts"),
          version,
          "--changelog",
          join(dir, "CHANGELOG.md"),
        ], { encoding: "utf8" });
      const ok = run("0.1.0");
      assert.equal(ok.status, 0, ok.stderr);
      assert.equal(ok.stdout, "- First release\n");
      const missing = run("9.9.9");
      assert.equal(missing.status, 1);
      assert.equal(missing.stdout, "");
      assert.match(missing.stderr, /^release-notes: CHANGELOG\.md has no "## 9\.9\.9" section.*\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("check-release.sh", () => {
  const GIT_ENV = {
    ...process.env,
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.invalid",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.invalid",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };

  function git(cwd: string, ...args: string[]): string {
    const r = spawnSync("git", args, { cwd, encoding: "utf8", env: GIT_ENV });
    assert.equal(r.status, 0, `git ${args.join(" ")}: ${r.stderr}`);
    return r.stdout.trim();
  }

  function check(cwd: string, ...args: string[]) {
    return spawnSync("sh", [CHECK, ...args], { cwd, encoding: "utf8", env: GIT_ENV });
  }

  function files(
    dir: string,
    version: string,
    { plugin = version, launcher = version, lib = version, changelog = `## ${version}\n- notes\n`, pins = "" } = {},
  ): void {
    mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
    mkdirSync(join(dir, "plugin"), { recursive: true });
    mkdirSync(join(dir, "lib", "hook"), { recursive: true });
    writeFileSync(
      join(dir, "lib", "hook", "version.ts"),
      `/** The version. */\nexport const VERSION: string = "${lib}";\n`,
    );
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "rehydrate", version, devDependencies: { x: { version: "9.9.9" } } }, null, 2) + "\n",
    );
    writeFileSync(
      join(dir, ".claude-plugin", "plugin.json"),
      JSON.stringify({ name: "rehydrate", version: plugin }, null, 2) + "\n",
    );
    writeFileSync(
      join(dir, "plugin", "rehydrate-launcher"),
      `#!/bin/sh\n# --- pinned by scripts/pin-release.ts\nVERSION=${launcher}\nPINNED_SUMS="${pins}"\n# --- end of pinned values ---\n`,
    );
    writeFileSync(join(dir, "CHANGELOG.md"), `# Changelog\n\n## Unreleased\n\n${changelog}`);
  }

  function withRepo(fn: (dir: string) => void): void {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-check-release-"));
    try {
      git(dir, "init", "-q", "-b", "main");
      files(dir, "1.2.3");
      git(dir, "add", "-A");
      git(dir, "commit", "-q", "-m", "release 1.2.3");
      fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  function refused(r: ReturnType<typeof check>, message: RegExp): void {
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split("\n").length, 1, "one line");
  }

  test("accepts a clean commit whose version sources match the new tag", { skip: SKIP_POSIX }, () => {
    withRepo((dir) => {
      const r = check(dir, "v1.2.3");
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /ready to tag v1\.2\.3/);
    });
  });

  test("refuses a dirty tree: a modified file or an untracked one", { skip: SKIP_POSIX }, () => {
    withRepo((dir) => {
      writeFileSync(join(dir, "new.txt"), "x");
      refused(check(dir, "v1.2.3"), /uncommitted or untracked changes \(1 paths/);
      rmSync(join(dir, "new.txt"));
      writeFileSync(join(dir, "CHANGELOG.md"), readFileSync(join(dir, "CHANGELOG.md"), "utf8") + "- more\n");
      refused(check(dir, "--tagged", "v1.2.3"), /uncommitted/);
    });
  });

  test(
    "refuses a tag that does not match package.json, plugin.json, the launcher, lib/hook/version.ts or the CHANGELOG",
    { skip: SKIP_POSIX },
    () => {
      withRepo((dir) => {
        refused(check(dir, "v1.2.4"), /tag v1\.2\.4 does not match package\.json's version 1\.2\.3/);
        refused(check(dir, "release-1"), /not a version tag/);
        const cases: [Parameters<typeof files>[2], RegExp][] = [
          [{ plugin: "1.2.2" }, /plugin\.json has version "1\.2\.2"/],
          [{ launcher: "1.2.2" }, /rehydrate-launcher has VERSION=1\.2\.2/],
          [{ lib: "1.2.2" }, /lib\/hook\/version\.ts has VERSION "1\.2\.2"/],
          [{ changelog: "## 1.2.30\n- close but not it\n" }, /CHANGELOG\.md has no "## 1\.2\.3" section/],
          [
            { pins: `${"a".repeat(64)}  rehydrate-1.2.2-linux-x64` },
            /rehydrate-launcher pins the hash of rehydrate-1\.2\.2-linux-x64, not of a 1\.2\.3 binary/,
          ],
        ];
        for (const [change, message] of cases) {
          files(dir, "1.2.3", change);
          git(dir, "commit", "-q", "-am", "change");
          refused(check(dir, "v1.2.3"), message);
        }
      });
    },
  );

  test("refuses a tag that exists already, here or on origin", { skip: SKIP_POSIX }, () => {
    withRepo((dir) => {
      git(dir, "tag", "v1.2.3");
      refused(check(dir, "v1.2.3"), /tag v1\.2\.3 exists already$/m);
      const clone = join(dir, "..", `${dir.split(/[\\/]/).at(-1)}-clone`);
      try {
        git(join(dir, ".."), "clone", "-q", "--no-tags", dir, clone);
        assert.equal(git(clone, "tag", "-l"), "", "the clone has no local tag");
        refused(check(clone, "v1.2.3"), /exists already on origin/);
      } finally {
        rmSync(clone, { recursive: true, force: true });
      }
    });
  });

  test(
    "--tagged accepts the tag at HEAD and refuses a missing tag or one on another commit",
    { skip: SKIP_POSIX },
    () => {
      withRepo((dir) => {
        refused(check(dir, "--tagged", "v1.2.3"), /tag v1\.2\.3 does not exist/);
        git(dir, "tag", "-a", "v1.2.3", "-m", "v1.2.3");
        const ok = check(dir, "--tagged", "v1.2.3");
        assert.equal(ok.status, 0, ok.stderr);
        git(dir, "commit", "-q", "--allow-empty", "-m", "after the tag");
        refused(check(dir, "--tagged", "v1.2.3"), /points at [0-9a-f]{40}, not at the checked-out commit/);
      });
    },
  );
});

describe("verify-release.sh", () => {
  const VERIFY = join(ROOT, "scripts", "verify-release.sh");

  function release(dir: string, body: string, sum = body): void {
    writeFileSync(join(dir, "rehydrate-1.2.3-linux-x64"), body);
    const hash =
      spawnSync("sh", ["-c", "sha256sum 2>/dev/null || shasum -a 256"], { input: sum, encoding: "utf8" }).stdout.split(
        " ",
      )[0];
    writeFileSync(
      join(dir, "SHA256SUMS"),
      `${"0".repeat(64)}  rehydrate-1.2.3-darwin-x64\n${hash}  rehydrate-1.2.3-linux-x64\n`,
    );
    // The release's pinned scripts (scripts/pin-release.ts) carry the same lines.
    for (const script of ["install.sh", "rehydrate-launcher"]) {
      writeFileSync(
        join(dir, script),
        `#!/bin/sh\nPINNED_SUMS="${"0".repeat(64)}  rehydrate-1.2.3-darwin-x64\n${hash}  rehydrate-1.2.3-linux-x64"\n`,
      );
    }
  }

  test("passes a binary that matches SHA256SUMS and prints the version, and names what is wrong otherwise", {
    skip: SKIP_POSIX,
  }, () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-verify-"));
    try {
      const run = () => spawnSync("sh", [VERIFY, dir, "linux-x64", "--version", "1.2.3"], { encoding: "utf8" });
      // A stand-in for the binary: --version, a hook (reads stdin, prints nothing), its --help and a verb's --help.
      const good =
        '#!/bin/sh\ncase "$1$2" in --version) echo 1.2.3 ;; stop--help) echo "stop 1.2.3: the rehydrate Stop hook" ;; stop) cat >/dev/null ;; status--help) echo "Usage: rehydrate status" ;; *) exit 1 ;; esac\n';
      release(dir, good);
      const ok = run();
      assert.equal(ok.status, 0, ok.stderr);
      assert.match(ok.stdout, /checksum ok and pinned, --version 1\.2\.3, a hook and a verb run/);
      writeFileSync(join(dir, "rehydrate-launcher"), '#!/bin/sh\nPINNED_SUMS=""\n');
      assert.match(
        run().stderr,
        /^verify-release: .*rehydrate-launcher does not pin [0-9a-f]{64} for rehydrate-1\.2\.3-linux-x64/,
      );
      release(dir, good);
      release(dir, good.replace("stop) cat >/dev/null", "stop) echo oops"));
      assert.match(run().stderr, /^verify-release: rehydrate-1\.2\.3-linux-x64 stop printed "oops" on bad input/);
      release(dir, good.replace("stop) cat >/dev/null", "stop) exit 3"));
      assert.match(run().stderr, /stop failed \(a hook must exit 0\)/);
      release(dir, good.replace('echo "stop 1.2.3: the rehydrate Stop hook"', "true"));
      assert.match(run().stderr, /stop --help printed no help: the hook's code did not load/);
      release(dir, good.replace('echo "Usage: rehydrate status"', "echo nothing"));
      assert.match(run().stderr, /status --help printed no usage/);
      release(dir, "#!/bin/sh\necho 1.2.3\n", "something else");
      assert.match(run().stderr, /^verify-release: checksum mismatch for rehydrate-1\.2\.3-linux-x64/);
      release(dir, "#!/bin/sh\necho 1.2.4\n");
      assert.match(run().stderr, /--version printed "1\.2\.4", expected 1\.2\.3/);
      rmSync(join(dir, "rehydrate-1.2.3-linux-x64"));
      assert.match(run().stderr, /rehydrate-1\.2\.3-linux-x64 is missing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
