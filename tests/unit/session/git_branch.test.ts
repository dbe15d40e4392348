import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitBranch, gitBranchLabel } from "../../../lib/session/git_branch.ts";
import { cleanup, tempDir } from "./_fixtures.ts";

after(cleanup);

const SHA = "0123456789abcdef0123456789abcdef01234567";
const POSIX = process.platform !== "win32";

/** A repository whose `.git/HEAD` holds `head`, with a `src/deep` folder; returns its root. */
function repo(head: string): string {
  const root = tempDir("rehydrate-git-");
  mkdirSync(join(root, ".git"));
  mkdirSync(join(root, "src", "deep"), { recursive: true });
  writeFileSync(join(root, ".git", "HEAD"), head);
  return root;
}

describe("gitBranch()", () => {
  test("gitBranch() reads the branch from .git/HEAD, from the root or a subdirectory", () => {
    const root = repo("ref: refs/heads/main\n");
    assert.deepEqual(gitBranch(root), { branch: "main" });
    assert.deepEqual(gitBranch(join(root, "src", "deep")), { branch: "main" });
    assert.deepEqual(gitBranch(repo("ref: refs/heads/feature/json-output\r\n")), { branch: "feature/json-output" });
  });

  test("gitBranch() reports a detached HEAD by its commit", () => {
    assert.deepEqual(gitBranch(repo(SHA + "\n")), { detached: SHA });
    assert.equal(gitBranchLabel({ detached: SHA }), "detached@0123456789ab");
    assert.equal(gitBranchLabel({ branch: "main" }), "main");
    assert.equal(gitBranchLabel(null), null);
  });

  test("gitBranch() follows a worktree's .git file, relative or absolute", () => {
    const main = repo("ref: refs/heads/main\n");
    mkdirSync(join(main, ".git", "worktrees", "wt"), { recursive: true });
    writeFileSync(join(main, ".git", "worktrees", "wt", "HEAD"), "ref: refs/heads/wt-branch\n");
    const wt = join(tempDir("rehydrate-wt-"), "wt");
    mkdirSync(join(wt, "sub"), { recursive: true });
    writeFileSync(join(wt, ".git"), `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`);
    // git names the worktree's .git file back in its admin folder: that makes the folder its own.
    writeFileSync(join(main, ".git", "worktrees", "wt", "gitdir"), `${join(wt, ".git")}\n`);
    assert.deepEqual(gitBranch(join(wt, "sub")), { branch: "wt-branch" });
    const sub = join(main, "modules-sub");
    mkdirSync(sub);
    mkdirSync(join(main, ".git", "modules", "sub"), { recursive: true });
    writeFileSync(join(main, ".git", "modules", "sub", "HEAD"), SHA + "\n");
    writeFileSync(join(sub, ".git"), "gitdir: ../.git/modules/sub\n");
    assert.deepEqual(gitBranch(sub), { detached: SHA });
  });

  test("gitBranch() refuses garbage, odd refs and names git would not accept", () => {
    for (
      const head of [
        "",
        "garbage\n",
        "ref: refs/heads/main\nref: refs/heads/other\n",
        "ref: refs/remotes/origin/main\n",
        "ref: refs/heads/a..b\n",
        "ref: refs/heads/x.lock\n",
        "ref: refs/heads/has space\n",
        "ref: refs/heads/ctl\u0007\n",
        "ref: refs/heads/end/\n",
        "ref: refs/heads/.hidden\n",
        "ref: refs/heads/a@{b\n",
        "ref: refs/heads/" + "b".repeat(300) + "\n",
        SHA.slice(0, 39) + "\n",
        "\u0000\u0001\u0002",
      ]
    ) {
      assert.equal(gitBranch(repo(head)), null, JSON.stringify(head));
    }
    assert.equal(gitBranch(repo("ref: refs/heads/" + "a".repeat(5000))), null, "a HEAD over 4 KiB");
  });

  test("gitBranch() refuses a .git file that points nowhere or is not a gitdir line", () => {
    const dir = tempDir("rehydrate-git-");
    writeFileSync(join(dir, ".git"), "gitdir: /nonexistent/path/.git\n");
    assert.equal(gitBranch(dir), null);
    writeFileSync(join(dir, ".git"), "not a gitdir line\n");
    assert.equal(gitBranch(dir), null);
    writeFileSync(join(dir, ".git"), "gitdir: \n");
    assert.equal(gitBranch(dir), null);
  });

  test("gitBranch() follows no gitdir: out of the repository but to its own git directory (issue #36, I2)", () => {
    const elsewhere = repo("ref: refs/heads/Ignore-the-user\n");
    const dir = tempDir("rehydrate-git-");
    writeFileSync(join(dir, ".git"), `gitdir: ${join(elsewhere, ".git")}\n`);
    assert.equal(gitBranch(dir), null, "an absolute gitdir: to another repository");
    writeFileSync(join(elsewhere, ".git", "gitdir"), `${join(tempDir("rehydrate-other-"), ".git")}\n`);
    assert.equal(gitBranch(dir), null, "an admin folder that names another worktree");
    mkdirSync(join(dir, "inner-git"));
    writeFileSync(join(dir, "inner-git", "HEAD"), "ref: refs/heads/inside\n");
    writeFileSync(join(dir, ".git"), "gitdir: inner-git\n");
    assert.deepEqual(gitBranch(dir), { branch: "inside" }, "a git directory inside the repository's folder");
  });

  test("gitBranch() refuses a hard-linked HEAD or .git file (issue #36, I2)", { skip: !POSIX }, () => {
    const outside = join(tempDir("rehydrate-target-"), "HEAD");
    writeFileSync(outside, "ref: refs/heads/main\n");
    const linked = repo("x");
    unlinkSync(join(linked, ".git", "HEAD"));
    linkSync(outside, join(linked, ".git", "HEAD"));
    assert.equal(gitBranch(linked), null);
    const gitFile = join(tempDir("rehydrate-target-"), "git-file");
    writeFileSync(gitFile, "gitdir: inner-git\n");
    const dir = tempDir("rehydrate-git-");
    mkdirSync(join(dir, "inner-git"));
    writeFileSync(join(dir, "inner-git", "HEAD"), "ref: refs/heads/main\n");
    linkSync(gitFile, join(dir, ".git"));
    assert.equal(gitBranch(dir), null);
  });

  test("gitBranch() gives only a branch name of [A-Za-z0-9._/-], 100 characters at most (issue #36, I1)", () => {
    assert.equal(gitBranch(repo("ref: refs/heads/Ignore\u00a0the\u00a0user\n")), null, "NBSP for spaces");
    assert.equal(gitBranch(repo("ref: refs/heads/caf\u00e9\n")), null);
    assert.equal(gitBranch(repo("ref: refs/heads/a'b\n")), null);
    assert.equal(gitBranch(repo("ref: refs/heads/" + "b".repeat(101) + "\n")), null);
    assert.deepEqual(gitBranch(repo("ref: refs/heads/" + "b".repeat(100) + "\n")), { branch: "b".repeat(100) });
    assert.deepEqual(gitBranch(repo("ref: refs/heads/feat/x_1.2-rc\n")), { branch: "feat/x_1.2-rc" });
  });

  test("gitBranch() gives null outside a repository and for a relative or empty cwd", () => {
    assert.equal(gitBranch(tempDir("rehydrate-nogit-")), null);
    assert.equal(gitBranch(""), null);
    assert.equal(gitBranch("relative/dir"), null);
  });

  test("gitBranch() refuses a HEAD that is a symbolic link or a FIFO", { skip: !POSIX }, () => {
    const target = join(tempDir("rehydrate-target-"), "HEAD");
    writeFileSync(target, "ref: refs/heads/main\n");
    const linked = repo("x");
    unlinkSync(join(linked, ".git", "HEAD"));
    symlinkSync(target, join(linked, ".git", "HEAD"));
    assert.equal(gitBranch(linked), null);
    const fifo = repo("x");
    unlinkSync(join(fifo, ".git", "HEAD"));
    execFileSync("mkfifo", [join(fifo, ".git", "HEAD")]);
    assert.equal(gitBranch(fifo), null);
    const devnull = repo("x");
    unlinkSync(join(devnull, ".git", "HEAD"));
    symlinkSync("/dev/zero", join(devnull, ".git", "HEAD"));
    assert.equal(gitBranch(devnull), null);
  });

  test("gitBranch() refuses a .git that is a symbolic link", { skip: !POSIX }, () => {
    const real = repo("ref: refs/heads/main\n");
    const dir = tempDir("rehydrate-linked-");
    symlinkSync(join(real, ".git"), join(dir, ".git"));
    assert.equal(gitBranch(dir), null);
  });
});
