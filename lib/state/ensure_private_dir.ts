import { chmodSync, lstatSync, mkdirSync } from "../node/fs.ts";

/**
 * Makes sure `path` is a directory only the current user can use: creates it
 * (and missing parents) with mode 0700, refuses a symlink, a non-directory or
 * a directory owned by someone else, and tightens the mode of our own
 * directory when group or others have access. Throws an `Error` whose message
 * says why; hooks catch it and fail open.
 *
 * Ownership and modes are POSIX notions: on Windows only the symlink and
 * directory checks apply (the per-user profile directory carries the ACLs).
 *
 * @example
 * ```ts
 * ensurePrivateDir("/home/a/.local/state/rehydrate");
 * ```
 */
export function ensurePrivateDir(path: string): void {
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as { code?: string }).code !== "ENOENT") throw err;
    mkdirSync(path, { recursive: true, mode: 0o700 });
    st = lstatSync(path);
  }
  if (st.isSymbolicLink()) throw new Error(`Refusing state directory ${path}: it is a symbolic link`);
  if (!st.isDirectory()) throw new Error(`Refusing state directory ${path}: not a directory`);
  if (process.platform === "win32") return;
  const uid = typeof process.getuid === "function" ? process.getuid() : -1;
  if (uid >= 0 && st.uid !== uid) {
    throw new Error(`Refusing state directory ${path}: owned by uid ${st.uid}, not ${uid}`);
  }
  if ((st.mode & 0o077) !== 0) chmodSync(path, 0o700);
}
