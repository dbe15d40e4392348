// A fake GitHub release for install.sh and the plugin launcher, served over HTTPS on 127.0.0.1
// with a throw-away self-signed certificate. The scripts under test are the production ones: they
// accept https:// only, and curl trusts the test certificate through its own CURL_CA_BUNDLE
// variable, so no test-only switch exists in the scripts. Pinned copies are made with the release
// tooling itself (scripts/pin-release.ts).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pinScript } from "../../scripts/pin-release.ts";
import { ROOT } from "./_bin.ts";

export const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
export const TARGETS = [
  "linux-x64",
  "linux-arm64",
  "linux-x64-musl",
  "linux-arm64-musl",
  "darwin-x64",
  "darwin-arm64",
  "windows-x64",
];
export const WINDOWS = process.platform === "win32";
// Resolved once, so a test may run a script with a PATH that lacks sh.
export const SH = WINDOWS
  ? "sh"
  : spawnSync("sh", ["-c", "command -v sh"], { encoding: "utf8" }).stdout.trim() || "/bin/sh";

export function has(tool: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).status === 0;
}

/** Why the HTTPS tests cannot run here, or false. */
export const SKIP_HTTPS: string | false = WINDOWS
  ? "install.sh is a POSIX sh script; Windows users take the .exe from the release"
  : !has("openssl")
  ? "openssl is not installed (it makes the test certificate)"
  : !has("curl")
  ? "curl is not installed"
  : false;

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export function fakeBinary(target: string): string {
  return `#!/bin/sh\necho "fake rehydrate for ${target} $*"\n`;
}

export function fileName(version: string, target: string): string {
  return `rehydrate-${version}-${target}${target.startsWith("windows") ? ".exe" : ""}`;
}

/** Writes every target's fake binary and their SHA256SUMS into `dir`; returns the SHA256SUMS lines. */
export function writeRelease(dir: string, version: string): string[] {
  mkdirSync(dir, { recursive: true });
  const sums = TARGETS.map((t) => {
    writeFileSync(join(dir, fileName(version, t)), fakeBinary(t));
    return `${sha256(fakeBinary(t))}  ${fileName(version, t)}`;
  });
  writeFileSync(join(dir, "SHA256SUMS"), sums.join("\n") + "\n");
  return sums;
}

/**
 * Copies install.sh and plugin/rehydrate-launcher from `from` (the tree under test) into `to`,
 * pinned to `sums` the way a release pins them. A script without a pinned block (an old one) is
 * copied as it is: it has nothing to pin, which is what the regression tests show.
 */
export function pinnedCopy(from: string, to: string, sums: string[], version = VERSION): void {
  mkdirSync(join(to, "plugin"), { recursive: true });
  for (const file of ["install.sh", join("plugin", "rehydrate-launcher")]) {
    const text = readFileSync(join(from, file), "utf8");
    let out = text;
    try {
      out = pinScript(text, { repo: "example-owner/rehydrate", version, sums });
    } catch {
      // an old script: no pinned block
    }
    writeFileSync(join(to, file), out, { mode: 0o755 });
  }
}

interface Cert {
  key: string;
  cert: string;
  caFile: string;
}

let cert: Cert | null = null;

/** A self-signed certificate for 127.0.0.1, made once per test file. */
export function testCert(): Cert {
  if (cert) return cert;
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-tls-"));
  const r = spawnSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    join(dir, "key.pem"),
    "-out",
    join(dir, "cert.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
  ], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  cert = {
    key: readFileSync(join(dir, "key.pem"), "utf8"),
    cert: readFileSync(join(dir, "cert.pem"), "utf8"),
    caFile: join(dir, "cert.pem"),
  };
  return cert;
}

export interface Served {
  url: string;
  requests: string[];
  /** path → absolute URL: answered with a 302 to it instead of the file. */
  redirects: Map<string, string>;
  close(): Promise<void>;
}

function handler(dir: string, requests: string[], redirects: Map<string, string>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push(path);
    const to = redirects.get(path);
    if (to) {
      res.writeHead(302, { location: to });
      res.end();
      return;
    }
    const file = join(dir, basename(decodeURIComponent(path)));
    if (path.startsWith("/release/") && existsSync(file)) {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(readFileSync(file));
    } else {
      res.writeHead(404);
      res.end("not found");
    }
  };
}

/** Serves the files of `dir` (flat) under /release/ on 127.0.0.1, over HTTPS or plain HTTP. */
export async function serve(dir: string, tls = true): Promise<Served> {
  const requests: string[] = [];
  const redirects = new Map<string, string>();
  const server = tls
    ? createHttpsServer({ key: testCert().key, cert: testCert().cert }, handler(dir, requests, redirects))
    : createHttpServer(handler(dir, requests, redirects));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? "https" : "http"}://127.0.0.1:${port}/release`,
    requests,
    redirects,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script with `sh` without blocking the event loop (the server lives in this process). */
export function sh(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
  stdin = "",
  cwd?: string,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(SH, [script, ...args], {
      env: env as NodeJS.ProcessEnv,
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
    child.stdin.on("error", () => {}); // a script may exit without reading its input
    child.stdin.end(stdin);
  });
}

/** The caller's environment without REHYDRATE_*, CLAUDE_*, BUN_* or curl settings, plus `extra`. */
export function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(REHYDRATE_|CLAUDE_|BUN_|CURL_)/.test(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

/** cleanEnv() plus the test certificate for curl. */
export function tlsEnv(extra: Record<string, string>): Record<string, string | undefined> {
  return cleanEnv({ CURL_CA_BUNDLE: testCert().caFile, ...extra });
}

export function waitFor(check: () => boolean, what = "the background download"): Promise<void> {
  return new Promise((resolve, reject) => {
    let tries = 0;
    const tick = () => {
      if (check()) return resolve();
      if (++tries > 400) return reject(new Error(`gave up waiting for ${what}`));
      setTimeout(tick, 50);
    };
    tick();
  });
}

/** A temporary directory for `fn`, removed afterwards. */
export async function withTmp(fn: (tmp: string) => Promise<void> | void): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-supply-"));
  try {
    await fn(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
