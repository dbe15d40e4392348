#!/usr/bin/env node
// The `rehydrate` command of the npm package. npm installs one optional dependency per platform,
// @rehydrate/<os>-<arch>[-musl], each holding the native binary, and skips those whose os, cpu and
// libc do not match this machine. This shim finds the one that was installed and runs its binary
// with the same arguments, stdio and exit code. It spawns the binary rather than loading anything,
// so `rehydrate install` sees the native binary as its own executable and registers that path:
// the hooks Claude Code runs never start Node. CommonJS and no dependencies, so any Node >= 16 runs it.
"use strict";
const { spawnSync } = require("node:child_process");
const { existsSync } = require("node:fs");
const path = require("node:path");

const SCOPE = "@rehydrate/";
const known = Object.keys(require("../package.json").optionalDependencies || {});
const exe = process.platform === "win32" ? "rehydrate.exe" : "rehydrate";

/** The package directory of `name`, or null when npm did not install it. */
function packageDir(name) {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

/** glibc's runtime version is in the process report only where glibc is the C library. */
function isMusl() {
  try {
    if (process.report && "excludeNetwork" in process.report) process.report.excludeNetwork = true;
    return !process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

/** Runs the native binary; returns the exit code, or the signal it died of. */
function main() {
  const fail = (message) => {
    process.stderr.write(`rehydrate: ${message}\n`);
    return 1;
  };
  const base = `${SCOPE}${process.platform}-${process.arch}`;
  const wanted = [base, `${base}-musl`].filter((name) => known.includes(name));
  if (wanted.length === 0) {
    const have = known.map((name) => name.slice(SCOPE.length)).join(", ");
    return fail(
      `no native binary for ${process.platform}-${process.arch} (this package has ${have}); build one from source`,
    );
  }
  // An npm that ignores the libc field installs both Linux packages of an architecture: pick by libc.
  let installed = wanted.map((name) => [name, packageDir(name)]).filter(([, dir]) => dir !== null);
  if (installed.length > 1) installed = installed.filter(([name]) => name.endsWith("-musl") === isMusl());
  if (installed.length === 0) {
    return fail(`the package ${wanted.join(" or ")} is not installed; reinstall rehydrate without --omit=optional`);
  }
  const binary = path.join(installed[0][1], "bin", exe);
  if (!existsSync(binary)) return fail(`${binary} is missing; reinstall rehydrate`);
  const r = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
  if (r.error) return fail(`cannot run ${binary}: ${r.error.message}`);
  return r.signal || (r.status === null ? 1 : r.status);
}

const result = main();
// Die of the same signal, so a caller sees what the binary saw.
if (typeof result === "string") {
  process.exitCode = 1;
  process.kill(process.pid, result);
} else {
  process.exitCode = result;
}
