/**
 * The benchmark's project workspace: the layout of `examples/workspace` at the size of a busy
 * user's (40 projects with loading manifests, overview, plan and steps files; 24 skills with
 * frontmatter; the system files), plus an orchestration run (`projects/PROJ-001-oss-release/`
 * with an `ORCHESTRATION.yaml` whose `resumption:` section is filled as docs/orchestration.md describes).
 * Deterministic: the same seed writes the same bytes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRandom, type Random } from "./random.ts";

/** The generated project names, `NN-kebab-name`. */
export const PROJECTS: readonly string[] = [
  "website-redesign",
  "api-migration",
  "legacy-notes",
  "billing-v2",
  "search-relevance",
  "mobile-onboarding",
  "data-retention",
  "sso-rollout",
  "pricing-experiments",
  "docs-overhaul",
  "ci-speedup",
  "incident-review",
  "vendor-audit",
  "checkout-rewrite",
  "email-templates",
  "analytics-pipeline",
  "partner-portal",
  "accessibility-pass",
  "cost-reduction",
  "gdpr-export",
  "feature-flags",
  "observability",
  "k8s-upgrade",
  "design-system",
  "support-bot",
  "quarterly-planning",
  "hiring-loop",
  "security-review",
  "perf-budget",
  "i18n-japanese",
  "offline-mode",
  "invoice-ocr",
  "team-handbook",
  "ml-ranking",
  "status-page",
  "backup-restore",
  "rate-limits",
  "webhooks-v3",
  "customer-interviews",
  "launch-checklist",
].map((name, i) => `${String(i + 1).padStart(2, "0")}-${name}`);

/** The project the generated transcripts end up working on. */
export const ACTIVE_PROJECT = PROJECTS[16];

/** The orchestration run's directory, relative to the workspace. */
export const ORCHESTRATION_DIR = "projects/PROJ-001-oss-release";

const SKILLS: readonly [string, string, string][] = [
  ["projects", "plan-project", "Plan a new project: overview, discovery, plan and steps files."],
  ["projects", "execute-project", "Execute a planned project one task at a time, ticking 04-steps.md."],
  ["projects", "close-project", "Close a finished project and archive its working files."],
  ["projects", "review-project", "Review a project's progress against its plan and flag drift."],
  ["system", "learn-nexus", "Learn how this workspace is organised."],
  ["system", "update-system-map", "Regenerate 00-system/system-map.md from the folders."],
  ["system", "validate-workspace", "Check every manifest against its schema."],
  ["system", "setup-memory", "Create 01-memory/ with goals and preferences."],
  ["tools", "mental-models", "Apply a mental model (first principles, inversion, ...) to a problem."],
  ["tools", "meeting-notes", "Turn a transcript into meeting notes with decisions and actions."],
  ["tools", "weekly-review", "Summarise the week across projects."],
  ["tools", "pdf", "Read, split and fill PDF files."],
  ["tools", "spreadsheet", "Analyse CSV and XLSX files."],
  ["tools", "diagram", "Draw architecture diagrams as SVG."],
  ["learning", "explain-code", "Explain a code base to a newcomer, file by file."],
  ["learning", "flashcards", "Make spaced-repetition cards from notes."],
  ["learning", "paper-search", "Search papers and summarise the relevant ones."],
  ["integrations", "github-issues", "Triage GitHub issues into projects."],
  ["integrations", "slack-digest", "Digest Slack channels into 04-workspace/notes."],
  ["integrations", "calendar-sync", "Plan tasks around the calendar."],
  ["integrations", "linear-sync", "Mirror Linear tickets into steps files."],
  ["writing", "blog-post", "Draft a blog post from project notes."],
  ["writing", "release-notes", "Write release notes from a project's steps."],
  ["writing", "frontend-design", "Design distinctive, production-grade frontend interfaces."],
];

