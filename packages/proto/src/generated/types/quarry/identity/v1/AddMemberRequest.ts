// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { MemberSource as _quarry_identity_v1_MemberSource, MemberSource__Output as _quarry_identity_v1_MemberSource__Output } from '../../../quarry/identity/v1/MemberSource';
import type { Long } from '@grpc/proto-loader';

/**
 * Adds a member.
 */
export interface AddMemberRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * The project or group.
   */
  'source'?: (_quarry_identity_v1_MemberSource | null);
  /**
   * The user to add.
   */
  'userId'?: (number | string | Long);
  /**
   * Access level.
   */
  'accessLevel'?: (number);
  /**
   * Expiry date YYYY-MM-DD or empty.
   */
  'expiresAt'?: (string);
  /**
   * Add by username instead of id.
   */
  'username'?: (string);
}

/**
 * Adds a member.
 */
export interface AddMemberRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * The project or group.
   */
  'source': (_quarry_identity_v1_MemberSource__Output | null);
  /**
   * The user to add.
   */
  'userId': (number);
  /**
   * Access level.
   */
  'accessLevel': (number);
  /**
   * Expiry date YYYY-MM-DD or empty.
   */
  'expiresAt': (string);
  /**
   * Add by username instead of id.
   */
  'username': (string);
}
