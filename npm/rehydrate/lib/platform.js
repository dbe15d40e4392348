// Which native binary this machine runs: npm installs one optional dependency per platform,
// @rehydrate/<os>-<arch>[-musl], each holding the binary, and skips those whose os, cpu and libc
// do not match. Shared by the shim (lib/shim.js) and the postinstall step (install.js), so both
// pick the same package. CommonJS and no dependencies, so any Node >= 16 runs it.
"use strict";
const { existsSync } = require("node:fs");
const path = require("node:path");

const SCOPE = "@rehydrate/";

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

/**
 * The native binary of the platform package npm installed for this machine: `{ binary }`, or
 * `{ error }`, one line saying what is missing and what to do.
 *
 * @example
 * ```js
 * const found = findBinary(); // { binary: ".../node_modules/@rehydrate/linux-x64/bin/rehydrate" }
 * ```
 */
function findBinary() {
  const known = Object.keys(require("../package.json").optionalDependencies || {});
  const exe = process.platform === "win32" ? "rehydrate.exe" : "rehydrate";
  const base = `${SCOPE}${process.platform}-${process.arch}`;
  const wanted = [base, `${base}-musl`].filter((name) => known.includes(name));
  if (wanted.length === 0) {
    const have = known.map((name) => name.slice(SCOPE.length)).join(", ");
    return {
      error:
        `no native binary for ${process.platform}-${process.arch} (this package has ${have}); build one from source`,
    };
  }
  // An npm that ignores the libc field installs both Linux packages of an architecture: pick by libc.
  let installed = wanted.map((name) => [name, packageDir(name)]).filter(([, dir]) => dir !== null);
  if (installed.length > 1) installed = installed.filter(([name]) => name.endsWith("-musl") === isMusl());
  if (installed.length === 0) {
    return {
      error: `the package ${wanted.join(" or ")} is not installed; reinstall rehydrate without --omit=optional`,
    };
  }
  const binary = path.join(installed[0][1], "bin", exe);
  if (!existsSync(binary)) return { error: `${binary} is missing; reinstall rehydrate` };
  return { binary };
}

module.exports = { findBinary };
