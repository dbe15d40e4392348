import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stateDir } from "../../../lib/state/state_dir.ts";
import { homeDir } from "../../../lib/node/home_dir.ts";
import { randomHex } from "../../../lib/node/random_hex.ts";
import { hashName } from "../../../lib/node/hash_name.ts";
import { ensurePrivateDir } from "../../../lib/state/ensure_private_dir.ts";
import { sessionKey } from "../../../lib/state/session_key.ts";
import { writeFileAtomic } from "../../../lib/state/write_file_atomic.ts";
import { readPrivateFile } from "../../../lib/state/read_private_file.ts";
import { updateSessionRecord } from "../../../lib/state/session_record.ts";
import { debugLog } from "../../../lib/hook/debug_log.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "rehydrate-state-"));
const posix = process.platform !== "win32";
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

describe("stateDir()", () => {
  test("stateDir() prefers REHYDRATE_STATE_DIR, then the config, then the platform location", () => {
    assert.equal(stateDir({ env: { REHYDRATE_STATE_DIR: "/x/s" }, homeDir: "/h", platform: "linux" }), "/x/s");
    assert.equal(stateDir({ env: {}, homeDir: "/h", platform: "linux", configured: "~/st" }), join("/h", "st"));
    assert.equal(
      stateDir({ env: { XDG_STATE_HOME: "/h/.xs" }, homeDir: "/h", platform: "linux" }),
      join("/h/.xs", "rehydrate"),
    );
    assert.equal(stateDir({ env: {}, homeDir: "/h", platform: "linux" }), join("/h", ".local", "state", "rehydrate"));
    assert.equal(
      stateDir({ env: {}, homeDir: "/h", platform: "darwin" }),
      join("/h", "Library", "Application Support", "rehydrate"),
    );
    assert.equal(
      stateDir({ env: { LOCALAPPDATA: "C:\\Users\\a\\AppData\\Local" }, homeDir: "/h", platform: "win32" }),
      join("C:\\Users\\a\\AppData\\Local", "rehydrate", "state"),
    );
  });

  test("stateDir() ignores a relative REHYDRATE_STATE_DIR or XDG_STATE_HOME", () => {
    assert.equal(
      stateDir({ env: { REHYDRATE_STATE_DIR: "rel", XDG_STATE_HOME: "also-rel" }, homeDir: "/h", platform: "linux" }),
      join("/h", ".local", "state", "rehydrate"),
    );
  });
});

describe("homeDir() and randomHex()", () => {
  test("homeDir() takes HOME, then USERPROFILE, then os.homedir()", async () => {
    assert.equal(homeDir({ HOME: "/h", USERPROFILE: "C:\\u" }), "/h");
    assert.equal(homeDir({ USERPROFILE: "C:\\u" }), "C:\\u");
    const { homedir } = await import("node:os");
    assert.equal(homeDir({}), homedir());
  });
  test("randomHex() gives 2n lowercase hex digits, different each time", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const h = randomHex(6);
      assert.match(h, /^[0-9a-f]{12}$/);
      seen.add(h);
    }
    assert.equal(seen.size, 200);
    assert.equal(randomHex(0), "");
  });
  test("hashName() is FNV-1a 32 as 8 hex digits, stable and different for different paths", () => {
    assert.equal(hashName(""), "811c9dc5");
    assert.equal(hashName("a"), "e40c292c");
    assert.equal(hashName("/w/p"), hashName("/w/p"));
    assert.notEqual(hashName("/w/p"), hashName("/w/q"));
    assert.match(hashName("/home/me/repo/projects/PROJ-001/ORCHESTRATION.yaml"), /^[0-9a-f]{8}$/);
  });
});

describe("ensurePrivateDir()", () => {
  test("ensurePrivateDir() creates missing directories with mode 0700", { skip: !posix }, () => {
    const d = join(tmp(), "a", "b");
    ensurePrivateDir(d);
    assert.equal(statSync(d).mode & 0o777, 0o700);
  });

  test("ensurePrivateDir() tightens our own group- or world-accessible directory", { skip: !posix }, () => {
    const d = join(tmp(), "open");
    mkdirSync(d);
    chmodSync(d, 0o777);
    ensurePrivateDir(d);
    assert.equal(statSync(d).mode & 0o777, 0o700);
  });

  test("ensurePrivateDir() refuses a symbolic link", { skip: !posix }, () => {
    const base = tmp();
    mkdirSync(join(base, "real"));
    symlinkSync(join(base, "real"), join(base, "link"));
    assert.throws(() => ensurePrivateDir(join(base, "link")), /symbolic link/);
  });

  test("ensurePrivateDir() refuses a file", () => {
    const f = join(tmp(), "f");
    writeFileSync(f, "");
    assert.throws(() => ensurePrivateDir(f), /not a directory/);
  });

  test("ensurePrivateDir() refuses a directory another user owns", { skip: !isRoot }, () => {
    const d = join(tmp(), "theirs");
    mkdirSync(d, { mode: 0o700 });
    chownSync(d, 4242, 4242);
    assert.throws(() => ensurePrivateDir(d), /owned by uid 4242/);
  });
});

