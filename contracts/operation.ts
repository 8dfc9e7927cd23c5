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
};
