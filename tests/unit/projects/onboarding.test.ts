import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { pendingOnboarding } from "../../../lib/projects/_onboarding.ts";
import type { SkillInfo } from "../../../lib/projects/scan_skills.ts";

const skill = (name: string, description: string): SkillInfo => ({
  name,
  description,
  path: `00-system/skills/learning/${name}/SKILL.md`,
  root: "00-system/skills",
  category: "learning",
});
const LEARNING = [
  skill("learn-nexus", "Master Nexus. 15-18 min."),
  skill("learn-projects", "How projects work. 8-10 min."),
  skill("learn-extra", "No time given"),
  skill("learn-skills", "A 12-minute tour"),
];

describe("pendingOnboarding()", () => {
  test("without user-config.yaml every learning skill is pending, in the design's order, with its time", () => {
    assert.deepEqual(pendingOnboarding(LEARNING, null).map((p) => [p.name, p.time]), [
      ["learn-projects", "8-10 min"],
      ["learn-skills", "12 min"],
      ["learn-nexus", "15-18 min"],
      ["learn-extra", null],
    ]);
  });

  test("learning_tracker.completed marks skills done (underscored or as named); false or other values do not", () => {
    const config =
      "learning_tracker:\n  completed:\n    learn_projects: true\n    learn-skills: true\n    learn_nexus: false\n    learn_extra: yes-ish\n";
    assert.deepEqual(pendingOnboarding(LEARNING, config).map((p) => p.name), ["learn-nexus", "learn-extra"]);
  });

  test("a user-config.yaml that does not parse, or has no tracker, marks nothing complete", () => {
    assert.equal(pendingOnboarding(LEARNING, "learning_tracker: [unclosed\n").length, 4);
    assert.equal(pendingOnboarding(LEARNING, "name: someone\n").length, 4);
    assert.deepEqual(pendingOnboarding([], null), []);
  });
});
