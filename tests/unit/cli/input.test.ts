// CLI input is bounded: the settings reader and writer of install/uninstall/doctor, the bytes
// reader under them, and the directory creation PreCompact uses for the flat state file.
// The compiled-binary side is tests/bin/cli_input.test.ts.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSettings, writeFailure, writeSettings } from "../../../lib/cli/_install_settings_file.ts";
import { cliInstall } from "../../../lib/cli/install.ts";
import { readPrivateBytes } from "../../../lib/state/read_private_file.ts";
import { ensureDirInside } from "../../../lib/state/ensure_dir_inside.ts";

const posix = process.platform !== "win32";
const hasMkfifo = posix && spawnSync("mkfifo", ["--version"]).status === 0;
const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function scratch(): { project: string; outside: string; file: string } {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-cli-input-unit-"));
  roots.push(root);
  const project = join(root, "project");
  const outside = join(root, "outside");
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(outside);
  return { project, outside, file: join(project, ".claude", "settings.json") };
}

describe("readSettings()", () => {
  test("readSettings() keeps a BOM and reports a missing file as null", () => {
    const s = scratch();
    assert.deepEqual(readSettings(s.file, { root: s.project }), { text: null, bytes: null, mode: null });
    writeFileSync(s.file, "\ufeff{}\n");
    const r = readSettings(s.file, { root: s.project });
    assert.ok(!("error" in r));
    assert.equal(r.text, "\ufeff{}\n");
    assert.equal(r.bytes?.length, 6);
  });

  test("readSettings() refuses a file or a .claude folder linked out of the project, with the relative name", {
    skip: !posix,
  }, () => {
    const s = scratch();
    writeFileSync(join(s.outside, "settings.json"), "{}");
    symlinkSync(join(s.outside, "settings.json"), s.file);
    assert.deepEqual(readSettings(s.file, { root: s.project }), {
      error: ".claude/settings.json is a link to a file outside the project",
      code: "outside",
    });
    rmSync(join(s.project, ".claude"), { recursive: true });
    symlinkSync(s.outside, join(s.project, ".claude"));
    assert.deepEqual(readSettings(s.file, { root: s.project }), {
      error: ".claude is a link to a directory outside the project",
      code: "outside",
    });
  });

  test("readSettings() refuses a dangling link out of the project and a link loop", { skip: !posix }, () => {
    const s = scratch();
    symlinkSync(join(s.outside, "later.json"), s.file);
    assert.equal((readSettings(s.file, { root: s.project }) as { code: string }).code, "outside");
    rmSync(s.file);
    symlinkSync(s.file, s.file);
    assert.equal((readSettings(s.file, { root: s.project }) as { code: string }).code, "unreadable");
  });

  test(
    "readSettings() follows a link inside the project, and any link for the user's own settings",
    { skip: !posix },
    () => {
      const s = scratch();
      writeFileSync(join(s.project, "shared.json"), '{"a":1}');
      symlinkSync(join(s.project, "shared.json"), s.file);
      assert.equal((readSettings(s.file, { root: s.project }) as { text: string }).text, '{"a":1}');
      rmSync(s.file);
      writeFileSync(join(s.outside, "dotfiles.json"), "{}");
      symlinkSync(join(s.outside, "dotfiles.json"), s.file);
      assert.equal((readSettings(s.file) as { text: string }).text, "{}");
    },
  );

  test("readSettings() refuses a FIFO, /dev/zero and a directory without blocking, and a file over the cap", {
    skip: !hasMkfifo,
  }, () => {
    const s = scratch();
    execFileSync("mkfifo", [s.file]);
    assert.equal((readSettings(s.file, { root: s.project }) as { code: string }).code, "not_regular");
    rmSync(s.file);
    symlinkSync("/dev/zero", s.file);
    assert.equal((readSettings(s.file) as { code: string }).code, "not_regular");
    rmSync(s.file);
    mkdirSync(s.file);
    assert.equal((readSettings(s.file, { root: s.project }) as { code: string }).code, "not_regular");
    rmSync(s.file, { recursive: true });
    writeFileSync(s.file, "x".repeat(2048));
    assert.deepEqual(readSettings(s.file, { root: s.project, maxBytes: 1024 }), {
      error: `${s.file} is larger than 1024 bytes`,
      code: "too_large",
    });
  });
});

