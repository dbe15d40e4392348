import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot, rootLine } from "../../../lib/cli/_project_root.ts";

function tree(): { root: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-root-"));
  const home = join(root, "home");
  mkdirSync(join(home, ".claude"), { recursive: true });
  return { root, home };
}

describe("projectRoot()", () => {
  test("projectRoot() finds the repository's root from a subdirectory, by .git", () => {
    const t = tree();
    const repo = join(t.home, "work", "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "src", "lib"), { recursive: true });
    assert.deepEqual(projectRoot({ cwd: join(repo, "src", "lib"), homeDir: t.home }, undefined), {
      dir: repo,
      found: ".git",
    });
    assert.equal(
      rootLine({ dir: repo, found: ".git" }, join(repo, "src")),
      `Project: ${repo} (the nearest folder above ${join(repo, "src")} with .git)`,
    );
    assert.equal(rootLine({ dir: repo, found: ".git" }, repo), null);
  });

  test("projectRoot() takes the nearest .claude/ folder first, and a worktree's .git file", () => {
    const t = tree();
    const repo = join(t.root, "repo");
    mkdirSync(join(repo, "pkg", "a", ".claude"), { recursive: true });
    writeFileSync(join(repo, ".git"), "gitdir: /elsewhere\n");
    assert.deepEqual(projectRoot({ cwd: join(repo, "pkg", "a"), homeDir: t.home }, undefined).found, ".claude");
    assert.deepEqual(projectRoot({ cwd: join(repo, "pkg"), homeDir: t.home }, undefined), { dir: repo, found: ".git" });
  });

  test("projectRoot() never takes the home directory (its .claude/ is the user's settings, its .git dotfiles)", () => {
    const t = tree();
    mkdirSync(join(t.home, ".git"));
    const plain = join(t.home, "notes", "draft");
    mkdirSync(plain, { recursive: true });
    assert.deepEqual(projectRoot({ cwd: plain, homeDir: t.home }, undefined), { dir: plain, found: "cwd" });
  });

  test("projectRoot() does not look into a folder others may write to, such as /tmp", {
    skip: process.platform === "win32",
  }, () => {
    const t = tree();
    const shared = join(t.root, "shared");
    mkdirSync(join(shared, ".claude"), { recursive: true });
    chmodSync(shared, 0o1777);
    const mine = join(shared, "mine", "src");
    mkdirSync(mine, { recursive: true });
    assert.deepEqual(projectRoot({ cwd: mine, homeDir: t.home }, undefined), { dir: mine, found: "cwd" });
  });

  test("projectRoot() uses --project as given", () => {
    const t = tree();
    assert.deepEqual(projectRoot({ cwd: t.root, homeDir: t.home }, "sub"), {
      dir: join(t.root, "sub"),
      found: "option",
    });
  });
});
