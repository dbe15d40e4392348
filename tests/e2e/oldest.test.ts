// The smoke run on the oldest client rehydrate supports (CLAUDE_OLDEST, the devDependency alias
// `claude-code-oldest`; README and the plugin's `engines` name the same version): the installer's
// settings load, a prompt edits a file and runs the tests (which fail), `/compact` runs our hooks,
// and the first request after it carries <session-context> exactly once, with the latest request
// and the failing test command. The other scenarios run the pinned current client.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import {
  CLAUDE_OLDEST,
  count,
  E2e,
  firstAfterCompaction,
  type LoggedRequest,
  OLDEST_VERSION,
  ourElements,
  requestText,
  ROOT,
} from "./harness.ts";

const LATEST = "Make the total sum integer cents";

describe(`the oldest supported client (${OLDEST_VERSION})`, () => {
  let e: E2e;
  let compactRequest: LoggedRequest | null = null;
  let afterCompact: LoggedRequest | null = null;

  before(async () => {
    e = await E2e.start("oldest", { claude: CLAUDE_OLDEST });
    const repo = e.workspace(join(ROOT, "examples", "everyday"));
    const file = join(repo, "src", "format.js");
    const first = await e.claude(
      repo,
      e.script(LATEST, [
        { tool: "Read", input: { file_path: file } },
        {
          tool: "Edit",
          input: { file_path: file, old_string: "total += price;", new_string: "total += price * 100;" },
        },
        { tool: "Bash", input: { command: "npm test", description: "Run the tests" } },
        { text: "Done." },
      ]),
    );
    const compact = await e.claude(repo, "/compact", { resume: first.sessionId });
    compactRequest = compact.requests.find((r) => r.kind === "compact-summary") ?? null;
    const next = await e.claude(repo, e.script("Carry on.", [{ text: "Carrying on." }]), { resume: first.sessionId });
    afterCompact = firstAfterCompaction([...compact.requests, ...next.requests]);
  });

  after(() => e?.close());

  test(`the client is ${OLDEST_VERSION}`, () => {
    const v = spawnSync(CLAUDE_OLDEST, ["--version"], { encoding: "utf8" });
    assert.match(v.stdout, new RegExp(`^${OLDEST_VERSION.replaceAll(".", "\\.")}\\b`));
  });

  test("PreCompact's instructions reach the compaction request", () => {
    assert.ok(compactRequest, e.explain("the compaction request", null));
    const text = requestText(compactRequest);
    assert.ok(
      text.includes("rehydrate, to the summarizer of this conversation") && text.includes('"npm test" (exit 1'),
      e.explain("our summarizer instructions", compactRequest, "detailed summary"),
    );
  });

  test("the first request after /compact carries <session-context> once, with the request and the failing command", () => {
    assert.ok(afterCompact, e.explain("a request after the compaction", null));
    const starts = ourElements(afterCompact).filter((x) =>
      x.startsWith("<session-context") && !x.includes('part="after-summary"')
    );
    assert.equal(starts.length, 1, e.explain("one session-context", afterCompact, "session-context"));
    const ctx = starts[0];
    assert.ok(ctx.includes(LATEST), e.explain("the latest request", afterCompact, "session-context"));
    assert.match(ctx, /<command exit="1"[^>]*>npm test<\/command>/, e.explain("the test", afterCompact, ctx));
    assert.ok(count(requestText(afterCompact), 'part="after-summary"') <= 1, "the follow-up at most once");
  });
});
