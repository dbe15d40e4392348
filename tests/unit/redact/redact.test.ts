import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { redact } from "../../../lib/redact/redact.ts";
import type { RedactionKind } from "../../../lib/redact/redact.ts";
import { redactValue } from "../../../lib/redact/redact_value.ts";
import { ANY_HINT, redactRules } from "../../../lib/redact/_rules.ts";
import { vendorTokens } from "../../../lib/redact/_vendor_tokens.ts";

const REDACT_RULES = redactRules();
import { mulberry32 } from "../_rng.ts";

const FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures", "redaction");

/** Fixture lines without comments and blanks; `\n` stands for a newline. */
function fixtureLines(name: string): string[][] {
  return readFileSync(join(FIXTURES, name), "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.split("\t").map((field) => field.replaceAll("\\n", "\n")));
}

const DEFAULT_CONTEXTS = [
  "UPLOAD_TARGET={secret}",
  'curl -sS -H "X-Api-Key: {secret}" https://api.example.test/v1/upload',
  '{"value": "{secret}", "attempt": 1}',
  "2026-01-05T10:00:00Z INFO upload started with {secret} (retry 1)",
];

const REDACTED = /\[REDACTED:([a-z-]+)\]/g;

describe("redact() on the secrets corpus", () => {
  const secrets = fixtureLines("secrets.txt");

  test("the secrets corpus has at least 30 synthetic secrets covering every kind", () => {
    assert.ok(secrets.length >= 30, `${secrets.length} secrets`);
    const kinds = new Set(secrets.map(([kind]) => kind));
    const expected: RedactionKind[] = [
      "private-key",
      "anthropic-key",
      "openai-key",
      "google-api-key",
      "google-oauth-secret",
      "github-token",
      "slack-token",
      "slack-webhook",
      "stripe-key",
      "npm-token",
      "aws-access-key-id",
      "aws-secret-key",
      "jwt",
      "url-password",
      "bearer-token",
      "basic-auth",
      "password",
      "secret",
      "gitlab-token",
      "huggingface-token",
      "digitalocean-token",
      "sendgrid-key",
      "google-oauth-token",
      "azure-storage-key",
      "azure-sas",
      ...vendorTokens().map((t) => t.kind as RedactionKind),
    ];
    assert.deepEqual([...kinds].sort(), [...expected].sort());
  });

  for (const [kind, secret, context] of secrets) {
    test(`redact() removes a ${kind} secret (${secret.slice(0, 12)}…) and labels it ${kind}`, () => {
      for (const template of context ? [context] : DEFAULT_CONTEXTS) {
        const input = template.replace("{secret}", () => secret);
        const out = redact(input);
        assert.ok(!out.includes(secret), `secret still present in ${JSON.stringify(out)}`);
        // Long secrets must not survive in part either (a private key's body lines, a token's tail).
        for (const line of secret.split("\n")) {
          if (line.length >= 12 && !line.startsWith("-----")) {
            assert.ok(!out.includes(line), `line of secret left: ${line}`);
          }
        }
        assert.equal(out, template.replace("{secret}", `[REDACTED:${kind}]`));
      }
    });
  }

  test("redact() reports each redaction's kind to onRedact", () => {
    const kinds: RedactionKind[] = [];
    const text = secrets.map(([, secret, context]) => (context ?? "{secret}").replace("{secret}", () => secret)).join(
      "\n",
    );
    const out = redact(text, { onRedact: (kind) => kinds.push(kind) });
    assert.deepEqual(kinds.sort(), secrets.map(([kind]) => kind).sort());
    assert.deepEqual([...out.matchAll(REDACTED)].map((m) => m[1]).sort(), secrets.map(([kind]) => kind).sort());
    let again = 0;
    assert.equal(redact(out, { onRedact: () => again++ }), out, "redacting twice changes nothing");
    assert.equal(again, 0);
  });
});

describe("redact() on look-alikes", () => {
  const lookalikes = fixtureLines("lookalikes.txt").map(([line]) => line);

  test("the look-alike corpus has at least 30 entries", () => {
    assert.ok(lookalikes.length >= 30, `${lookalikes.length} look-alikes`);
  });

  for (const text of lookalikes) {
    test(`redact() leaves ${JSON.stringify(text.slice(0, 60))} unchanged`, () => {
      let called = 0;
      assert.equal(redact(text, { onRedact: () => called++ }), text);
      assert.equal(called, 0);
    });
  }
});

describe("redact() details", () => {
  test("redact() keeps the user, host and path of a URL and removes only its password", () => {
    assert.equal(
      redact("mongodb+srv://admin:p%40ss@cluster0.example.test/db?retryWrites=true"),
      "mongodb+srv://admin:[REDACTED:url-password]@cluster0.example.test/db?retryWrites=true",
    );
    assert.equal(redact("amqp://guest:gu@st@rabbit:5672/"), "amqp://guest:[REDACTED:url-password]@rabbit:5672/");
  });

  test("redact() removes a private key written with JSON-escaped newlines in a service account file", () => {
    const body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
    const json =
      `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n${body}\\n-----END PRIVATE KEY-----\\n", "client_email": "x@y.iam.gserviceaccount.com"}`;
    assert.equal(
      redact(json),
      '{"type": "service_account", "private_key": "[REDACTED:private-key]\\n", "client_email": "x@y.iam.gserviceaccount.com"}',
    );
  });

  test("redact() removes the body of a private key block that has no END line", () => {
    const text =
      "key follows\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAABAAAAMwAAAAtzc2gtZW\n";
    assert.equal(redact(text), "key follows\n[REDACTED:private-key]");
  });

  test("redact() labels Authorization schemes by kind and keeps the scheme name", () => {
    assert.equal(redact("Authorization: Bearer abcdefgh12345678"), "Authorization: Bearer [REDACTED:bearer-token]");
    assert.equal(redact("authorization: Basic ZGVwbG95Omh1bnRlcjI="), "authorization: Basic [REDACTED:basic-auth]");
    assert.equal(redact('{"Authorization": "token 0123456789abcdef"}'), '{"Authorization": "token [REDACTED:secret]"}');
  });

  test("redact() redacts secret-named keys in env, YAML, JSON, Python and query-string forms", () => {
    assert.equal(redact("export DB_PASSWORD='p@ss word'"), "export DB_PASSWORD='[REDACTED:password]'");
    assert.equal(redact("apiKey: abc123def"), "apiKey: [REDACTED:secret]");
    assert.equal(redact('{"client_secret":"s3cr3t"}'), '{"client_secret":"[REDACTED:secret]"}');
    assert.equal(redact("SLACK_BOT_TOKEN := abcdef"), "SLACK_BOT_TOKEN := [REDACTED:secret]");
    assert.equal(redact("{'passwd' => 'x1'}"), "{'passwd' => '[REDACTED:password]'}");
    assert.equal(redact("/cb?code=1&refresh_token=abc&state=2"), "/cb?code=1&refresh_token=[REDACTED:secret]&state=2");
    assert.equal(redact('"password": "she said \\"hi\\""'), '"password": "[REDACTED:password]"');
  });

  test("redact() handles several secrets of different kinds on one line", () => {
    const line = "ANTHROPIC_API_KEY=sk-ant-api03-" + "a1B2".repeat(10) + " AWS=AKIAIOSFODNN7EXAMPLE password=hunter2";
    assert.equal(
      redact(line),
      "ANTHROPIC_API_KEY=[REDACTED:anthropic-key] AWS=[REDACTED:aws-access-key-id] password=[REDACTED:password]",
    );
  });

  test("redact() returns text without secrets unchanged", () => {
    const text = "Refactored the parser; all 42 tests pass.\n".repeat(100);
    assert.equal(redact(text), text);
    assert.equal(redact(""), "");
  });

  test("redact() finishes on 5 MB adversarial inputs", () => {
    const N = 5_000_000;
    const fill = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);
    const inputs = [
      fill("a"),
      fill("password_token_secret_key_"),
      fill("password="),
      fill("a:"),
      fill('"password": "'),
      fill("token='"),
      fill("-----BEGIN RSA PRIVATE KEY-----\n"),
      fill("-----BEGIN PRIVATE KEY-----\nMII\n-----END"),
      fill("a://"),
      fill("x://u:"),
      "x://u:" + fill("p"),
      fill("a-"),
      fill("sk-"),
      "sk-" + fill("a"),
      fill("eyJ"),
      "eyJ" + fill("aaaaaaaaa."),
      fill("Bearer "),
      fill("Authorization: "),
      fill("AKIA"),
      fill("aws_secret_access_key="),
      fill("xoxb-"),
      fill("ghp_"),
      fill("token: x&password=${a} Bearer 1a AKIA eyJ.eyJ. sk-ant- ://u:p@ -----BEGIN "),
      // Issue #36's rules: a PuTTY header without its MAC line, `<command-args>`-like openings.
      fill("PuTTY-User-Key-File-3: "),
      fill("token a1b2c3d4e5f6g7h8 "),
      fill(" -p Xk9mQ2vLp7 "),
      fill("echo x | "),
      fill("sig="),
    ];
    for (const input of inputs) assert.equal(typeof redact(input), "string");
    // One unterminated block swallows the rest: everything after the first BEGIN is key material.
    assert.equal(redact(fill("-----BEGIN RSA PRIVATE KEY-----\n")), "[REDACTED:private-key]");
  });
});

