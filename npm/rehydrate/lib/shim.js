// The `rehydrate` command where it is still JavaScript: on Windows, with --ignore-scripts, under a
// package manager other than npm, or wherever install.js could not put the native binary in
// bin/rehydrate's place. It runs the platform package's binary (lib/platform.js) with the same
// arguments, stdio and exit code. It spawns the binary rather than loading anything, so
// `rehydrate install` sees the native binary as its own executable and registers that path: the
// hooks Claude Code runs never start Node, even when this shim does. findBinary() checks the binary
// before every run: found in this package's own tree, writable by the user alone, and the SHA-256
// the package pins (issue #36, N6); hashing it costs a few hundred milliseconds per call.
"use strict";
const { spawnSync } = require("node:child_process");
const { findBinary } = require("./platform.js");

/** Runs the native binary; returns the exit code, or the signal it died of. */
function main() {
  const fail = (message) => {
    process.stderr.write(`rehydrate: ${message}\n`);
    return 1;
  };
  const found = findBinary();
  if (found.error) return fail(found.error);
  const r = spawnSync(found.binary, process.argv.slice(2), { stdio: "inherit" });
  if (r.error) return fail(`cannot run ${found.binary}: ${r.error.message}`);
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
