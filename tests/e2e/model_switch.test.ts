// A mid-session model switch (2.1.332's PostModelSwitch) in interactive mode, through tmux: the
// session starts on a 1M-token model (`ANTHROPIC_MODEL=claude-opus-4-6[1m]`), its context holds
// 150,000 tokens, which is 15 % of that window and draws no fill warning; after
// `/model claude-sonnet-4-6` (a 200,000-token window) the next prompt must carry
// <context-fill percent="89"> (150,000 of the 167,000 at which it compacts). Without the PostModelSwitch hook the session record keeps the 1M
// model and the warning never comes. Skipped, saying so, where tmux cannot run.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { E2e, isTurnRequest, type LoggedRequest, nonce, requestText, ROOT, tmuxAvailable } from "./harness.ts";

const TMUX = tmuxAvailable();

describe("a model switch mid-session under the real Claude Code client (tmux)", {
  skip: TMUX ? false : "tmux is not installed: /model needs interactive mode",
}, () => {
  let e: E2e;
  let beforeSwitch: LoggedRequest[] = [];
  let afterSwitch: LoggedRequest[] = [];
  let record: Record<string, unknown> = {};

  const debugLog = () => existsSync(join(e.state, "debug.log")) ? readFileSync(join(e.state, "debug.log"), "utf8") : "";

  before(async () => {
    e = await E2e.start("model-switch");
    const repo = e.workspace(join(ROOT, "examples", "everyday"));
    await e.tmuxStart(repo, { env: { ANTHROPIC_MODEL: "claude-opus-4-6[1m]" } });
    const turn = async (text: string, reply: string, usage?: number) => {
      const n = e.requests().length;
      const mark = nonce();
      await e.tmuxTypeSeen(
        `${text} [${mark}] <mock>${JSON.stringify([{ text: reply, ...(usage ? { usage } : {}) }])}</mock>`,
        mark,
      );
      // The prompt holds the reply's text too (in its script): wait for the answer's bullet.
      await e.waitFor(() => e.tmuxScreen().includes(`● ${reply}`), `the reply "${reply}"`, 60_000);
      return e.requests().slice(n).filter(isTurnRequest);
    };
    await turn("Read the code.", "Read it all.", 150_000);
    // Every reply reports 150,000 tokens (the mock estimates far fewer otherwise).
    beforeSwitch = await turn("What now?", "Thinking.", 150_000);
    e.tmuxType("/model claude-sonnet-4-6");
    // 2.1.332 asks first when the switch re-reads the cached history.
    await e.waitFor(() => /Switch model\?|Sonnet 4\.6/.test(e.tmuxScreen()), "the model switch", 30_000);
    if (e.tmuxScreen().includes("Switch model?")) e.tmuxType("");
    await e.waitFor(() => debugLog().includes("model switch: now"), "the PostModelSwitch hook", 30_000);
    // The switch redraws the screen (its notices) and keys typed meanwhile are lost.
    await e.tmuxSettle("a settled screen after the switch");
    afterSwitch = await turn("Go on.", "Going on.");
    // One session: its record is the one file named by a session id.
    const sessions = join(e.state, "sessions");
    const names = readdirSync(sessions).filter((n) => /^[0-9a-f-]{36}\.json$/.test(n));
    assert.equal(names.length, 1, names.join(", "));
    record = JSON.parse(readFileSync(join(sessions, names[0]), "utf8"));
    e.tmuxType("/exit");
    await new Promise((r) => setTimeout(r, 1500));
  });

  after(() => {
    e?.tmuxStop();
    e?.close();
  });

  test("the session record holds the new model after /model", () => {
    assert.equal(record.model, "claude-sonnet-4-6", JSON.stringify(record));
  });

  test("no fill warning at 15 % of the 1M window before the switch", () => {
    assert.ok(beforeSwitch.length > 0, e.explain("a request before the switch", null));
    assert.ok(
      !requestText(beforeSwitch[0]).includes("<context-fill"),
      e.explain("no context-fill", beforeSwitch[0], "context-fill"),
    );
  });

  test("the first prompt after the switch warns against the 200,000-token window", () => {
    assert.ok(afterSwitch.length > 0, e.explain("a request after the switch", null));
    const text = requestText(afterSwitch[0]);
    assert.match(
      text,
      /<context-fill percent="89" tokens="150000" window="200000" compacts-at="167000">/,
      e.explain("the fill warning", afterSwitch[0], "context-fill"),
    );
  });
});
