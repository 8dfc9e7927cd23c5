/**
 * JSON text of renderings, made once per rendering object: the webhook outbox stores an
 * activity's body as text inside the activity's transaction, and the response to the request
 * that made it carries the same rendering (views/activity.ts keeps one per row), so its text
 * is reused there rather than serialized a second time. A rendering is never changed once
 * made, which is what makes its text reusable.
 */
const texts = new WeakMap<object, string>();

/** `JSON.stringify(view)`, made once per object. */
export function jsonText(view: object): string {
  let text = texts.get(view);
  if (text === undefined) texts.set(view, (text = JSON.stringify(view)));
  return text;
}

/**
 * `JSON.stringify(body)`, byte for byte, reusing the text of any top-level member already made
 * by `jsonText` (a response `{activity}` whose activity went out in a webhook).
 */
export function responseText(body: unknown): string {
  if (body === null || typeof body !== "object" || Object.getPrototypeOf(body) !== Object.prototype || "toJSON" in body) return JSON.stringify(body);
  const members = Object.entries(body);
  const kept = (value: unknown) => (value !== null && typeof value === "object" ? texts.get(value) : undefined);
  // Most answers have no kept member: one serialization of the whole body.
  if (!members.some(([, value]) => kept(value) !== undefined)) return JSON.stringify(body);
  const parts: string[] = [];
  for (const [key, value] of members) {
    const text = kept(value) ?? (JSON.stringify(value) as string | undefined); // undefined, functions and symbols are left out, as JSON.stringify does
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(",")}}`;
}
