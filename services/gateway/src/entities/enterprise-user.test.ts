import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { VerifiedDomain__Output as VerifiedDomain } from "@quarry/proto/types/identity/v1/VerifiedDomain";
import { describe, expect, it } from "vitest";
import { enterpriseUser, verifiedDomain } from "./enterprise-user.ts";

const urls = { base: "https://q.example", sshHost: "q.example", sshPort: 22 };
const user = {
  id: 7,
  username: "ann",
  name: "Ann",
  email: "ann@acme.example",
  state: "active",
  isAdmin: false,
  bio: "",
  location: "",
  publicEmail: "",
  websiteUrl: "",
  organization: "",
  jobTitle: "",
  namespaceId: 9,
  createdAt: "2026-01-01T00:00:00.000Z",
  createdById: 0,
  bot: false,
  lastSignInAt: "",
  confirmedAt: "2026-01-01T00:00:00.000Z",
  lastActivityOn: "",
  canCreateGroup: true,
  projectsLimit: 100000,
  external: false,
  privateProfile: false,
  pronouns: "",
  note: "",
  identities: [
    { provider: "ldapmain", externUid: "cn=ann" },
    { provider: "scim", externUid: "s-1" },
  ],
  avatar: "",
  twoFactorEnabled: true,
  userType: "human",
  enterpriseGroupId: 4,
  enterpriseGroupAssociatedAt: "2026-02-01T00:00:00.000Z",
  provisionedByGroupId: 0,
} as unknown as User;

describe("enterprise user entity", () => {
  it("is the administrator view with GitLab EE's enterprise fields and the SCIM identities", () => {
    const e = enterpriseUser(user, urls);
    expect(e).toMatchObject({
      id: 7,
      email: "ann@acme.example",
      is_admin: false,
      two_factor_enabled: true,
      created_by: null,
      enterprise_group_id: 4,
      enterprise_group_associated_at: "2026-02-01T00:00:00.000Z",
      provisioned_by_group_id: null,
      scim_identities: [{ extern_uid: "s-1", group_id: 4, active: true }],
    });
    expect(e.identities).toHaveLength(2);
    const plain = enterpriseUser({ ...user, identities: [], enterpriseGroupId: 0, enterpriseGroupAssociatedAt: "" } as unknown as User, urls);
    expect(plain).toMatchObject({ scim_identities: [], enterprise_group_id: null, enterprise_group_associated_at: null });
  });

  it("shows a verified domain with its record and no verification time until verified", () => {
    const d = {
      domain: "acme.example",
      verified: false,
      verificationCode: "c0de",
      verificationRecord: "_gitlab-pages-verification-code.acme.example",
      verifiedAt: "",
      createdAt: "2026-01-01T00:00:00.000Z",
      groupId: 4,
      enterpriseUsersCount: 0,
    } as unknown as VerifiedDomain;
    expect(verifiedDomain(d)).toEqual({
      domain: "acme.example",
      group_id: 4,
      verified: false,
      verified_at: null,
      verification_code: "c0de",
      verification_record: "_gitlab-pages-verification-code.acme.example",
      enterprise_users_count: 0,
      created_at: "2026-01-01T00:00:00.000Z",
    });
  });
});
