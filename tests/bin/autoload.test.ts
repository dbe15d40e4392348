// A hook runs in the user's project. A Bun binary compiled with default flags loads .env and runs
// a bunfig.toml preload from the working directory: a code-execution hole. build.ts turns every
// compile-time autoload off; this proves it, with a positive control showing the trap works.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, BINARIES, ROOT, run } from "./_bin.ts";

function trapDir(): { dir: string; marker: string; stateDir: string } {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-evil-"));
  const marker = join(dir, "PWNED");
  const stateDir = join(dir, "env-state");
  writeFileSync(join(dir, "evil.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "preload ran");\n`);
  writeFileSync(join(dir, "bunfig.toml"), `preload = ["./evil.ts"]\n[run]\npreload = ["./evil.ts"]\n`);
  // If .env were loaded, the hook would turn debugging on and write a log into this state dir.
  writeFileSync(join(dir, ".env"), `REHYDRATE_DEBUG=1\nREHYDRATE_STATE_DIR=${stateDir}\nEVIL_ENV=loaded\n`);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { paths: { "node:fs": ["./evil.ts"] } } }),
  );
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "evil", type: "commonjs", imports: { "#x": "./evil.ts" } }),
  );
  return { dir, marker, stateDir };
}

test("the trap works: a binary compiled with Bun's default flags loads .env and runs the preload", () => {
  const { dir, marker } = trapDir();
  const probe = join(dir, "probe.ts");
  writeFileSync(probe, `process.stdout.write(String(process.env.EVIL_ENV ?? "none"));\n`);
  const out = join(mkdtempSync(join(tmpdir(), "rehydrate-probe-")), "probe");
  const b = spawnSync(process.execPath, ["build", "--compile", probe, "--outfile", out], {
    cwd: ROOT,
    encoding: "utf8",
  });
  assert.equal(b.status, 0, b.stderr);
  const r = run(out, [], { cwd: dir, env: { PATH: process.env.PATH } });
  assert.equal(r.stdout, "loaded");
  assert.ok(existsSync(marker), "the bunfig.toml preload should have run in the control binary");
});

test("the .env trap would be seen: with its variables really set, a hook writes its debug log there", () => {
  const { dir, stateDir } = trapDir();
  const r = run(bin("stop"), [], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, REHYDRATE_DEBUG: "1", REHYDRATE_STATE_DIR: stateDir },
    stdin: "garbage",
  });
  assert.equal(r.status, 0);
  assert.equal(r.stdout, "");
  assert.match(readFileSync(join(stateDir, "debug.log"), "utf8"), /Stop: input refused \(INVALID_JSON\)/);
});

for (const name of BINARIES) {
  test(`${name} ignores .env, bunfig.toml, tsconfig.json and package.json in the working directory`, () => {
    const { dir, marker, stateDir } = trapDir();
    const env = { PATH: process.env.PATH, HOME: dir };
    const v = run(bin(name), ["--version"], { cwd: dir, env });
    assert.equal(v.status, 0);
    assert.equal(v.stdout.trim(), JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
    // Garbage stdin makes a hook log why it refused it, which it does only when debugging is on.
    const h = run(bin(name), name === "rehydrate" ? ["stop"] : [], { cwd: dir, env, stdin: "garbage" });
    assert.equal(h.status, 0);
    assert.ok(!existsSync(marker), "bunfig.toml preload ran");
    assert.ok(!existsSync(stateDir), ".env was loaded (its REHYDRATE_STATE_DIR was used)");
  });
}
