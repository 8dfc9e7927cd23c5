/**
 * Velocity controls: create_velocity_control / delete_velocity_control and the
 * get_velocity_control / list_velocity_controls queries. A control is immutable (the document
 * has no update); policies read it as `controls.<identifier>` (velocity/enforce.ts).
 * Semantics and sources: docs/velocity-controls.md.
 */
import { notFound } from "../../core/errors.js";
import { isUuid } from "../../core/ids.js";
import { toTimestamp } from "../../core/clock.js";
import { requireUuid } from "../../core/vocabulary/lookups.js";
import { defineActivity, defineQuery } from "../../core/vocabulary/define.js";
import { pageWithInfo } from "../../core/vocabulary/pagination.js";
import { duplicateIdentifier, type VelocityControlRow } from "./repository.js";
import { checkAggregation, checkDataSource, checkIdentifier, checkName } from "./definition.js";
import type { Wire } from "../../../contracts/wire.js";
import type { Store } from "../../core/store/index.js";

export function renderVelocityControl(c: VelocityControlRow): Wire["v1VelocityControl"] {
  return {
    velocityControlId: c.id,
    organizationId: c.orgId,
    name: c.name,
    dataSource: c.dataSource,
    aggregation: c.aggregation,
    createdAt: toTimestamp(c.createdAt),
    updatedAt: toTimestamp(c.updatedAt),
    identifier: c.identifier,
  };
}

function requireControl(store: Store, orgId: string, id: string, field: string): VelocityControlRow {
  requireUuid(id, field, "velocity control");
  const c = isUuid(id) ? store.velocityControls.get(orgId, id) : undefined;
  if (!c) throw notFound(`velocity control not found: ${id}`);
  return c;
}

export const velocityControlOperations = [
  defineActivity("create_velocity_control", {
    policy: { resource: "VELOCITY_CONTROL", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      checkName(p.name);
      checkIdentifier(p.identifier);
      checkDataSource(p.dataSource);
      checkAggregation(p.aggregation, p.dataSource);
      const { store } = ctx.rt;
      if (store.velocityControls.byIdentifier(ctx.org.id, p.identifier)) throw duplicateIdentifier(p.identifier);
      const id = ctx.rt.random.uuid();
      store.velocityControls.insert({
        id,
        orgId: ctx.org.id,
        name: p.name,
        identifier: p.identifier,
        dataSource: p.dataSource,
        aggregation: p.aggregation,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      return { velocityControlId: id };
    },
  }),
  defineActivity("delete_velocity_control", {
    policy: { resource: "VELOCITY_CONTROL", action: "DELETE", source: "inferred" },
    run(ctx, p) {
      const c = requireControl(ctx.rt.store, ctx.org.id, p.velocityControlId, "parameters.velocityControlId");
      ctx.rt.store.velocityControls.delete(ctx.org.id, c.id);
      return { velocityControlId: c.id };
    },
  }),
  defineQuery("get_velocity_control", {
    run(ctx, b) {
      return { velocityControl: renderVelocityControl(requireControl(ctx.rt.store, ctx.org.id, b.velocityControlId, "velocityControlId")) };
    },
  }),
  defineQuery("list_velocity_controls", {
    run(ctx, b) {
      const { items, pageInfo } = pageWithInfo(ctx.rt.store.velocityControls.forOrg(ctx.org.id), (c) => c.id, b.paginationOptions);
      return { velocityControls: items.map(renderVelocityControl), pageInfo };
    },
  }),
];