describe("redact() on PuTTY key files", () => {
  test("redact() replaces a PuTTY key file whole, and one cut before its MAC up to its last body line", () => {
    const key = "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: imported\nPublic-Lines: 1\n" +
      "AAAAB3NzaC1yc2EAAAADAQABAAABAQC7\nPrivate-Lines: 1\nAAABAQCx9fYq2kP0\n";
    assert.equal(redact(`before\n${key}Private-MAC: 0a1b2c3d\nafter`), "before\n[REDACTED:private-key]\nafter");
    assert.equal(redact(`before\n${key}`), "before\n[REDACTED:private-key]");
    assert.equal(
      redact(`${key}Private-Hash: ff00\n${key}Private-MAC: 11\n`),
      "[REDACTED:private-key]\n[REDACTED:private-key]\n",
    );
  });
});

describe("redact()'s one-regex prefilter", () => {
  // The rule loop without the prefilter: what redact() did before ANY_HINT, the oracle here.
  const reference = (text: string): string => {
    let out = text;
    for (const rule of REDACT_RULES) if (rule.hint(out)) out = rule.apply(out, () => {});
    return out;
  };
  const texts = (): string[] => {
    const out: string[] = [];
    for (const name of ["secrets.txt", "lookalikes.txt"]) {
      for (const fields of fixtureLines(name)) for (const f of fields) out.push(f);
    }
    // Random text built from fragments of every hint, in random case, with noise between.
    const rng = mulberry32(20261121);
    const parts = [
      "PRIVATE KEY",
      "sk-ant-",
      "sk-",
      "hooks.slack.com",
      "://",
      "rk_live_",
      "sk_test_",
      "whsec_",
      "npm_",
      "AIza",
      "GOCSPX-",
      "ghp_",
      "github_pat_",
      "xoxb-",
      "xapp-",
      "AKIA",
      "ASIA",
      "secret_access_key",
      "aws_secret",
      "eyJ",
      "Authorization",
      "Bearer ",
      "password",
      "pwd",
      "token",
      "auth",
      "credential",
      "key",
      "cookie",
      "session",
      "signature",
      "dsn",
      "=",
      ": ",
      "x",
      "9",
      " ",
      "/",
      "glpat-",
      "hf_",
      "dop_v1_",
      "SG.",
      "ya29.",
      "AccountKey=",
      "curl -u ",
      "mysql -p",
      "--password ",
      "_authToken ",
      "-",
      // Issue #36's formats: each vendor's hint, the contexts of the generic rules.
      ...vendorTokens().map((t) => (typeof t.hint === "string" ? t.hint : t.hint.source.replace(/[\\()?:|]/g, ""))),
      "sig=",
      "PuTTY-User-Key-File-2: ",
      "Private-MAC: ",
      "docker login -p ",
      "sshpass -p ",
      " -p ",
      "echo x | docker login --password-stdin",
      "token ",
      "Token: ",
      "AA",
      "8Q~",
    ];
    const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@ ";
    for (let i = 0; i < 3000; i++) {
      let t = "";
      const n = 1 + Math.floor(rng() * 6);
      for (let k = 0; k < n; k++) {
        let p = parts[Math.floor(rng() * parts.length)];
        if (rng() < 0.3) p = p.toLowerCase();
        // deno-lint-ignore no-dupe-else-if -- a second draw of the generator, not the same condition
        else if (rng() < 0.3) p = p.toUpperCase();
        t += p;
        for (let c = Math.floor(rng() * 25); c > 0; c--) t += chars[Math.floor(rng() * chars.length)];
      }
      out.push(t);
    }
    return out;
  };

  test("every rule's hint implies ANY_HINT, so the prefilter never skips a text a rule would look at", () => {
    let hinted = 0;
    for (const t of texts()) {
      for (const rule of REDACT_RULES) {
        if (rule.hint(t)) {
          hinted++;
          assert.ok(ANY_HINT.test(t), `rule ${rule.kind} hints at ${JSON.stringify(t)} but ANY_HINT does not match`);
        }
      }
    }
    assert.ok(hinted > 1000, `only ${hinted} hinted texts: the generator no longer exercises the rules`);
  });

  test("redact() gives what the rule loop without the prefilter gives, and is idempotent (callers skip re-redacting what they wrote)", () => {
    let changed = 0;
    for (const t of texts()) {
      const want = reference(t);
      if (want !== t) changed++;
      assert.equal(redact(t), want, JSON.stringify(t));
      assert.equal(redact(want), want, `not idempotent on ${JSON.stringify(t)}`);
    }
    assert.ok(changed > 50, `only ${changed} texts redacted: the comparison would pass whatever redact() does`);
  });

  test("a rule whose hint says no changes nothing: each hint is implied by its expression", () => {
    let skipped = 0;
    for (const t of [...texts(), "src/auth/key_store.ts", "--token\tx9y8z7w6", 'api_key="s3cr3t-Value"']) {
      for (const rule of REDACT_RULES) {
        if (rule.hint(t)) continue;
        skipped++;
        assert.equal(rule.apply(t, () => {}), t, `rule ${rule.kind} would change ${JSON.stringify(t)} its hint skips`);
      }
    }
    assert.ok(skipped > 10_000, `only ${skipped} skips compared`);
  });

  test("the prefilter can fail: a hint ANY_HINT missed would be caught", () => {
    assert.equal(ANY_HINT.test("plain words, numbers 42 and a/path/file.ts"), false);
    assert.equal(ANY_HINT.test("GOCSPX-abc"), true);
  });
});

