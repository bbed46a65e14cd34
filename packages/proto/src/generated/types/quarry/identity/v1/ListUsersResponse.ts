// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { User as _quarry_identity_v1_User, User__Output as _quarry_identity_v1_User__Output } from '../../../quarry/identity/v1/User';
import type { PageInfo as _quarry_identity_v1_PageInfo, PageInfo__Output as _quarry_identity_v1_PageInfo__Output } from '../../../quarry/identity/v1/PageInfo';

/**
 * A page of users.
 */
export interface ListUsersResponse {
  /**
   * The users of this page.
   */
  'users'?: (_quarry_identity_v1_User)[];
  /**
   * Paging totals.
   */
  'pageInfo'?: (_quarry_identity_v1_PageInfo | null);
}

/**
 * A page of users.
 */
export interface ListUsersResponse__Output {
  /**
   * The users of this page.
   */
  'users': (_quarry_identity_v1_User__Output)[];
  /**
   * Paging totals.
   */
  'pageInfo': (_quarry_identity_v1_PageInfo__Output | null);
}
