import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sweepStaleFiles } from "../../../lib/state/sweep_stale_files.ts";

const posix = process.platform !== "win32";
const DAY = 86_400_000;
const NOW = new Date("2026-11-25T12:00:00Z");

/** A private folder holding `files`, each written `ageDays` before NOW. */
function folder(files: Record<string, number>): string {
  const dir = join(mkdtempSync(join(tmpdir(), "rehydrate-sweep-")), "fill");
  mkdirSync(dir, { mode: 0o700 });
  for (const [name, ageDays] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, "{}\n", { mode: 0o600 });
    const then = new Date(NOW.getTime() - ageDays * DAY);
    utimesSync(path, then, then);
  }
  return dir;
}

describe("sweepStaleFiles()", () => {
  test("sweepStaleFiles() removes files not written for seven days and keeps younger ones", () => {
    const dir = folder({ "old.json": 8, "young.json": 6, ".old.json.1.a.0.tmp": 9 });
    assert.equal(sweepStaleFiles([dir], { now: NOW, start: 0 }), 2);
    assert.deepEqual(readdirSync(dir), ["young.json"]);
  });

  test("sweepStaleFiles() honours maxAgeMs and skips a missing folder", () => {
    const dir = folder({ "a.json": 2, "b.json": 0 });
    assert.equal(sweepStaleFiles([join(dir, "..", "quiet"), dir], { now: NOW, maxAgeMs: DAY }), 1);
    assert.deepEqual(readdirSync(dir), ["b.json"]);
  });

  test("sweepStaleFiles() leaves names that are not ours, folders and links, and never follows a link", {
    skip: !posix,
  }, () => {
    const dir = folder({ "notes.txt": 30 });
    const outside = join(dir, "..", "outside.json");
    writeFileSync(outside, "{}\n");
    const then = new Date(NOW.getTime() - 30 * DAY);
    utimesSync(outside, then, then);
    symlinkSync(outside, join(dir, "link.json"));
    lutimesSync(join(dir, "link.json"), then, then);
    mkdirSync(join(dir, "sub.json"));
    utimesSync(join(dir, "sub.json"), then, then);
    assert.equal(sweepStaleFiles([dir], { now: NOW }), 0);
    assert.deepEqual(readdirSync(dir).sort(), ["link.json", "notes.txt", "sub.json"]);
    assert.ok(existsSync(outside), "the link's target is kept");
  });

  test("sweepStaleFiles() empties no folder that is a link or writable by others", { skip: !posix }, () => {
    const real = folder({ "old.json": 10 });
    const linked = join(real, "..", "linked");
    symlinkSync(real, linked);
    assert.equal(sweepStaleFiles([linked], { now: NOW }), 0);
    chmodSync(real, 0o777);
    assert.equal(sweepStaleFiles([real], { now: NOW }), 0);
    assert.deepEqual(readdirSync(real), ["old.json"]);
    chmodSync(real, 0o700);
    assert.equal(sweepStaleFiles([real], { now: NOW }), 1);
  });

  test("sweepStaleFiles() looks at no more than maxEntries per run, from where it starts, wrapping round", () => {
    const names: Record<string, number> = {};
    for (let i = 0; i < 10; i++) names[`s${i}.json`] = 8;
    const dir = folder(names);
    assert.equal(sweepStaleFiles([dir], { now: NOW, maxEntries: 4, start: 8 }), 4);
    assert.equal(readdirSync(dir).length, 6);
    // Runs from random places empty the rest.
    for (let run = 0; run < 50 && readdirSync(dir).length > 0; run++) {
      sweepStaleFiles([dir], { now: NOW, maxEntries: 4 });
    }
    assert.deepEqual(readdirSync(dir), []);
  });

  test("sweepStaleFiles() stays fast on a folder of 5,000 files (bounded work per run)", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "rehydrate-sweep-")), "quiet");
    mkdirSync(dir, { mode: 0o700 });
    for (let i = 0; i < 5000; i++) writeFileSync(join(dir, `k${i}.json`), "");
    const t = performance.now();
    const removed = sweepStaleFiles([dir], { now: new Date(Date.now() + 8 * DAY) });
    const ms = performance.now() - t;
    assert.equal(removed, 100);
    assert.equal(readdirSync(dir).length, 4900);
    // Listing 5,000 names and removing 100 files: a few milliseconds; a full sweep would take far more.
    assert.ok(ms < 500, `${ms.toFixed(1)} ms`);
  });
});
