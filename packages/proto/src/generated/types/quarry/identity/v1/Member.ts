// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { User as _quarry_identity_v1_User, User__Output as _quarry_identity_v1_User__Output } from '../../../quarry/identity/v1/User';
import type { Long } from '@grpc/proto-loader';

/**
 * A membership row with its user.
 */
export interface Member {
  /**
   * The member user.
   */
  'user'?: (_quarry_identity_v1_User | null);
  /**
   * 10 guest, 15 planner, 20 reporter, 30 developer, 40 maintainer, 50 owner.
   */
  'accessLevel'?: (number);
  /**
   * Creation time, ISO 8601.
   */
  'createdAt'?: (string);
  /**
   * Expiry date YYYY-MM-DD or empty.
   */
  'expiresAt'?: (string);
  /**
   * Who added the member.
   */
  'createdBy'?: (_quarry_identity_v1_User | null);
  /**
   * Id of the group the membership comes from when inherited (0 = direct).
   */
  'inheritedFromGroupId'?: (number | string | Long);
}

/**
 * A membership row with its user.
 */
export interface Member__Output {
  /**
   * The member user.
   */
  'user': (_quarry_identity_v1_User__Output | null);
  /**
   * 10 guest, 15 planner, 20 reporter, 30 developer, 40 maintainer, 50 owner.
   */
  'accessLevel': (number);
  /**
   * Creation time, ISO 8601.
   */
  'createdAt': (string);
  /**
   * Expiry date YYYY-MM-DD or empty.
   */
  'expiresAt': (string);
  /**
   * Who added the member.
   */
  'createdBy': (_quarry_identity_v1_User__Output | null);
  /**
   * Id of the group the membership comes from when inherited (0 = direct).
   */
  'inheritedFromGroupId': (number);
}
