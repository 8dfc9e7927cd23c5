import type { z } from "zod";

/** One routed operation of either surface, as the generator describes it. */
export type OperationContract = {
  kind: "submit" | "query" | "proxy";
  name: string;
  request: z.ZodType;
  response: z.ZodType;
  requestName: string;
  responseName: string;
  activityType?: string;
  intentKey?: string;
  resultKey?: string;
  /**
   * An older activity version's result member, when it has fewer fields than the current one the
   * handler answers (init_otp's first version has no otpEncryptionTargetBundle): the engine keeps
   * only the fields it names.
   */
  olderResult?: z.ZodType;
};

/** An operation with its literal kind and name and its exact request/response schema types. */
export type TypedOperation<K extends OperationContract["kind"], N extends string, Req extends z.ZodType, Res extends z.ZodType> = OperationContract & {
  kind: K;
  name: N;
  request: Req;
  response: Res;
};
