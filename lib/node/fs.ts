// The node:fs functions the hooks use, re-exported by name so that a bundled hook calls Bun's
// require("fs") once instead of once per module: about fifty calls made JavaScriptCore compile
// Bun's require during every prompt (bench/README.md, "What a hook pays for beyond the floor").
// Named re-exports only: `export *` would copy every node:fs property through getters at start.
// Import from here in lib/ and hooks/ (tests/unit/sources.test.ts checks it).
export {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
export type { Dirent, Stats } from "node:fs";
