import { test } from "node:test";
import assert from "node:assert/strict";
import { cutMiddle } from "../../../lib/redact/cut_middle.ts";

test("cutMiddle() keeps the head and the tail within the cap, and short text whole", () => {
  assert.equal(cutMiddle("0123456789abcdefghij", 12), "0123 […] hij");
  assert.equal(cutMiddle("short", 12), "short");
  for (let max = 8; max < 60; max++) assert.ok(cutMiddle("x".repeat(100), max).length <= max, String(max));
});

test("cutMiddle() never splits a surrogate pair", () => {
  const text = "😀".repeat(50);
  for (let max = 8; max < 40; max++) {
    const cut = cutMiddle(text, max);
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(cut), cut);
  }
});

test("cutMiddle() redacts a secret at either end of a long text when asked", () => {
  const key = "ghp_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789".slice(0, 36);
  const text = `token ${key} ` + "y".repeat(50_000) + ` and again ${key}`;
  const cut = cutMiddle(text, 200, { redact: true });
  assert.ok(!cut.includes(key), cut);
  assert.ok(cut.length <= 200);
  assert.match(cut, /^token \[REDACTED/);
});