describe("sessionKey()", () => {
  test("sessionKey() accepts UUIDs and plain ids", () => {
    assert.equal(sessionKey("7da37d46-8061-4f75-801e-26383afad198"), "7da37d46-8061-4f75-801e-26383afad198");
    assert.equal(sessionKey("abc_DEF-1"), "abc_DEF-1");
    assert.equal(sessionKey("served:abc"), "served+abc");
  });

  for (
    const bad of [
      "",
      "../x",
      "a/b",
      "a\\b",
      "..",
      ".hidden",
      "a b",
      "a\u0000b",
      "x".repeat(129),
      "served:../x",
      "-lead",
    ]
  ) {
    test(`sessionKey() rejects ${JSON.stringify(bad.slice(0, 20))}`, () => {
      assert.equal(sessionKey(bad), null);
    });
  }

  test("sessionKey() rejects non-strings", () => {
    assert.equal(sessionKey(42), null);
    assert.equal(sessionKey(null), null);
  });
});

describe("writeFileAtomic()", () => {
  test("writeFileAtomic() writes owner-only and leaves no temporary file", () => {
    const d = tmp();
    const p = join(d, "s.json");
    writeFileAtomic(p, "one");
    writeFileAtomic(p, "two");
    assert.equal(readFileSync(p, "utf8"), "two");
    if (posix) assert.equal(statSync(p).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(d), ["s.json"]);
  });

  test("writeFileAtomic() replaces a symbolic link instead of writing through it", { skip: !posix }, () => {
    const d = tmp();
    const victim = join(d, "victim");
    writeFileSync(victim, "keep");
    symlinkSync(victim, join(d, "s.json"));
    writeFileAtomic(join(d, "s.json"), "new");
    assert.equal(readFileSync(victim, "utf8"), "keep");
    assert.equal(readFileSync(join(d, "s.json"), "utf8"), "new");
  });

  test("writeFileAtomic() throws and cleans up when the directory is missing", () => {
    const d = join(tmp(), "missing");
    assert.throws(() => writeFileAtomic(join(d, "s.json"), "x"));
  });
});

describe("readPrivateFile()", () => {
  test("readPrivateFile() reads our own regular file", () => {
    const p = join(tmp(), "f");
    writeFileSync(p, "hello");
    const r = readPrivateFile(p);
    assert.equal(r.ok && r.text, "hello");
  });

  test("readPrivateFile() reports a missing file", () => {
    const r = readPrivateFile(join(tmp(), "none"));
    assert.equal(!r.ok && r.reason, "missing");
  });

  test("readPrivateFile() refuses a symbolic link", { skip: !posix }, () => {
    const d = tmp();
    writeFileSync(join(d, "t"), "secret");
    symlinkSync(join(d, "t"), join(d, "l"));
    const r = readPrivateFile(join(d, "l"));
    assert.equal(!r.ok && r.reason, "symlink");
  });

  test("readPrivateFile() refuses a FIFO without blocking", { skip: !posix }, () => {
    const p = join(tmp(), "fifo");
    execFileSync("mkfifo", [p]);
    const r = readPrivateFile(p);
    assert.equal(!r.ok && r.reason, "not_regular");
  });

  test("readPrivateFile() refuses a file over the cap", () => {
    const p = join(tmp(), "big");
    writeFileSync(p, "x".repeat(100));
    const r = readPrivateFile(p, { maxBytes: 10 });
    assert.equal(!r.ok && r.reason, "too_large");
  });

  test("readPrivateFile() refuses a file another user owns", { skip: !isRoot }, () => {
    const p = join(tmp(), "theirs");
    writeFileSync(p, "{}");
    chownSync(p, 4242, 4242);
    const r = readPrivateFile(p);
    assert.equal(!r.ok && r.reason, "not_owner");
  });

  test("readPrivateFile() reads a hard link to our own file (ownership is what counts)", { skip: !posix }, () => {
    const d = tmp();
    writeFileSync(join(d, "a"), "same");
    linkSync(join(d, "a"), join(d, "b"));
    const r = readPrivateFile(join(d, "b"));
    assert.equal(r.ok && r.text, "same");
  });
});

