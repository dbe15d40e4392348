import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { asksHelp, asksVersion, failure, tidy, usageError, usageHint } from "../../../lib/cli/_usage.ts";
import { cliMain } from "../../../lib/cli/main.ts";
import { VERSION } from "../../../lib/hook/version.ts";

function collector(): { io: { out(t: string): void; err(t: string): void }; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return { io: { out: (t) => void (out += t), err: (t) => void (err += t) }, out: () => out, err: () => err };
}

describe("the CLI's error shape", () => {
  test("usageError() prints the message line and the hint line and returns 2", () => {
    const c = collector();
    assert.equal(usageError(c.io, "install", "unknown option --x"), 2);
    assert.equal(c.err(), "rehydrate install: unknown option --x\nTry 'rehydrate install --help'.\n");
    const top = collector();
    assert.equal(usageError(top.io, "", "missing command"), 2);
    assert.equal(top.err(), "rehydrate: missing command\nTry 'rehydrate --help'.\n");
    assert.equal(usageHint("ack"), "Try 'rehydrate ack --help'.");
  });

  test("failure() prints one line and returns 1", () => {
    const c = collector();
    assert.equal(failure(c.io, "status", "no directory /x"), 1);
    assert.equal(c.err(), "rehydrate status: no directory /x\n");
  });

  test("tidy() lowercases a sentence-case first word, keeps names, and drops the final period and later lines", () => {
    assert.equal(tidy("Option '--x' is unknown.\nmore"), "option '--x' is unknown");
    assert.equal(tidy("JSON is invalid"), "JSON is invalid");
    assert.equal(tidy("/tmp/x is not a file"), "/tmp/x is not a file");
    assert.equal(tidy("A"), "A");
  });

  test("asksVersion() and asksHelp() find -v/--version and -h/--help anywhere before --", () => {
    assert.equal(asksVersion(["--json", "-v"]), true);
    assert.equal(asksVersion(["-V"]), true);
    assert.equal(asksVersion(["--", "-v"]), false);
    assert.equal(asksVersion(["--verbose"]), false);
    assert.equal(asksHelp(["x", "--help"]), true);
    assert.equal(asksHelp(["--", "-h"]), false);
  });
});

describe("cliMain()", () => {
  test("cliMain() with no command, an unknown one or an unknown option is a usage error (exit 2)", async () => {
    for (
      const [argv, line] of [
        [[], "rehydrate: missing command"],
        [["frobnicate"], 'rehydrate: unknown command "frobnicate"'],
        [["--frob"], 'rehydrate: unknown option "--frob"'],
      ] as const
    ) {
      const c = collector();
      assert.equal(await cliMain([...argv], c.io), 2, argv.join(" "));
      assert.equal(c.err(), `${line}\nTry 'rehydrate --help'.\n`);
      assert.equal(c.out(), "");
    }
  });

  test("cliMain() prints the version for -v, -V, --version and version, also after a verb", async () => {
    for (const argv of [["-v"], ["-V"], ["--version"], ["version"], ["status", "-v"], ["install", "--version"]]) {
      const c = collector();
      assert.equal(await cliMain(argv, c.io), 0, argv.join(" "));
      assert.equal(c.out(), `${VERSION}\n`);
    }
  });

  test("cliMain() prints help for -h and --help, and a verb's own help after it", async () => {
    const top = collector();
    assert.equal(await cliMain(["-h"], top.io), 0);
    assert.match(top.out(), /^rehydrate .*\n\nUsage:/);
    assert.match(top.out(), /exits 0 when\nit worked, 1 when it failed/);
    const verb = collector();
    assert.equal(await cliMain(["status", "-h", "-v"], verb.io), 0);
    assert.match(verb.out(), /^Usage: rehydrate status/);
  });
});
