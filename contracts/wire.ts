/** Static wire types, from openapi-typescript over our OpenAPI document. */
import type { components } from "./generated/openapi-types.js";

export type Wire = components["schemas"];