describe("updateSessionRecord()", () => {
  test("updateSessionRecord() creates then merges a per-session record", () => {
    const d = tmp();
    const now = new Date("2026-11-21T10:00:00Z");
    const a = updateSessionRecord(d, "sess-1", { model: "claude-opus-4-6[1m]", source: "startup" }, { now });
    assert.equal(a?.started_at, "2026-11-21T10:00:00.000Z");
    const later = new Date("2026-11-21T11:00:00Z");
    const b = updateSessionRecord(d, "sess-1", { source: "compact", model: undefined }, { now: later });
    assert.equal(b?.model, "claude-opus-4-6[1m]");
    assert.equal(b?.source, "compact");
    assert.equal(b?.started_at, "2026-11-21T10:00:00.000Z");
    assert.equal(b?.updated_at, "2026-11-21T11:00:00.000Z");
    const onDisk = JSON.parse(readFileSync(join(d, "sessions", "sess-1.json"), "utf8"));
    assert.deepEqual(onDisk, b);
  });

  test("updateSessionRecord() refuses an unsafe session id", () => {
    const d = tmp();
    assert.equal(updateSessionRecord(d, "../../etc/x", { model: "m" }), null);
    assert.deepEqual(readdirSync(d), []);
  });

  test("updateSessionRecord() replaces a corrupt record", () => {
    const d = tmp();
    mkdirSync(join(d, "sessions"), { mode: 0o700 });
    writeFileSync(join(d, "sessions", "s.json"), "{not json", { mode: 0o600 });
    const r = updateSessionRecord(d, "s", { model: "m" });
    assert.equal(r?.model, "m");
  });
});

describe("debugLog()", () => {
  test("debugLog() appends redacted single lines and rotates past the cap", () => {
    const d = tmp();
    const now = new Date("2026-11-21T10:00:00Z");
    debugLog(d, "first\nsecond", { now });
    debugLog(d, "token ghp_" + "A1b2C3d4E5".repeat(3) + "abcdef", { now });
    const text = readFileSync(join(d, "debug.log"), "utf8");
    const lines = text.trimEnd().split("\n");
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^2026-11-21T10:00:00\.000Z \d+ first \| second$/);
    assert.doesNotMatch(lines[1], /A1b2C3d4E5/);
    if (posix) assert.equal(statSync(join(d, "debug.log")).mode & 0o777, 0o600);
    debugLog(d, "x".repeat(200), { maxBytes: 10 });
    debugLog(d, "after rotation", { maxBytes: 10 });
    assert.match(readFileSync(join(d, "debug.log.1"), "utf8"), /x{200}/);
    assert.match(readFileSync(join(d, "debug.log"), "utf8"), /after rotation/);
  });
});

describe("writeFileAtomic() without fsync", () => {
  test("writeFileAtomic() with sync false still replaces the file whole and owner-only", () => {
    const d = tmp();
    const p = join(d, "cache.json");
    writeFileAtomic(p, "old");
    writeFileAtomic(p, "new", { sync: false, syncDir: true });
    assert.equal(readFileSync(p, "utf8"), "new");
    if (posix) assert.equal(statSync(p).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(d), ["cache.json"]);
  });
});

describe("sweepTempFiles()", () => {
  test("sweepTempFiles() removes old temp files of killed writes, and nothing else", async () => {
    const { sweepTempFiles } = await import("../../../lib/state/sweep_temp_files.ts");
    const { utimesSync } = await import("node:fs");
    const d = tmp();
    const old = new Date("2026-11-21T08:00:00Z");
    for (
      const name of [
        ".s.json.123.abc.0.tmp",
        ".cx-001-checkpoint.json.9.x.tmp",
        "s.json",
        "keep.tmp",
        ".fresh.json.1.a.tmp",
      ]
    ) {
      writeFileSync(join(d, name), "x");
      if (name !== ".fresh.json.1.a.tmp") utimesSync(join(d, name), old, old);
    }
    if (posix) symlinkSync(join(d, "s.json"), join(d, ".link.json.1.a.tmp"));
    const removed = sweepTempFiles([d, join(d, "missing")], { now: new Date("2026-11-21T10:00:00Z") });
    assert.equal(removed, 2);
    const left = readdirSync(d).sort();
    assert.ok(left.includes(".fresh.json.1.a.tmp") && left.includes("s.json") && left.includes("keep.tmp"));
    if (posix) assert.ok(left.includes(".link.json.1.a.tmp"), "a link is never removed");
  });
});
