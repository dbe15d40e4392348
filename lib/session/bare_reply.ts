/** Longest message that can be a bare reply, in UTF-16 units. */
const MAX_REPLY_CHARS = 60;
/**
 * Openings of an answer that means nothing without the question it answers: assent or refusal,
 * a choice among options ("2", "1+2", "option b", "the second one", "both"), "go ahead".
 */
const REPLY = new RegExp(
  "^(?:" + [
    String.raw`y|yes|yeah|yea|yep|yup|ya|ok|okay|k|kk|sure|no|nope|nah|nay`,
    String.raw`go|go ahead|go for it|do it|proceed|continue|carry on|correct|right|exactly|agreed|agree`,
    String.raw`sounds good|looks good|lgtm|perfect|great|fine|good|please|please do|do that|that one|this one`,
    String
      .raw`both|all|none|neither|either|all of them|all three|the (?:first|second|third|fourth|last|latter|former)(?: one)?`,
    String.raw`first|second|third|option\s*\w{1,3}|opt\s*\w{1,3}|approach\s*\w{1,3}|plan\s*\w{1,3}`,
    String.raw`let'?s (?:do|go with|try|use|take|pick)\b.{0,30}`,
    String.raw`go with\b.{0,30}`,
  ].join("|") + String.raw`)\b`,
  "i",
);
/** A choice written with numbers or letters only: `2`, `1+2`, `1, 3`, `b`, `2=`. */
const CHOICE = /^(?:\(?[0-9a-d]\)?[\s,+&/=.-]*){1,6}$/i;

/**
 * True when `text` is a bare reply: a short message ("yes", "1+2", "let's try 2", "go with option
 * b") that only makes sense next to the question it answers. After a compaction the summary keeps
 * the reply but often not the question; the snapshot then keeps the assistant's message it answers.
 *
 * @example
 * ```ts
 * import { isBareReply } from "./bare_reply.ts";
 * isBareReply("yes, please do"); // true
 * isBareReply("1+2"); // true
 * isBareReply("fix the flaky login test"); // false
 * ```
 */
export function isBareReply(text: string): boolean {
  const t = text.trim();
  if (t === "" || t.length > MAX_REPLY_CHARS || t.includes("\n")) return false;
  return CHOICE.test(t) || REPLY.test(t);
}
