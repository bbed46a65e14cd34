// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Group as _quarry_identity_v1_Group, Group__Output as _quarry_identity_v1_Group__Output } from '../../../quarry/identity/v1/Group';
import type { PageInfo as _quarry_identity_v1_PageInfo, PageInfo__Output as _quarry_identity_v1_PageInfo__Output } from '../../../quarry/identity/v1/PageInfo';

/**
 * A page of groups.
 */
export interface ListGroupsResponse {
  /**
   * Groups of this page.
   */
  'groups'?: (_quarry_identity_v1_Group)[];
  /**
   * Paging totals.
   */
  'pageInfo'?: (_quarry_identity_v1_PageInfo | null);
}

/**
 * A page of groups.
 */
export interface ListGroupsResponse__Output {
  /**
   * Groups of this page.
   */
  'groups': (_quarry_identity_v1_Group__Output)[];
  /**
   * Paging totals.
   */
  'pageInfo': (_quarry_identity_v1_PageInfo__Output | null);
}
