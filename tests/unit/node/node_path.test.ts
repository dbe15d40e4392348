// lib/node/path.ts writes out node:path's POSIX functions (loading node:path cost every hook 0.16
// million instructions); node:path.posix is the oracle, on every short path and on seeded random ones.
import { test } from "node:test";
import assert from "node:assert/strict";
import { posix } from "node:path";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "../../../lib/node/path.ts";
import { mulberry32 } from "../_rng.ts";

const POSIX = process.platform !== "win32";
const TOKENS = ["/", "//", "a", "bc", ".", "..", "...", "é", " "];

/** Every path of up to `n` tokens. */
function allPaths(n: number): string[] {
  let level = [""];
  const out = [""];
  for (let i = 0; i < n; i++) {
    level = level.flatMap((p) => TOKENS.map((t) => p + t));
    out.push(...level);
  }
  return out;
}

function randomPath(rnd: () => number): string {
  let p = "";
  const n = Math.floor(rnd() * 9);
  for (let i = 0; i < n; i++) p += TOKENS[Math.floor(rnd() * TOKENS.length)];
  return p;
}

function same(what: string, got: unknown, want: unknown): void {
  assert.equal(got, want, what);
}

test("the path functions give node:path.posix's results on every path of up to four tokens", { skip: !POSIX }, () => {
  const paths = allPaths(4);
  assert.ok(paths.length > 7000);
  for (const p of paths) {
    same(`isAbsolute(${JSON.stringify(p)})`, isAbsolute(p), posix.isAbsolute(p));
    same(`dirname(${JSON.stringify(p)})`, dirname(p), posix.dirname(p));
    same(`basename(${JSON.stringify(p)})`, basename(p), posix.basename(p));
    same(`join(${JSON.stringify(p)})`, join(p), posix.join(p));
    same(`resolve(${JSON.stringify(p)})`, resolve(p), posix.resolve(p));
  }
});

test("join, resolve and relative give node:path.posix's results on seeded random paths", { skip: !POSIX }, () => {
  const rnd = mulberry32(20261124);
  for (let i = 0; i < 20_000; i++) {
    const a = randomPath(rnd);
    const b = randomPath(rnd);
    const c = randomPath(rnd);
    const args = JSON.stringify([a, b, c]);
    same(`join${args}`, join(a, b, c), posix.join(a, b, c));
    same(`join${args} (two)`, join(a, b), posix.join(a, b));
    same(`resolve${args}`, resolve(a, b, c), posix.resolve(a, b, c));
    same(`relative${args}`, relative(a, b), posix.relative(a, b));
    same(`relative${args} (rooted)`, relative("/" + a, "/" + b), posix.relative("/" + a, "/" + b));
  }
  same("join()", join(), posix.join());
  same("resolve()", resolve(), posix.resolve());
  same("relative(cwd, cwd)", relative(process.cwd(), "."), "");
});

test("sep is the platform's", () => {
  assert.equal(sep, process.platform === "win32" ? "\\" : "/");
});
