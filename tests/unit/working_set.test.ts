import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { workingSet, type WorkingSetItem } from "../../lib/detect/working_set.ts";
import { textPathTokens } from "../../lib/detect/_paths.ts";
import { mulberry32 } from "./_rng.ts";
import { scanTranscript } from "../../lib/transcript/scan_transcript.ts";
import type { TranscriptRow } from "../../lib/transcript/transcript_row.ts";

const DIR = join(import.meta.dirname ?? ".", "..", "fixtures", "detection");
const set = (name: string, options = {}) => workingSet(scanTranscript(join(DIR, name)), options);
const find = (items: WorkingSetItem[], path: string) => items.find((i) => i.path === path);

function call(id: string, name: string, input: Record<string, unknown>, cwd = "/w"): TranscriptRow {
  return { type: "assistant", cwd, message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] } };
}

describe("workingSet()", () => {
  test("scores files named in the open todo items, the latest request and the plan", () => {
    const items = set("working_set.jsonl");
    assert.deepEqual(find(items, "/home/dev/app/src/cli.ts")?.reasons, ["todo", "plan", "search-result"]);
    assert.deepEqual(find(items, "/home/dev/app/test/config.test.ts")?.reasons, ["todo", "plan"]);
    assert.deepEqual(find(items, "/home/dev/app/docs/configuration.md")?.reasons, ["user-request"]);
  });

  test("ranks the in-progress todo file above the edited file", () => {
    const items = set("working_set.jsonl");
    assert.equal(items[0].path, "/home/dev/app/src/cli.ts");
    assert.equal(items[1].path, "/home/dev/app/src/config.ts");
  });

  test("lists the files of search results, resolving relative ones against the cwd", () => {
    const items = set("working_set.jsonl", { minShare: 0 });
    assert.deepEqual(find(items, "/home/dev/app/src/server.ts")?.reasons, ["search-result"]);
    assert.deepEqual(find(items, "/home/dev/app/src/env.ts")?.reasons, ["search-result"]);
  });

  test("merges ./relative and absolute spellings of one file", () => {
    const items = set("working_set.jsonl", { minShare: 0 });
    const config = items.filter((i) => i.path.endsWith("src/config.ts"));
    assert.equal(config.length, 1);
    assert.deepEqual(config[0].reasons, ["edited", "read", "todo", "search-result"]);
  });

  test("leaves out node_modules and the directory a search ran in", () => {
    const paths = set("working_set.jsonl", { minShare: 0 }).map((i) => i.path);
    assert.ok(!paths.some((p) => p.includes("node_modules")));
    assert.ok(!paths.includes("/home/dev/app/src"));
  });

  test("caps the set and keeps the newest edits first", () => {
    const items = set("many_files.jsonl");
    assert.equal(items.length, 10);
    assert.equal(items[0].path, "/home/dev/app/src/mod13.ts");
    assert.equal(items[9].path, "/home/dev/app/src/mod04.ts");
    assert.equal(set("many_files.jsonl", { limit: 3 }).length, 3);
  });

  test("drops files scoring under the minimum share of the best", () => {
    const all = set("working_set.jsonl", { minShare: 0 });
    const kept = set("working_set.jsonl");
    assert.ok(kept.length < all.length);
    for (const item of kept) assert.ok(item.score >= kept[0].score * 0.2);
  });

  test("normalises Windows paths and dedupes them with relative spellings", () => {
    const items = set("windows_paths.jsonl");
    assert.deepEqual(items.map((i) => i.path), [
      "c:/Users/dev/ws/02-projects/07-win-app/03-working/notes.md",
      "c:/Users/dev/ws/02-projects/07-win-app/01-planning/steps.md",
    ]);
    assert.deepEqual(items[0].reasons, ["edited", "read"]);
  });

  test("scores an edit above a read of the same age", () => {
    const items = workingSet([call("a", "Read", { file_path: "/w/r.ts" }), call("b", "Edit", { file_path: "/w/e.ts" })]);
    const read = find(items, "/w/r.ts");
    const edited = find(items, "/w/e.ts");
    assert.ok(read && edited && edited.score > read.score);
  });

  test("prefers a recent read to an edit long ago", () => {
    const rows: TranscriptRow[] = [call("r", "Read", { file_path: "/w/new.ts" })];
    for (let i = 0; i < 30; i++) rows.push(call(`x${i}`, "Bash", { command: "true" }));
    for (let i = 0; i < 4; i++) rows.push(call(`e${i}`, "Edit", { file_path: "/w/old.ts" }));
    const items = workingSet(rows, { minShare: 0 });
    assert.equal(items[0].path, "/w/new.ts");
    assert.equal(items[1].path, "/w/old.ts");
  });

  test("resolves a bare file name in text to the one known path with that name", () => {
    const rows: TranscriptRow[] = [
      { type: "assistant", cwd: "/w", message: { role: "assistant", content: [{ type: "text", text: "Next: fix app.js and util.js." }] } },
      call("a", "Read", { file_path: "/w/web/app.js" }),
    ];
    const items = workingSet(rows, { minShare: 0 });
    assert.deepEqual(find(items, "/w/web/app.js")?.reasons, ["read", "plan"]);
    assert.equal(items.some((i) => i.path.endsWith("util.js")), false);
  });

  test("matches code names in the plan to the file of the same name", () => {
    const rows: TranscriptRow[] = [
      { type: "assistant", cwd: "/w", message: { role: "assistant", content: [{ type: "text", text: "I'll update SessionLive next." }] } },
      call("a", "Read", { file_path: "/w/lib/session_live.ex" }),
    ];
    assert.deepEqual(workingSet(rows)[0].reasons, ["read", "plan"]);
  });

  test("never lists the transcript itself or Claude Code's task output", () => {
    const rows: TranscriptRow[] = [
      call("a", "Read", { file_path: "/tmp/claude-1000/-w/tasks/b1.output" }),
      call("b", "Read", { file_path: "/home/u/.claude/projects/-w/s.jsonl" }),
      call("c", "Read", { file_path: "/w/keep.md" }),
    ];
    assert.deepEqual(workingSet(rows).map((i) => i.path), ["/w/keep.md"]);
  });

  test("returns paths relative to the project directory when inside it", () => {
    const items = workingSet([call("a", "Read", { file_path: "/w/a/b.md" }), call("b", "Read", { file_path: "/x/c.md" })], { projectDir: "/w" });
    assert.deepEqual(items.map((i) => i.path), ["a/b.md", "/x/c.md"]);
  });

  test("returns nothing for no rows", () => {
    assert.deepEqual(workingSet([]), []);
  });
});

