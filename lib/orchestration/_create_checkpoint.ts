import { closeSync, fsyncSync, linkSync, openSync, unlinkSync, writeSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { checkpointName, highestCheckpointNumber } from "./checkpoints.ts";

/** Link errors that mean the file system has no hard links; then the final name is created with O_EXCL. */
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV", "EMLINK"]);
let counter = 0;

/**
 * Creates the next `cx-NNN-checkpoint.json` in `dir` with the content `render(number)` returns,
 * atomically and without ever colliding with another process doing the same: the content goes
 * to a private temporary file (fsynced), which is then hard-linked to the final name. `link`
 * fails with EEXIST when the name is taken, in which case the next number is tried with content
 * rendered for it. Readers never see a partial file, and two writers never share a number.
 * Where hard links are not supported the final name is opened with `wx` (exclusive, still
 * collision-free). Returns the number used. Throws when the directory cannot be written.
 */
export function createCheckpointFile(dir: string, render: (n: number) => string): { number: number; path: string } {
  const tmp = join(dir, `.cx-${process.pid}.${Date.now().toString(36)}.${(counter++).toString(36)}.tmp`);
  let n = highestCheckpointNumber(dir) + 1;
  try {
    for (let attempt = 0; attempt < 1000; attempt++, n++) {
      const final = join(dir, checkpointName(n));
      writeWhole(tmp, render(n), "w");
      try {
        linkSync(tmp, final);
        return { number: n, path: final };
      } catch (err) {
        const code = (err as { code?: string }).code ?? "";
        if (code === "EEXIST") continue;
        if (!NO_LINKS.has(code)) throw err;
      }
      try {
        writeWhole(final, render(n), "wx");
        return { number: n, path: final };
      } catch (err) {
        if ((err as { code?: string }).code !== "EEXIST") throw err;
      }
    }
    throw new Error(`Cannot create a checkpoint in ${dir}: no free number`);
  } finally {
    try {
      unlinkSync(tmp);
    } catch { /* never created */ }
  }
}

function writeWhole(path: string, text: string, flags: "w" | "wx"): void {
  const bytes = new TextEncoder().encode(text);
  const fd = openSync(path, flags, 0o600);
  try {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
