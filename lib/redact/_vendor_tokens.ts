/**
 * Private helper of `lib/redact/_rules.ts`: the maintained list of tokens that carry a fixed vendor
 * prefix (issue #36, N2). Written for rehydrate from the vendors' documented formats, in the way
 * gitleaks and trufflehog keep theirs: one entry per format, its literal prefix as the cheap hint,
 * its whole shape as one linear expression. Adding a format is one entry here, one line in
 * `tests/fixtures/redaction/secrets.txt` (the corpus test then checks it by kind, in four contexts
 * and through every hook), and its prefix in `ANY_HINT` (a test fails until it is there).
 *
 * @module
 */

/** One vendor's token format. */
export interface VendorToken {
  /** What the marker says: `[REDACTED:<kind>]`. */
  readonly kind: string;
  /**
   * A literal every token holds, or a small expression every token matches (case-sensitive): text
   * without it is not scanned.
   */
  readonly hint: string | RegExp;
  /**
   * The token's expression source, without the leading boundary (added unless `bare`): every
   * repeated part is one character class, so the scan is linear.
   */
  readonly pattern: string;
  /** True when the token must hold a digit (formats whose alphabet a word of prose also fits). */
  readonly digit?: boolean;
  /** True when `pattern` brings its own boundaries. */
  readonly bare?: boolean;
}

let built: readonly VendorToken[] | undefined;

/**
 * The formats, in the order the rules run, built on the first call (most texts never need them).
 * Every kind is distinct, so a redaction says which vendor's token was there.
 *
 * @example
 * ```ts
 * import { vendorTokens } from "./_vendor_tokens.ts";
 * vendorTokens().find((t) => t.kind === "groq-key")?.hint; // "gsk_"
 * ```
 */
export function vendorTokens(): readonly VendorToken[] {
  return (built ??= formats());
}

/** The kinds of {@linkcode vendorTokens}. */
export type VendorTokenKind = ReturnType<typeof formats>[number]["kind"];

function formats() {
  return [
    { kind: "pypi-token", hint: "pypi-", pattern: "pypi-AgE[A-Za-z0-9_-]{50,}" },
    { kind: "docker-token", hint: "dckr_", pattern: "dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}" },
    {
      kind: "shopify-token",
      hint: /shp(?:at|ca|pa|ss)_/,
      pattern: "shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9_-])",
    },
    { kind: "vault-token", hint: /hv[sbr]\./, pattern: "hv[sbr]\\.[A-Za-z0-9_-]{24,}", digit: true },
    // bech32's alphabet upper-cased: no 1, B, I or O after the separator.
    { kind: "age-secret-key", hint: "AGE-SECRET-KEY-1", pattern: "AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}" },
    { kind: "telegram-bot-token", hint: ":AA", pattern: "[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])" },
    { kind: "atlassian-token", hint: "ATATT3", pattern: "ATATT3[A-Za-z0-9_=-]{40,}" },
    { kind: "linear-key", hint: "lin_api_", pattern: "lin_api_[A-Za-z0-9]{40}(?![A-Za-z0-9_-])" },
    { kind: "notion-token", hint: "ntn_", pattern: "ntn_[A-Za-z0-9]{40,}", digit: true },
    { kind: "sentry-token", hint: "sntry", pattern: "sntry[su]_[A-Za-z0-9_+/=-]{40,}" },
    {
      kind: "grafana-token",
      hint: /glsa_|glc_/,
      pattern: "(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})",
    },
    { kind: "databricks-token", hint: "dapi", pattern: "dapi[a-h0-9]{32}(?:-[0-9])?(?![A-Za-z0-9_])", digit: true },
    {
      kind: "newrelic-key",
      hint: /NRAK-|NRII-/,
      pattern: "(?:NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])",
    },
    { kind: "postman-key", hint: "PMAK-", pattern: "PMAK-[a-f0-9]{24}-[a-f0-9]{34}" },
    { kind: "terraform-token", hint: "atlasv1", pattern: "[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,}" },
    // The bot's id in base64 (a number, so its first character is M, N or O), a timestamp, an HMAC.
    {
      kind: "discord-bot-token",
      hint: /\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27}/,
      pattern: "[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])",
      digit: true,
    },
    { kind: "doppler-token", hint: "dp.", pattern: "dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9_-]{40,}" },
    { kind: "supabase-key", hint: /sbp_|sb_secret_/, pattern: "(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,})" },
    { kind: "figma-token", hint: "figd_", pattern: "figd_[A-Za-z0-9_-]{40,}" },
    // Entra ID (Azure AD) client secrets: three characters, a digit, `Q~`, then 31 to 34.
    {
      kind: "azure-client-secret",
      hint: /[0-9]Q~/,
      pattern: "(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])",
      bare: true,
    },
    { kind: "google-refresh-token", hint: "1//0", pattern: "(?<![A-Za-z0-9_-])1//0[A-Za-z0-9_-]{30,}", bare: true },
    { kind: "mailgun-key", hint: "key-", pattern: "key-[a-f0-9]{32}(?![A-Za-z0-9_-])" },
    { kind: "bitbucket-token", hint: "ATBB", pattern: "ATBB[A-Za-z0-9_=.-]{28,}", digit: true },
    { kind: "netlify-token", hint: "nfp_", pattern: "nfp_[A-Za-z0-9]{36,}" },
    {
      kind: "fly-token",
      hint: /fo1_|fm[12][ar]?_/,
      pattern: "(?:fo1_[A-Za-z0-9_-]{40,}|fm[12][ar]?_[A-Za-z0-9+/=_-]{40,})",
    },
    { kind: "pulumi-token", hint: "pul-", pattern: "pul-[a-f0-9]{40}(?![A-Za-z0-9_-])" },
    { kind: "mapbox-token", hint: "sk.eyJ", pattern: "sk\\.eyJ[A-Za-z0-9_-]{20,}\\.[A-Za-z0-9_-]{20,}" },
    { kind: "groq-key", hint: "gsk_", pattern: "gsk_[A-Za-z0-9]{48,}" },
    { kind: "replicate-token", hint: "r8_", pattern: "r8_[A-Za-z0-9]{37,}", digit: true },
    { kind: "perplexity-key", hint: "pplx-", pattern: "pplx-[A-Za-z0-9]{48,}" },
    { kind: "xai-key", hint: "xai-", pattern: "xai-[A-Za-z0-9]{70,}" },
    {
      kind: "zapier-webhook",
      hint: "://hooks.zapier.com/",
      pattern: "https?://hooks\\.zapier\\.com/hooks/catch/[A-Za-z0-9_/-]+",
      bare: true,
    },
  ] as const satisfies readonly VendorToken[];
}