describe("writeSettings()", () => {
  test("writeSettings() backs up the bytes read with the file's mode, then replaces the file", { skip: !posix }, () => {
    const s = scratch();
    writeFileSync(s.file, "\ufeff{}\n");
    chmodSync(s.file, 0o640);
    const old = readSettings(s.file, { root: s.project });
    assert.ok(!("error" in old));
    const backup = writeSettings(s.file, '{"hooks":{}}\n', {
      root: s.project,
      now: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
      newMode: 0o644,
      old,
    });
    assert.equal(backup, `${s.file}.bak-20260102T030405Z`);
    assert.deepEqual(readFileSync(backup!), Buffer.from("\ufeff{}\n"));
    assert.equal(statSync(backup!).mode & 0o777, 0o640);
    assert.equal(readFileSync(s.file, "utf8"), '{"hooks":{}}\n');
    assert.equal(statSync(s.file).mode & 0o777, 0o640);
  });

  test("writeSettings() refuses a link out of the project swapped in after the read, and writes nothing there", {
    skip: !posix,
  }, () => {
    const s = scratch();
    writeFileSync(s.file, "{}");
    const old = readSettings(s.file, { root: s.project });
    assert.ok(!("error" in old));
    rmSync(s.file);
    writeFileSync(join(s.outside, "settings.json"), "{}");
    symlinkSync(join(s.outside, "settings.json"), s.file);
    let thrown: unknown;
    try {
      writeSettings(s.file, '{"x":1}', { root: s.project, now: new Date(), newMode: 0o644, old });
    } catch (err) {
      thrown = err;
    }
    assert.equal(
      writeFailure(s.file, thrown),
      ".claude/settings.json is a link to a file outside the project; not changed",
    );
    assert.deepEqual(readdirSync(s.outside), ["settings.json"]);
    assert.equal(readFileSync(join(s.outside, "settings.json"), "utf8"), "{}");
  });
});

describe("cliInstall()", () => {
  test(
    "cliInstall() --shared refuses a settings.json linked outside with one line and exit 1",
    { skip: !posix },
    () => {
      const s = scratch();
      writeFileSync(join(s.outside, "settings.json"), "{}\n");
      symlinkSync(join(s.outside, "settings.json"), s.file);
      let out = "";
      let err = "";
      const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t) };
      const binary = join(s.outside, "..", "rehydrate");
      writeFileSync(binary, "#!/bin/sh\n", { mode: 0o755 });
      const code = cliInstall(["--shared", "--command", binary], io, {
        cwd: s.project,
        homeDir: join(s.project, "..", "home"),
        env: {},
      });
      assert.equal(code, 1, out);
      assert.equal(
        err,
        "rehydrate install: .claude/settings.json is a link to a file outside the project; not changed\n",
      );
      assert.equal(readFileSync(join(s.outside, "settings.json"), "utf8"), "{}\n");
    },
  );
});

describe("readPrivateBytes()", () => {
  test("readPrivateBytes() returns the bytes as on disk and the mode", { skip: !posix }, () => {
    const s = scratch();
    writeFileSync(s.file, "\ufeffA");
    chmodSync(s.file, 0o600);
    const r = readPrivateBytes(s.file);
    assert.ok(r.ok);
    assert.deepEqual([...r.bytes], [0xef, 0xbb, 0xbf, 0x41]);
    assert.equal(r.mode & 0o777, 0o600);
  });
});

describe("ensureDirInside()", () => {
  test("ensureDirInside() creates missing folders inside the project and accepts the project itself", () => {
    const s = scratch();
    const real = ensureDirInside(s.project, join(s.project, "00-system", ".cache"));
    assert.ok(statSync(real).isDirectory());
    assert.ok(real.endsWith(join("00-system", ".cache")));
    assert.ok(statSync(ensureDirInside(s.project, s.project)).isDirectory());
  });

  test(
    "ensureDirInside() refuses a linked 00-system out of the project before creating anything",
    { skip: !posix },
    () => {
      const s = scratch();
      symlinkSync(s.outside, join(s.project, "00-system"));
      assert.throws(
        () => ensureDirInside(s.project, join(s.project, "00-system", ".cache", "deep")),
        /00-system resolves outside the project/,
      );
      assert.deepEqual(readdirSync(s.outside), []);
      assert.throws(() => ensureDirInside(s.project, join(s.project, "..", "escaped")), /outside the project/);
      assert.ok(!existsSync(join(s.project, "..", "escaped")));
    },
  );

  test("ensureDirInside() follows a link that stays inside the project", { skip: !posix }, () => {
    const s = scratch();
    mkdirSync(join(s.project, "real-system"));
    symlinkSync(join(s.project, "real-system"), join(s.project, "00-system"));
    const real = ensureDirInside(s.project, join(s.project, "00-system", ".cache"));
    assert.ok(lstatSync(join(s.project, "real-system", ".cache")).isDirectory());
    assert.ok(real.includes("real-system"));
  });
});
