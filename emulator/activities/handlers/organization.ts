/** The organization itself: root quorum, features, name (all root-quorum activities). */
import { invalidArgument } from "../../errors.js";
import type { Feature } from "../../store/organizations.js";
import { checkName, requireDistinct, requireUser } from "../lookups.js";
import type { HandlerTable } from "../types.js";

export const organizationHandlers: HandlerTable = {
  update_root_quorum(ctx, p: { threshold: number; userIds: string[] }) {
    if (!Number.isInteger(p.threshold) || p.threshold < 1) throw invalidArgument("quorum threshold must be non-zero integer", "parameters.threshold");
    if (!p.userIds.length) throw invalidArgument("quorum users missing", "parameters.userIds");
    requireDistinct(p.userIds, "parameters.userIds");
    p.userIds.forEach((id, i) => requireUser(ctx.rt.store, ctx.org.id, id, `parameters.userIds[${i}]`));
    if (p.threshold > p.userIds.length) throw invalidArgument("quorum threshold must not exceed the number of quorum users", "parameters.threshold");
    ctx.rt.store.organizations.update(ctx.org.id, { rootQuorumThreshold: p.threshold, rootUserIds: p.userIds }, ctx.now);
    return {};
  },

  set_organization_feature(ctx, p: { name: string; value: string }) {
    const features: Feature[] = [...ctx.org.features.filter((f) => f.name !== p.name), { name: p.name, value: p.value }];
    ctx.rt.store.organizations.update(ctx.org.id, { features }, ctx.now);
    return { features };
  },

  remove_organization_feature(ctx, p: { name: string }) {
    if (!ctx.org.features.some((f) => f.name === p.name)) throw invalidArgument(`feature ${p.name} is not set`, "parameters.name");
    const features = ctx.org.features.filter((f) => f.name !== p.name);
    ctx.rt.store.organizations.update(ctx.org.id, { features }, ctx.now);
    return { features };
  },

  update_organization_name(ctx, p: { organizationName: string }) {
    checkName(p.organizationName, "parameters.organizationName");
    ctx.rt.store.organizations.update(ctx.org.id, { name: p.organizationName }, ctx.now);
    return { organizationId: ctx.org.id, organizationName: p.organizationName };
  },
};
