// Install registers PostModelSwitch only for a client known to have the event: Claude Code 2.1.197
// opens every interactive session with a "Settings Warning" dialog for an event it does not know.
// The client's version comes from ~/.claude.json (or $CLAUDE_CONFIG_DIR/.claude.json).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { atLeast, lastClientVersion, POST_MODEL_SWITCH_SINCE } from "../../../lib/cli/_client_version.ts";
import { cliInstall } from "../../../lib/cli/install.ts";

function home(claudeJson?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-client-version-"));
  if (claudeJson !== undefined) {
    writeFileSync(join(dir, ".claude.json"), typeof claudeJson === "string" ? claudeJson : JSON.stringify(claudeJson));
  }
  return dir;
}

describe("lastClientVersion()", () => {
  test("lastClientVersion() takes the newer of the two fields the client writes at startup", () => {
    const h = home({
      lastReleaseNotesSeen: "2.1.330",
      lastClawdEntranceVersion: "2.1.332",
      firstStartVersion: "2.0.1",
    });
    assert.equal(lastClientVersion({}, h), "2.1.332");
    assert.equal(lastClientVersion({}, home({ lastReleaseNotesSeen: "2.1.197" })), "2.1.197");
  });

  test("lastClientVersion() reads $CLAUDE_CONFIG_DIR/.claude.json when it is set", () => {
    const config = home({ lastReleaseNotesSeen: "2.1.332" });
    assert.equal(
      lastClientVersion({ CLAUDE_CONFIG_DIR: config }, home({ lastReleaseNotesSeen: "2.1.197" })),
      "2.1.332",
    );
  });

  test("lastClientVersion() is null without a file, without the fields, or with junk", () => {
    assert.equal(lastClientVersion({}, home()), null);
    assert.equal(lastClientVersion({}, home({ numStartups: 3 })), null);
    assert.equal(lastClientVersion({}, home("{ not json")), null);
    assert.equal(lastClientVersion({}, home([1, 2])), null);
    assert.equal(lastClientVersion({}, home({ lastReleaseNotesSeen: "2.1.332-beta" })), null);
    assert.equal(lastClientVersion({}, home({ lastReleaseNotesSeen: 2.1 })), null);
  });
});

describe("atLeast()", () => {
  test("atLeast() compares X.Y.Z numerically", () => {
    assert.equal(atLeast("2.1.332", POST_MODEL_SWITCH_SINCE), true);
    assert.equal(atLeast("2.1.1000", POST_MODEL_SWITCH_SINCE), true);
    assert.equal(atLeast("2.2.0", POST_MODEL_SWITCH_SINCE), true);
    assert.equal(atLeast("2.1.331", POST_MODEL_SWITCH_SINCE), false);
    assert.equal(atLeast("2.1.197", POST_MODEL_SWITCH_SINCE), false);
    assert.equal(atLeast(null, POST_MODEL_SWITCH_SINCE), false);
    assert.equal(atLeast("latest", POST_MODEL_SWITCH_SINCE), false);
  });
});

describe("cliInstall() and PostModelSwitch", () => {
  function install(claudeJson?: unknown, scope: "--local" | "--shared" = "--local"): string[] {
    const h = home(claudeJson);
    const project = mkdtempSync(join(tmpdir(), "rehydrate-client-version-project-"));
    const binary = join(h, "bin", "rehydrate");
    mkdirSync(join(h, "bin"));
    writeFileSync(binary, "#!/bin/sh\necho 0.1.0\n");
    chmodSync(binary, 0o755);
    const io = { out: () => {}, err: () => {} };
    const env = { cwd: project, homeDir: h, env: { HOME: h, PATH: "/nonexistent" } };
    assert.equal(cliInstall(["--command", binary, "--workflows", "none", scope], io, env), 0);
    const file = join(project, ".claude", scope === "--shared" ? "settings.json" : "settings.local.json");
    return Object.keys(JSON.parse(readFileSync(file, "utf8")).hooks);
  }

  test("cliInstall() registers PostModelSwitch when the user's client is 2.1.332 or later", () => {
    assert.deepEqual(install({ lastReleaseNotesSeen: "2.1.332" }), [
      "PreCompact",
      "SessionStart",
      "UserPromptSubmit",
      "PostModelSwitch",
      "Stop",
    ]);
  });

  test("cliInstall() leaves PostModelSwitch out for an older or unknown client", () => {
    const core = ["PreCompact", "SessionStart", "UserPromptSubmit", "Stop"];
    assert.deepEqual(install({ lastReleaseNotesSeen: "2.1.197" }), core);
    assert.deepEqual(install(), core);
  });

  test("cliInstall() --shared leaves PostModelSwitch out: the teammates' clients may be older", () => {
    assert.deepEqual(install({ lastReleaseNotesSeen: "2.1.332" }, "--shared"), [
      "PreCompact",
      "SessionStart",
      "UserPromptSubmit",
      "Stop",
    ]);
  });
});
