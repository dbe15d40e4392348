import { test } from "node:test";
import assert from "node:assert/strict";
import { formatTotal } from "../src/format.js";

test("formatTotal adds the prices", () => {
  assert.equal(formatTotal([1, 2]), "€3");
});
