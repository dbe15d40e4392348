import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { VERSION } from "../../../lib/hook/version.ts";

const ROOT = join(import.meta.dirname!, "..", "..", "..");

test("lib/hook/version.ts says the version package.json says", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  assert.equal(VERSION, pkg.version);
});
