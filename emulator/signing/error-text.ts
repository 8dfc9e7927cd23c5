/** One-line description of a library error, for embedding in an InputError message. */
export function describeError(e: unknown): string {
  if (e && typeof e === "object" && "shortMessage" in e && typeof e.shortMessage === "string") return e.shortMessage;
  return e instanceof Error ? (e.message.split("\n")[0] ?? e.message) : String(e);
}
