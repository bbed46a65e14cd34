// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { MemberSource as _quarry_identity_v1_MemberSource, MemberSource__Output as _quarry_identity_v1_MemberSource__Output } from '../../../quarry/identity/v1/MemberSource';
import type { Long } from '@grpc/proto-loader';

/**
 * Changes a member's access level or expiry.
 */
export interface UpdateMemberRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * The project or group.
   */
  'source'?: (_quarry_identity_v1_MemberSource | null);
  /**
   * The member's user id.
   */
  'userId'?: (number | string | Long);
  /**
   * New access level.
   */
  'accessLevel'?: (number);
  /**
   * New expiry date YYYY-MM-DD; empty keeps it.
   */
  'expiresAt'?: (string);
  '_expiresAt'?: "expiresAt";
}

/**
 * Changes a member's access level or expiry.
 */
export interface UpdateMemberRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * The project or group.
   */
  'source': (_quarry_identity_v1_MemberSource__Output | null);
  /**
   * The member's user id.
   */
  'userId': (number);
  /**
   * New access level.
   */
  'accessLevel': (number);
  /**
   * New expiry date YYYY-MM-DD; empty keeps it.
   */
  'expiresAt'?: (string);
  '_expiresAt'?: "expiresAt";
}
