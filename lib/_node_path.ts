// The node:path functions the hooks use, re-exported by name so that a bundled hook calls Bun's
// require("path") once instead of once per module (see lib/_node_fs.ts for why that matters).
export { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
