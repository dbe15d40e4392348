// The rehydrate package's postinstall step, in esbuild's way: npm links `rehydrate` on PATH (and in
// node_modules/.bin) to bin/rehydrate, a Node shim. Where it is safe, this puts the platform
// package's native binary in that file's place, so `rehydrate` IS the binary: `rehydrate --version`
// starts no Node, and neither does a hook of `rehydrate install --shared`, which runs the
// `rehydrate` found on PATH. Any failure leaves the shim, which still works (through Node). Never
// fails the install: every outcome exits 0. CommonJS and no dependencies, so any Node >= 16 runs it.
//
// Only under npm on Linux and macOS:
// - Windows: npm's .cmd and .ps1 wrappers run `node bin/rehydrate`, and a binary needs `.exe`.
// - pnpm and others write a wrapper script that bakes in `node <file>` when it reads the file's
//   first line, which can happen before this step runs: the binary would then be run as
//   JavaScript. Yarn may also run this step again in the same place from another platform.
//   npm links bin entries with symlinks, which follow the file whatever it holds.
"use strict";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { findBinary } = require("./lib/platform.js");

const TARGET = path.join(__dirname, "bin", "rehydrate");
/** What bin/rehydrate holds again when an earlier run put a binary there that no longer fits. */
const SHIM = '#!/usr/bin/env node\n"use strict";\nrequire("../lib/shim.js");\n';

/** Writes `fill(temp)` beside `target` and renames it over `target`: readers see one or the other. */
function replaceAtomically(target, fill) {
  const temp = path.join(path.dirname(target), `.rehydrate-${process.pid}.tmp`);
  fs.rmSync(temp, { force: true });
  try {
    fill(temp);
    fs.chmodSync(temp, 0o755);
    fs.renameSync(temp, target);
  } finally {
    // rename(2) does nothing when both names are links to one file: the temporary name stays.
    fs.rmSync(temp, { force: true });
  }
}

function isScript(file) {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(2);
    return fs.readSync(fd, head, 0, 2, 0) === 2 && head.toString("latin1") === "#!";
  } finally {
    fs.closeSync(fd);
  }
}

/** bin/rehydrate back to the shim when it is a binary (a reinstall where the binary cannot be used). */
function keepShim() {
  if (!isScript(TARGET)) replaceAtomically(TARGET, (temp) => fs.writeFileSync(temp, SHIM));
}

function sameFile(a, b) {
  const sa = fs.statSync(a);
  const sb = fs.statSync(b);
  return sa.ino === sb.ino && sa.dev === sb.dev;
}

function main() {
  if (process.platform === "win32") return;
  if (!/^npm\//.test(process.env.npm_config_user_agent || "")) return keepShim();
  // Only this package's own tree, a file only the user (or root) can write, and the SHA-256 the
  // package pins: anything else is neither run nor copied (lib/platform.js). The shim prints the
  // same message when it runs: it says what to reinstall.
  const found = findBinary();
  if (found.error) return keepShim();
  // A binary that cannot run here (noexec mount, wrong libc) must not hide the shim's message.
  const version = require("./package.json").version;
  let printed = "";
  try {
    printed = execFileSync(found.binary, ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 60_000,
    }).trim();
  } catch {
    printed = "";
  }
  if (printed !== version) return keepShim();
  if (sameFile(found.binary, TARGET)) return;
  // A hard link costs no space; a copy where links are refused (another file system, some mounts).
  replaceAtomically(TARGET, (temp) => {
    try {
      fs.linkSync(found.binary, temp);
    } catch {
      fs.copyFileSync(found.binary, temp);
    }
  });
}

try {
  main();
} catch {
  // bin/rehydrate is the shim or the binary, never half of either: both work.
}