const PHASES = ["research", "planning", "execution", "execution", "execution", "testing", "review"];
const TASK_WORDS = [
  "Write",
  "Review",
  "Migrate",
  "Measure",
  "Ship",
  "Document",
  "Refactor",
  "Test",
  "Benchmark",
  "Deploy",
  "Draft",
  "Audit",
  "Split",
  "Merge",
  "Remove",
  "Instrument",
  "Validate",
  "Prototype",
];
const OBJECTS = [
  "the image pipeline",
  "the pricing table",
  "the carousel",
  "LCP on mobile",
  "the feature flag",
  "the billing webhook",
  "the retry queue",
  "the export job",
  "the login page",
  "the cache layer",
  "the onboarding emails",
  "the search index",
  "the error budget",
  "the admin UI",
  "the CSV importer",
  "the café menu (naïve UTF-8 case)",
  "日本語 labels",
  "the rate limiter",
  "the audit log",
  "the SLO dashboard",
];

/** Writes `text` to `root/rel`, creating directories. */
function put(root: string, rel: string, text: string): void {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function sentence(rnd: Random, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${rnd.pick(TASK_WORDS).toLowerCase()} ${rnd.pick(OBJECTS)}`);
  const s = out.join(", ");
  return s[0].toUpperCase() + s.slice(1) + ".";
}

/** Options for {@linkcode writeWorkspace}. */
export interface WorkspaceOptions {
  /** PRNG seed. Default 6. */
  seed?: number;
}

/**
 * Writes the workspace under `root` (which should be empty) and returns the number of files.
 *
 * @example
 * ```ts
 * writeWorkspace("/tmp/ws"); // 40 projects, 24 skills, an orchestration run
 * ```
 */
export function writeWorkspace(root: string, options: WorkspaceOptions = {}): number {
  const rnd = createRandom(options.seed ?? 6);
  let files = 0;
  const w = (rel: string, text: string) => {
    put(root, rel, text);
    files++;
  };

  w("CLAUDE.md", "# Workspace\n\nThis is a Nexus workspace. Read `00-system/core/orchestrator.md` first.\n");
  w(
    "00-system/core/orchestrator.md",
    [
      "# Nexus orchestrator",
      "",
      "You are working inside a Nexus workspace. Projects live under `02-projects/`, each with a",
      "`01-planning/` folder (overview, discovery, plan, steps) and a loading manifest",
      "`01-planning/resume-context.md`.",
      "",
      "- New substantial work: suggest `plan-project` first.",
      "- Work on an existing project: load `execute-project`.",
      "- Always check `04-steps.md` for progress when resuming.",
      ...Array.from({ length: 30 }, (_, i) => `- Rule ${i + 1}: ${sentence(rnd, 2)}`),
      "",
    ].join("\n"),
  );
  w("00-system/core/routing.md", "# Routing\n\n" + SKILLS.map(([c, n, d]) => `- ${c}/${n}: ${d}`).join("\n") + "\n");
  w(
    "00-system/core/conventions.md",
    "# Conventions\n\n" + Array.from({ length: 20 }, () => `- ${sentence(rnd, 3)}`).join("\n") + "\n",
  );
  w(
    "00-system/system-map.md",
    [
      "# System map",
      "",
      "| folder | what |",
      "|---|---|",
      "| 00-system | core instructions, skills, caches |",
      "| 01-memory | goals and preferences |",
      "| 02-projects | one folder per project |",
      "| 03-skills | user skills and integrations |",
      "| 04-workspace | the user's own files |",
      "",
    ].join("\n"),
  );
  w("01-memory/goals.md", "# Goals\n\n" + Array.from({ length: 8 }, () => `- ${sentence(rnd, 2)}`).join("\n") + "\n");
  w(
    "01-memory/preferences.md",
    "# Preferences\n\n- Language: English\n- Answers: short, with file paths\n- Timezone: Europe/Berlin\n",
  );
  w(
    "04-workspace/workspace-map.md",
    "# Workspace map\n\n- `site/`: the marketing site sources\n- `notes/`: meeting notes\n",
  );

  for (const [cat, name, description] of SKILLS) {
    const body = Array.from({ length: rnd.int(15, 60) }, (_, i) => `${i + 1}. ${sentence(rnd, rnd.int(1, 3))}`).join(
      "\n",
    );
    w(
      `00-system/skills/${cat}/${name}/SKILL.md`,
      [
        "---",
        `name: ${name}`,
        `description: ${description.includes(": ") ? JSON.stringify(description) : description}`,
        `category: ${cat}`,
        "version: 1.2.0",
        "---",
        `# ${name}`,
        "",
        description,
        "",
        "## Steps",
        body,
        "",
      ].join("\n"),
    );
  }
  w("03-skills/paper-search/SKILL.md", "---\nname: paper-search\ndescription: Search papers.\n---\n# paper-search\n");

  PROJECTS.forEach((id, index) => {
    const title = id.slice(3).split("-").map((p) => p[0].toUpperCase() + p.slice(1)).join(" ");
    const phase = id === ACTIVE_PROJECT ? "execution" : rnd.pick(PHASES);
    const legacy = index % 10 === 2 && id !== ACTIVE_PROJECT;
    const p = `02-projects/${id}`;
    const steps: string[] = ["# Steps", "", "## Phase 1: Planning"];
    for (const t of ["Write overview", "Discovery", "Plan", "Steps"]) {
      steps.push(`- [${phase === "research" ? " " : "x"}] ${t}`);
    }
    let total = 4;
    let done = phase === "research" ? 0 : 4;
    let current = 0;
    const sections = rnd.int(2, 4);
    for (let s = 2; s <= sections + 1; s++) {
      steps.push("", `## Phase ${s}: ${rnd.pick(["Execution", "Rollout", "Hardening", "Migration"])}`);
      for (let t = 0, n = rnd.int(5, 14); t < n; t++) {
        total++;
        const checked = phase !== "research" && phase !== "planning" && current === 0 && rnd.next() < 0.6;
        if (checked) done++;
        else if (current === 0) current = total;
        steps.push(`- [${checked ? "x" : " "}] ${rnd.pick(TASK_WORDS)} ${rnd.pick(OBJECTS)}`);
      }
    }
    w(`${p}/01-planning/${legacy ? "steps.md" : "04-steps.md"}`, steps.join("\n") + "\n");
    w(
      `${p}/01-planning/01-overview.md`,
      `# ${title}: overview\n\n**Problem**: ${sentence(rnd, 3)}\n**Success**: ${sentence(rnd, 2)}\n\n${
        sentence(rnd, 6)
      }\n`,
    );
    w(
      `${p}/01-planning/02-discovery.md`,
      `# Discovery\n\n${Array.from({ length: 12 }, () => `- ${sentence(rnd, 2)}`).join("\n")}\n`,
    );
    w(
      `${p}/01-planning/03-plan.md`,
      `# Plan\n\n${Array.from({ length: 8 }, (_, i) => `${i + 1}. ${sentence(rnd, 2)}`).join("\n")}\n`,
    );
    w(`${p}/03-working/notes.md`, `# Working notes\n\n${sentence(rnd, 10)}\n`);
    w(
      `${p}/03-working/src/main.ts`,
      `// ${title}\nexport function main(): void {\n  console.log(${JSON.stringify(sentence(rnd, 2))});\n}\n`,
    );
    const manifest = legacy
      ? [
        "---",
        'resume_version: "0.9"',
        `project_id: ${id}`,
        "next_action: execute-project",
        "files_to_load:",
        "  - 01-planning/01-overview.md",
        "  - 01-planning/steps.md",
        "---",
        "",
        "# Resume",
        "",
      ]
      : [
        "---",
        "# LOADING MANIFEST",
        'resume_schema_version: "1.0"',
        `last_updated: "2026-11-${String(1 + (index % 28)).padStart(2, "0")}T16:40:00"`,
        "",
        "# PROJECT IDENTIFICATION",
        `project_id: "${id}"`,
        `project_name: "${title}"`,
        `current_phase: ${phase}  # research | planning | execution`,
        "",
        "# AUTO-LOAD INSTRUCTIONS",
        `next_action: ${phase === "research" || phase === "planning" ? "plan-project" : "execute-project"}`,
        "files_to_load:",
        "  - 01-planning/01-overview.md",
        "  - 01-planning/03-plan.md",
        "  - 01-planning/04-steps.md",
        ...(index % 3 === 0 ? ["  - 03-working/notes.md  # working notes"] : []),
        "",
        "# EXECUTION STATE (MINIMAL)",
        `current_section: 2`,
        `current_task: ${current || total}`,
        `progress: "${done}/${total} tasks complete"`,
        "---",
        "",
        "# Validation gate",
        "",
        "Before continuing, make sure you can answer:",
        "",
        "1. What problem are we solving? (01-overview.md)",
        "2. What is the next task? (04-steps.md)",
        "3. What is the approach? (03-plan.md)",
        "",
      ];
    w(`${p}/01-planning/${legacy ? "_resume.md" : "resume-context.md"}`, manifest.join("\n"));
  });

  w(`${ORCHESTRATION_DIR}/ORCHESTRATION.yaml`, orchestrationYaml(rnd));
  w(
    `${ORCHESTRATION_DIR}/ORCHESTRATION_PLAN.md`,
    "# Orchestration plan\n\n## agent-registry\n\n" +
      Array.from({ length: 8 }, (_, i) => `- agent-${i + 1}: ${sentence(rnd, 2)}`).join("\n") + "\n\n## phase-2\n\n" +
      sentence(rnd, 8) + "\n",
  );
  w(
    `${ORCHESTRATION_DIR}/WORKTRACKER.md`,
    "# Worktracker\n\n## features\n\n- FEAT-015 license migration\n\n## history\n\n" +
      Array.from({ length: 20 }, (_, i) => `- 2026-02-${String(10 + (i % 18)).padStart(2, "0")}: ${sentence(rnd, 2)}`)
        .join("\n") +
      "\n",
  );
  return files;
}