describe("redactValue()", () => {
  test("redactValue() redacts strings under secret-named keys and every string by format in nested values", () => {
    const input = {
      user: "ann",
      db: { host: "db.internal", password: "hunter2", port: 5432, passwordless: false },
      services: [
        { name: "gh", apiKey: "abc123", token_budget: "9500" },
        { name: "slack", url: "https://hooks.slack.com/services/T0000000/B0000000/XXXXXXXXXXXXXXXXXXXXXXXX" },
      ],
      env: { GITHUB_TOKEN: "ghp_" + "A1b2".repeat(9), NODE_ENV: "production", API_KEY: "${API_KEY}", SECRET: "" },
      notes: ["deploy with AKIAIOSFODNN7EXAMPLE", 3, null, true],
      headers: { Authorization: "Bearer abcdefgh12345678" },
    };
    const snapshot = structuredClone(input);
    const kinds: RedactionKind[] = [];
    const out = redactValue(input, { onRedact: (kind) => kinds.push(kind) });
    assert.deepEqual(out, {
      user: "ann",
      db: { host: "db.internal", password: "[REDACTED:password]", port: 5432, passwordless: false },
      services: [
        { name: "gh", apiKey: "[REDACTED:secret]", token_budget: "9500" },
        { name: "slack", url: "[REDACTED:slack-webhook]" },
      ],
      env: { GITHUB_TOKEN: "[REDACTED:github-token]", NODE_ENV: "production", API_KEY: "${API_KEY}", SECRET: "" },
      notes: ["deploy with [REDACTED:aws-access-key-id]", 3, null, true],
      headers: { Authorization: "Bearer [REDACTED:bearer-token]" },
    });
    assert.deepEqual(input, snapshot, "the input is not modified");
    assert.deepEqual(kinds.sort(), [
      "aws-access-key-id",
      "bearer-token",
      "github-token",
      "password",
      "secret",
      "slack-webhook",
    ]);
  });

  test("redactValue() redacts object keys, keeps a __proto__ key as data and breaks cycles", () => {
    const input = JSON.parse('{"__proto__": {"password": "x1"}, "ghp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA": 1}');
    const out = redactValue(input) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.keys(out), ["__proto__", "[REDACTED:github-token]"]);
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, "__proto__")?.value, { password: "[REDACTED:password]" });
    const cyclic: Record<string, unknown> = { token: "abc" };
    cyclic.self = cyclic;
    assert.deepEqual(redactValue(cyclic), { token: "[REDACTED:secret]", self: "[Circular]" });
  });

  test("redactValue() returns primitives other than strings as they are", () => {
    assert.equal(redactValue(42), 42);
    assert.equal(redactValue(null), null);
    assert.equal(redactValue(undefined), undefined);
    assert.equal(redactValue("Bearer abcdefgh12345678"), "Bearer [REDACTED:bearer-token]");
  });
});
