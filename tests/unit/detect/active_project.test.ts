import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { detectActiveProject } from "../../../lib/detect/active_project.ts";
import { scanTranscript } from "../../../lib/transcript/scan_transcript.ts";
import { detectWorkspace } from "../../../lib/detect/workspace.ts";
import { normalizePath } from "../../../lib/detect/_paths.ts";
import { cliDetect } from "../../../lib/cli/detect.ts";
import type { TranscriptRow } from "../../../lib/transcript/transcript_row.ts";

const DIR = join(import.meta.dirname ?? ".", "..", "..", "fixtures", "detection");
const detect = (name: string, options = {}) => detectActiveProject(scanTranscript(join(DIR, name)), options);

function editRow(id: string, path: string): TranscriptRow {
  return {
    type: "assistant",
    uuid: `u-${id}`,
    cwd: "/w",
    message: { role: "assistant", content: [{ type: "tool_use", id, name: "Edit", input: { file_path: path } }] },
  };
}

describe("detectActiveProject()", () => {
  test("recent edits of one project beat fifty earlier mentions of another", () => {
    const p = detect("recency_beats_frequency.jsonl");
    assert.ok(p);
    assert.equal(p.id, "05-beta-api");
    assert.equal(p.confidence, "high");
    assert.equal(p.recentFileOps, 3);
    assert.equal(p.runnerUp?.id, "03-alpha-site");
    assert.ok(p.score >= 2 * p.runnerUp.score);
  });

  test("caps the mention score of a project so talk never outweighs work", () => {
    const p = detect("recency_beats_frequency.jsonl");
    assert.equal(p?.runnerUp?.score, 3);
  });

  test("gives medium confidence for two file operations", () => {
    const p = detect("medium_two_reads.jsonl");
    assert.equal(p?.id, "04-gamma");
    assert.equal(p?.confidence, "medium");
    assert.equal(p?.recentFileOps, 2);
    assert.deepEqual(p?.evidence.filter((e) => e.kind === "read").map((e) => e.source), ["Read", "Read"]);
  });

  test("gives medium confidence for an execute-project skill call with a mention", () => {
    const p = detect("medium_skill.jsonl");
    assert.equal(p?.id, "06-delta-docs");
    assert.equal(p?.confidence, "medium");
    assert.equal(p?.recentFileOps, 0);
  });

  test("gives low confidence when the project is only mentioned", () => {
    const p = detect("low_mentions.jsonl");
    assert.equal(p?.id, "08-eps-research");
    assert.equal(p?.confidence, "low");
    assert.ok(p?.evidence.every((e) => e.kind === "mention"));
    assert.deepEqual(new Set(p?.evidence.map((e) => e.source)), new Set(["user", "assistant"]));
  });

  test("returns null for a transcript that names no project", () => {
    assert.equal(detect("no_project.jsonl"), null);
    assert.equal(detectActiveProject([]), null);
  });

  test("reads Windows paths with backslashes and a drive letter", () => {
    const p = detect("windows_paths.jsonl");
    assert.equal(p?.id, "07-win-app");
    assert.equal(p?.confidence, "high");
    assert.equal(p?.recentFileOps, 4);
  });

  test("records the skill the agent switched to after the project work", () => {
    const p = detect("skill_switch.jsonl");
    assert.equal(p?.id, "09-zeta-app");
    assert.equal(p?.switchedToSkill, "paper-search");
  });

  test("records no switch when the agent only chats about the project afterwards", () => {
    const p = detect("project_chat.jsonl");
    assert.equal(p?.id, "09-zeta-app");
    assert.equal(p?.switchedToSkill, undefined);
  });

  test("counts work from before a compaction and the summary that names the project", () => {
    const p = detect("after_compaction.jsonl");
    assert.equal(p?.id, "11-theta-site");
    assert.equal(p?.confidence, "high");
    assert.ok(p?.evidence.some((e) => e.kind === "mention" && e.source === "summary"));
  });

  test("an explicit switch by the user and the latest edits outweigh older work", () => {
    // 16 edits on 05-site-redesign, then "Now switch to the API migration" and 3 edits on
    // 07-api-migration: before the switch rule the site redesign won with high confidence.
    const p = detect("project_switch.jsonl");
    assert.equal(p?.id, "07-api-migration");
    assert.equal(p?.confidence, "high");
    assert.equal(p?.recentFileOps, 3);
    assert.equal(p?.userSwitch, "Now switch to the API migration.");
    assert.equal(p?.runnerUp?.id, "05-site-redesign");
    assert.ok(p && p.runnerUp && p.score >= 2 * p.runnerUp.score);
    assert.ok(
      p?.evidence.some((e) =>
        e.kind === "mention" && e.source === "user" && e.detail.includes("switch to the API migration")
      ),
    );
  });

  test("without a switch prompt the bulk of older edits still wins over three new ones", () => {
    const rows: TranscriptRow[] = [];
    for (let i = 0; i < 3; i++) rows.push(editRow(`b${i}`, `/w/02-projects/07-api-migration/f${i}.md`));
    for (let i = 0; i < 16; i++) rows.push(editRow(`a${i}`, `/w/02-projects/05-site-redesign/f${i % 4}.md`));
    const p = detectActiveProject(rows);
    assert.equal(p?.id, "05-site-redesign");
    assert.equal(p?.userSwitch, undefined);
  });

  test("a switch names the project by path, id or name after a cue such as 'work on' or 'let's do'", () => {
    const older: TranscriptRow[] = [];
    for (let i = 0; i < 5; i++) older.push(editRow(`a${i}`, `/w/02-projects/05-site-redesign/f${i}.md`));
    const after = (text: string, options = {}) => {
      const rows: TranscriptRow[] = [{ type: "user", cwd: "/w", message: { role: "user", content: text } }, ...older];
      return detectActiveProject(rows, options);
    };
    const known = { knownProjects: ["05-site-redesign", "03-billing-revamp"] };
    assert.equal(after("work on 02-projects/03-billing-revamp now")?.id, "03-billing-revamp");
    assert.equal(after("Let's do 03-billing-revamp next.", known)?.id, "03-billing-revamp");
    assert.equal(after("OK, switch over to the Billing Revamp please", known)?.id, "03-billing-revamp");
    assert.equal(after("OK, switch over to the Billing Revamp please", known)?.confidence, "low");
    // No cue, or the name in another sentence: a mention, not a switch.
    assert.equal(after("The billing revamp can wait.", known)?.id, "05-site-redesign");
    assert.equal(after("Switch to plan mode. The billing revamp can wait.", known)?.id, "05-site-redesign");
    assert.equal(after("Don't work on the billing revamp yet.", known)?.id, "05-site-redesign");
  });

  test("work on the old project after a switch counts again", () => {
    const rows: TranscriptRow[] = [];
    for (let i = 0; i < 4; i++) rows.push(editRow(`c${i}`, `/w/02-projects/05-site-redesign/g${i}.md`));
    rows.push({ type: "user", cwd: "/w", message: { role: "user", content: "never mind, back to the site redesign" } });
    rows.push({ type: "user", cwd: "/w", message: { role: "user", content: "switch to 07-api-migration" } });
    for (let i = 0; i < 16; i++) rows.push(editRow(`a${i}`, `/w/02-projects/05-site-redesign/f${i % 4}.md`));
    const p = detectActiveProject(rows);
    assert.equal(p?.id, "05-site-redesign");
    assert.equal(p?.userSwitch, "never mind, back to the site redesign");
  });

  test("uses a configured projects root", () => {
    const rows = [editRow("t1", "/w/work/12-custom/a.md"), editRow("t2", "/w/02-projects/13-other/b.md")];
    assert.equal(detectActiveProject(rows, { projectsRoot: "work" })?.id, "12-custom");
    assert.equal(detectActiveProject(rows)?.id, "13-other");
  });

  test("drops to medium when three operations do not dominate the runner-up", () => {
    const rows: TranscriptRow[] = [];
    for (let i = 0; i < 3; i++) rows.push(editRow(`a${i}`, `/w/02-projects/14-a/f${i}.md`));
    for (let i = 0; i < 3; i++) rows.push(editRow(`b${i}`, `/w/02-projects/15-b/f${i}.md`));
    const p = detectActiveProject(rows);
    assert.equal(p?.id, "14-a");
    assert.equal(p?.confidence, "medium");
  });

  test("ignores project work older than the recent window for high and medium", () => {
    const rows: TranscriptRow[] = [];
    for (let i = 0; i < 40; i++) rows.push(editRow(`n${i}`, `/w/src/f${i}.ts`));
    for (let i = 0; i < 5; i++) rows.push(editRow(`p${i}`, `/w/02-projects/16-old/f${i}.md`));
    const p = detectActiveProject(rows);
    assert.equal(p?.id, "16-old");
    assert.equal(p?.confidence, "low");
  });

  test("counts bare ids of known projects in text", () => {
    const rows: TranscriptRow[] = [{
      type: "user",
      cwd: "/w",
      message: { role: "user", content: "open 17-known please" },
    }];
    assert.equal(detectActiveProject(rows), null);
    assert.equal(detectActiveProject(rows, { knownProjects: ["17-known"] })?.confidence, "low");
  });

  test("counts a known id only as a whole token, and the longer of two ids that share a prefix", () => {
    const said = (text: string, known: string[]) =>
      detectActiveProject([{ type: "user", cwd: "/w", message: { role: "user", content: text } }], {
        knownProjects: known,
      })?.id ?? null;
    const known = ["17-known", "17-known-two", "03-a"];
    assert.equal(said("open 17-known-two please", known), "17-known-two");
    assert.equal(said("(17-known) first", known), "17-known");
    assert.equal(said("x17-known and 17-knownx and 117-known and 17-known_", known), null);
    assert.equal(said("see 03-a.", known), "03-a");
    assert.equal(said("see 03-ab", known), null);
  });
});

