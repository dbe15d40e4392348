import { test } from "node:test";
import assert from "node:assert/strict";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFd } from "../../../lib/node/write_fd.ts";

test("writeFd writes the whole text as UTF-8 and says so", () => {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-write-fd-"));
  try {
    const path = join(dir, "out.txt");
    const fd = openSync(path, "w");
    const text = "héllo — ✓\n".repeat(20_000); // about 300 KB, several writes on some systems
    try {
      assert.equal(writeFd(fd, text), true);
      assert.equal(writeFd(fd, ""), true);
    } finally {
      closeSync(fd);
    }
    assert.equal(readFileSync(path, "utf8"), text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("writeFd returns false instead of throwing when the descriptor cannot be written", () => {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-write-fd-"));
  try {
    const path = join(dir, "in.txt");
    const fd = openSync(path, "w");
    closeSync(fd);
    const readOnly = openSync(path, "r");
    try {
      assert.equal(writeFd(readOnly, "x"), false);
    } finally {
      closeSync(readOnly);
    }
    assert.equal(readFileSync(path, "utf8"), "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
