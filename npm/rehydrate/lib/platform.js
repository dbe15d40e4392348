// Which native binary this machine runs: npm installs one optional dependency per platform,
// @rehydrate/<os>-<arch>[-musl], each holding the binary, and skips those whose os, cpu and libc
// do not match. Shared by the shim (lib/shim.js) and the postinstall step (install.js), so both
// pick the same package and run or copy nothing that fails the same checks. CommonJS and no
// dependencies, so any Node >= 16 runs it.
//
// The package trusts only its own tree (issue #36, N6). require.resolve() climbed every ancestor
// node_modules and honoured NODE_PATH: with the platform package missing (--omit=optional, a
// failed optional download), a folder above the project that another user can write (a shared
// temp folder's node_modules) chose what the shim ran, what postinstall copied over bin/rehydrate
// and what `rehydrate install` registered. Now the package is looked for in two places only (its
// own node_modules, and the node_modules folder holding it), its real path must stay in that tree,
// the binary and its folders must be the user's (or root's) and writable by nobody else, and its
// SHA-256 must be the one package.json pinned when the release was packed.
"use strict";
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const SCOPE = "@rehydrate/";
/** This package's folder: `.../node_modules/rehydrate`, or a checkout's `npm/rehydrate`. */
const ROOT = path.resolve(__dirname, "..");

/**
 * The folder every file this package runs must lie in: the node_modules folder that holds the
 * package (above pnpm's `.pnpm/<name>@<version>/node_modules` store, whose packages link to each
 * other inside the project's node_modules), or the package itself outside any node_modules.
 */
function treeRoot(real) {
  let dir = path.dirname(real);
  if (path.basename(dir) !== "node_modules") return real;
  const store = path.dirname(path.dirname(dir));
  if (path.basename(store) === ".pnpm") dir = path.dirname(store);
  return dir;
}

function inside(root, p) {
  const rel = path.relative(root, p);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/**
 * The package directory of `name` inside this package's own tree, by its real path, with the
 * tree's root (`{ dir, root }`), or null: `<package>/node_modules/<name>`, then `<the node_modules
 * holding the package>/<name>`. Never NODE_PATH, a global folder or an ancestor's node_modules.
 */
function packageDir(name) {
  let real;
  try {
    real = fs.realpathSync(ROOT);
  } catch {
    return null;
  }
  const root = treeRoot(real);
  const candidates = [path.join(real, "node_modules", name)];
  if (path.basename(path.dirname(real)) === "node_modules") {
    candidates.push(path.join(path.dirname(real), name));
  }
  for (const candidate of candidates) {
    try {
      const dir = fs.realpathSync(candidate);
      if (
        inside(root, dir) &&
        fs.statSync(path.join(dir, "package.json")).isFile()
      ) return { dir, root };
    } catch {
      // not installed here
    }
  }
  return null;
}

/**
 * Why `file` (and the folders from it up to the tree's root `top`, where a swap could happen
 * between the check and the run) may not be run: another user owns one, or someone else can
 * write it. Null when all are the user's (or root's) and writable by the user
 * alone (or their own group). Windows has no such bits.
 */
function foreign(file, top) {
  if (process.platform === "win32" || typeof process.getuid !== "function") {
    return null;
  }
  const uid = process.getuid();
  const gid = process.getgid();
  for (let p = file;; p = path.dirname(p)) {
    const st = fs.statSync(p);
    if (st.uid !== uid && st.uid !== 0) return `${p} is owned by uid ${st.uid}`;
    if (
      (st.mode & 0o002) !== 0 || ((st.mode & 0o020) !== 0 && st.gid !== gid)
    ) return `others can write ${p}`;
    if (p === top || path.dirname(p) === p) return null;
  }
}

/** The SHA-256 of a file, read in pieces (the binary is about 110 MB). */
function sha256(file) {
  const hash = crypto.createHash("sha256");
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(1 << 20);
    let n;
    while ((n = fs.readSync(fd, buf, 0, buf.length, null)) > 0) {
      hash.update(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest("hex");
}

/** glibc's runtime version is in the process report only where glibc is the C library. */
function isMusl() {
  try {
    if (process.report && "excludeNetwork" in process.report) {
      process.report.excludeNetwork = true;
    }
    return !process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

/**
 * The native binary of the platform package npm installed for this machine, checked: `{ binary }`,
 * or `{ error }`, one line saying what is missing or refused and what to do.
 *
 * @example
 * ```js
 * const found = findBinary(); // { binary: ".../node_modules/@rehydrate/linux-x64/bin/rehydrate" }
 * ```
 */
function findBinary() {
  const manifest = require("../package.json");
  const known = Object.keys(manifest.optionalDependencies || {});
  const pinned = manifest.binarySha256 || {};
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
  let installed = wanted.map((name) => [name, packageDir(name)]).filter((
    [, found],
  ) => found !== null);
  if (installed.length > 1) {
    installed = installed.filter(([name]) => name.endsWith("-musl") === isMusl());
  }
  if (installed.length === 0) {
    return {
      error: `the package ${wanted.join(" or ")} is not installed; reinstall rehydrate without --omit=optional`,
    };
  }
  const [name, { dir, root }] = installed[0];
  const binary = path.join(dir, "bin", exe);
  if (!fs.existsSync(binary)) {
    return { error: `${binary} is missing; reinstall rehydrate` };
  }
  const expected = pinned[name];
  if (typeof expected !== "string" || !/^[0-9a-f]{64}$/.test(expected)) {
    return {
      error: `this rehydrate package pins no SHA-256 for ${name}; install a released package`,
    };
  }
  try {
    const refused = foreign(binary, root);
    if (refused !== null) {
      return { error: `refusing ${binary}: ${refused}; reinstall rehydrate` };
    }
    if (sha256(binary) !== expected) {
      return {
        error: `refusing ${binary}: its SHA-256 is not the one this package pins; reinstall rehydrate`,
      };
    }
  } catch (err) {
    return { error: `cannot check ${binary}: ${err.code || err.message}` };
  }
  return { binary };
}

module.exports = { findBinary };