describe("detectWorkspace()", () => {
  test("activeProject: false leaves the project out and the rest as it was", () => {
    const full = detectWorkspace(join(DIR, "skill_switch.jsonl"));
    const lean = detectWorkspace(join(DIR, "skill_switch.jsonl"), { activeProject: false });
    assert.equal(full.activeProject?.id, "09-zeta-app");
    assert.equal(lean.activeProject, null);
    assert.deepEqual({ ...lean, activeProject: full.activeProject }, full);
  });

  test("returns the project, the working set and the latest tool calls newest last", () => {
    const found = detectWorkspace(join(DIR, "skill_switch.jsonl"));
    assert.equal(found.activeProject?.id, "09-zeta-app");
    assert.ok(found.workingSet.length > 0);
    assert.deepEqual(found.lastToolCalls.map((c) => c.tool), ["Skill", "Read", "Edit", "Read", "Skill"]);
    assert.equal(found.sessionId, "0b7e5c1a-5d1e-4c2b-9a51-6f0c2a7d9e10");
    assert.ok(found.bytesScanned > 0);
  });

  test("makes paths inside the project directory relative", () => {
    const found = detectWorkspace(join(DIR, "skill_switch.jsonl"), { projectDir: "/home/dev/ws" });
    assert.equal(found.workingSet[0].path, "02-projects/09-zeta-app/01-planning/steps.md");
    assert.equal(found.lastToolCalls[1].file, "02-projects/09-zeta-app/01-planning/steps.md");
  });

  test("leaves out files gone from disk when the session's folder exists, and checks nothing when it is absent", () => {
    const dir = mkdtempSync(join(tmpdir(), "detect-disk-"));
    try {
      writeFileSync(join(dir, "kept.ts"), "");
      const transcript = (cwd: string) => {
        const path = join(dir, `t-${cwd === dir ? "here" : "gone"}.jsonl`);
        const rows = [editRow("a", `${cwd}/gone.ts`), editRow("b", `${cwd}/kept.ts`)].map((r) =>
          JSON.stringify({ ...r, cwd })
        );
        writeFileSync(path, rows.join("\n") + "\n");
        return path;
      };
      const here = detectWorkspace(transcript(dir)).workingSet.map((w) => w.path);
      assert.deepEqual(here, [normalizePath(join(dir, "kept.ts"))]);
      const absent = join(dir, "no-such-folder");
      const recorded = detectWorkspace(transcript(absent)).workingSet.map((w) => w.path).sort();
      assert.deepEqual(recorded, [normalizePath(`${absent}/gone.ts`), normalizePath(`${absent}/kept.ts`)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("gives an empty detection for a missing transcript", () => {
    const found = detectWorkspace(join(DIR, "does-not-exist.jsonl"));
    assert.equal(found.activeProject, null);
    assert.deepEqual(found.workingSet, []);
    assert.deepEqual(found.lastToolCalls, []);
  });
});

describe("cliDetect()", () => {
  const run = (args: string[]) => {
    const io = {
      stdout: "",
      stderr: "",
      out(t: string) {
        io.stdout += t;
      },
      err(t: string) {
        io.stderr += t;
      },
    };
    const code = cliDetect(args, io);
    return { code, out: io.stdout, err: io.stderr };
  };

  test("prints the project, its evidence and the working set", () => {
    const r = run(["--transcript", join(DIR, "skill_switch.jsonl")]);
    assert.equal(r.code, 0);
    assert.match(r.out, /^Active project: 09-zeta-app \(confidence high/);
    assert.match(r.out, /switched afterwards to skill: paper-search/);
    assert.match(
      r.out,
      /Working set \(best first\):\n +3\.56 {2}\/home\/dev\/ws\/02-projects\/09-zeta-app\/01-planning\/steps\.md {2}\[edited, read\]/,
    );
    assert.equal(r.err, "");
  });

  test("prints JSON with --json", () => {
    const r = run(["-t", join(DIR, "no_project.jsonl"), "--json"]);
    assert.equal(r.code, 0);
    const parsed = JSON.parse(r.out);
    assert.equal(parsed.activeProject, null);
    assert.equal(parsed.workingSet[0].path, "/home/dev/app/src/parser.ts");
  });

  test("fails with a line and a hint for a bad or missing flag (exit 2), one line for a missing file (exit 1)", () => {
    for (
      const [args, code] of [[["--bogus"], 2], [["-t", ""], 2], [["-t", join(DIR, "nope.jsonl")], 1], [[
        "-t",
        join(DIR, "no_project.jsonl"),
        "-p",
        join(DIR, "nope"),
      ], 1]] as const
    ) {
      const r = run([...args]);
      assert.equal(r.code, code, args.join(" "));
      assert.equal(r.out, "");
      assert.equal(r.err.split("\n").length, code === 2 ? 3 : 2, r.err);
      assert.match(r.err, /^rehydrate detect: [a-z]/);
    }
  });

  test("without --transcript reads the newest session of the project found from a subdirectory", () => {
    const root = mkdtempSync(join(tmpdir(), "rehydrate-detect-"));
    const home = join(root, "home");
    const project = join(root, "repo");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, "src"));
    const io = { out: "", err: "" };
    const call = () => {
      io.out = "";
      io.err = "";
      return cliDetect([], { out: (t) => void (io.out += t), err: (t) => void (io.err += t) }, {
        cwd: join(project, "src"),
        homeDir: home,
        env: { HOME: home },
      });
    };
    assert.equal(call(), 1);
    assert.match(io.err, /^rehydrate detect: no transcript in .*; pass --transcript FILE\n$/);
    const dir = join(home, ".claude", "projects", project.replace(/[^a-zA-Z0-9]/g, "-"));
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(DIR, "no_project.jsonl"), join(dir, "s1.jsonl"));
    assert.equal(call(), 0, io.err);
    assert.ok(io.out.startsWith(`Transcript: ${join(dir, "s1.jsonl")} (the newest session of ${project})\n`));
    assert.match(io.out, /^Active project: none detected$/m);
  });

  test("prints help with examples", () => {
    const r = run(["--help"]);
    assert.equal(r.code, 0);
    assert.match(r.out, /Examples:/);
  });
});
