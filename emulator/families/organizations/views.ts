/** The wire form of an organization's whole record (v1OrganizationData, get_organization). */
import { toTimestamp } from "../../core/clock.js";
import type { Store } from "../../core/store/index.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import { invitationsOf, type InvitationRow } from "../users/index.js";
import type { Wire } from "../../../contracts/wire.js";
import { renderTag, renderUser } from "../../core/views/users.js";
import { renderPolicy } from "../policies/index.js";
import { privateKeysOf, renderPrivateKey, renderWallet, walletsOf } from "../wallets/index.js";

/** An invitation still open: an accepted or deleted one leaves the store. */
export function renderInvitation(i: InvitationRow): Wire["v1Invitation"] {
  return {
    invitationId: i.id,
    receiverUserName: i.receiverName,
    receiverEmail: i.receiverEmail,
    receiverUserTags: i.receiverTags,
    accessType: i.accessType as Wire["v1AccessType"],
    status: "INVITATION_STATUS_CREATED",
    createdAt: toTimestamp(i.createdAt),
    updatedAt: toTimestamp(i.updatedAt),
    senderUserId: i.senderUserId,
  };
}

export function renderOrganizationData(store: Store, org: OrganizationRow): Wire["v1OrganizationData"] {
  return {
    organizationId: org.id,
    name: org.name,
    users: store.users.list(org.id).map((u) => renderUser(store, u)),
    policies: store.policies.list(org.id).map(renderPolicy),
    privateKeys: privateKeysOf({ store }, org.id).map((k) => renderPrivateKey(k, store.tags.tagsOf(k.id))),
    invitations: invitationsOf({ store }, org.id).map(renderInvitation),
    tags: [...store.tags.list(org.id, "TAG_TYPE_USER"), ...store.tags.list(org.id, "TAG_TYPE_PRIVATE_KEY")].map(renderTag),
    rootQuorum: { threshold: org.rootQuorumThreshold, userIds: org.rootUserIds },
    features: org.features.map((f) => ({ name: f.name as Wire["v1FeatureName"], value: f.value })),
    wallets: walletsOf({ store }, org.id).map(renderWallet),
    smartContractInterfaceReferences: store.smartContractInterfaces.list(org.id).map((s) => ({ smartContractInterfaceId: s.id, smartContractAddress: s.address })),
  };
}
