// Issue #36, N2: file names are redacted from their raw text, before normalising collapses `//`
// (which turned `https://user:pw@host` into `https:/user:pw@host`, a URL no rule knew), and again
// once shown. Every one-line secret of the corpus in a file name, and the forms the second red-team
// round named, must be gone from the name the snapshot keeps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { safeFilePath } from "../../../lib/session/_paths.ts";

const CORPUS = join(import.meta.dirname!, "..", "..", "fixtures", "redaction", "secrets.txt");
const PROJECT = "/home/me/app";

const NAMED: readonly { name: string; secret: string }[] = [
  { name: "notes/https://deploy:Pw9xQz7LmK2@git.example.test/x.md", secret: "Pw9xQz7LmK2" },
  { name: "logs/run --api-key Zx9Qw8Er7Ty6Ui5.txt", secret: "Zx9Qw8Er7Ty6Ui5" },
  { name: "config/SECRET_KEY_BASE=a8f3k2j5h6g7f8d9s0a1q2w3e4r5t6y7.env", secret: "a8f3k2j5h6g7f8d9s0a1q2w3e4r5t6y7" },
  { name: "ci/CI_JOB_TOKEN=aBcDeFgHiJkLmNoPqRsT12/job.log", secret: "aBcDeFgHiJkLmNoPqRsT12" },
  {
    name: "aws/AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJH.txt",
    secret: "IQoJb3JpZ2luX2VjEJr",
  },
];

test("safeFilePath() removes a URL's password, --api-key and secret-named values from a file name", () => {
  for (const { name, secret } of NAMED) {
    for (const path of [name, `${PROJECT}/${name}`, `${PROJECT}//${name}`]) {
      const shown = safeFilePath(path, PROJECT, PROJECT);
      assert.ok(shown !== undefined, path);
      assert.ok(!shown.includes(secret), `${JSON.stringify(path)} shown as ${JSON.stringify(shown)}`);
      assert.match(shown, /\[REDACTED:[a-z-]+\]/);
    }
  }
});

test("safeFilePath() removes every one-line secret of the corpus from a file name", () => {
  let checked = 0;
  for (const line of readFileSync(CORPUS, "utf8").split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const [, secret, context] = line.split("\t");
    if (secret.includes("\\n")) continue;
    const text = (context ?? "{secret}").replace("{secret}", () => secret);
    if (text.includes("\\n")) continue;
    const shown = safeFilePath(`${PROJECT}/out/${text}.log`, PROJECT, PROJECT);
    if (shown === undefined) continue;
    checked++;
    assert.ok(!shown.includes(secret), `${JSON.stringify(text)} shown as ${JSON.stringify(shown)}`);
  }
  assert.ok(checked > 60, `only ${checked} file names checked`);
});

test("safeFilePath() still shows a plain file relative to the project", () => {
  assert.equal(safeFilePath(`${PROJECT}//src/./a.ts`, PROJECT, PROJECT), "src/a.ts");
  assert.equal(safeFilePath("src/../lib/b.ts", PROJECT, PROJECT), "lib/b.ts");
});