describe("textPathTokens()", () => {
  // The tokenizer before the lookahead was added (every word came back to the loop): the oracle.
  const OLD = /(?:[A-Za-z]:[\\/]|~\/|\.\.?\/|\/)?[\w.@+-]+(?:[\\/]+[\w.@+-]+)*[\\/]?/g;
  const FILE_NAME = /^[^/]*[^/.]\.[A-Za-z][A-Za-z0-9]{0,9}$/;
  function oracle(text: string): string[] {
    const out: string[] = [];
    OLD.lastIndex = 0;
    for (let m = OLD.exec(text); m !== null; m = OLD.exec(text)) {
      let token = m[0];
      const start = m.index;
      const end = start + token.length;
      if (text.startsWith("://", end) || (start > 0 && text[start - 1] === ":" && token.startsWith("/"))) continue;
      if (start > 0 && (text[start - 1] === "@" || text[start - 1] === "/")) continue;
      while (token.length > 0 && (token.endsWith(".") || token.endsWith("/") || token.endsWith("\\") || token.endsWith("-"))) token = token.slice(0, -1);
      if (token.length < 3) continue;
      if (!token.includes("/") && !token.includes("\\") && !FILE_NAME.test(token)) continue;
      out.push(token);
    }
    return out;
  }
  const tokens = (text: string): string[] => {
    const out: string[] = [];
    textPathTokens(text, (t) => void out.push(t));
    return out;
  };

  test("finds the same tokens as the word-by-word tokenizer on 5,000 generated texts", () => {
    const rng = mulberry32(6);
    const parts = ["src/a.ts", "C:\\x\\y.md", "/etc/hosts", "app.js", "~/notes.txt", "./b.py", "../c/d", "e.g.", "https://x.io/a.md", "user@host.com",
      "a:b/c", "x://y", "file.ts:12", "v1.2", "word", "::", "~", "-", ".", "/", "\\", "@", ":", " ", " ", "\n", ",", "(", ")", "é", "日本"];
    let found = 0;
    for (let i = 0; i < 5000; i++) {
      let t = "";
      for (let k = Math.floor(rng() * 12); k >= 0; k--) t += parts[Math.floor(rng() * parts.length)] + (rng() < 0.5 ? " " : "");
      const want = oracle(t);
      found += want.length;
      assert.deepEqual(tokens(t), want, JSON.stringify(t));
    }
    assert.ok(found > 5000, `only ${found} tokens: the comparison is too weak`);
  });

  test("finishes on 1 MB adversarial inputs (a lookahead version took 11 s on 100,000 letters)", () => {
    const N = 1_000_000;
    const fill = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);
    const inputs = [fill("a"), fill("-"), fill("a:"), fill("a:") + "/x", fill("a/"), fill("a."), fill("/"), fill("."), fill("C:\\"), fill("~/"), fill("x@y/"), fill("a ")];
    let total = 0;
    for (const input of inputs) textPathTokens(input, () => void total++);
    assert.ok(total > 0);
    // The same answers as the word-by-word tokenizer on long runs around one separator.
    for (const t of ["a".repeat(50_000) + "/b.ts", "x " + "a:".repeat(20_000) + "/y.md z", "-".repeat(30_000) + "src/a.ts"]) assert.deepEqual(tokens(t), oracle(t));
  });

  test("stops when the callback returns false", () => {
    const seen: string[] = [];
    textPathTokens("a/b.ts c/d.ts e/f.ts", (t) => seen.push(t) < 2);
    assert.deepEqual(seen, ["a/b.ts", "c/d.ts"]);
  });
});
