// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Member as _quarry_identity_v1_Member, Member__Output as _quarry_identity_v1_Member__Output } from '../../../quarry/identity/v1/Member';
import type { PageInfo as _quarry_identity_v1_PageInfo, PageInfo__Output as _quarry_identity_v1_PageInfo__Output } from '../../../quarry/identity/v1/PageInfo';

/**
 * A page of members.
 */
export interface ListMembersResponse {
  /**
   * Members of this page.
   */
  'members'?: (_quarry_identity_v1_Member)[];
  /**
   * Paging totals.
   */
  'pageInfo'?: (_quarry_identity_v1_PageInfo | null);
}

/**
 * A page of members.
 */
export interface ListMembersResponse__Output {
  /**
   * Members of this page.
   */
  'members': (_quarry_identity_v1_Member__Output)[];
  /**
   * Paging totals.
   */
  'pageInfo': (_quarry_identity_v1_PageInfo__Output | null);
}
