// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { User as _quarry_identity_v1_User, User__Output as _quarry_identity_v1_User__Output } from '../../../quarry/identity/v1/User';

/**
 * What bootstrap did.
 */
export interface EnsureRootUserResponse {
  /**
   * The root user.
   */
  'user'?: (_quarry_identity_v1_User | null);
  /**
   * Whether root was created by this call.
   */
  'created'?: (boolean);
  /**
   * The token in clear, only when created by this call and not preset.
   */
  'token'?: (string);
}

/**
 * What bootstrap did.
 */
export interface EnsureRootUserResponse__Output {
  /**
   * The root user.
   */
  'user': (_quarry_identity_v1_User__Output | null);
  /**
   * Whether root was created by this call.
   */
  'created': (boolean);
  /**
   * The token in clear, only when created by this call and not preset.
   */
  'token': (string);
}
