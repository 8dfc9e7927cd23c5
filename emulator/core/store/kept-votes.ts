/**
 * How an activity's votes are kept in its row. A vote's message is the exact body its voter
 * stamped: for the proposal (and for an identical body stamped by another user) that body holds
 * the activity's intent parameters, organization id and type, which the row stores already. So
 * a message is kept as `parts`: literal text and references to those values, which join back
 * into the very same bytes; one that does not contain them (an approve_activity body) is kept
 * whole. Fields equal to the activity's (the proposer, the creation time) or to the usual value
 * (an approval) are left out. Rows written before this encoding hold whole votes and read as is.
 */

/** A reference in `parts`: 0 the intent parameters as JSON, 1 the organization id, 2 the activity type. */
type Part = string | 0 | 1 | 2;

export type StoredVote = {
  id: string;
  userId: string;
  selection: "VOTE_SELECTION_APPROVED" | "VOTE_SELECTION_REJECTED";
  /** The exact body the voter stamped. */
  message: string;
  publicKey: string;
  signature: string;
  scheme: string;
  /** The voter's credential (id and CREDENTIAL_TYPE_*), for the policy keyword `credentials`. */
  credentialId?: string;
  credentialType?: string;
  createdAt: number;
};

export type KeptVote = Omit<StoredVote, "userId" | "selection" | "message" | "createdAt"> & {
  userId?: string;
  selection?: StoredVote["selection"];
  message?: string;
  parts?: Part[];
  createdAt?: number;
};

type Owner = { intent: Record<string, unknown>; orgId: string; type: string; userId: string | null; createdAt: number };

const APPROVED = "VOTE_SELECTION_APPROVED";

/** The values a message may refer to, in reference order. */
function known(owner: Owner): [string, string, string] {
  return [JSON.stringify(Object.values(owner.intent)[0] ?? null), owner.orgId, owner.type];
}

/** `text` split around every occurrence of `value`, the occurrences replaced by `ref`. */
function splitOn(parts: Part[], value: string, ref: Part, firstOnly: boolean): Part[] {
  if (!value) return parts;
  const out: Part[] = [];
  let found = false;
  for (const p of parts) {
    if (typeof p !== "string" || (firstOnly && found)) {
      out.push(p);
      continue;
    }
    const pieces = p.split(value);
    if (firstOnly && pieces.length > 2) pieces.splice(1, pieces.length - 1, pieces.slice(1).join(value));
    pieces.forEach((piece, i) => {
      if (i > 0) out.push(ref);
      if (piece) out.push(piece);
    });
    found ||= pieces.length > 1;
  }
  return out;
}

function join(parts: Part[], values: readonly string[]): string {
  return parts.map((p) => (typeof p === "string" ? p : values[p])).join("");
}

/** A message as parts, or undefined when it holds no intent parameters (then it is kept whole). */
function partsOf(message: string, values: readonly [string, string, string]): Part[] | undefined {
  if (!message.includes(values[0])) return undefined;
  let parts = splitOn([message], values[0], 0, true);
  parts = splitOn(parts, values[1], 1, false);
  parts = splitOn(parts, values[2], 2, false);
  // Built by splitting, joined back it is the message; checked anyway, as storing a vote that reads back different is not an option.
  return join(parts, values) === message ? parts : undefined;
}

export function keepVotes(votes: StoredVote[], owner: Owner): KeptVote[] {
  const values = known(owner);
  return votes.map((v) => {
    const { userId, selection, message, createdAt, ...rest } = v;
    const parts = partsOf(message, values);
    return {
      ...rest,
      ...(userId !== owner.userId ? { userId } : {}),
      ...(selection !== APPROVED ? { selection } : {}),
      ...(parts ? { parts } : { message }),
      ...(createdAt !== owner.createdAt ? { createdAt } : {}),
    };
  });
}

export function readVotes(kept: KeptVote[], owner: Owner): StoredVote[] {
  let values: [string, string, string] | undefined;
  return kept.map((k) => {
    const { parts, ...v } = k;
    return {
      ...v,
      userId: k.userId ?? owner.userId ?? "",
      selection: k.selection ?? APPROVED,
      message: k.message ?? join(parts ?? [], (values ??= known(owner))),
      createdAt: k.createdAt ?? owner.createdAt,
    } as StoredVote;
  });
}