/** A long ORCHESTRATION.yaml in the shape docs/orchestration.md describes (about 20 KB). */
function orchestrationYaml(rnd: Random): string {
  const L: string[] = [
    "# ORCHESTRATION.yaml: machine-readable workflow state",
    "header:",
    "  workflow_id: feat015-licmig-20260217-001",
    "  project_id: PROJ-001-oss-release",
    "  plan_file: projects/PROJ-001-oss-release/ORCHESTRATION_PLAN.md",
    '  created_at: "2026-02-17T09:12:00Z"',
    "  criticality: C2",
    "",
    "phases:",
  ];
  const phaseNames = [
    "Dependency Audit",
    "Core License Changes",
    "Header Templates",
    "Source Headers",
    "Docs and Notices",
    "Release Verification",
  ];
  phaseNames.forEach((name, i) => {
    const status = i === 0 ? "COMPLETE" : i === 1 ? "IN_PROGRESS" : "PENDING";
    L.push(`  - id: ${i + 1}`, `    name: ${name}`, `    status: ${status}`, "    agents:");
    for (let a = 0; a < 3; a++) L.push(`      - ${name.toLowerCase().replaceAll(" ", "-")}-agent-${a + 1}`);
    L.push("    deliverables:");
    for (let d = 0; d < 4; d++) L.push(`      - res/phase-${i + 1}/deliverable-${d + 1}.md`);
    if (i > 1) L.push(`    depends_on: [${i}]`);
  });
  L.push("", "quality_gates:", "  threshold: 0.92            # H-13", "  max_iterations: 3          # H-14");
  for (let g = 1; g <= 5; g++) {
    const status = g === 1 ? "PASS" : g === 2 ? "IN_PROGRESS" : "PENDING";
    L.push(`  qg-${g}:`, `    status: ${status}`, "    strategies: [S-014, S-007, S-002]");
    if (g <= 2) {
      L.push("    iterations:");
      for (let it = 1; it <= 2; it++) {
        L.push(
          `      - iteration: ${it}`,
          `        score: 0.9${it}`,
          `        verdict: ${it === 2 ? "PASS" : "REVISE"}`,
          "        dimensions:",
          `          completeness: 0.9${rnd.int(0, 9)}`,
          `          evidence_quality: 0.8${rnd.int(0, 9)}`,
          `          consistency: 0.9${rnd.int(0, 9)}`,
        );
      }
      L.push("    findings:");
      for (let f = 1; f <= 4; f++) {
        L.push(
          `      - id: DA-00${f}`,
          `        severity: ${rnd.pick(["major", "minor"])}`,
          `        summary: '${sentence(rnd, 2)}'`,
        );
      }
    } else {
      L.push("    score_history: []");
    }
  }
  L.push(
    "",
    "resumption:",
    '  updated_at: "2026-02-19T14:05:31Z"',
    "  current_phase: 2",
    "  current_phase_name: Core License Changes",
    "  workflow_status: ACTIVE",
    "  current_activity: qg-2-iteration-1",
    "  last_checkpoint: CP-001",
    "  context_fill_at_update: 88.6",
    "  compaction_events:",
    "    count: 1",
    "    events:",
    "      - id: cx-001",
    '        at: "2026-02-19T14:02:10Z"',
    "        trigger: auto",
    "        estimated_fill_before_compaction: 0.886",
    "  next_step: >",
    "    Continue QG-2 iteration 1. Re-read the 3 Phase 2 deliverables and re-score",
    "    with S-014, S-007, S-002.",
    "",
    "    Apply the DA-001 revision first.",
    "  quality_trajectory:",
    "    gates_completed: [qg-1]",
    "    gates_remaining: [qg-2, qg-3, qg-4, qg-5, qg-final]",
    "    current_gate: qg-2",
    "    current_gate_iteration: 1",
    "    score_history:",
    "      qg-1: [0.91, 0.93]",
    "      qg-2: [0.960]",
    "    lowest_dimension: evidence_quality",
    "  decisions:",
  );
  for (let d = 1; d <= 5; d++) {
    L.push(
      `    - id: RD-00${d}`,
      "      gate: qg-2",
      "      iteration: 1",
      `      applied: ${d > 2 ? "true" : "false"}`,
      "      decision: |",
      `        ${sentence(rnd, 3)}`,
      `        ${sentence(rnd, 2)}`,
      `      affects: [phase-${rnd.int(3, 6)}]`,
    );
  }
  L.push("  agent_summaries:");
  for (let a = 1; a <= 8; a++) {
    L.push(`    agent-${a}: "${rnd.pick(["PASS", "DONE", "IN PROGRESS"])}. ${sentence(rnd, 2)}"`);
  }
  L.push(
    "  defect_summary:",
    "    recurring_patterns:",
    '      - "Evidence quality gaps: missing source URLs (qg-1, qg-2)"',
    "      - 'Cross-artifact consistency: counts and names mismatched (qg-1)'",
    "  files_to_read:",
    "    - path: projects/PROJ-001-oss-release/ORCHESTRATION.yaml",
    "      priority: 1",
    "      sections: [resumption, quality_gates.qg-2, next_actions]",
    "      purpose: >-",
    "        Machine-readable workflow state. Read the resumption section first",
    "        for the full recovery context.",
    "    - path: projects/PROJ-001-oss-release/ORCHESTRATION_PLAN.md",
    "      priority: 2",
    "      sections:",
    "        - agent-registry",
    "        - phase-2",
    "      purpose: Strategic context.",
    "    - path: projects/PROJ-001-oss-release/WORKTRACKER.md",
    "      priority: 3",
    "      sections: [features, history]",
    "      purpose: Tactical documentation.",
    "",
    "next_actions:",
    "  - Apply DA-001 revision",
    "  - Re-score QG-2 with S-014, S-007, S-002",
    "",
  );
  return L.join("\n");
}
